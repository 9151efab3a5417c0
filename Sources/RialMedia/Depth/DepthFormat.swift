/// How a depth map is stored on disk (`depth.format` in a dataset manifest); RialCodecs'
/// `DepthReader` and `DepthWriter` read and write every format.
///
/// Raw values are the manifest spellings. Units and validity:
///
/// | format | payload | metres = | invalid |
/// | --- | --- | --- | --- |
/// | `f32le_gzip` | gzip of little-endian float32, row-major | value | outside `validMetres` |
/// | `f32le_zlib` | zlib (RFC 1950) stream of the same | value | outside `validMetres` |
/// | `f32le` | raw little-endian float32 | value | outside `validMetres` |
/// | `u16_png_mm` | 16-bit single-channel PNG | value / 1000 | 0 |
/// | `u16_png_scaled` | 16-bit single-channel PNG | value * scale | 0, or outside `validMetres` |
/// | `npy` | NumPy array (float32/64, uint8/16, int16/32, uint32), 2-D | value * (scale ?? 1) | outside `validMetres` |
/// | `npz` | ZIP of `.npy` arrays; the named or only array | as `npy` | as `npy` |
///
/// "Outside `validMetres`" covers non-finite values, 0 and negatives (no return) and
/// distances no depth sensor reports (3e38 m, a subnormal 1e-42 m).
///
/// Float payloads carry no size, so `f32le*` need a width and height (default
/// 256 x 192, the ARKit LiDAR depth size); PNG and NumPy files carry their own.
public enum DepthFormat: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case f32leGzip = "f32le_gzip"
    case f32leZlib = "f32le_zlib"
    case f32le
    case u16PngMm = "u16_png_mm"
    case u16PngScaled = "u16_png_scaled"
    case npy
    case npz

    /// Width used for float payloads when none is given: ARKit's LiDAR depth width.
    public static let defaultWidth = 256
    /// Height used for float payloads when none is given: ARKit's LiDAR depth height.
    public static let defaultHeight = 192
    /// The largest depth map read or written, in pixels (100 million). Larger declared
    /// sizes are refused before allocating.
    public static let maxPixels = 100_000_000
    /// The distances a valid depth pixel may hold, metres: 1 mm (the step of
    /// `u16_png_mm`) to 1 km. Phone LiDAR and time-of-flight sensors reach a few metres,
    /// stereo depth tens of metres and automotive LiDAR a few hundred; a value outside
    /// this range is a broken file or a sentinel, and is read as invalid (`NaN`).
    public static let validMetres: ClosedRange<Float> = 0.001...1000

    /// `true` for the raw float32 formats, whose size must come from the caller.
    public var needsDimensions: Bool {
        switch self {
        case .f32leGzip, .f32leZlib, .f32le: true
        case .u16PngMm, .u16PngScaled, .npy, .npz: false
        }
    }

    /// `true` when a scale (metres per stored unit) is required.
    public var needsScale: Bool { self == .u16PngScaled }

    /// The usual file name extension.
    public var fileExtension: String {
        switch self {
        case .f32leGzip: "gz"
        case .f32leZlib: "zlib"
        case .f32le: "f32"
        case .u16PngMm, .u16PngScaled: "png"
        case .npy: "npy"
        case .npz: "npz"
        }
    }
}
