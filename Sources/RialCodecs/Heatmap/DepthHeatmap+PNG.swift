import RialMedia

extension DepthHeatmap {
    /// Renders `map` and writes it as a PNG to `path` (atomically, creating folders).
    /// Parameters as in `render`; errors name `path` when writing fails.
    public static func writePNG(
        _ map: DepthMap, to path: String, range: ClosedRange<Float>? = nil,
        colormap: DepthColormap = .turbo, invalidColor: Color = .magenta,
        scale: Int? = nil, legend: Bool = true
    ) throws {
        let image = try render(
            map, range: range, colormap: colormap, invalidColor: invalidColor,
            scale: scale, legend: legend)
        try MediaFile.write(PNGEncoder.encode(image), to: path)
    }
}
