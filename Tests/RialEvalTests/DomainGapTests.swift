import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialEval

/// Gaussian samples from `SplitMix64` by Box-Muller.
private struct Gaussian {
    var rng: SplitMix64
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }
    mutating func next() -> Float {
        let u1 = (Double(rng.next() >> 11) + 0.5) * 0x1p-53, u2 = Double(rng.next() >> 11) * 0x1p-53
        return Float((-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }
}

/// An RGB planar image: `level` plus independent Gaussian noise of `sigma` per channel.
private func noisyGray(width: Int, height: Int, level: Float, sigma: Float, seed: UInt64) -> PlanarImage {
    var gaussian = Gaussian(seed: seed)
    let data = (0..<(3 * width * height)).map { _ in level + sigma * gaussian.next() }
    return PlanarImage(width: width, height: height, channels: 3, data: data)!
}

@Suite struct GapStatisticEstimatorTests {
    /// Immerkaer's estimate on white Gaussian noise returns its sigma; luma noise is
    /// sigma sqrt(0.299² + 0.587² + 0.114²) = 0.66856 sigma (hand calculation).
    @Test(arguments: [1.0 as Float, 3.0, 8.0])
    func whiteNoiseGivesItsSigmaBack(sigma: Float) {
        let s = ImageGapMeasurement.measure(
            image: noisyGray(width: 640, height: 480, level: 128, sigma: sigma, seed: 7))
        for key in [GapStatistic.noiseRed, .noiseGreen, .noiseBlue] {
            #expect(abs(s[key]! - Double(sigma)) < 0.05 * Double(sigma), "\(key) \(s[key]!)")
        }
        #expect(abs(s[.noiseLuma]! - 0.66856 * Double(sigma)) < 0.05 * 0.66856 * Double(sigma))
        // White noise: halving the image halves sigma.
        #expect(abs(s[.noiseCorrelationLuma]! - 1) < 0.08)
        // White noise: flat spectrum (slope 0) and the area share of 0.25...0.5 in 0.02...0.5:
        // (0.5² - 0.25²) / (0.5² - 0.02²) = 0.7512, log10 = -0.1243.
        #expect(abs(s[.spectralSlope]!) < 0.1)
        #expect(abs(s[.highFrequencyEnergy]! - -0.1243) < 0.03)
    }

    /// Noise smoothed by a 2 x 2 box is low-pass: the ratio rises clearly above 1.
    @Test func lowPassNoiseHasCorrelationAboveOne() {
        let white = noisyGray(width: 641, height: 481, level: 128, sigma: 6, seed: 3)
        var smooth = [Float](repeating: 0, count: 3 * 640 * 480)
        for c in 0..<3 {
            for y in 0..<480 {
                for x in 0..<640 {
                    smooth[c * 640 * 480 + y * 640 + x] =
                        (white[x, y, c] + white[x + 1, y, c] + white[x, y + 1, c] + white[x + 1, y + 1, c]) / 4
                }
            }
        }
        let s = ImageGapMeasurement.measure(image: PlanarImage(width: 640, height: 480, channels: 3, data: smooth)!)
        #expect(s[.noiseCorrelationLuma]! > 1.3)
        #expect(s[.spectralSlope]! < -0.3)
    }

    /// Hand-made profiles: lo 50, hi 150, 10 levels of overshoot and of undershoot next to
    /// the edge give (10 + 10) / 100 = 0.2; a clean step gives 0; a step of 10 is no edge.
    @Test func overshootOfHandProfiles() {
        #expect(
            abs(ImageGapMeasurement.relativeOvershoot([50, 50, 50, 40, 60, 140, 160, 150, 150, 150, 150])! - 0.2) < 1e-6
        )
        #expect(ImageGapMeasurement.relativeOvershoot([50, 50, 50, 50, 50, 100, 150, 150, 150, 150, 150]) == 0)
        #expect(ImageGapMeasurement.relativeOvershoot([50, 50, 50, 50, 50, 55, 60, 60, 60, 60, 60]) == nil)
        // Plateau varying by 20% of the step: not an isolated edge.
        #expect(ImageGapMeasurement.relativeOvershoot([30, 50, 50, 50, 50, 100, 150, 150, 150, 150, 150]) == nil)
    }

    /// An image of vertical stripes 40 px wide with halos of 10 levels on both sides of
    /// each 100-level edge: the median overshoot is 0.2.
    @Test func sharpenedStripesGiveTheirHalo() {
        let w = 400, h = 120
        var data = [Float](repeating: 0, count: 3 * w * h)
        for y in 0..<h {
            for x in 0..<w {
                let phase = x % 40
                var v: Float = phase < 20 ? 80 : 180
                if phase == 19 || phase == 39 { v += phase == 19 ? -10 : 10 }
                if phase == 20 || phase == 0 { v += phase == 20 ? 10 : -10 }
                for c in 0..<3 { data[c * w * h + y * w + x] = v }
            }
        }
        let s = ImageGapMeasurement.measure(image: PlanarImage(width: w, height: h, channels: 3, data: data)!)
        #expect(abs(s[.haloOvershoot]! - 0.2) < 1e-6)
    }

    /// A luma sinusoid of 0.05 cycles/px in noise is the whitened spectrum's peak.
    @Test func sinusoidalBandIsFoundAtItsFrequency() {
        var image = noisyGray(width: 768, height: 512, level: 128, sigma: 2, seed: 11)
        let n = 768 * 512
        for y in 0..<512 {
            for x in 0..<768 {
                let v = 15 * Float(sin(2 * Double.pi * 0.05 * Double(x)))
                for c in 0..<3 { image.data[c * n + y * 768 + x] += v }
            }
        }
        let s = ImageGapMeasurement.measure(image: image)
        #expect(abs(s[.bandPeakFrequency]! - 0.05) <= 1.0 / 256)
        #expect(s[.bandPeakProminence]! > 2)
    }

    @Test func tooSmallOrFlatImagesGiveNoNoiseNotATrap() {
        #expect(ImageGapMeasurement.measure(image: PlanarImage(width: 8, height: 8, channels: 3)).isEmpty)
        // All clipped: no eligible block, so no noise statistic (and no crash).
        let white = PlanarImage(width: 64, height: 64, channels: 3, data: [Float](repeating: 255, count: 3 * 64 * 64))!
        let s = ImageGapMeasurement.measure(image: white)
        #expect(s[.noiseLuma] == nil)
        #expect(s[.clippedFraction] == 1)
    }
}

