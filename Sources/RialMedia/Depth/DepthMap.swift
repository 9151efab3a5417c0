/// A depth map in metres on a regular grid, rows top to bottom, aligned with the
/// stored pixel grid of its image (before EXIF orientation).
///
/// Invalid pixels (no return, out of range, a zero in a millimetre PNG) are `NaN`;
/// every finite value is a distance in metres.
public struct DepthMap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` values in metres, `NaN` where invalid.
    public var metres: [Float]

    /// Returns `nil` unless `metres.count == width * height` and both are positive.
    public init?(width: Int, height: Int, metres: [Float]) {
        guard width > 0, height > 0,
            width.multipliedReportingOverflow(by: height).overflow == false,
            metres.count == width * height
        else { return nil }
        self.width = width
        self.height = height
        self.metres = metres
    }

    @inlinable public subscript(x: Int, y: Int) -> Float {
        get { metres[y * width + x] }
        set { metres[y * width + x] = newValue }
    }

    /// NaN-aware equality: two maps are equal when sizes match and every pixel is
    /// either bitwise-equal as a number or invalid in both.
    public static func == (lhs: DepthMap, rhs: DepthMap) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
        for i in lhs.metres.indices {
            let a = lhs.metres[i], b = rhs.metres[i]
            if a.isNaN && b.isNaN { continue }
            if a != b { return false }
        }
        return true
    }
}
