/// What `texture/1` says a capture shows (specs/methods.md section 4). Raw values are
/// the JSON spellings, the same as the dataset labels of `rial-bench-dataset/1`.
public enum TextureClass: String, Sendable, Codable, CaseIterable, Hashable {
    /// A bona fide 3D scene or flat subject photographed directly.
    case realScene = "real_scene"
    /// A recapture of an LCD (RGB subpixel stripes behind a black matrix).
    case lcdScreen = "lcd_screen"
    /// A recapture of an OLED (PenTile emitters).
    case oledScreen = "oled_screen"
    /// A recapture of a halftone print.
    case printedPaper = "printed_paper"
    /// No class is probable enough (`Configuration.minimumConfidence`). Never a model class.
    case unknown

    /// True for the two display classes.
    public var isScreen: Bool { self == .lcdScreen || self == .oledScreen }
}