@Suite struct JPEGQuantizationTests {
    /// libjpeg at quality 50 uses the standard tables unscaled; at 75, scale 50:
    /// (16 x 50 + 50) / 100 = 8 and (11 x 50 + 50) / 100 = 6 (integer division).
    @Test func ijgScalingByHand() {
        #expect(
            JPEGQuantizationTables.ijgTable(JPEGQuantizationTables.standardLuma, quality: 50)
                == JPEGQuantizationTables.standardLuma)
        let q75 = JPEGQuantizationTables.ijgTable(JPEGQuantizationTables.standardLuma, quality: 75)
        #expect(q75[0] == 8 && q75[1] == 6)
        #expect(
            JPEGQuantizationTables.ijgTable(JPEGQuantizationTables.standardLuma, quality: 100).allSatisfy { $0 == 1 })
    }

    /// A JPEG written by libjpeg at quality Q gives Q back with a zero table mismatch.
    @Test(arguments: [30, 50, 75, 85, 90, 95, 98])
    func writtenQualityIsRecovered(quality: Int) throws {
        var rng = SplitMix64(seed: 5)
        let samples = (0..<(64 * 48 * 3)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let image = Image8(width: 64, height: 48, channels: 3, samples: samples)!
        let data = try JPEGEncoder.encode(image, quality: quality)
        let tables = try JPEGQuantizationTables.read(data)
        let luma = try #require(tables.luma)
        let fit = try #require(JPEGQuantizationTables.estimateQuality(luma, base: JPEGQuantizationTables.standardLuma))
        #expect(fit.quality == quality)
        #expect(fit.meanAbsoluteError == 0)
        let chroma = try #require(tables.chroma)
        #expect(
            JPEGQuantizationTables.estimateQuality(chroma, base: JPEGQuantizationTables.standardChroma)?.quality
                == quality)
    }

    @Test func garbageAndTruncatedInputThrowOrGiveNoTables() throws {
        #expect(throws: MediaError.self) { try JPEGQuantizationTables.read(Data()) }
        #expect(throws: MediaError.self) { try JPEGQuantizationTables.read(Data("not a jpeg".utf8)) }
        let image = Image8(width: 16, height: 16, channels: 3, samples: [UInt8](repeating: 90, count: 16 * 16 * 3))!
        let data = try JPEGEncoder.encode(image, quality: 80)
        for cut in [3, 4, 6, 20, 40, 100] {
            // A cut file either throws a MediaError or yields the tables read before the cut.
            do { _ = try JPEGQuantizationTables.read(data.prefix(cut)) } catch {}
        }
        // A DQT whose length runs past the end.
        #expect(throws: MediaError.self) {
            try JPEGQuantizationTables.read(Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x01]))
        }
        #expect(JPEGQuantizationTables.estimateQuality([1, 2, 3], base: JPEGQuantizationTables.standardLuma) == nil)
    }
}

@Suite struct DomainGapClassifierTests {
    /// Two features; the reference set is shifted by `shift` standard deviations in the
    /// first. Groups of 4 samples.
    func samples(shift: Double, seed: UInt64) -> (features: [[Double]], reference: [Bool], groups: [String]) {
        var g = Gaussian(seed: seed)
        var features: [[Double]] = [], reference: [Bool] = [], groups: [String] = []
        for i in 0..<400 {
            let isReference = i < 200
            features.append([Double(g.next()) + (isReference ? shift : 0), Double(g.next())])
            reference.append(isReference)
            groups.append("\(isReference ? "r" : "c")\(i / 4)")
        }
        return (features, reference, groups)
    }

