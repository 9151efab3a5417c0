import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// `MoireSpectrum.loadTilePair` loads two tiles in one loop (interleaved running sums, for
/// speed); each tile must get exactly what `loadTile` gives it alone: the same windowed
/// values to the last bit and the same flatness verdict (issue 13, Performance: a
/// speed-up may not move any score). The reference is `loadTile`, which moire/1 used for
/// every tile before.
@Suite struct MoireTilePairTests {
    static func window(_ n: Int) -> [Double] {
        (0..<n).map { j in
            let s = sin(Double.pi * Double(j) / Double(n))
            return s * s
        }
    }

    /// Noise, an RGBA image, overlapping tiles, tiles in different rows, and a flat tile
    /// beside a textured one.
    @Test(arguments: [3, 4])
    func pairEqualsTwoSingleLoads(channels: Int) {
        let width = 96, height = 80, n = 32
        var rng = SplitMix64(seed: UInt64(channels))
        var samples = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 56) }
        // A flat 32 x 32 block at (60, 40): its tile has luma standard deviation 0.
        for y in 40..<72 {
            for x in 60..<92 {
                for c in 0..<channels { samples[(y * width + x) * channels + c] = 77 }
            }
        }
        let image = Image8(width: width, height: height, channels: channels, samples: samples)!
        let window = Self.window(n)
        let cases: [((x: Int, y: Int), (x: Int, y: Int))] = [
            ((0, 0), (40, 0)), ((10, 5), (20, 9)), ((3, 7), (60, 40)), ((60, 40), (0, 48)),
        ]
        for (a, b) in cases {
            image.withRows { rows in
                var pairA = [Double](repeating: 0, count: n * n), pairB = pairA
                let flags = MoireSpectrum.loadTilePair(
                    rows, a, b, n: n, window: window, re: &pairA, im: &pairB, flatLumaStd: 1)
                var singleA = [Double](repeating: 0, count: n * n), singleB = singleA
                let flagA = MoireSpectrum.loadTile(
                    rows, origin: a, n: n, window: window, into: &singleA, flatLumaStd: 1)
                let flagB = MoireSpectrum.loadTile(
                    rows, origin: b, n: n, window: window, into: &singleB, flatLumaStd: 1)
                #expect(pairA.map(\.bitPattern) == singleA.map(\.bitPattern), "tile \(a)")
                #expect(pairB.map(\.bitPattern) == singleB.map(\.bitPattern), "tile \(b)")
                #expect(flags.0 == flagA && flags.1 == flagB)
            }
        }
        // The flat block is flat, the noise is not (the verdicts compared above are not all alike).
        image.withRows { rows in
            var a = [Double](repeating: 0, count: n * n), b = a
            let flags = MoireSpectrum.loadTilePair(
                rows, (60, 40), (0, 0), n: n, window: window, re: &a, im: &b, flatLumaStd: 1)
            #expect(flags.0 == false && flags.1 == true)
        }
    }
}
