/// Colour maps for depth heatmaps, each a 256-entry sRGB table (see `ColormapTables`
/// for the published sources).
public enum DepthColormap: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Google's Turbo (Mikhailov 2019): dark blue (0) -> cyan -> green -> yellow -> red -> dark red (1).
    case turbo
    /// Matplotlib's viridis: dark purple (0) -> blue -> green -> yellow (1); perceptually uniform.
    case viridis

    /// The colour for `t` in 0...1: table entry `round(t * 255)`. Values outside are
    /// clamped; `NaN` gives entry 0.
    public func color(at t: Float) -> DepthHeatmap.Color {
        let index = Self.index(t)
        return color(index: index)
    }

    /// Table entry `index` (0...255, clamped).
    public func color(index: Int) -> DepthHeatmap.Color {
        let i = Swift.min(Swift.max(index, 0), 255) * 3
        let table = self == .turbo ? ColormapTables.turbo : ColormapTables.viridis
        return DepthHeatmap.Color(r: table[i], g: table[i + 1], b: table[i + 2])
    }

    /// `round(clamp(t, 0, 1) * 255)`, 0 for `NaN`.
    static func index(_ t: Float) -> Int {
        guard t > 0 else { return 0 } // also NaN
        guard t < 1 else { return 255 }
        return Int((t * 255).rounded())
    }
}
