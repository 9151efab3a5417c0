/// A planar Float32 raster: `channels` planes stored one after another, each
/// `width * height` values, rows top to bottom. Plane `c` starts at `c * width * height`.
///
/// Detectors work on these: contiguous, SIMD-friendly, no per-pixel allocation.
/// Values are in whatever unit the producer states (0...255 for converted 8-bit images).
public struct PlanarImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public var data: [Float]

    public init?(width: Int, height: Int, channels: Int, data: [Float]) {
        guard width > 0, height > 0, channels > 0,
            data.count == width * height * channels
        else { return nil }
        self.width = width
        self.height = height
        self.channels = channels
        self.data = data
    }

    /// A zero-filled image. Dimensions and channels must be positive.
    public init(width: Int, height: Int, channels: Int) {
        precondition(
            width > 0 && height > 0 && channels > 0,
            "PlanarImage dimensions must be positive")
        self.width = width
        self.height = height
        self.channels = channels
        self.data = [Float](repeating: 0, count: width * height * channels)
    }

    /// Values in one plane.
    @inlinable public var planeSize: Int { width * height }

    @inlinable public subscript(x: Int, y: Int, c: Int) -> Float {
        get { data[c * width * height + y * width + x] }
        set { data[c * width * height + y * width + x] = newValue }
    }
}
