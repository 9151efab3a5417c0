import Foundation
import Testing

@testable import RialMedia

@Suite("Depth heatmap")
struct HeatmapTests {
    typealias Color = DepthHeatmap.Color

    private func pixel(_ image: Image8, _ x: Int, _ y: Int) -> Color {
        Color(r: image[x, y, 0], g: image[x, y, 1], b: image[x, y, 2])
    }

    // Published values: Mikhailov's turbo_srgb_bytes (Google, 2019) entries 0, 128, 255
    // are (48, 18, 59), (164, 252, 60), (122, 4, 3); matplotlib's float table gives
    // round(255 * [0.18995, 0.07176, 0.23217]) = (48, 18, 59) and
    // round(255 * [0.47960, 0.01583, 0.01055]) = (122, 4, 3). Viridis (mpl-colormaps):
    // round(255 * [0.267004, 0.004874, 0.329415]) = (68, 1, 84),
    // round(255 * [0.993248, 0.906157, 0.143936]) = (253, 231, 37).
    @Test("Colormap endpoints match the published tables")
    func endpoints() {
        #expect(DepthColormap.turbo.color(at: 0) == Color(r: 48, g: 18, b: 59))
        #expect(DepthColormap.turbo.color(at: 1) == Color(r: 122, g: 4, b: 3))
        #expect(DepthColormap.turbo.color(index: 128) == Color(r: 164, g: 252, b: 60))
        #expect(DepthColormap.viridis.color(at: 0) == Color(r: 68, g: 1, b: 84))
        #expect(DepthColormap.viridis.color(at: 1) == Color(r: 253, g: 231, b: 37))
        // Clamping and NaN.
        #expect(DepthColormap.turbo.color(at: -3) == DepthColormap.turbo.color(at: 0))
        #expect(DepthColormap.turbo.color(at: 7) == DepthColormap.turbo.color(at: 1))
        #expect(DepthColormap.turbo.color(at: .nan) == DepthColormap.turbo.color(at: 0))
        #expect(ColormapTables.turbo.count == 768 && ColormapTables.viridis.count == 768)
    }

    @Test("Range ends map to the colormap ends; invalid pixels get the invalid colour; blocks of scale x scale")
    func mapping() throws {
        let map = DepthMap(width: 3, height: 2, metres: [1, 2, 3, .nan, 0.5, 9])!
        let image = try DepthHeatmap.render(
            map, range: 1...3, colormap: .turbo, invalidColor: .black,
            scale: 3, legend: false)
        #expect(image.width == 9 && image.height == 6 && image.channels == 3)
        let low = DepthColormap.turbo.color(at: 0), high = DepthColormap.turbo.color(at: 1)
        let middle = DepthColormap.turbo.color(index: 128) // t = 0.5 -> round(127.5) = 128
        for dy in 0..<3 {
            for dx in 0..<3 {
                #expect(pixel(image, dx, dy) == low)
                #expect(pixel(image, 3 + dx, dy) == middle)
                #expect(pixel(image, 6 + dx, dy) == high)
                #expect(pixel(image, dx, 3 + dy) == .black) // NaN
                #expect(pixel(image, 3 + dx, 3 + dy) == low) // below the range: clamped
                #expect(pixel(image, 6 + dx, 3 + dy) == high) // above the range: clamped
            }
        }
    }

    @Test("Default magenta marks invalid pixels and is not a Turbo or viridis colour")
    func invalidColour() throws {
        let map = DepthMap(width: 2, height: 1, metres: [.nan, 1])!
        let image = try DepthHeatmap.render(map, legend: false)
        #expect(pixel(image, 0, 0) == .magenta)
        for colormap in DepthColormap.allCases {
            #expect(!(0...255).contains { colormap.color(index: $0) == .magenta })
        }
    }

