import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// moire/2's analysis-scale reduction (`MoireBandImage`) sums each block in integers and
/// converts once; the reference (`MoireBandImage.exactReduce`) adds the block's row sums
/// in `Float`. Every such sum is an integer below 2^24 for k <= 256, so both must give
/// the same bits (issue 13, Performance: the speed-up may not move any score). Plus
/// block means worked out by hand, and the scheduler's measured cost of every method.
@Suite struct MoireBandImageReductionTests {
    static func noise(width: Int, height: Int, channels: Int, seed: UInt64) -> Image8 {
        var rng = SplitMix64(seed: seed)
        let samples = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 56) }
        return Image8(width: width, height: height, channels: channels, samples: samples)!
    }

    static func reference(_ image: Image8, factor k: Int, origins: [(x: Int, y: Int)], tileSize n: Int) -> [Float] {
        image.withRows { rows in
            let w = rows.width / k, h = rows.height / k
            var rowNeeded = [Bool](repeating: false, count: h)
            var columns: [(start: Int, end: Int)] = []
            for o in origins {
                for y in o.y..<min(h, o.y + n) { rowNeeded[y] = true }
            }
            // The tiles below are placed so that their columns form one span.
            let start = origins.map(\.x).min()!, end = min(w, origins.map(\.x).max()! + n)
            columns.append((start, end))
            var planes = [Float](repeating: 0, count: 3 * w * h)
            MoireBandImage.exactReduce(
                rows, into: &planes, factor: k, width: w, height: h, rowNeeded: rowNeeded, spans: columns)
            return planes
        }
    }

    @Test(arguments: [(1, 1), (3, 2), (3, 5), (4, 3), (1, 5), (2, 4)])
    func integerSumsEqualFloatRowSums(channels: Int, k: Int) {
        let n = 16
        let image = Self.noise(
            width: 40 * k + k - 1, height: 30 * k + k - 1, channels: channels, seed: UInt64(7 * k + channels))
        let origins = [(x: 2, y: 0), (x: 12, y: 0), (x: 2, y: 14)]
        let fast = image.withRows { MoireBandImage(image: $0, factor: k, origins: origins, tileSize: n) }
        let reference = Self.reference(image, factor: k, origins: origins, tileSize: n)
        #expect(fast.width == 40 && fast.height == 30)
        #expect(fast.planes.map(\.bitPattern) == reference.map(\.bitPattern))
    }

    /// All-255 blocks: the largest sums (k² x 255); the mean is 255 exactly.
    @Test func saturatedBlocksAverageTo255() {
        let k = 5, n = 8
        let image = Image8(
            width: 10 * k, height: 10 * k, channels: 3, samples: [UInt8](repeating: 255, count: 100 * k * k * 3))!
        let reduced = image.withRows { MoireBandImage(image: $0, factor: k, origins: [(x: 1, y: 1)], tileSize: n) }
        let plane = 100
        for c in 0..<3 {
            for y in 1..<9 {
                for x in 1..<9 { #expect(reduced.planes[c * plane + y * 10 + x] == 255) }
            }
        }
        // Blocks outside the tile are not read: they stay 0 (MoireBandImage's documentation).
        #expect(reduced.planes[0] == 0 && reduced.planes[9 * 10 + 9] == 0)
    }

    /// k = 2: red of pixel (x, y) is x + 2y (mod 256), green is 3, blue is y; a block's
    /// mean is its four values over 4 (exact in Float), worked out here by hand.
    @Test func twoByTwoBlockMeans() {
        let w = 16, h = 12
        var samples = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                samples[(y * w + x) * 3] = UInt8(x + 2 * y)
                samples[(y * w + x) * 3 + 1] = 3
                samples[(y * w + x) * 3 + 2] = UInt8(y)
            }
        }
        let image = Image8(width: w, height: h, channels: 3, samples: samples)!
        let reduced = image.withRows { MoireBandImage(image: $0, factor: 2, origins: [(x: 0, y: 0)], tileSize: 6) }
        let plane = 8 * 6
        // Block (bx, by) covers x = 2bx, 2bx+1 and y = 2by, 2by+1:
        // red = ((2bx + 4by) + (2bx+1 + 4by) + (2bx + 4by+2) + (2bx+1 + 4by+2)) / 4 = 2bx + 4by + 1.5.
        for by in 0..<6 {
            for bx in 0..<6 {
                #expect(reduced.planes[by * 8 + bx] == Float(2 * bx + 4 * by) + 1.5)
                #expect(reduced.planes[plane + by * 8 + bx] == 3)
                #expect(reduced.planes[2 * plane + by * 8 + bx] == Float(2 * by) + 0.5)
            }
        }
    }

    /// Every standard method has a measured cost: one missing is scheduled last and
    /// given the lowest reader-slot priority (`CaptureAnalyzer.expectedCost`), which
    /// left moire/2, the longest row method, to run after the decode.
    @Test func everyStandardMethodHasAMeasuredCost() {
        for identifier in MethodRegistry.standard.identifiers {
            #expect(MeasuredCosts.milliseconds[identifier.description] != nil, "\(identifier)")
        }
    }
}
