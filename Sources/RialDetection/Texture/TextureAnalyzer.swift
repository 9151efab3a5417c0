import Foundation
import RialMedia

/// `texture/1`: a trained texture classifier telling a real scene from a recaptured
/// LCD, OLED or print (specs/methods.md section 4, a supporting signal).
///
/// 1. `TextureFeatures.extract` computes the 82-value descriptor from 16 full-resolution
///    64 x 64 patches (multi-scale LBP, gradient and high-pass channel statistics,
///    subpixel-band spectra of luma and chroma) and a strided global luma sample. Gray
///    images (the chroma features need R, G, B), a side below 128 px, or a constant
///    image (luma std below `minimumLumaStd`) give `.unavailable`.
/// 2. The model (`TextureModel`, multinomial logistic regression on standardised,
///    clipped features) gives a probability per class.
/// 3. `score = p(real_scene)`; `classification` = arg max, or `unknown` below
///    `minimumConfidence`; `is_likely_recaptured` when `p(lcd) + p(oled)` or
///    `p(print)` exceeds `recaptureThreshold`.
///
/// The configuration's `model` key names another model file (read by the
/// configuration-file reader, `LearnedMethodConfiguration`); without it the compiled-in
/// default (`TextureModel.default`, `models/texture-2.json`) is used. It was trained on
/// synthetic captures only (see its provenance): its probabilities are calibrated on
/// that generator, not on real recaptures, and an adversarial recapture that hides the
/// subpixel and halftone structure defeats it (why texture is only supporting).
///
/// - Complexity: O(1) in the image size (a bounded number of pixels is read).
public struct TextureAnalyzer: Sendable, Equatable {
    /// `texture/1`.
    public static let identifier = MethodIdentifier.textureV1

    public let model: TextureModel
    public let configuration: Configuration
    /// SHA-256 of `model.canonicalJSON()` (64 lowercase hex digits), the model's identity
    /// in results.
    public let modelSHA256: String

    /// The committed default model with the default configuration.
    public init() {
        model = .default
        configuration = .standard
        modelSHA256 = TextureModel.defaultModelSHA256
    }

    /// The model `configuration` names (`loadedModel`, read by the configuration-file
    /// reader) or, when it names none, the compiled-in default.
    ///
    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it, or with
    ///   key `model` when it names a model file that was not read (`loadedModel` is nil,
    ///   e.g. a configuration decoded from a run's `results.json`) or whose SHA-256 is
    ///   unknown.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        (model, modelSHA256) = try configuration.resolvedModel(
            compiledIn: .default, compiledInSHA256: TextureModel.defaultModelSHA256, key: Configuration.CodingKeys.model
        )
    }

    /// Another model (e.g. one loaded with `TextureModel(contentsOf:)`).
    ///
    /// - Parameter sha256: SHA-256 of its argument as 64 lowercase hex digits, applied to
    ///   `model.canonicalJSON()` for `modelSHA256`: the caller's hash (RialCodecs'
    ///   `SHA256Digest.hash`), because this module links no crypto library.
    /// - Throws: `TextureModelError` when `model.validate()` refuses the model or it
    ///   cannot be encoded for its digest; `ConfigurationError` for the configuration.
    public init(
        model: TextureModel, configuration: Configuration = .standard,
        sha256: (Data) -> String
    ) throws {
        try model.validate(featureSetVersion: TextureFeatures.version)
        try configuration.validate()
        let json = try model.canonicalJSON()
        self.model = model
        self.configuration = configuration
        modelSHA256 = sha256(json)
    }

    /// The result for a descriptor, or for why there is none.
    func classify(_ features: Swift.Result<TextureFeatureVector, TextureFeatureError>) -> Result {
        let c = configuration
        let vector: TextureFeatureVector
        switch features {
        case .success(let v): vector = v
        case .failure(let error):
            return .unavailable(reason: error.description, modelID: model.modelID, modelSHA256: modelSHA256)
        }
        guard vector.lumaStandardDeviation >= c.minimumLumaStd else {
            return .unavailable(
                reason: String(
                    format: "image is constant: luma standard deviation %.3g levels is below %.3g",
                    vector.lumaStandardDeviation, c.minimumLumaStd),
                modelID: model.modelID, modelSHA256: modelSHA256)
        }
        guard let probabilities = model.probabilities(vector.values),
            probabilities.allSatisfy({ $0.isFinite })
        else {
            return .unavailable(
                reason: "model \(model.modelID) gave no finite probabilities for \(vector.values.count) features",
                modelID: model.modelID, modelSHA256: modelSHA256, status: .failed)
        }
        var all: [String: Double] = [:]
        var screen = 0.0, print = 0.0, real = 0.0
        for (k, cls) in model.classes.enumerated() {
            all[cls.rawValue] = probabilities[k]
            if cls.isScreen { screen += probabilities[k] }
            if cls == .printedPaper { print += probabilities[k] }
            if cls == .realScene { real = probabilities[k] }
        }
        let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] } ?? 0
        let confidence = probabilities[best]

        var result = Result(
            status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier,
            analysisTimeMs: 0, score: Swift.min(1, Swift.max(0, real)),
            modelID: model.modelID, modelSHA256: modelSHA256)
        result.classification = confidence < c.minimumConfidence ? .unknown : model.classes[best]
        result.confidence = confidence
        result.allClassifications = all
        result.screenProbability = screen
        result.printProbability = print
        result.isLikelyRecaptured = screen > c.recaptureThreshold || print > c.recaptureThreshold
        result.featureCount = vector.values.count
        return result
    }
}
