import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// `MoireBandImage.sumRows` (16 samples at a time in 16-bit lanes) and the block sums
/// taken 4 lanes at a time must give exactly the integers and the floats of the plain
/// loops they replace (issue 13, Performance: a speed-up may not move any score). The
/// expectations are sums computed one sample at a time here, and `exactReduce`, the
/// `Float` reference the reduction is already held to.
@Suite struct MoireBandImageRowSumTests {
    /// Column sums of `rows` rows of `count` samples, `stride` apart, against the sum of
    /// each column taken one sample at a time; every length class of the 16-lane loop
    /// (none, a tail only, exact multiples, multiples plus a tail).
    @Test(arguments: [0, 1, 15, 16, 17, 33, 48, 250])
    func columnSumsEqualSampleBySampleSums(count: Int) {
        var rng = SplitMix64(seed: UInt64(count) + 11)
        for rows in [1, 2, 5, 7] {
            let stride = count + 3
            let samples = (0..<(rows * stride)).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 56) }
            var column = [UInt32](repeating: 0xdead_beef, count: count + 1)
            samples.withUnsafeBufferPointer { s in
                column.withUnsafeMutableBufferPointer { c in
                    MoireBandImage.sumRows(
                        s.baseAddress!, rowStride: stride, rows: rows, count: count, into: c.baseAddress!)
                }
            }
            for i in 0..<count {
                var expected: UInt32 = 0
                for dy in 0..<rows { expected += UInt32(samples[dy * stride + i]) }
                #expect(column[i] == expected, "rows \(rows), sample \(i)")
            }
            #expect(column[count] == 0xdead_beef, "wrote past the column")
        }
    }

    /// 257 rows of 255 (the largest the precondition allows): 65,535 per column, the top
    /// of a 16-bit lane, without wrapping.
    @Test func saturatedColumnsReachTheTopOfALane() {
        let rows = 257, count = 40
        let samples = [UInt8](repeating: 255, count: rows * count)
        var column = [UInt32](repeating: 0, count: count)
        samples.withUnsafeBufferPointer { s in
            column.withUnsafeMutableBufferPointer { c in
                MoireBandImage.sumRows(s.baseAddress!, rowStride: count, rows: rows, count: count, into: c.baseAddress!)
            }
        }
        #expect(column == [UInt32](repeating: 65_535, count: count))
    }

    /// Whole reductions against `exactReduce` (block row sums in `Float`) where the new
    /// loops have edge cases: RGBA (the 4-lane block load reads a real sample in lane 3),
    /// RGB with the last block at the end of the row (the spare element), factors whose
    /// spans are not multiples of 16 samples, and a large factor (k = 40: sums up to
    /// 408,000, beyond 16 bits, taken in 32-bit lanes).
    @Test(arguments: [(3, 1), (3, 3), (4, 3), (3, 7), (4, 9), (3, 40)])
    func reductionEqualsFloatReference(channels: Int, k: Int) {
        let w = 21, h = 13
        var rng = SplitMix64(seed: UInt64(100 * k + channels))
        let width = w * k + k - 1, height = h * k + k / 2
        let samples = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 56) }
        let image = Image8(width: width, height: height, channels: channels, samples: samples)!
        let fast = image.withRows { MoireBandImage(image: $0, factor: k, origins: [(x: 0, y: 0)], tileSize: w) }
        let reference = image.withRows { rows in
            var planes = [Float](repeating: 0, count: 3 * w * h)
            MoireBandImage.exactReduce(
                rows, into: &planes, factor: k, width: w, height: h,
                rowNeeded: [Bool](repeating: true, count: h), spans: [(0, w)])
            return planes
        }
        #expect(fast.width == w && fast.height == h)
        #expect(fast.planes.map(\.bitPattern) == reference.map(\.bitPattern))
    }
}
