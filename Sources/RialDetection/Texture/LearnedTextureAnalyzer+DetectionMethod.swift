import Foundation
import RialMedia

extension LearnedTextureAnalyzer: DetectionMethod {
    public typealias Result = TextureResult

    /// `Method.identifier`.
    public static var identifier: MethodIdentifier { Method.identifier }

    /// `Method.summary`.
    public static var summary: MethodSummary { Method.summary }

    /// `Method.aggregatesByDefault`.
    public static var aggregatesByDefault: Bool { Method.aggregatesByDefault }

    /// Every feature set reads its rows top to bottom as they arrive.
    public static var readsRowsWhileDecoding: Bool { true }

    public func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        imageRows(of: capture) {
            .unavailable(
                reason: $0, modelID: model.modelID, modelSHA256: modelSHA256, algorithmVersion: Self.identifier)
        }
    }

    /// Classifies rows that may still be decoding. Never throws.
    public func evaluate(_ rows: ImageRows) -> Result {
        classify(
            Swift.Result<Method.Features.Vector, TextureFeatureError> { () throws(TextureFeatureError) in
                try Method.Features.extract(rows: rows)
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
