import Foundation
import Testing

@testable import RialEval

/// Nearest-rank latency statistics; expectations are numpy 2.4's
/// `np.percentile(values, q, method="inverted_cdf")`.
@Suite struct MetricsLatencyTests {
    @Test func nearestRankOnOneToTwenty() {
        let stats = LatencyStatistics(milliseconds: (1...20).reversed().map(Double.init))
        // Ranks: p50 ceil(10) = 10, p90 ceil(18) = 18, p95 ceil(19) = 19, p99 ceil(19.8) = 20.
        #expect(stats.n == 20)
        #expect(stats.min == 1 && stats.max == 20 && stats.mean == 10.5)
        #expect(stats.p50 == 10 && stats.p90 == 18 && stats.p95 == 19 && stats.p99 == 20)
    }

    @Test func nearestRankOnTenValues() {
        let stats = LatencyStatistics(milliseconds: [70, 10, 100, 30, 90, 20, 50, 40, 80, 60])
        // p50 rank 5, p90 rank 9, p95 ceil(9.5) = 10, p99 ceil(9.9) = 10.
        #expect(stats.p50 == 50 && stats.p90 == 90 && stats.p95 == 100 && stats.p99 == 100)
        #expect(LatencyStatistics.nearestRank([10, 20, 30], percent: 0) == 10)
        #expect(LatencyStatistics.nearestRank([10, 20, 30], percent: 100) == 30)
        #expect(LatencyStatistics.nearestRank([10, 20, 30], percent: 101).isNaN)
    }

    /// An even count: p50 is the lower middle value (numpy inverted_cdf: 2, 30 and 10), not
    /// the mean of the two middle values (2.5, 35 and 15) that `bench-decode` printed before.
    @Test func medianOfAnEvenCountIsTheLowerMiddleValue() {
        #expect(LatencyStatistics(milliseconds: [4, 1, 3, 2]).p50 == 2)
        let stats = LatencyStatistics(milliseconds: [40, 10, 30, 20, 60, 50])
        #expect(stats.p50 == 30 && stats.mean == 35)
        #expect(LatencyStatistics(milliseconds: [10, 20]).p50 == 10)
    }

    @Test func singleEmptyAndNonFiniteValues() {
        let one = LatencyStatistics(milliseconds: [4.5])
        #expect(one.min == 4.5 && one.p50 == 4.5 && one.p99 == 4.5 && one.max == 4.5)
        let empty = LatencyStatistics(milliseconds: [])
        #expect(empty.n == 0 && empty.mean.isNaN && empty.p50.isNaN && empty.max.isNaN)
        let mixed = LatencyStatistics(milliseconds: [.nan, 2, .infinity, 4])
        #expect(mixed.n == 2 && mixed.excludedCount == 2 && mixed.mean == 3)
    }

    @Test func jsonUsesMillisecondKeysAndNullForUndefined() throws {
        let data = try JSONEncoder().encode(LatencyStatistics(milliseconds: []))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["n"] as? Int == 0)
        #expect(object["p95_ms"] is NSNull)
        let stats = LatencyStatistics(milliseconds: [1, 2, 3])
        let decoded = try JSONDecoder().decode(LatencyStatistics.self, from: JSONEncoder().encode(stats))
        #expect(decoded == stats)
    }
}
