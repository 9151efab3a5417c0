import Foundation

/// Renders depth maps as false-colour RGB images, optionally with a colour-bar legend
/// labelled in metres.
///
/// Mapping: a valid depth `d` gets `t = (d - lower) / (upper - lower)`, clamped to
/// 0...1, and the colour map entry `round(t * 255)`; so near is the colour map's start
/// (Turbo: dark blue) and far its end (Turbo: dark red). A degenerate range
/// (`lower == upper`) maps every valid pixel to `t = 0.5`. Invalid (non-finite)
/// pixels get `invalidColor`.
///
/// Layout, in output pixels, with `s` the upscale factor and `W x H` the map size:
/// - the map occupies the top-left `W*s x H*s`, each depth pixel an `s x s` block;
/// - with `legend`, a panel `legendWidth(mapHeight:)` = `80 * g` wide is added on the
///   right, where `g = max(1, H*s / 256)` is the glyph scale, and the image is
///   `max(H*s, 40 * g)` tall (rows below a short map are background);
/// - the panel holds a vertical colour bar (upper bound at the top), 2 to 5 tick marks
///   across its right edge and labels such as `1.57 m`: two decimals, one decimal
///   from 100 m, none from 1000 m. Labels are drawn with `BitmapFont` at scale `g`.
public enum DepthHeatmap {
    /// An 8-bit sRGB colour.
    public struct Color: Sendable, Equatable, Hashable, Codable {
        public var r: UInt8
        public var g: UInt8
        public var b: UInt8

        public init(r: UInt8, g: UInt8, b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }

        /// (255, 0, 255): absent from both Turbo and viridis, the default for invalid pixels.
        public static let magenta = Color(r: 255, g: 0, b: 255)
        public static let black = Color(r: 0, g: 0, b: 0)
        public static let white = Color(r: 255, g: 255, b: 255)
    }

    /// Legend background and text colours.
    static let background = Color.black
    static let foreground = Color.white

    /// The default largest output side used to choose the upscale factor.
    public static let targetSide = 1024
    /// Rendered images are limited to this many pixels (100 million).
    public static let maxOutputPixels = 100_000_000

    /// The default depth range: the 2nd...98th percentile of the valid values
    /// (`DepthMap.percentile`, numpy's linear method), which keeps a few outliers from
    /// washing out the colours; `min...max` when those percentiles coincide; `nil`
    /// when no pixel is valid.
    public static func defaultRange(for map: DepthMap) -> ClosedRange<Float>? {
        let sorted = map.sortedValidValues()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        if let low = DepthMap.percentile(2, ofSorted: sorted), let high = DepthMap.percentile(98, ofSorted: sorted),
            Float(low) < Float(high)
        {
            return Float(low)...Float(high)
        }
        return first...last
    }

    /// The default upscale factor: the largest integer `s >= 1` with
    /// `max(width, height) * s <= 1024` (256 x 192 -> 4; 741 x 500 -> 1).
    public static func defaultScale(width: Int, height: Int) -> Int {
        max(1, targetSide / max(width, height, 1))
    }

    /// Glyph scale for a map area `mapHeight` output pixels tall: `max(1, mapHeight / 256)`.
    public static func glyphScale(mapHeight: Int) -> Int { max(1, mapHeight / 256) }

    /// Width of the legend panel for a map area `mapHeight` output pixels tall: `80 * g`.
    public static func legendWidth(mapHeight: Int) -> Int { 80 * glyphScale(mapHeight: mapHeight) }

