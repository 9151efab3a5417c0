import Foundation
import RialTestSupport
import Testing

@testable import RialDetection

/// The histogram peak rule and the margin, on inputs small
/// enough to check by hand.
@Suite struct DepthV1KernelTests {
    /// 50 bins, all zero except the given ones.
    func histogram(_ bins: [Int: Int]) -> [Int] {
        (0..<50).map { bins[$0] ?? 0 }
    }

    func layers(_ h: [Int], fraction: Double = 0.05) -> Int {
        DepthAnalyzerV1.countLayers(histogram: h, smoothingWindow: 3, thresholdFraction: fraction)
    }

    /// Pins the reading "edges reuse the bin itself": h[0] = 1, h[1] = 2.
    /// Replicating the edge bin: s[0] = (1 + 1 + 2) / 3 = 4/3 > s[1] = (1 + 2 + 0) / 3 = 1
    /// -> bin 0 is a peak, bin 1 is not (1 < 4/3): 1 layer. (Copying the edge bin,
    /// s[0] = h[0] = 1, or zero padding, s[0] = (0 + 1 + 2) / 3 = 1, would give
    /// s[0] == s[1] and 0 layers.)
    @Test func edgeBinReusesItself() {
        #expect(layers(histogram([0: 1, 1: 2])) == 1)
        // Mirror image at the top end: s[49] = (2 + 1 + 1) / 3 = 4/3 > s[48] = 1.
        #expect(layers(histogram([48: 2, 49: 1])) == 1)
    }

    /// An isolated interior spike becomes a plateau s[9] = s[10] = s[11] = 5/3: no
    /// strict peak. Two adjacent equal bins also plateau. A spike with lower neighbours
    /// on both sides (h[19] = 1, h[20] = 5, h[21] = 1 -> s[20] = 7/3 > s[19] = s[21] = 2)
    /// is a peak.
    @Test func interiorPeaksMustBeStrict() {
        #expect(layers(histogram([10: 5])) == 0)
        #expect(layers(histogram([10: 5, 11: 5])) == 0)
        #expect(layers(histogram([19: 1, 20: 5, 21: 1])) == 1)
    }

    /// "Above the threshold" is strict. h[0] = 2, h[49] = 1: s[0] = 4/3 (the maximum),
    /// s[49] = (0 + 1 + 1) / 3 = 2/3. With fraction 0.5 the threshold is 0.5 x 4/3 = 2/3
    /// exactly in binary (halving is exact), equal to s[49]: bin 49 does not count, 1
    /// layer. Any smaller fraction lets it count: 2 layers.
    @Test func thresholdIsStrict() {
        let h = histogram([0: 2, 49: 1])
        #expect(layers(h, fraction: 0.5) == 1)
        #expect(layers(h, fraction: 0.5.nextDown) == 2)
    }

    /// Window 1 is no smoothing: a lone interior spike is a peak.
    @Test func windowOneDoesNotSmooth() {
        #expect(
            DepthAnalyzerV1.countLayers(
                histogram: histogram([10: 5]), smoothingWindow: 1,
                thresholdFraction: 0.05) == 1)
    }

    /// A term is > 0.5 exactly when its criterion holds, even for distances so small
    /// that the logistic rounds to 0.5, and at inclusive boundaries (z = 0, holds).
    @Test func termKeepsTheSideOfTheThreshold() {
        #expect(DepthAnalyzerV1.term(1e-300, holds: true) > 0.5)
        #expect(DepthAnalyzerV1.term(0, holds: true) > 0.5)
        #expect(DepthAnalyzerV1.term(0, holds: false) == 0.5)
        #expect(DepthAnalyzerV1.term(-1e-300, holds: false) <= 0.5)
        #expect(DepthAnalyzerV1.term(1, holds: true) == 1 / (1 + exp(-1.0)))
        #expect(DepthAnalyzerV1.term(-800, holds: false) == 0)
        #expect(DepthAnalyzerV1.term(800, holds: true) == 1)
    }

    /// The margin against the spec's boolean formula on criteria drawn from sets that
    /// include every threshold exactly and its floating-point neighbours.
    @Test func marginMatchesTheDecisionAtEveryBoundary() {
        let c = DepthAnalyzerV1.Configuration.reference
        func around(_ t: Double) -> [Double] { [t.nextDown, t, t.nextUp] }
        let stds = [0.0, 0.19, 0.2, 1] + around(0.5)
        let layerCounts = [0, 2, 3, 4, 10]
        let coherences = [0.0, 1] + around(0.3)
        let ranges = [0.0, 1] + around(0.15)
        let uniformities = [0.0, 1] + around(0.85)
        let means = [0.1, 1, 3] + around(0.2) + around(1.5)
        var checked = 0
        for std in stds {
            for layers in layerCounts {
                for coherence in coherences {
                    for range in ranges {
                        for uniformity in uniformities {
                            for mean in means {
                                let screen = range < 0.15 && uniformity > 0.85 && 0.2 <= mean && mean <= 1.5
                                let real = !screen && std > 0.5 && layers >= 3 && coherence > 0.3
                                let m = DepthAnalyzerV1.margin(
                                    std: std, layers: layers, coherence: coherence, range: range,
                                    uniformity: uniformity, mean: mean, configuration: c)
                                if (m > 0.5) != real || !(0...1).contains(m) {
                                    Issue.record(
                                        "margin \(m) for std \(std) layers \(layers) coherence \(coherence) range \(range) uniformity \(uniformity) mean \(mean)"
                                    )
                                }
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(checked == 7 * 5 * 5 * 5 * 5 * 9)
    }

    /// Hand value: std 0.7, layers 5, coherence 0.5, range 1 (not a screen) -> terms
    /// std σ(2), layers σ(2.5), coherence σ(2), not-screen ≈ σ(17) -> margin σ(2)
    /// = 1 / (1 + e^-2) = 0.88079707797788231.
    @Test func marginHandValue() {
        let m = DepthAnalyzerV1.margin(
            std: 0.7, layers: 5, coherence: 0.5, range: 1, uniformity: 0.2, mean: 2,
            configuration: .reference)
        #expect(abs(m - 0.88079707797788231) < 1e-12)
    }
}
