/// EXIF/TIFF tag 0x0112 Orientation: how the stored pixel grid must be transformed
/// for display. Raw values 1...8 per the EXIF 2.32 specification (CIPA DC-008).
///
/// | value | stored image is | to display |
/// |---|---|---|
/// | 1 | upright | nothing |
/// | 2 | mirrored left-right | flip horizontally |
/// | 3 | rotated 180 | rotate 180 |
/// | 4 | mirrored top-bottom | flip vertically |
/// | 5 | transposed | transpose (mirror about the main diagonal) |
/// | 6 | rotated 90 CCW | rotate 90 clockwise |
/// | 7 | transversed | transverse (mirror about the anti-diagonal) |
/// | 8 | rotated 90 CW | rotate 90 counter-clockwise |
public enum ExifOrientation: Int, Sendable, Codable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// True when displaying the image swaps width and height (values 5-8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}
