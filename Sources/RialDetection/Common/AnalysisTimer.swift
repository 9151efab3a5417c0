/// Measures `analysis_time_ms` with the monotonic `ContinuousClock` (available on
/// Linux, macOS 13 and iOS 16).
struct AnalysisTimer {
    private let start = ContinuousClock.now

    /// Milliseconds since the timer was created, >= 0.
    var elapsedMilliseconds: Double {
        let elapsed = (ContinuousClock.now - start).components
        return Swift.max(0, Double(elapsed.seconds) * 1_000 + Double(elapsed.attoseconds) / 1e15)
    }
}
