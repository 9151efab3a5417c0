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

    /// `Method.readsUnversionedPayload`.
    public static var readsUnversionedPayload: Bool { Method.readsUnversionedPayload }

    /// Every feature set reads its rows top to bottom as they arrive.
    public static var readsRowsWhileDecoding: Bool { true }

    /// `Method.Features.readsResultsOf`.
    public static var readsResultsOf: [MethodIdentifier] { Method.Features.readsResultsOf }

    public func input(from capture: MethodCapture) -> InputCheck<TextureInput, Result> {
        imageRows(of: capture) {
            .unavailable(
                reason: $0, modelID: model.modelID, modelSHA256: modelSHA256, algorithmVersion: Self.identifier)
        }
        .map { TextureInput(rows: $0, shared: capture.shared) }
    }

    /// Classifies rows that may still be decoding. Never throws.
    public func evaluate(_ input: TextureInput) -> Result {
        classify(
            Swift.Result<Method.Features.Vector, TextureFeatureError> { () throws(TextureFeatureError) in
                try Method.Features.extract(rows: input.rows, shared: input.shared)
            })
    }

    /// Analyses a photo in memory and times it (every feature computed here).
    public func analyze(_ image: Image8) -> Result { analyzeImage(image) }

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

/// What a learned texture method reads of a capture: the photo's rows (which may still be
/// decoding) and the results of the capture's other methods its feature set may read
/// (`TextureFeatureSet.readsResultsOf`).
public struct TextureInput: Sendable {
    public let rows: ImageRows
    public let shared: SharedResults?
}
