extension LearnedTextureAnalyzer {
    /// The decision constants of a learned texture method and the model it scores with
    /// (the features and weights are the model's); the same keys and ranges for
    /// `texture/1` to `texture/4`. A partial object is decoded over the
    /// defaults (`JSONValue.decode(_:overlaying:)`). Call `validate()` (or build the
    /// analyzer, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// `is_likely_recaptured` when the screen probability (LCD + OLED) or the print
        /// probability exceeds this (specs/methods.md section 4). 0.7; in (0, 1).
        public var recaptureThreshold: Double = 0.7
        /// The unknown rule: `classification` is `unknown` when the largest class
        /// probability is below this (the score and probabilities are still reported).
        /// 0.5; in 0...1 (0 never says unknown; with 4 classes the largest is >= 0.25).
        public var minimumConfidence: Double = 0.5
        /// Standard deviation of the luma the feature set measures (`texture/1`: a strided
        /// global sample; `texture/2` to `texture/4`: the analysis image), levels (0...255),
        /// below which the image counts as constant and the result is `.unavailable`. 1.0; >= 0.
        public var minimumLumaStd: Double = 1.0
        /// The model file to score with, of the method's feature set (`texture/N` reads
        /// version N, written by `rial-bench train texture --method texture/N`), relative to
        /// the configuration file's folder, or `{path, model_id, sha256}` to pin its
        /// identity. Absent: the model compiled into the build (`texture-2`, `texture2-1`,
        /// `texture3-1`, `texture4-1`: models/MODEL_ID.json). Read when the configuration file is read;
        /// results record its `model_id` and `model_sha256`.
        public var model: ModelFileReference?
        /// The model read from `model`'s file by the configuration-file reader (not a key).
        public var loadedModel: Method.Model? = nil

        /// The compiled-in defaults.
        public static var standard: Self { Self() }

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

extension LearnedTextureAnalyzer.Configuration: LearnedMethodConfiguration {
    /// `Method.compiledInModel`, as models/MODEL_ID.json.
    public static var compiledInModel: ModelFileReference {
        let id = Method.compiledInModel.modelID
        return ModelFileReference(path: "models/\(id).json", modelID: id, sha256: Method.compiledInModelSHA256)
    }

    /// The defaults with `model` set to the compiled-in model's identity, so that the
    /// reader knows the key.
    public static var exemplar: Self {
        var configuration = Self()
        configuration.model = compiledInModel
        return configuration
    }
}
