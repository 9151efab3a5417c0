import RialMedia

extension MoireAnalyzerV2: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Moire bands",
        signal:
            "Chromatic moire bands at a resolution-normalised scale (~800 px long side): per tile, the most prominent peak of the opponent-chroma power spectrum over its own ring median, in a band of periods 4-64 px, JPEG block lattice excluded; combined with moire/1's sharp subpixel-alias peaks.",
        blindTo:
            "Screens photographed without visible moire (distance, defocus, fine OLED pitch, strong noise reduction), moire that is purely luma, and adversarial recaptures that band-limit the display. Colourful periodic real textures (woven fabric, coloured tiles) can trigger it.",
        latencyTarget: LatencyTarget(milliseconds: 30, source: "methods.md §9"))

    /// Rows top to bottom (the reduction and moire/1's tiles wait for their rows).
    public static let readsRowsWhileDecoding = true

    public func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        imageRows(of: capture) { .unavailable(reason: $0) }
    }

    /// `detected` -> screen.
    public static func detections(in fields: JSONObject) -> Detections {
        Detections(screen: fields.flag("detected"))
    }

    /// `1 - confidence`, as for `moire/1`.
    public static func payloadScore(_ fields: JSONObject) -> Double? {
        fields["confidence"]?.numberValue.map { 1 - $0 }
    }
}

extension MoireAnalyzerV2.Configuration: MethodConfiguration {}
