import Foundation
import RialMedia

extension TextureAnalyzer: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Texture classifier",
        signal:
            "A trained multinomial classifier over texture descriptors (local binary patterns, subpixel-band spectral energy, colour and gradient statistics) with weights versioned in the repository; score = probability of real_scene.",
        blindTo:
            "Everything it was not trained on: its training data is synthetic (RialSynth) with the provenance recorded in the model; real-world generalisation is measured only on the small real public set. Adversarial recaptures defeat it.",
        latencyTarget: LatencyTarget(milliseconds: 15, source: "methods.md §9"))

    /// Patches top to bottom, each once its rows are written.
    public static let readsRowsWhileDecoding = true

    public func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        imageRows(of: capture) { .unavailable(reason: $0, modelID: model.modelID, modelSHA256: modelSHA256) }
    }

    /// Classifies rows that may still be decoding. Never throws.
    public func evaluate(_ rows: ImageRows) -> Result {
        classify(
            Swift.Result<TextureFeatureVector, TextureFeatureError> { () throws(TextureFeatureError) in
                try TextureFeatures.extract(rows: rows)
            })
    }

    /// `is_likely_recaptured` with `classification` `lcd_screen` or `oled_screen` ->
    /// screen, `printed_paper` -> print.
    public static func detections(in fields: JSONObject) -> Detections {
        guard fields.flag("is_likely_recaptured"), let classification = fields["classification"]?.stringValue else {
            return .none
        }
        return Detections(
            screen: classification == "lcd_screen" || classification == "oled_screen",
            print: classification == "printed_paper")
    }

    /// `all_classifications.real_scene` when present, else `confidence` when
    /// `classification` is `real_scene` and `1 - confidence` otherwise.
    public static func payloadScore(_ fields: JSONObject) -> Double? {
        if let real = fields["all_classifications"]?["real_scene"]?.numberValue { return real }
        guard let confidence = fields["confidence"]?.numberValue,
            let classification = fields["classification"]?.stringValue
        else { return nil }
        return classification == "real_scene" ? confidence : 1 - confidence
    }
}

extension TextureAnalyzer.Configuration: LearnedMethodConfiguration {
    /// `texture-2`, embedded as `TextureModel.default` (models/texture-2.json).
    public static var compiledInModel: ModelFileReference {
        ModelFileReference(
            path: "models/\(TextureModel.default.modelID).json", modelID: TextureModel.default.modelID,
            sha256: TextureModel.defaultModelSHA256)
    }

    /// The defaults with `model` set to the compiled-in model's identity, so that the
    /// reader knows the key.
    public static var exemplar: Self {
        var configuration = Self()
        configuration.model = compiledInModel
        return configuration
    }
}

extension TextureModel: LearnedModel {
    /// `init(jsonData:)` for a `texture/1` model (feature set version 1), its error as text.
    public init(modelFile: Data) throws(LearnedModelError) {
        do {
            try self.init(jsonData: modelFile)
            try validate(featureSetVersion: TextureFeatures.version)
        } catch { throw LearnedModelError(error.description) }
    }
}
