import RialMedia

extension MoireAnalyzer: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Moire FFT",
        signal:
            "Windowed power spectra of full-resolution tiles: isolated peaks above 3x the median noise floor in the subpixel-scale band, each conjugate pair counted once, frequencies in cycles per pixel; the JPEG 8x8 block grid is excluded.",
        blindTo:
            "Screens whose subpixel grid is far above the sensor's Nyquist frequency or blurred away (defocus, distance), OLED panels with fine pitch, and adversarial recaptures that band-limit the display (Chimera, USENIX Security 2025). Periodic real textures can trigger it.",
        latencyTarget: LatencyTarget(milliseconds: 30, source: "methods.md §9"))

    /// Tiles top to bottom, each once its rows are written.
    public static let readsRowsWhileDecoding = true

    public func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        imageRows(of: capture) { .unavailable(reason: $0) }
    }

    /// `detected` -> screen.
    public static func detections(in fields: JSONObject) -> Detections {
        Detections(screen: fields.flag("detected"))
    }

    /// `1 - confidence`: the phone's confidence that moire is present (it sends
    /// `detected: false, confidence: 0.0` for a clean image).
    public static func payloadScore(_ fields: JSONObject) -> Double? {
        fields["confidence"]?.numberValue.map { 1 - $0 }
    }
}

extension MoireAnalyzer.Configuration: MethodConfiguration {}
