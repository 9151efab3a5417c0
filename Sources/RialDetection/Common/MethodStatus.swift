/// Whether a detection method produced a result (specs/methods.md: every method
/// returns `status` and, when not completed, `unavailable_reason`).
public enum MethodStatus: String, Sendable, Codable, Equatable {
    /// The method ran on usable input; `score` is meaningful.
    case completed
    /// The input does not allow the method to run (no depth, too small, all invalid).
    case unavailable
    /// The method itself failed unexpectedly.
    case failed
}
