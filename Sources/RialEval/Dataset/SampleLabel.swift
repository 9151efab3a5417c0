/// The ground-truth label of a sample (`rial-bench-dataset/1`, specs/dataset-format.md).
///
/// Binary truth: `realScene` is bona fide, every other label is an attack (a recapture).
/// `screen` is a display of unknown panel type; panel-level confusion treats it as
/// matching either `lcdScreen` or `oledScreen`.
public enum SampleLabel: String, Sendable, Codable, CaseIterable, Hashable {
    case realScene = "real_scene"
    case lcdScreen = "lcd_screen"
    case oledScreen = "oled_screen"
    case screen = "screen"
    case printedPaper = "printed_paper"

    /// True for bona fide captures (the positive class of every ROC curve).
    public var isBonaFide: Bool { self == .realScene }

    /// True when `predicted` counts as correct for this truth at panel level:
    /// equal labels, or a `screen` truth/prediction against a specific panel type.
    public func matchesAtPanelLevel(_ predicted: SampleLabel) -> Bool {
        if self == predicted { return true }
        let panels: Set<SampleLabel> = [.lcdScreen, .oledScreen, .screen]
        return (self == .screen || predicted == .screen) && panels.contains(self) && panels.contains(predicted)
    }
}
