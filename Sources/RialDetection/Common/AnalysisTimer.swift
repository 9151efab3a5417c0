import RialMedia

/// Measures `analysis_time_ms` with the monotonic `ContinuousClock` (available on
/// Linux, macOS 13 and iOS 16).
struct AnalysisTimer {
    private let start = ContinuousClock.now

    /// Milliseconds since the timer was created, >= 0.
    var elapsedMilliseconds: Double {
        Swift.max(0, (ContinuousClock.now - start).milliseconds)
    }
}
