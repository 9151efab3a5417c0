extension TextureAnalyzer {
    /// The decision constants of `texture/1` and the model it scores with (the features
    /// and weights are the model's). A partial object is decoded over the defaults (`JSONValue.decode(_:overlaying:)`). Call
    /// `validate()` (or build a `TextureAnalyzer`, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// `is_likely_recaptured` when the screen probability (LCD + OLED) or the print
        /// probability exceeds this (specs/methods.md section 4). 0.7; in (0, 1).
        public var recaptureThreshold: Double = 0.7
        /// The unknown rule: `classification` is `unknown` when the largest class
        /// probability is below this (the score and probabilities are still reported).
        /// 0.5; in 0...1 (0 never says unknown; with 4 classes the largest is >= 0.25).
        public var minimumConfidence: Double = 0.5
        /// Standard deviation of luma over the global sample, levels (0...255), below which
        /// the image counts as constant and the result is `.unavailable`. 1.0; >= 0.
        public var minimumLumaStd: Double = 1.0
        /// The model file to score with, relative to the configuration file's folder
        /// (`models/texture-3.json`, written by `rial-bench train texture`), or
        /// `{path, model_id, sha256}` to pin its identity. Absent: the model compiled into
        /// the build (`texture-2`, models/texture-2.json). Read when the configuration file
        /// is read; results record its `model_id` and `model_sha256`.
        public var model: ModelFileReference?
        /// The model read from `model`'s file by the configuration-file reader (not a key).
        public var loadedModel: TextureModel? = nil

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
