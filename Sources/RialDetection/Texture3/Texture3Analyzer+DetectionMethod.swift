import Foundation
import RialMedia

extension Texture3Analyzer: DetectionMethod {
    public typealias Result = TextureAnalyzer.Result

    public static let summary = MethodSummary(
        title: "Texture classifier v3",
        signal:
            "A logistic classifier trained on real phone photos (plus simulated captures) over resolution-normalised image statistics: luminance histogram shape, colour, band-pass luma and chroma residuals, cross-channel residual correlation, gradient orientation, sharpness layout, LBP and the luma of the picture's centre against its border; score = probability of real_scene.",
        blindTo:
            "Sources unlike its training photos (validated leave-one-source-out; see the model's provenance), and recaptures that reproduce a natural scene's tone, colour and focus statistics, screens that fill the frame, and scenes with a bright centre in a dark frame (a lit window, a stage). Adversarial recaptures defeat it.",
        latencyTarget: LatencyTarget(milliseconds: 15, source: "methods.md §9"))

    /// Not the family's default: `texture/2` stays the default `aggregate_with` (texture/3's
    /// held-out gain, 0.791 -> 0.820 pooled, lies inside texture/2's interval; models/README.md).
    /// Choose it with `aggregate_with: {texture: texture/3}`.
    public static let aggregatesByDefault = false

    /// The analysis image is resampled top to bottom as rows arrive.
    public static let readsRowsWhileDecoding = true

    public func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        imageRows(of: capture) {
            .unavailable(
                reason: $0, modelID: model.modelID, modelSHA256: modelSHA256, algorithmVersion: Self.identifier)
        }
    }

    /// Classifies rows that may still be decoding. Never throws.
    public func evaluate(_ rows: ImageRows) -> Result {
        classify(
            Swift.Result<Texture2FeatureVector, TextureFeatureError> { () throws(TextureFeatureError) in
                try Texture3Features.extract(rows: rows)
            })
    }

    /// As `texture/1`.
    public static func detections(in fields: JSONObject) -> Detections {
        TextureAnalyzer.detections(in: fields)
    }

    /// As `texture/1`.
    public static func payloadScore(_ fields: JSONObject) -> Double? {
        TextureAnalyzer.payloadScore(fields)
    }
}
