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

    public init(title: String, signal: String, blindTo: String, latencyTarget: LatencyTarget) {
        self.title = title
        self.signal = signal
        self.blindTo = blindTo
        self.latencyTarget = latencyTarget
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
