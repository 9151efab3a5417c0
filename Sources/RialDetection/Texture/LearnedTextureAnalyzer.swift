import Foundation
import RialMedia

/// A learned texture classifier telling a real scene from a recaptured LCD, OLED or print
/// (specs/methods.md section 4, a supporting signal): the steps `texture/1`
/// (`TextureAnalyzer`), `texture/2` (`Texture2Analyzer`), `texture/3`
/// (`Texture3Analyzer`) and `texture/4` (`Texture4Analyzer`) share, with what differs between them (the feature set, the model
/// type and the compiled-in model) given by `Method`.
///
/// 1. `Method.Features.extract(rows:shared:)` computes the descriptor (reading the
///    results of the capture's other methods it may read, `TextureInput.shared`). A gray image (the colour
///    features need R, G, B), a side below the feature set's `minimumSide`, or a constant
///    image (luma std below `minimumLumaStd`) gives `.unavailable`.
/// 2. The model (multinomial logistic regression on standardised, clipped features,
///    `TextureModel`) gives a probability per class.
/// 3. `score = p(real_scene)`; `classification` = arg max, or `unknown` below
///    `minimumConfidence`; `is_likely_recaptured` when `p(lcd) + p(oled)` or `p(print)`
///    exceeds `recaptureThreshold`.
///
/// The configuration's `model` key names another model file (read by the
/// configuration-file reader, `LearnedMethodConfiguration`); without it the compiled-in
/// model (`Method.compiledInModel`) is used.
public struct LearnedTextureAnalyzer<Method: LearnedTextureMethod>: Sendable, Equatable {
    public let model: Method.Model
    public let configuration: Configuration
    /// SHA-256 of the model's canonical JSON (64 lowercase hex digits), the model's
    /// identity in results.
    public let modelSHA256: String

    /// The compiled-in model with the default configuration.
    public init() {
        model = Method.compiledInModel
        configuration = .standard
        modelSHA256 = Method.compiledInModelSHA256
    }

    /// The model `configuration` names (`loadedModel`, read by the configuration-file
    /// reader) or, when it names none, the compiled-in model.
    ///
    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it, or with
    ///   key `model` when it names a model file that was not read (`loadedModel` is nil,
    ///   e.g. a configuration decoded from a run's `results.json`) or whose SHA-256 is
    ///   unknown.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        (model, modelSHA256) = try configuration.resolvedModel(
            compiledIn: Method.compiledInModel, compiledInSHA256: Method.compiledInModelSHA256,
            key: Configuration.CodingKeys.model)
    }

    /// Another model (e.g. one loaded with `TextureModel(contentsOf:)`).
    ///
    /// - Parameter sha256: SHA-256 of its argument as 64 lowercase hex digits, applied to
    ///   the model's canonical JSON for `modelSHA256`: the caller's hash (RialCodecs'
    ///   `SHA256Digest.hash`), because this module links no crypto library.
    /// - Throws: `TextureModelError` when the model is not valid for `Method.Features` or
    ///   cannot be encoded for its digest; `ConfigurationError` for the configuration.
    public init(model: Method.Model, configuration: Configuration = .standard, sha256: (Data) -> String) throws {
        try model.textureModel.validate(featureSetVersion: Method.Features.version)
        try configuration.validate()
        let json = try model.textureModel.canonicalJSON()
        self.model = model
        self.configuration = configuration
        modelSHA256 = sha256(json)
    }

    /// The result for a descriptor, or for why there is none.
    func classify(_ features: Swift.Result<Method.Features.Vector, TextureFeatureError>) -> TextureResult {
        let c = configuration
        let m = model.textureModel
        func unavailable(_ reason: String, _ status: MethodStatus = .unavailable) -> TextureResult {
            .unavailable(
                reason: reason, modelID: m.modelID, modelSHA256: modelSHA256, status: status,
                algorithmVersion: Method.identifier)
        }
        let vector: Method.Features.Vector
        switch features {
        case .success(let v): vector = v
        case .failure(let error): return unavailable(error.description)
        }
        guard vector.lumaStandardDeviation >= c.minimumLumaStd else {
            return unavailable(
                String(
                    format: "image is constant: luma standard deviation %.3g levels is below %.3g",
                    vector.lumaStandardDeviation, c.minimumLumaStd))
        }
        guard let probabilities = m.probabilities(vector.values), probabilities.allSatisfy({ $0.isFinite }) else {
            return unavailable(
                "model \(m.modelID) gave no finite probabilities for \(vector.values.count) features", .failed)
        }
        var all: [String: Double] = [:]
        var screen = 0.0, print = 0.0, real = 0.0
        for (k, cls) in m.classes.enumerated() {
            all[cls.rawValue] = probabilities[k]
            if cls.isScreen { screen += probabilities[k] }
            if cls == .printedPaper { print += probabilities[k] }
            if cls == .realScene { real = probabilities[k] }
        }
        let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] } ?? 0
        let confidence = probabilities[best]
        var result = TextureResult(
            status: .completed, unavailableReason: nil, algorithmVersion: Method.identifier,
            analysisTimeMs: 0, score: Swift.min(1, Swift.max(0, real)),
            modelID: m.modelID, modelSHA256: modelSHA256)
        result.classification = confidence < c.minimumConfidence ? .unknown : m.classes[best]
        result.confidence = confidence
        result.allClassifications = all
        result.screenProbability = screen
        result.printProbability = print
        result.isLikelyRecaptured = screen > c.recaptureThreshold || print > c.recaptureThreshold
        result.featureCount = vector.values.count
        return result
    }
}
