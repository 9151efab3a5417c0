import RialMedia

extension ArtifactAnalyzerV2: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Display and print artifacts v2",
        signal:
            "Redesigned on real photos: banding energy of the detrended row- and column-mean luma profiles over the local detail, a dark surround (bezel, dark room) around a bright centre, and the share of fine detail (2.6-8.5 px periods) a recapture loses; logistic combination fitted on the real development set. artifacts/1's periodic PWM peak, glare regions and halftone rosette are dropped (at chance held out).",
        blindTo:
            "Screens filling the frame in a lit room without banding, sharp close-up recaptures that keep fine detail, prints without visible banding; real scenes with a dark vignette or night sky around a bright subject, or shot through blur or heavy noise reduction, look like recaptures.",
        latencyTarget: LatencyTarget(milliseconds: 20, source: "methods.md §9"))

    /// The family's default input to aggregation since 2026-11-27 (docs/artifacts-2.md
    /// section 4), but not what a phone's artifacts payload without `algorithm_version`
    /// is read as: the deployed phone reports `artifacts/1`'s fields (`pwm_confidence`,
    /// `halftone_detected`, ...), which this version cannot score.
    public static let readsUnversionedPayload = false

    /// Rows top to bottom (the reduction and the centre tile wait for their rows).
    public static let readsRowsWhileDecoding = true

    public func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        imageRows(of: capture) { .unavailable(reason: $0) }
    }

    /// `detected` -> screen (the cues do not tell a screen from a print).
    public static func detections(in fields: JSONObject) -> Detections {
        Detections(screen: fields.flag("detected"))
    }

    /// `1 - confidence`.
    public static func payloadScore(_ fields: JSONObject) -> Double? {
        fields["confidence"]?.numberValue.map { 1 - $0 }
    }
}

extension ArtifactAnalyzerV2.Configuration: MethodConfiguration {}
