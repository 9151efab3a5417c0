import Foundation

extension Texture3Analyzer {
    /// The decision constants of `texture/3` and the model it scores with. The keys and
    /// ranges are those of `texture/1` and `texture/2` (`TextureAnalyzer.Configuration`); `model` names a
    /// feature set version 3 model. A partial object is decoded over the defaults. Call
    /// `validate()` (or build a `Texture3Analyzer`, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// `is_likely_recaptured` when the screen probability (LCD + OLED) or the print
        /// probability exceeds this. 0.7; in (0, 1).
        public var recaptureThreshold: Double = 0.7
        /// `classification` is `unknown` when the largest class probability is below this.
        /// 0.5; in 0...1.
        public var minimumConfidence: Double = 0.5
        /// Standard deviation of analysis-image luma, levels (0...255), below which the
        /// image counts as constant and the result is `.unavailable`. 1.0; >= 0.
        public var minimumLumaStd: Double = 1.0
        /// The model file to score with (feature set version 3, written by
        /// `rial-bench train texture --method texture/3`), relative to the configuration
        /// file's folder, or `{path, model_id, sha256}`. Absent: the compiled-in model
        /// (`Texture3Model.default`).
        public var model: ModelFileReference?
        /// The model read from `model`'s file by the configuration-file reader (not a key).
        public var loadedModel: Texture3Model? = nil

        /// The compiled-in defaults.
        public static let standard = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case recaptureThreshold = "recapture_threshold"
            case minimumConfidence = "minimum_confidence"
            case minimumLumaStd = "minimum_luma_std"
            case model
        }

        /// Checks the ranges documented on each field.
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            guard recaptureThreshold.isFinite, recaptureThreshold > 0, recaptureThreshold < 1 else {
                throw ConfigurationError(
                    key: CodingKeys.recaptureThreshold, "must be in (0, 1), got \(recaptureThreshold)")
            }
            guard minimumConfidence.isFinite, (0...1).contains(minimumConfidence) else {
                throw ConfigurationError(
                    key: CodingKeys.minimumConfidence, "must be in 0...1, got \(minimumConfidence)")
            }
            guard minimumLumaStd.isFinite, minimumLumaStd >= 0 else {
                throw ConfigurationError(
                    key: CodingKeys.minimumLumaStd, "must be finite and >= 0, got \(minimumLumaStd)")
            }
            try validateModel(key: CodingKeys.model)
        }
    }
}

extension Texture3Analyzer.Configuration: LearnedMethodConfiguration {
    /// The compiled-in model (`Texture3Model.default`).
    public static var compiledInModel: ModelFileReference {
        ModelFileReference(
            path: "models/\(Texture3Model.default.modelID).json", modelID: Texture3Model.default.modelID,
            sha256: Texture3Model.defaultModelSHA256)
    }

    /// The defaults with `model` set to the compiled-in model's identity.
    public static var exemplar: Self {
        var configuration = Self()
        configuration.model = compiledInModel
        return configuration
    }
}