    @Test func separableSetsScoreNearOne() throws {
        let s = samples(shift: 6, seed: 1)
        let c = try #require(
            DomainGapClassifier.evaluate(
                features: s.features, names: ["a", "b"], isReference: s.reference, groups: s.groups,
                bootstrap: BootstrapSettings(resamples: 200)))
        #expect(c.auc > 0.99)
        #expect(c.folds == 5)
        #expect(c.referenceCount == 200 && c.comparedCount == 200 && c.groupCount == 100)
        #expect(c.coefficients[0] > 0) // larger in the reference set
        #expect(try #require(c.interval).lower > 0.97)
    }

    @Test func identicalSetsScoreNearHalf() throws {
        let s = samples(shift: 0, seed: 2)
        let c = try #require(
            DomainGapClassifier.evaluate(
                features: s.features, names: ["a", "b"], isReference: s.reference, groups: s.groups,
                bootstrap: BootstrapSettings(resamples: 200)))
        #expect(abs(c.auc - 0.5) < 0.1)
        let interval = try #require(c.interval)
        #expect(interval.lower < 0.5 + 0.1 && interval.upper > 0.5 - 0.1)
    }

    @Test func oneClassOrNoFeaturesIsNil() {
        #expect(
            DomainGapClassifier.evaluate(
                features: [[1], [2]], names: ["a"], isReference: [true, true], groups: ["a", "b"]) == nil)
        #expect(DomainGapClassifier.evaluate(features: [], names: [], isReference: [], groups: []) == nil)
        // A single group cannot be split into folds.
        #expect(
            DomainGapClassifier.evaluate(
                features: [[1], [2]], names: ["a"], isReference: [true, false], groups: ["g", "g"]) == nil)
    }

    /// Hand-counted pairs.
    @Test func cliffsDeltaByHand() {
        #expect(DomainGapReport.cliffsDelta([1, 2, 3], [2]) == 0)
        #expect(DomainGapReport.cliffsDelta([3, 4], [1, 2]) == 1)
        #expect(DomainGapReport.cliffsDelta([1, 2], [2, 3]) == -0.75)
        #expect(DomainGapReport.cliffsDelta([], [1]) == nil)
        #expect(DomainGapReport.cliffsDelta([.nan], [1]) == nil)
    }

    /// Quartiles type 7 of 1...5: q1 2, median 3, q3 4.
    @Test func distributionByHand() {
        let d = DomainGapReport.Distribution([5, 1, 4, 2, 3, .nan])
        #expect(d.n == 5 && d.median == 3 && d.q1 == 2 && d.q3 == 4)
        #expect(DomainGapReport.Distribution([]).median == nil)
    }
}

@Suite struct DomainGapReportFaultTests {
    /// A missing image, a corrupt one and a sample the manifest cannot describe are
    /// recorded as failures; the report is still built from the readable images.
    @Test func badSamplesAreRecordedNotFatal() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var rng = SplitMix64(seed: 9)
        for name in ["a", "b"] {
            let samples = (0..<(96 * 64 * 3)).map { _ in UInt8(100 + Int(rng.next() % 40)) }
            try JPEGEncoder.encode(Image8(width: 96, height: 64, channels: 3, samples: samples)!, quality: 90)
                .write(to: folder.appendingPathComponent("\(name).jpg"))
        }
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: folder.appendingPathComponent("corrupt.jpg"))
        let manifest = """
            {"format": "rial-bench-dataset/1", "samples": [
              {"id": "ok", "image": "a.jpg", "label": "real_scene"},
              {"id": "corrupt", "image": "corrupt.jpg", "label": "real_scene"},
              {"id": "missing", "image": "nope.jpg", "label": "real_scene"},
              {"id": "badlabel", "image": "a.jpg", "label": "hologram"}]}
            """
        let other = """
            {"format": "rial-bench-dataset/1", "samples": [{"id": "s", "image": "b.jpg", "label": "real_scene"}]}
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("real.json"))
        try Data(other.utf8).write(to: folder.appendingPathComponent("synth.json"))
        let report = DomainGapReport.build(
            reference: try DatasetLoader(contentsOf: folder.appendingPathComponent("real.json").path),
            compared: try DatasetLoader(contentsOf: folder.appendingPathComponent("synth.json").path), jobs: 2,
            bootstrap: BootstrapSettings(resamples: 10))
        #expect(Set(report.failures.map(\.sample)) == ["corrupt", "missing", "badlabel"])
        #expect(report.reference.measured["bona_fide"] == 1 && report.reference.failed == 3)
        #expect(report.compared.measured["bona_fide"] == 1)
        #expect(report.sections.map(\.name) == ["bona_fide"])
        // Both outputs render; the JSON round-trips.
        #expect(report.markdown().contains("corrupt"))
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoded = try decoder.decode(DomainGapReport.self, from: report.json())
        #expect(decoded.failures.count == 3)
    }
}
