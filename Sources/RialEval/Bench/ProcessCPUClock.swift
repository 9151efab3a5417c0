import Foundation

/// The CPU time this process has used so far: user and system, every thread
/// (`CLOCK_PROCESS_CPUTIME_ID`). Differences of two readings are what count; the
/// benchmarks time CPU beside wall time with it.
enum ProcessCPUClock {
    /// Seconds so far; NaN if the clock cannot be read.
    static func seconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return .nan }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
