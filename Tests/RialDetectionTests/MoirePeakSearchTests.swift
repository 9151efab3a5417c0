import Foundation
import Testing

@testable import RialDetection

/// The peak search on a hand-made half-plane power spectrum (n = 64): a flat floor of
/// power 1 (magnitude 1) with one bump, placed off the JPEG lattice and inside the band.
/// The search reads powers and roots them only where a magnitude is needed; these cases
/// pin the places where that could differ from searching the magnitudes.
@Suite struct MoirePeakSearchTests {
    static let n = 64
    static let search = MoireAnalyzer.peakSearch(n: n, configuration: .standard)

    /// Power 1 everywhere, `peak` at bin (kx, ky) and `neighbour` at (kx + 1, ky).
    static func spectrum(peak: Double, neighbour: Double, kx: Int = 13, ky: Int = 21) -> [Double] {
        var power = [Double](repeating: 1, count: (n / 2 + 1) * n)
        power[kx * n + ky] = peak
        power[(kx + 1) * n + ky] = neighbour
        return power
    }

    static func run(_ power: [Double]) -> MoirePeakSearch.Outcome {
        var scratch: [Double] = []
        return power.withUnsafeBufferPointer { search.search(power: $0, scratch: &scratch) }
    }

    /// A bump of power 10,000 (magnitude 100) over a floor of magnitude 1: one peak at
    /// its bin, with magnitude 100, the band median 1 and prominence and contrast 100
    /// (surround and radial level are the floor's magnitude 1).
    @Test func aBumpIsFoundWithItsMagnitude() throws {
        let outcome = Self.run(Self.spectrum(peak: 10_000, neighbour: 2_500))
        #expect(outcome.median == 1)
        let peak = try #require(outcome.peaks.first)
        #expect(outcome.peaks.count == 1)
        #expect(peak.kx == 13 && peak.ky == 21)
        #expect(peak.magnitude == 100)
        #expect(peak.prominence == 100 && peak.contrast == 100)
        #expect(outcome.bestStrength == 100)
    }

    /// A neighbour whose power is one ulp below the bump's has the same rounded
    /// magnitude, so the bump is not a strict local maximum of the magnitudes: no peak
    /// (comparing powers alone would have called it one).
    @Test func aNeighbourEqualInMagnitudeIsNotBelow() {
        // The first power above 10,000 whose predecessor has the same square root.
        var peak = 10_000.0
        while peak.nextDown.squareRoot() != peak.squareRoot() { peak = peak.nextUp }
        let neighbour = peak.nextDown
        #expect(neighbour < peak && neighbour.squareRoot() == peak.squareRoot())
        let outcome = Self.run(Self.spectrum(peak: peak, neighbour: neighbour))
        #expect(!outcome.peaks.contains { $0.kx == 13 && $0.ky == 21 })
        #expect(!outcome.peaks.contains { $0.kx == 14 && $0.ky == 21 })
    }

    /// The floor test is on magnitudes: with the standard noise floor 3 x the median
    /// magnitude 1, a bump of magnitude exactly 3 (power 9) is a candidate and one just
    /// below 3 in magnitude is not.
    @Test func theFloorIsTestedOnMagnitudes() {
        #expect(MoireAnalyzer.Configuration.standard.noiseFloorFactor == 3)
        let at = Self.run(Self.spectrum(peak: 9, neighbour: 1))
        #expect(at.bestStrength > 0, "magnitude 3 reaches the floor")
        let below = Self.run(Self.spectrum(peak: 9.0.nextDown.nextDown, neighbour: 1))
        #expect(below.bestStrength == 0, "magnitude below 3 does not")
    }
}
