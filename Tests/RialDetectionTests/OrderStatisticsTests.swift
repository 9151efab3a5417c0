import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// Radix selection against its independent oracle, `sorted()[k]`, over the shapes of
/// input that exercise each of its paths: a few values (quickselect only), hundreds
/// (one histogram), thousands (four interleaved histograms), values equal but for their
/// last mantissa bit (descent to the lowest byte), constant arrays, signs, zeros and
/// infinities; and the inputs are left untouched.
@Suite struct OrderStatisticsTests {
    /// Every rank of random doubles with many duplicates, at sizes on both sides of the
    /// quickselect threshold and of the wide-histogram size.
    @Test func everyRankMatchesSorting() {
        var rng = SeededGenerator(seed: 0x05E1)
        for size in [1, 2, 3, 16, 17, 47, 48, 49, 100, 257, 1023, 1024, 1500] {
            for distinct in [1, 2, 5, 1000, 1 << 30] {
                let values = (0..<size).map { _ in Double(Int(rng.next() % UInt64(distinct)) - distinct / 2) / 7 }
                let sorted = values.sorted()
                let ranks = size <= 257 ? Array(0..<size) : [0, 1, size / 3, (size - 1) / 2, size - 2, size - 1]
                values.withUnsafeBufferPointer { buffer in
                    for k in ranks { #expect(OrderStatistics.select(buffer, k: k) == sorted[k], "size \(size) k \(k)") }
                }
                #expect(OrderStatistics.lowerMedian(values) == sorted[(size - 1) / 2])
            }
        }
    }

    /// Float selection, including sorted and reversed runs (the classic quickselect
    /// worst cases) and depth-like values.
    @Test func floatsMatchSorting() {
        var rng = SeededGenerator(seed: 0xF10A7)
        for size in [1, 5, 33, 100, 2000, 49_152] {
            let values = (0..<size).map { _ in 0.1 + Float(rng.next() % 200_000) / 10_000 }
            let sorted = values.sorted()
            values.withUnsafeBufferPointer { buffer in
                for k in [0, size / 2, size - 1] { #expect(OrderStatistics.select(buffer, k: k) == sorted[k]) }
            }
        }
        for values in [(0..<999).map(Float.init), (0..<999).reversed().map(Float.init)] {
            values.withUnsafeBufferPointer { #expect(OrderStatistics.select($0, k: 499) == 499) }
        }
    }

    /// Keys that differ only in their lowest bits force the descent to the last byte;
    /// signs, signed zeros and infinities order as numbers.
    @Test func lowBitsSignsAndSpecialValues() {
        let base = 1234.5678
        var close = (0..<3000).map { Double(bitPattern: base.bitPattern + UInt64($0 % 300)) }
        close.reverse()
        let sortedClose = close.sorted()
        close.withUnsafeBufferPointer { buffer in
            for k in [0, 1, 299, 1500, 2999] { #expect(OrderStatistics.select(buffer, k: k) == sortedClose[k]) }
        }

        let mixed: [Double] =
            [3, -1, .infinity, -.infinity, 0, -0.0, 2.5, -7, 1e-300, -1e-300, 42, 0]
            + (0..<60).map { Double($0 % 7) - 3 }
        let sortedMixed = mixed.sorted()
        mixed.withUnsafeBufferPointer { buffer in
            for k in mixed.indices { #expect(OrderStatistics.select(buffer, k: k) == sortedMixed[k]) }
        }
    }

    /// Constant inputs, two far-apart values, and the empty median.
    @Test func degenerateInputs() {
        let constant = [Double](repeating: 0.25, count: 5000)
        #expect(OrderStatistics.lowerMedian(constant) == 0.25)
        let two = (0..<4001).map { $0 % 2 == 0 ? 1e-9 : 1e9 } // 2001 small, 2000 large
        #expect(OrderStatistics.lowerMedian(two) == 1e-9)
        #expect(OrderStatistics.lowerMedian([]) == 0)
        #expect(OrderStatistics.lowerMedian([7]) == 7)
        #expect(OrderStatistics.lowerMedian([2, 1]) == 1) // lower median of an even count
    }

    /// The input buffer is not modified.
    @Test func inputIsUntouched() {
        var rng = SeededGenerator(seed: 9)
        let values = (0..<5000).map { _ in Double(rng.next() % 1_000_000) }
        let copy = values
        _ = OrderStatistics.lowerMedian(values)
        #expect(values == copy)
    }
}
