import Foundation
import RialMedia
import RialSynth
import Testing

@testable import RialDetection

/// artifacts/2 on images built from formulas (seeded noise, row gains, frames, blur),
/// with the expected numbers worked out by hand from the definitions in
/// `ArtifactAnalyzerV2` (specs/methods.md §5: a rolling shutter records a display's
/// PWM as horizontal bands, periodic energy in the row-mean profile).
@Suite struct ArtifactV2Tests {
    /// Uniform noise `base ± amplitude` per channel, rows multiplied by
    /// `1 + depth sin(2 pi y / period)` when `period > 0`; transposed (bands along
    /// columns) with `alongColumns`.
    static func noise(
        width: Int, height: Int, base: Double = 110, amplitude: Double = 40, period: Double = 0,
        depth: Double = 0, alongColumns: Bool = false, seed: UInt64 = 7
    ) -> Image8 {
        var rng = SplitMix64(seed: seed)
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let t = Double(alongColumns ? x : y)
                let gain = period > 0 ? 1 + depth * sin(2 * Double.pi * t / period) : 1
                for c in 0..<3 {
                    let u = 2 * Double(rng.next() >> 11) / 9007199254740992.0 - 1
                    let v = (base + amplitude * u) * gain
                    samples[(y * width + x) * 3 + c] = UInt8(min(255, max(0, v.rounded())))
                }
            }
        }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }

    /// Gray `inside` in the rectangle `[x0, x1) x [y0, y1)`, `outside` elsewhere.
    static func frame(
        width: Int, height: Int, x0: Int, x1: Int, y0: Int, y1: Int, inside: UInt8, outside: UInt8
    ) -> Image8 {
        var samples = [UInt8](repeating: outside, count: width * height * 3)
        for y in y0..<y1 {
            for x in x0..<x1 {
                for c in 0..<3 { samples[(y * width + x) * 3 + c] = inside }
            }
        }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }

    /// 768 x 512 (k = 1), noise ±40 on 110 (luma std 40 / sqrt 3 x |(0.299, 0.587,
    /// 0.114)| = 15.4, variance 237), rows scaled by 1 + 0.1 sin(2 pi y / 16).
    /// Row means: the band 110 x 0.1 = 11 levels of amplitude, variance 11² / 2 = 60.5
    /// (the 65-row trend window, 4 periods and a row, leaves it whole), plus the noise of
    /// a 768-pixel mean, 237 / 768 = 0.31. Detail (luma minus its 9 x 9 mean): the
    /// noise's 237 (1 - 1/81) = 234 plus the band minus its 9-row mean, amplitude 11 (1 -
    /// (1 + 2 (cos 22.5 + cos 45 + cos 67.5 + cos 90 degrees)) / 9) = 11 x 0.4415 = 4.86,
    /// variance 11.8: 246. banding_rows = 60.8 / 246 = 0.247. Columns: 32 whole periods
    /// average the band away; only the 512-pixel noise mean is left, 237 / 512 / 246 =
    /// 0.0019.
    @Test func rowBandingOfKnownPeriodAndContrastIsFound() throws {
        let r = ArtifactAnalyzerV2().analyze(Self.noise(width: 768, height: 512, period: 16, depth: 0.1))
        #expect(r.status == .completed)
        #expect(r.analysisFactor == 1)
        #expect(abs(try #require(r.bandingPeriodRows) - 16) < 0.5)
        let rows = try #require(r.bandingRows), columns = try #require(r.bandingColumns)
        #expect(abs(rows - 0.247) < 0.03, "banding_rows \(rows)")
        #expect(columns < 0.005, "banding_columns \(columns)")
    }

    /// The same bands along x (a photo stored rotated): found on the columns at period 16.
    @Test func columnBandingIsFoundOnTheColumns() throws {
        let r = ArtifactAnalyzerV2().analyze(
            Self.noise(width: 512, height: 768, period: 16, depth: 0.1, alongColumns: true))
        #expect(abs(try #require(r.bandingPeriodColumns) - 16) < 0.5)
        #expect(abs(try #require(r.bandingColumns) - 0.247) < 0.03)
        #expect(try #require(r.bandingRows) < 0.005)
    }

    /// Without bands the row means carry only the noise of a 768-pixel mean: 237 / 768 /
    /// 234 = 0.0013 (a flat textured field gives no banding).
    @Test func noiseWithoutBandsHasNoBandingEnergy() throws {
        let r = ArtifactAnalyzerV2().analyze(Self.noise(width: 768, height: 512))
        #expect(try #require(r.bandingRows) < 0.004)
        #expect(try #require(r.bandingColumns) < 0.004)
    }

    /// A constant photo is unavailable (luma range 0 < 2 levels), whatever its value.
    @Test func flatFieldIsUnavailable() {
        for value: UInt8 in [0, 128, 255] {
            let image = Image8(
                width: 200, height: 150, channels: 3, samples: [UInt8](repeating: value, count: 200 * 150 * 3))!
            let r = ArtifactAnalyzerV2().analyze(image)
            #expect(r.status == .unavailable)
            #expect(r.unavailableReason?.contains("constant") == true)
        }
    }

    /// 400 x 300 (k = 1): gray 200 inside [60, 340) x [45, 255), 20 outside. The ring
    /// (outer 10%: 40 columns, 30 rows) is all 20, the centre half [100, 300) x [75, 225)
    /// all 200 (gray: luma = value), so the ratio is (20 + 5) / (200 + 5) = 25 / 205.
    /// With only surround_weight = -1 and intercept 0, z = ln(205 / 25) and confidence =
    /// 8.2 / 9.2 = 0.8913.
    @Test func darkSurroundAroundABrightCentre() throws {
        let image = Self.frame(width: 400, height: 300, x0: 60, x1: 340, y0: 45, y1: 255, inside: 200, outside: 20)
        var c = ArtifactAnalyzerV2.Configuration()
        c.intercept = 0
        c.bandingRowsWeight = 0
        c.bandingColumnsWeight = 0
        c.fineDetailWeight = 0
        c.surroundWeight = -1
        let r = try ArtifactAnalyzerV2(configuration: c).analyze(image)
        #expect(abs(try #require(r.surroundRatio) - 25.0 / 205) < 1e-6)
        #expect(abs(try #require(r.confidence) - 8.2 / 9.2) < 1e-6)
        #expect(abs(try #require(r.score) - 1.0 / 9.2) < 1e-6)
        #expect(r.detected == true)
        // The reverse (a bright surround) is 205 / 25: confidence 1 / 9.2, not detected.
        let reverse = try ArtifactAnalyzerV2(configuration: c).analyze(
            Self.frame(width: 400, height: 300, x0: 60, x1: 340, y0: 45, y1: 255, inside: 20, outside: 200))
        #expect(abs(try #require(reverse.surroundRatio) - 205.0 / 25) < 1e-5)
        #expect(abs(try #require(reverse.confidence) - 1 / 9.2) < 1e-6)
        #expect(reverse.detected == false)
    }

    /// White noise has a flat spectrum (also after the Hann window, in expectation): the
    /// share is the band's share of the area above the floor. Annulus 1/8.5...1/2.6
    /// cycle/px: pi (1/2.6² - 1/8.5²) = 0.4213; minus the axis strips (3 bins = 3/256
    /// cycle wide, 2 x 2 x (0.3846 - 0.1176) long: 0.0125) and the 16 JPEG lattice points
    /// (1/8 (qx, qy), |q| in 0.94...3.08, 3 x 3 bins each: 16 x 9 / 256² = 0.0022); over
    /// the area above 0.01 (1 - pi 0.01² = 0.9997): 0.407.
    ///
    /// A 5 x 5 box blur multiplies the power by |D(fx) D(fy)|², D(f) = sin(5 pi f) /
    /// (5 sin(pi f)); summed with the same bins it leaves 0.297 (numpy on that formula, not
    /// on this code): a box keeps strong side lobes along the axes. Cosines of periods 20
    /// and 32 px only (no fine detail at all) leave the band nothing but 8-bit rounding
    /// (variance 1/12 against 800): below 0.001.
    @Test func fineDetailShareOfWhiteNoiseAndOfABlur() throws {
        let sharp = ArtifactAnalyzerV2().analyze(Self.noise(width: 768, height: 512))
        #expect(sharp.detailTileSize == 256)
        let share = try #require(sharp.fineDetailShare)
        #expect(abs(share - 0.407) < 0.03, "white-noise share \(share)")

        let image = Self.noise(width: 768, height: 512)
        var blurred = image.samples
        let w = 768, h = 512
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    var s = 0
                    for dy in -2...2 {
                        for dx in -2...2 {
                            let yy = min(h - 1, max(0, y + dy)), xx = min(w - 1, max(0, x + dx))
                            s += Int(image.samples[(yy * w + xx) * 3 + c])
                        }
                    }
                    blurred[(y * w + x) * 3 + c] = UInt8((Double(s) / 25).rounded())
                }
            }
        }
        let soft = ArtifactAnalyzerV2().analyze(Image8(width: w, height: h, channels: 3, samples: blurred)!)
        #expect(abs(try #require(soft.fineDetailShare) - 0.297) < 0.03)

        var smooth = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let v = 128 + 40 * cos(2 * Double.pi * Double(x) / 20) + 40 * cos(2 * Double.pi * Double(y) / 32)
                for c in 0..<3 { smooth[(y * w + x) * 3 + c] = UInt8(v.rounded()) }
            }
        }
        let none = ArtifactAnalyzerV2().analyze(Image8(width: w, height: h, channels: 3, samples: smooth)!)
        #expect(try #require(none.fineDetailShare) < 0.001)
    }

    /// Every weight 0: confidence = 1 / (1 + exp(-intercept)); intercept 0 gives 0.5,
    /// which is not above the 0.5 threshold.
    @Test func interceptAloneSetsTheConfidence() throws {
        var c = ArtifactAnalyzerV2.Configuration()
        c.bandingRowsWeight = 0
        c.bandingColumnsWeight = 0
        c.surroundWeight = 0
        c.fineDetailWeight = 0
        c.intercept = 0
        let r = try ArtifactAnalyzerV2(configuration: c).analyze(Self.noise(width: 128, height: 96))
        #expect(r.confidence == 0.5)
        #expect(r.detected == false)
        c.intercept = log(3)
        let three = try ArtifactAnalyzerV2(configuration: c).analyze(Self.noise(width: 128, height: 96))
        #expect(abs(try #require(three.confidence) - 0.75) < 1e-12)
    }

    /// The family's default aggregation input since 2026-11-27, but a phone's artifacts
    /// payload without `algorithm_version` is still read as `artifacts/1` (its fields are
    /// `artifacts/1`'s); one that names `artifacts/2` is read as it: 1 - confidence.
    @Test func aggregatesByDefaultButUnversionedPayloadsReadAsVersion1() throws {
        #expect(MethodRegistry.standard.newestByFamily[.artifacts] == .artifactsV2)
        #expect(PipelineConfiguration.standard.aggregateWith[.artifacts] == .artifactsV2)
        #expect(PipelineConfiguration.standard.methods.contains(.artifactsV1))
        #expect(MethodRegistry.standard.unversionedPayloadMethod(of: .artifacts)?.identifier == .artifactsV1)
        #expect(MethodRegistry.standard.unversionedPayloadMethod(of: .texture)?.identifier == .textureV3)
        let json = #"{"artifacts": {"algorithm_version": "artifacts/2", "confidence": 0.25, "detected": false}}"#
        let outcome = try #require(try DetectionPayload.parse(Data(json.utf8)).outcomes.first)
        #expect(outcome.summary.algorithmVersion == .artifactsV2)
        #expect(outcome.summary.score == 0.75)
    }

    /// Tiny, constant, extreme and odd-shaped images of 1 to 4 channels never crash: a
    /// result is unavailable with a reason, or completed with a finite score in 0...1.
    @Test func degenerateInputsNeverCrash() {
        var rng = SplitMix64(seed: 11)
        let sizes = [(1, 1), (2, 3), (10, 10), (63, 500), (64, 64), (65, 4000), (4000, 64), (97, 131), (300, 64)]
        for (w, h) in sizes {
            for channels in 1...4 {
                for pattern in 0..<4 {
                    let samples = (0..<(w * h * channels)).map { i -> UInt8 in
                        switch pattern {
                        case 0: return 0
                        case 1: return 255
                        case 2: return ((i / channels) % w + (i / channels) / w) % 2 == 0 ? 0 : 255
                        default: return UInt8(truncatingIfNeeded: rng.next())
                        }
                    }
                    let r = ArtifactAnalyzerV2().analyze(
                        Image8(width: w, height: h, channels: channels, samples: samples)!)
                    if r.status == .completed {
                        let score = r.score ?? -1
                        #expect(score.isFinite && score >= 0 && score <= 1, "\(w)x\(h)x\(channels) p\(pattern)")
                        #expect(r.bandingRows?.isFinite == true && r.fineDetailShare?.isFinite == true)
                    } else {
                        #expect(r.unavailableReason != nil, "\(w)x\(h)x\(channels) p\(pattern)")
                    }
                    if min(w, h) < 64 { #expect(r.status == .unavailable) }
                    if pattern < 2 { #expect(r.status == .unavailable) }
                }
            }
        }
    }

    /// Each out-of-range constant is refused with its key.
    @Test func configurationNamesTheOffendingKey() {
        func refused(_ key: String, _ change: (inout ArtifactAnalyzerV2.Configuration) -> Void) {
            var c = ArtifactAnalyzerV2.Configuration()
            change(&c)
            #expect(throws: ConfigurationError.self) { try c.validate() }
            do {
                try c.validate()
            } catch {
                #expect("\(error)".contains(key), "\(error)")
            }
        }
        refused("analysis_long_side") { $0.analysisLongSide = 100 }
        refused("min_image_side") { $0.minImageSide = 8 }
        refused("min_luma_range") { $0.minLumaRange = -1 }
        refused("banding_trend_divisor") { $0.bandingTrendDivisor = 1 }
        refused("banding_min_window") { $0.bandingMinWindow = 10 }
        refused("detail_box") { $0.detailBox = 2 }
        refused("banding_min_period") { $0.bandingMinPeriod = 1 }
        refused("surround_margin") { $0.surroundMargin = 0.3 }
        refused("surround_centre") { $0.surroundCentre = 1 }
        refused("surround_offset") { $0.surroundOffset = 0 }
        refused("detail_tile_size") { $0.detailTileSize = 300 }
        refused("detail_min_period") { $0.detailMinPeriod = 9 }
        refused("detail_max_period") { $0.detailMaxPeriod = 100 }
        refused("detail_floor_frequency") { $0.detailFloorFrequency = 0.2 }
        refused("jpeg_lattice_radius") { $0.jpegLatticeRadius = 5 }
        refused("log_floor") { $0.logFloor = 0 }
        refused("intercept") { $0.intercept = .nan }
        refused("surround_weight") { $0.surroundWeight = .infinity }
        refused("detection_threshold") { $0.detectionThreshold = 1 }
        #expect(throws: Never.self) { try ArtifactAnalyzerV2.Configuration.standard.validate() }
    }

    /// Registered after artifacts/1, in the artifacts family.
    @Test func registeredAfterVersionOne() throws {
        let ids = MethodRegistry.standard.identifiers.map(\.description)
        let one = try #require(ids.firstIndex(of: "artifacts/1")), two = try #require(ids.firstIndex(of: "artifacts/2"))
        #expect(two == one + 1)
        #expect(ArtifactAnalyzerV2.family == .artifacts)
    }
}
