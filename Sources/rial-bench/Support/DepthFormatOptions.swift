import ArgumentParser
import RialCodecs
import RialMedia

extension DepthFormat: ExpressibleByArgument {}

/// How to read a depth file: `--depth-format`, `--depth-width`, `--depth-height` and
/// `--depth-scale`, shared by `analyze` and `inspect`.
///
/// Every option is optional: the format is inferred from the content (a single-channel
/// 16-bit PNG is millimetres; .npy/.npz, gzip and zlib are arrays), raw float grids are
/// 256 x 192 unless given. `inspect`'s shorter spellings `--width`, `--height` and
/// `--scale` are accepted as aliases. Width and height must be positive, at most
/// `maxSide` each and at most `DepthFormat.maxPixels` together (a manifest's depth size has
/// the same bounds), and the scale a positive finite number of metres per unit (exit 64
/// otherwise).
struct DepthFormatOptions: ParsableArguments {
    @Option(help: "Depth format (default: from the content; required for raw float32, f32le).")
    var depthFormat: DepthFormat?

    @Option(
        name: [.customLong("depth-width"), .customLong("width")],
        help: "Depth width in pixels, for raw float formats (default 256).")
    var depthWidth: Int?

    @Option(
        name: [.customLong("depth-height"), .customLong("height")],
        help: "Depth height in pixels, for raw float formats (default 192).")
    var depthHeight: Int?

    @Option(
        name: [.customLong("depth-scale"), .customLong("scale")],
        help: "Metres per stored unit, for u16_png_scaled (e.g. 0.00390625 for KITTI's 1/256).")
    var depthScale: Double?

    /// True when none of the options was given.
    var isEmpty: Bool { depthFormat == nil && depthWidth == nil && depthHeight == nil && depthScale == nil }

    /// The options as the media readers take them.
    var mediaOptions: MediaInspector.DepthOptions {
        MediaInspector.DepthOptions(format: depthFormat, width: depthWidth, height: depthHeight, scale: depthScale)
    }

    /// The largest `--depth-width` or `--depth-height`, as for a manifest's depth size.
    static let maxSide = 65536

    func validate() throws {
        for (option, value) in [("--depth-width", depthWidth), ("--depth-height", depthHeight)] {
            guard let value else { continue }
            if value <= 0 { throw ValidationError("\(option) must be positive, got \(value)") }
            if value > Self.maxSide {
                throw ValidationError("\(option) must be at most \(Self.maxSide), got \(value)")
            }
        }
        let width = depthWidth ?? DepthFormat.defaultWidth, height = depthHeight ?? DepthFormat.defaultHeight
        if width * height > DepthFormat.maxPixels {
            throw ValidationError(
                "--depth-width x --depth-height must be at most \(DepthFormat.maxPixels) pixels, got \(width)x\(height)"
            )
        }
        if let depthScale, !(depthScale.isFinite && depthScale > 0) {
            throw ValidationError("--depth-scale must be a positive number of metres per unit, got \(depthScale)")
        }
    }
}
