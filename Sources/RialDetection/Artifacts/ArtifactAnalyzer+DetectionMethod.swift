import RialMedia

extension ArtifactAnalyzer: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Display and print artifacts",
        signal:
            "PWM/refresh banding in the row-mean spectrum (rolling shutter), specular glare regions (large, low-saturation, near-saturated, sharp regular borders), halftone peaks at print rulings and rosette angles; overall = 0.35 pwm + 0.30 specular + 0.35 halftone.",
        blindTo:
            "Displays without PWM dimming or at refresh rates aliasing to DC, matte screens without glare, prints without a visible dot screen (continuous-tone photo prints, high-ruling offset at distance).",
        latencyTarget: LatencyTarget(milliseconds: 20, source: "methods.md §9"))

    /// Halftone tiles, strided rows and a grid, each once its rows are written.
    public static let readsRowsWhileDecoding = true

    public func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        imageRows(of: capture) { .unavailable(reason: $0) }
    }

    /// `pwm_flicker_detected` (`pwm_detected` in a story 9-6 payload) or `specular_pattern_detected` -> screen,
    /// `halftone_detected` -> print.
    public static func detections(in fields: JSONObject) -> Detections {
        Detections(
            screen: fields.flag("pwm_flicker_detected") || fields.flag("pwm_detected")
                || fields.flag("specular_pattern_detected"),
            print: fields.flag("halftone_detected"))
    }

    /// `1 - overall_confidence`, else `1 - max(pwm, specular, halftone confidence)`.
    public static func payloadScore(_ fields: JSONObject) -> Double? {
        if let overall = fields["overall_confidence"]?.numberValue { return 1 - overall }
        let parts = ["pwm_confidence", "specular_confidence", "halftone_confidence"].compactMap {
            fields[$0]?.numberValue
        }
        return parts.max().map { 1 - $0 }
    }
}

extension ArtifactAnalyzer.Configuration: MethodConfiguration {}
