/// What a detection method looks at, what it cannot see, and how fast it must be:
/// stated once, on the method, and read by the reports, the methodology and the
/// benchmark.
public struct MethodSummary: Sendable, Equatable {
    /// A short title, e.g. `Moire FFT`.
    public var title: String
    /// What the method measures and how it scores, in a paragraph.
    public var signal: String
    /// What it cannot see: the attacks and real scenes it gets wrong.
    public var blindTo: String
    /// Its latency target (median), milliseconds, and where the target comes from.
    public var latencyTarget: LatencyTarget
    /// For a method whose score takes only a few values: the result field (a number)
    /// that ranks captures continuously, evaluated beside the score as
    /// `NAME/VERSION:FIELD` (depth/1's `margin`). Nil for a continuous score.
    public var continuousField: String?

    public init(
        title: String, signal: String, blindTo: String, latencyTarget: LatencyTarget,
        continuousField: String? = nil
    ) {
        self.title = title
        self.signal = signal
        self.blindTo = blindTo
        self.latencyTarget = latencyTarget
        self.continuousField = continuousField
    }
}

/// A latency target: the median must be at most `milliseconds`.
public struct LatencyTarget: Sendable, Equatable {
    public var milliseconds: Double
    /// Where the number comes from, e.g. `methods.md §9`.
    public var source: String

    public init(milliseconds: Double, source: String) {
        self.milliseconds = milliseconds
        self.source = source
    }
}
