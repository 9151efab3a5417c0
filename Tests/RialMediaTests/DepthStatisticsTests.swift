import Foundation
import Testing

@testable import RialMedia

@Suite("Depth statistics")
struct DepthStatisticsTests {
    @Test("Even count: median is the mean of the two middle values (numpy.median)")
    func evenCount() throws {
        // Valid values 1, 2, 3, 4 (hand calculation): mean 2.5, median (2 + 3) / 2 = 2.5,
        // population variance (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25.
        let map = DepthMap(width: 3, height: 2, metres: [4, .nan, 1, 3, .infinity, 2])!
        let stats = map.statistics()
        #expect(stats.pixelCount == 6)
        #expect(stats.validCount == 4)
        #expect(stats.validFraction == 4.0 / 6.0)
        #expect(stats.min == 1 && stats.max == 4)
        #expect(stats.median == 2.5)
        #expect(stats.mean == 2.5)
        #expect(abs(try #require(stats.std) - 1.25.squareRoot()) < 1e-15)
    }

    @Test("Odd count: median is the middle value")
    func oddCount() {
        let stats = DepthMap(width: 3, height: 1, metres: [3, 1, 2])!.statistics()
        #expect(stats.median == 2)
        #expect(stats.std == (2.0 / 3.0).squareRoot())
    }

    @Test("All-invalid map: fraction 0 and no values, no crash")
    func allInvalid() {
        let stats = DepthMap(width: 2, height: 2, metres: [.nan, .nan, .infinity, -.infinity])!.statistics()
        #expect(stats.validCount == 0)
        #expect(stats.validFraction == 0)
        #expect(stats.min == nil && stats.median == nil && stats.max == nil)
        #expect(stats.mean == nil && stats.std == nil)
    }

    @Test("Percentiles interpolate linearly between ranks (numpy.percentile default)")
    func percentiles() throws {
        let map = DepthMap(width: 5, height: 1, metres: [5, 1, 4, 2, 3])!
        // numpy.percentile([1,2,3,4,5], q): q=25 -> 2.0, q=10 -> 1.4, q=98 -> 4.92
        #expect(map.percentile(25) == 2.0)
        #expect(abs(try #require(map.percentile(10)) - 1.4) < 1e-12)
        #expect(abs(try #require(map.percentile(98)) - 4.92) < 1e-12)
        #expect(map.percentile(0) == 1 && map.percentile(100) == 5)
        #expect(DepthMap(width: 1, height: 1, metres: [.nan])!.percentile(50) == nil)
    }

    @Test("JSON uses snake_case keys")
    func coding() throws {
        let stats = DepthMap(width: 2, height: 1, metres: [1, .nan])!.statistics()
        let json = String(decoding: try JSONEncoder().encode(stats), as: UTF8.self)
        #expect(json.contains("\"valid_fraction\":0.5"))
        #expect(json.contains("\"valid_count\":1"))
        #expect(try JSONDecoder().decode(DepthStatistics.self, from: Data(json.utf8)) == stats)
    }
}
