import Foundation
import RialMedia

/// `texture/3`: `texture/2` with one layout feature more (issue 13): real scene versus
/// recaptured screen or print.
///
/// 1. `Texture3Features.extract` resamples the frame to a fixed analysis scale (shorter
///    side 256 px, a box filter with at most 4 x 4 taps per output pixel, so a 12 MP
///    capture and a recompressed 1200 x 1600 upload are described at the same scale) and
///    computes luminance-histogram, colour, band-pass residual, cross-channel, gradient,
///    sharpness-layout and LBP statistics there (`texture/2`'s 47) plus
///    `centre_minus_border` (inner against outer luma of a 4 x 4 tile grid: a self-lit
///    panel in a darker frame). Gray images, a side below 64 px or a
///    constant image (analysis luma std below `minimumLumaStd`) give `.unavailable`.
/// 2. The model (`Texture3Model`: multinomial logistic regression on standardised,
///    clipped features) gives a probability per class.
/// 3. `score = p(real_scene)`; `classification` = arg max, or `unknown` below
///    `minimumConfidence`; `is_likely_recaptured` when `p(lcd) + p(oled)` or `p(print)`
///    exceeds `recaptureThreshold`. The result has `texture/1`'s fields.
///
/// The configuration's `model` key names another model file; without it the
/// compiled-in default (`Texture3Model.default`) is used; its provenance names its
/// training data and its leave-one-source-out validation.
///
/// - Complexity: O(1) in the image size (at most 16 taps per analysis pixel).
public struct Texture3Analyzer: Sendable, Equatable {
    /// `texture/3`.
    public static let identifier = MethodIdentifier.textureV3

    public let model: Texture3Model
    public let configuration: Configuration
    /// SHA-256 of the model's canonical JSON (64 lowercase hex digits).
    public let modelSHA256: String

    /// The compiled-in model with the default configuration.
    public init() {
        model = .default
        configuration = .standard
        modelSHA256 = Texture3Model.defaultModelSHA256
    }

    /// The model `configuration` names (`loadedModel`) or, when it names none, the
    /// compiled-in default.
    ///
    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it, or with
    ///   key `model` when it names a model file that was not read or whose SHA-256 is unknown.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        (model, modelSHA256) = try configuration.resolvedModel(
            compiledIn: .default, compiledInSHA256: Texture3Model.defaultModelSHA256,
            key: Configuration.CodingKeys.model)
    }

    /// Another model.
    ///
    /// - Parameter sha256: SHA-256 of its argument as 64 lowercase hex digits, applied to
    ///   the model's canonical JSON.
    /// - Throws: `TextureModelError` or `ConfigurationError`.
    public init(model: Texture3Model, configuration: Configuration = .standard, sha256: (Data) -> String) throws {
        try configuration.validate()
        self.model = model
        self.configuration = configuration
        modelSHA256 = sha256(try model.model.canonicalJSON())
    }

    /// The result for a descriptor, or for why there is none.
    func classify(_ features: Swift.Result<Texture2FeatureVector, TextureFeatureError>) -> TextureAnalyzer.Result {
        let c = configuration
        let m = model.model
        func unavailable(_ reason: String, _ status: MethodStatus = .unavailable) -> TextureAnalyzer.Result {
            .unavailable(
                reason: reason, modelID: m.modelID, modelSHA256: modelSHA256, status: status,
                algorithmVersion: Self.identifier)
        }
        let vector: Texture2FeatureVector
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
        var result = TextureAnalyzer.Result(
            status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier,
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
