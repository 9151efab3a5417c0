/// Fixed-point text for the numbers of SVG plots and HTML tables: the same characters
/// on every platform and locale, never an exponent.
enum SVGNumber {
    /// `value` rounded half away from zero to `decimals` places (clamped to 0...6).
    ///
    /// - `trimZeros` true (coordinates): trailing zeros and a trailing point are dropped,
    ///   `60.50` -> `60.5`, `430.00` -> `430`; false (tables): exactly `decimals` places.
    /// - A result that rounds to zero prints without sign (`-0.001` -> `0`).
    /// - Magnitudes above 1e12 are clamped to ±1e12; NaN and infinities print as `0`
    ///   (callers show undefined values themselves, e.g. as "—").
    static func format(_ value: Double, decimals: Int = 2, trimZeros: Bool = true) -> String {
        let places = min(6, max(0, decimals))
        guard value.isFinite else {
            return trimZeros || places == 0 ? "0" : "0." + String(repeating: "0", count: places)
        }
        let clamped = min(1e12, max(-1e12, value))
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((clamped * Double(scale)).rounded(.toNearestOrAwayFromZero))
        let magnitude = scaled.magnitude
        let whole = magnitude / UInt64(scale)
        var text = scaled < 0 ? "-\(whole)" : "\(whole)"
        guard places > 0 else { return text }
        var fraction = String(magnitude % UInt64(scale))
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        if trimZeros {
            while fraction.hasSuffix("0") { fraction.removeLast() }
        }
        if !fraction.isEmpty { text += "." + fraction }
        return text
    }
}