    /// Renders `map` as an RGB image.
    ///
    /// - Parameters:
    ///   - range: depths (metres) mapped to the colour map's ends; default
    ///     `defaultRange(for:)`. Bounds must be finite.
    ///   - colormap: `.turbo` (default) or `.viridis`.
    ///   - invalidColor: colour of invalid pixels; default magenta.
    ///   - scale: integer upscale, >= 1; default `defaultScale(width:height:)`.
    ///   - legend: add the colour bar with tick labels in metres.
    /// - Returns: a 3-channel `Image8`; see the type's documentation for the layout.
    /// - Throws: `MediaError.invalidArgument` for a non-finite range, a scale below 1,
    ///   or an output over `maxOutputPixels`.
    public static func render(
        _ map: DepthMap, range: ClosedRange<Float>? = nil, colormap: DepthColormap = .turbo,
        invalidColor: Color = .magenta, scale: Int? = nil,
        legend: Bool = true
    ) throws -> Image8 {
        if let range, !(range.lowerBound.isFinite && range.upperBound.isFinite) {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "heatmap range must be finite, got \(range.lowerBound)...\(range.upperBound)")
        }
        let s = scale ?? defaultScale(width: map.width, height: map.height)
        guard s >= 1 else {
            throw MediaError(.invalidArgument, source: inMemorySource, "heatmap scale must be >= 1, got \(s)")
        }
        let mapWidth = map.width.multipliedReportingOverflow(by: s)
        let mapHeight = map.height.multipliedReportingOverflow(by: s)
        guard !mapWidth.overflow, !mapHeight.overflow else {
            throw MediaError(.invalidArgument, source: inMemorySource, "heatmap scale \(s) is too large")
        }
        let g = glyphScale(mapHeight: mapHeight.partialValue)
        let width = mapWidth.partialValue + (legend ? legendWidth(mapHeight: mapHeight.partialValue) : 0)
        let height = legend ? max(mapHeight.partialValue, 40 * g) : mapHeight.partialValue
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow, pixels.partialValue <= maxOutputPixels else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "heatmap of \(width)x\(height) pixels exceeds the limit of \(maxOutputPixels)")
        }

        let effectiveRange = range ?? defaultRange(for: map)
        var image = Image8(width: width, height: height, channels: 3)
        if legend, background != .black { fill(&image, with: background) }
        drawMap(map, into: &image, scale: s, range: effectiveRange, colormap: colormap, invalidColor: invalidColor)
        if legend {
            drawLegend(into: &image, x: mapWidth.partialValue, glyphScale: g, range: effectiveRange, colormap: colormap)
        }
        return image
    }

    /// The legend label for `metres`: `"1.57 m"`; one decimal from 100 m, none from 1000 m.
    public static func label(_ metres: Float) -> String {
        let magnitude = abs(metres)
        let decimals = magnitude >= 1000 ? 0 : (magnitude >= 100 ? 1 : 2)
        let rounded = (Double(metres) * pow(10, Double(decimals))).rounded() / pow(10, Double(decimals))
        let text = String(format: "%.\(decimals)f", rounded == 0 ? 0 : rounded)
        return text + " m"
    }

    // MARK: - Drawing

    private static func fill(_ image: inout Image8, with color: Color) {
        image.samples.withUnsafeMutableBufferPointer { out in
            var i = 0
            while i < out.count {
                out[i] = color.r
                out[i + 1] = color.g
                out[i + 2] = color.b
                i += 3
            }
        }
    }

    /// Colours one output row per depth row into the image, then copies it to the
    /// `scale - 1` rows below: one table look-up per depth pixel, no allocation per pixel.
    private static func drawMap(
        _ map: DepthMap, into image: inout Image8, scale: Int, range: ClosedRange<Float>?,
        colormap: DepthColormap, invalidColor: Color
    ) {
        let lower = range?.lowerBound ?? 0
        let span = (range?.upperBound ?? 1) - lower
        let table = colormap == .turbo ? ColormapTables.turbo : ColormapTables.viridis
        let stride = image.width * 3
        let rowBytes = map.width * scale * 3
        map.metres.withUnsafeBufferPointer { depth in
            table.withUnsafeBufferPointer { lut in
                image.samples.withUnsafeMutableBufferPointer { out in
                    for y in 0..<map.height {
                        let rowStart = y * scale * stride
                        var o = rowStart
                        for x in 0..<map.width {
                            let d = depth[y * map.width + x]
                            let r, g, b: UInt8
                            if d.isFinite {
                                let t: Float = span > 0 ? (d - lower) / span : 0.5
                                let i = DepthColormap.index(t) * 3
                                r = lut[i]
                                g = lut[i + 1]
                                b = lut[i + 2]
                            } else {
                                r = invalidColor.r
                                g = invalidColor.g
                                b = invalidColor.b
                            }
                            for _ in 0..<scale {
                                out[o] = r
                                out[o + 1] = g
                                out[o + 2] = b
                                o += 3
                            }
                        }
                        guard let base = out.baseAddress else { continue }
                        for k in 1..<scale {
                            (base + rowStart + k * stride).update(from: base + rowStart, count: rowBytes)
                        }
                    }
                }
            }
        }
    }

    private static func drawLegend(
        into image: inout Image8, x: Int, glyphScale g: Int, range: ClosedRange<Float>?,
        colormap: DepthColormap
    ) {
        let barLeft = x + 6 * g, barWidth = 12 * g
        let barTop = 6 * g, barBottom = image.height - 6 * g // exclusive
        let barHeight = barBottom - barTop
        guard barHeight >= 2 else { return }
        let stride = image.width * 3
        image.samples.withUnsafeMutableBufferPointer { out in
            for y in barTop..<barBottom {
                let t = Float(barBottom - 1 - y) / Float(barHeight - 1)
                let color = colormap.color(at: t)
                for px in barLeft..<(barLeft + barWidth) {
                    let i = y * stride + px * 3
                    out[i] = color.r
                    out[i + 1] = color.g
                    out[i + 2] = color.b
                }
            }
        }
        guard let range else { return } // nothing valid: a bar without labels
        let tickCount = range.lowerBound == range.upperBound ? 1 : min(5, max(2, barHeight / (14 * g)))
        // Ticks straddle the bar's right edge so they do not read as minus signs.
        let tickLeft = barLeft + barWidth - 3 * g, tickWidth = 6 * g
        let labelLeft = barLeft + barWidth + 3 * g + 4 * g
        for k in 0..<tickCount {
            let fraction = tickCount == 1 ? 0.5 : Float(k) / Float(tickCount - 1)
            let value = range.lowerBound + (range.upperBound - range.lowerBound) * fraction
            let y = barBottom - 1 - Int((fraction * Float(barHeight - 1)).rounded())
            image.samples.withUnsafeMutableBufferPointer { out in
                for dy in 0..<g where y + dy < image.height {
                    for px in tickLeft..<(tickLeft + tickWidth) {
                        let i = (y + dy) * stride + px * 3
                        out[i] = foreground.r
                        out[i + 1] = foreground.g
                        out[i + 2] = foreground.b
                    }
                }
            }
            BitmapFont.draw(
                label(value), into: &image, x: labelLeft, y: y - (BitmapFont.glyphHeight * g) / 2,
                scale: g, color: foreground)
        }
    }
}
