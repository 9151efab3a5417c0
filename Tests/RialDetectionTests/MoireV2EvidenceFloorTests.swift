import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// moire/2's one-sided peak evidence (`peak_evidence_floor`): weak or absent peaks all
/// count as the floor, strong peaks as measured. Expected values come from the logistic
/// written in the configuration's documentation (moire/1's midpoint 25 and scale 0.3,
/// `MoireAnalyzer.Configuration`) and from the images' construction, never from a run.
@Suite struct MoireV2EvidenceFloorTests {
    /// `1 / (1 + exp(-(ln x - ln 25) / 0.3))`, the documented peak logistic.
    static func peakLogistic(_ x: Double) -> Double { 1 / (1 + exp(-(log(x) - log(25)) / 0.3)) }

    static func analyzer(floor: Double) throws -> MoireAnalyzerV2 {
        var c = MoireAnalyzerV2.Configuration()
        c.peakEvidenceFloor = floor
        return try MoireAnalyzerV2(configuration: c)
    }

    /// Pink (1/f) luma and chroma, no periodic structure (as `MoireV2Tests`).
    static func pinkImage(seed: UInt64) -> Image8 {
        let n = 512
        let luma = MoireV2Tests.pinkField(n: n, seed: seed)
        let c1 = MoireV2Tests.pinkField(n: n, seed: seed + 100), c2 = MoireV2Tests.pinkField(n: n, seed: seed + 200)
        var samples = [UInt8](repeating: 0, count: n * n * 3)
        for i in 0..<(n * n) {
            let y = 128 + 30 * luma[i], a = 8 * c1[i], b = 8 * c2[i]
            let g = y - 0.356 * a + 0.114 * b
            for (c, v) in [g + a, g, g + a / 2 - b].enumerated() {
                samples[i * 3 + c] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return Image8(width: n, height: n, channels: 3, samples: samples)!
    }

    /// Without a floor the peak part is moire/1's confidence (the default keeps moire/2 as
    /// it was).
    @Test(arguments: [UInt64(1), 2])
    func zeroFloorKeepsMoire1Confidence(seed: UInt64) throws {
        let r = try Self.analyzer(floor: 0).analyze(Self.pinkImage(seed: seed))
        let band = try #require(r.bandConfidence), peak = try #require(r.peakConfidence)
        #expect(r.confidence == max(band, peak))
        #expect(try #require(r.score) == 1 - max(band, peak))
    }

    /// Pink noise has peak evidence far below 20 (the simulated real scenes' 95th
    /// percentile is 20.4, docs/moire-one-sided.md): with floor 20 its confidence is the
    /// floor's, 1 / (1 + exp(-ln(0.8) / 0.3)) = 0.3245..., for every seed: "no moire found"
    /// is one value, whatever the scene's detail.
    @Test func evidenceBelowTheFloorCountsAsTheFloor() throws {
        let expected = 1 / (1 + exp(-log(20.0 / 25) / 0.3))
        #expect(abs(expected - Self.peakLogistic(20)) < 1e-15)
        let analyzer = try Self.analyzer(floor: 20)
        var scores: [Double] = []
        for seed: UInt64 in [1, 2, 3] {
            let r = analyzer.analyze(Self.pinkImage(seed: seed))
            #expect(r.status == .completed)
            #expect(try #require(r.peakEvidence) < 20)
            #expect(try #require(r.bandConfidence) < expected)
            #expect(abs(try #require(r.confidence) - expected) < 1e-12)
            #expect(r.detected == false)
            scores.append(try #require(r.score))
        }
        #expect(Set(scores).count == 1, "scores \(scores)")
    }

    /// A gray grating at 0.3 cycle per pixel along x (period 3.33 px, amplitude 40 levels,
    /// off the multiples of 1/8 that moire/1 skips as the JPEG block grid) is a sharp peak
    /// far above the surround: evidence well above any floor up to 25, so the floor changes
    /// nothing.
    @Test func strongPeaksAreCountedAsMeasured() throws {
        let image = MoireV2Tests.bands(width: 768, height: 512, fx: 0.3, fy: 0, amplitude: 40, phases: [0, 0, 0])
        let free = try Self.analyzer(floor: 0).analyze(image)
        let floored = try Self.analyzer(floor: 25).analyze(image)
        let evidence = try #require(free.peakEvidence)
        #expect(evidence > 25)
        #expect(floored.confidence == free.confidence)
        #expect(
            abs(try #require(floored.confidence) - max(try #require(free.bandConfidence), Self.peakLogistic(evidence)))
                < 1e-9)
        #expect(floored.detected == true)
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func floorIsValidated(value: Double) {
        var c = MoireAnalyzerV2.Configuration()
        c.peakEvidenceFloor = value
        #expect(throws: ConfigurationError.self) { try MoireAnalyzerV2(configuration: c) }
        do {
            try c.validate()
        } catch {
            #expect(error.key == "peak_evidence_floor")
        }
    }

    @Test func floorDecodesFromItsKey() throws {
        let c = try JSONValue.parse(#"{"peak_evidence_floor": 20}"#)
            .decode(MoireAnalyzerV2.Configuration.self, overlaying: .standard)
        #expect(c.peakEvidenceFloor == 20)
        #expect(c.evidenceMidpoint == MoireAnalyzerV2.Configuration.standard.evidenceMidpoint)
    }
}

extension MoireV2EvidenceFloorTests {
    /// A configuration recorded before the key existed (every other key present) reads
    /// as floor 0, the analysis it was made with.
    @Test func recordedConfigurationWithoutTheKeyReadsAsNoFloor() throws {
        var c = MoireAnalyzerV2.Configuration()
        c.peakEvidenceFloor = 7
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(c)) as? [String: Any])
        object["peak_evidence_floor"] = nil
        let old = try JSONDecoder().decode(
            MoireAnalyzerV2.Configuration.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.peakEvidenceFloor == 0)
        #expect(old.tileSize == c.tileSize)
        object["tile_size"] = nil
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                MoireAnalyzerV2.Configuration.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }
}
