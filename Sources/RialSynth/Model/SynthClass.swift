/// What a synthetic capture shows. Raw values are the dataset labels of
/// `rial-bench-dataset/1` (see `specs/dataset-format.md`).
public enum SynthClass: String, Codable, Sendable, CaseIterable, Equatable {
    /// A bona fide 3D scene, or a bona fide flat subject (tag `flat_subject`).
    case realScene = "real_scene"
    /// A recapture of an LCD: RGB vertical stripes behind a black matrix.
    case lcdScreen = "lcd_screen"
    /// A recapture of an OLED: diamond PenTile emitters.
    case oledScreen = "oled_screen"
    /// A recapture of a CMYK halftone print.
    case printedPaper = "printed_paper"

    /// True for every class except `realScene` (binary truth of the dataset format).
    public var isAttack: Bool { self != .realScene }
}

/// The kind of subject in front of the camera.
public enum SubjectKind: String, Codable, Sendable, CaseIterable, Equatable {
    /// Bona fide: a furnished room seen from standing height (3D).
    case room
    /// Bona fide: objects on a table seen from 0.3-1 m (3D).
    case tabletop
    /// Bona fide flat subject: a wall filling most of the frame.
    case wall
    /// Bona fide flat subject: a laser-printed text page on a desk.
    case document
    /// Displays, chosen by the physical width of the panel.
    case phone, tablet, monitor, television
    /// Prints: a halftoned photograph or a halftoned text page.
    case photoPrint = "photo_print"
    case textPrint = "text_print"
}
