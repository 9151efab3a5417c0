/// An interleaved integer raster: `channels` samples per pixel, rows top to bottom,
/// no padding between rows (`samples.count == width * height * channels`).
///
/// Channel meaning follows the count: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA.
/// 8-bit images use `UInt8`; 16-bit PNG samples stay `UInt16` (no rescaling).
public struct PixelImage<Sample>: Sendable, Equatable
where Sample: FixedWidthInteger & UnsignedInteger & Sendable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public var samples: [Sample]

    /// Wraps existing samples. Returns `nil` when the count does not match the size
    /// or a dimension or the channel count (1...4) is out of range.
    public init?(width: Int, height: Int, channels: Int, samples: [Sample]) {
        guard width > 0, height > 0, (1...4).contains(channels),
            width.multipliedReportingOverflow(by: height).overflow == false,
            samples.count == width * height * channels
        else { return nil }
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }

    /// A zero-filled image. Dimensions must be positive and channels in 1...4.
    public init(width: Int, height: Int, channels: Int) {
        precondition(
            width > 0 && height > 0 && (1...4).contains(channels),
            "PixelImage dimensions must be positive, channels in 1...4")
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = [Sample](repeating: 0, count: width * height * channels)
    }

    /// Number of samples in one row.
    @inlinable public var rowStride: Int { width * channels }

    /// The sample of channel `c` at column `x`, row `y` (no bounds check beyond the array's).
    @inlinable public subscript(x: Int, y: Int, c: Int) -> Sample {
        get { samples[(y * width + x) * channels + c] }
        set { samples[(y * width + x) * channels + c] = newValue }
    }

    /// Why `samples` does not fit the size, or nil when it does. `init` checks the
    /// layout, but `samples` is a `var`, so code that consumes an image from elsewhere
    /// (a detection method must not crash on it) checks this first.
    public var sampleLayoutProblem: String? {
        let expected = width * height * channels
        if samples.count == expected { return nil }
        return "image buffer holds \(samples.count) samples, expected \(width) x \(height) x \(channels) = \(expected)"
    }

    public var hasAlpha: Bool { channels == 2 || channels == 4 }
    public var isGray: Bool { channels <= 2 }
}

/// 8 bits per sample: JPEG output, 8-bit PNG.
public typealias Image8 = PixelImage<UInt8>
/// 16 bits per sample: 16-bit PNG, millimetre depth maps.
public typealias Image16 = PixelImage<UInt16>