    @Test("Output size: 256x192 upscales 4x, legend adds 80 * g columns")
    func sizes() throws {
        let map = HeatmapTestMaps.ramp(width: 256, height: 192)
        #expect(DepthHeatmap.defaultScale(width: 256, height: 192) == 4)
        #expect(DepthHeatmap.defaultScale(width: 741, height: 500) == 1)
        let plain = try DepthHeatmap.render(map, legend: false)
        #expect(plain.width == 1024 && plain.height == 768)
        // g = max(1, 768 / 256) = 3, legend 240 px wide.
        let legend = try DepthHeatmap.render(map)
        #expect(legend.width == 1024 + 240 && legend.height == 768)
        let small = try DepthHeatmap.render(
            DepthMap(width: 4, height: 3, metres: [Float](repeating: 1, count: 12))!,
            scale: 1, legend: true)
        #expect(small.width == 4 + 80 && small.height == 40) // g = 1, at least 40 px tall
        let doubled = try DepthHeatmap.render(map, scale: 2, legend: false)
        #expect(doubled.width == 512 && doubled.height == 384)
    }

    @Test("Legend: bar runs from the far colour at the top to the near colour at the bottom, with white labels")
    func legend() throws {
        let map = HeatmapTestMaps.ramp(width: 64, height: 48)
        let image = try DepthHeatmap.render(map, range: 1...2, scale: 4, legend: true) // map 256 x 192, g = 1
        let barX = 256 + 6 + 6 // panel start + 6 g margin + half the 12 g bar
        #expect(pixel(image, barX, 6) == DepthColormap.turbo.color(at: 1))
        #expect(pixel(image, barX, image.height - 7) == DepthColormap.turbo.color(at: 0))
        var white = 0
        for y in 0..<image.height {
            for x in (256 + 30)..<image.width where pixel(image, x, y) == .white { white += 1 }
        }
        #expect(white > 100) // five labels such as "1.25 m"
        #expect(DepthHeatmap.legendWidth(mapHeight: 192) == 80)
    }

    @Test("Labels read like 1.57 m")
    func labels() {
        #expect(DepthHeatmap.label(1.566) == "1.57 m")
        #expect(DepthHeatmap.label(0.408) == "0.41 m")
        #expect(DepthHeatmap.label(123.456) == "123.5 m")
        #expect(DepthHeatmap.label(1234.5) == "1235 m")
        #expect(DepthHeatmap.label(-0.001) == "0.00 m")
        #expect(DepthHeatmap.label(-1.5) == "-1.50 m")
    }

    @Test("Bitmap font covers digits, '.', 'm', '-' and space")
    func font() {
        for character in "0123456789.m-" {
            #expect(BitmapFont.rows(for: character).contains { $0 != 0 }, "\(character)")
            #expect(BitmapFont.rows(for: character).allSatisfy { $0 < 32 }, "\(character)")
        }
        #expect(BitmapFont.rows(for: " ").allSatisfy { $0 == 0 })
        let digits = "0123456789".map { BitmapFont.rows(for: $0) }
        #expect(Set(digits.map { $0.map(String.init).joined(separator: ",") }).count == 10)
        #expect(BitmapFont.width(of: "1.57 m", scale: 2) == (6 * 6 - 1) * 2)
    }

    @Test("Degenerate and all-invalid maps render without trapping")
    func degenerate() throws {
        let constant = try DepthHeatmap.render(DepthMap(width: 2, height: 2, metres: [2, 2, 2, 2])!, scale: 1)
        #expect(pixel(constant, 0, 0) == DepthColormap.turbo.color(at: 0.5))
        let empty = try DepthHeatmap.render(DepthMap(width: 3, height: 3, metres: [Float](repeating: .nan, count: 9))!)
        #expect(pixel(empty, 0, 0) == .magenta)
        #expect(empty.width == 3 * 341 + DepthHeatmap.legendWidth(mapHeight: 3 * 341))
    }

    @Test("Bad arguments are .invalidArgument")
    func badArguments() {
        let map = DepthMap(width: 2, height: 2, metres: [1, 2, 3, 4])!
        for (range, scale) in [(Optional(Float(1)...Float.infinity), Optional(1)), (nil, 0), (nil, 100_000)] {
            let error = #expect(throws: MediaError.self) { try DepthHeatmap.render(map, range: range, scale: scale) }
            #expect(error?.kind == .invalidArgument)
        }
    }
}

/// Synthetic maps for heatmap tests.
enum HeatmapTestMaps {
    /// Depth rising left to right from 1 m to 2 m.
    static func ramp(width: Int, height: Int) -> DepthMap {
        let values = (0..<(width * height)).map { 1 + Float($0 % width) / Float(max(width - 1, 1)) }
        return DepthMap(width: width, height: height, metres: values)!
    }
}
