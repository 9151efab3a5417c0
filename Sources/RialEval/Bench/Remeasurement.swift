import Foundation

extension Benchmark {
    /// An item measured a second time at the end of the run: the paired iterations
    /// (`EndToEndUsage`) time the decode and each deployed method alone again, minutes
    /// after their rows. On a shared virtual machine the speed drifts by a quarter within
    /// minutes, so an item whose p50 lies near its target can pass in its row and fail when
    /// measured again, or the other way round; `unsettled` says so, and such a verdict says
    /// more about the machine than about the method. The row's verdict (and `bench`'s exit
    /// status) is left as it is: the second measurement is a check on it, not a retry.
    public struct Remeasurement: Sendable, Equatable, Codable {
        /// The row's key (`decode` or a method identifier).
        public var key: String
        /// The row's p50, ms.
        public var p50Ms: Double
        /// The p50 of the paired iterations' times, ms.
        public var repeatP50Ms: Double
        /// Paired iterations counted.
        public var repeatCount: Int
        /// The row's target, ms (nil: none).
        public var targetMs: Double?
        /// The two p50s lie on different sides of the target (only for a row with a
        /// `PASS` or `FAIL` verdict).
        public var unsettled: Bool

        enum CodingKeys: String, CodingKey {
            case key
            case p50Ms = "p50_ms"
            case repeatP50Ms = "repeat_p50_ms"
            case repeatCount = "repeat_count"
            case targetMs = "target_ms"
            case unsettled
        }

        /// `repeatP50Ms / p50Ms - 1`: how far the machine (or the item) moved between the two.
        public var drift: Double { repeatP50Ms / p50Ms - 1 }

        /// Nil when `times` holds no finite, non-negative time or the row's p50 is not finite
        /// and positive (the other times are left out).
        ///
        /// - Parameters:
        ///   - row: the item's row.
        ///   - times: the item's times in the paired iterations, ms.
        public init?(row: Entry, times: [Double]) {
            let valid = times.filter { $0.isFinite && $0 >= 0 }
            let p50 = row.statistics.p50
            guard !valid.isEmpty, p50.isFinite, p50 > 0 else { return nil }
            let again = LatencyStatistics(milliseconds: valid).p50
            key = row.key
            p50Ms = p50
            repeatP50Ms = again
            repeatCount = valid.count
            targetMs = row.targetMs
            // The row's verdict was `Entry.verdict` of its p50; the same rule on the repeat.
            unsettled =
                row.verdict != "n/a" && Entry.verdict(p50: again, targetMs: row.targetMs, release: true) != row.verdict
        }
    }
}
