import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// texture/4's descriptor (`Texture4Features`): the cues by hand from results whose fields
/// are set, the vector as texture/3's followed by the cues of moire/2's and artifacts/2's
/// own results, the same vector whether the cues are read from a pipeline's shared
/// results or computed, bad input, the model file and the registration.
@Suite struct Texture4FeatureTests {
    /// 640 x 480 unless told: uniform noise (+-24 levels) over coloured diagonal bands of
    /// period 24 px whose red, green and blue are a third of a period apart (a chromatic
    /// band, as a phone records moire), so that moire/2 and artifacts/2 both report their cues.
    static func banded(seed: UInt64 = 7, width: Int = 640, height: Int = 480) -> Image8 {
        var rng = SplitMix64(seed: seed)
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let phase = 2 * Double.pi * Double(x + y) / 24
                for c in 0..<3 {
                    let band = 50 * sin(phase + 2 * Double.pi * Double(c) / 3)
                    let noise = Double(rng.next() >> 58) - 32
                    let v = 128 + band + noise * 0.75
                    samples[(y * width + x) * 3 + c] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }

    @Test func namesExtendTexture3() {
        #expect(Texture4Features.count == Texture3Features.count + 15)
        #expect(Array(Texture4Features.names.prefix(Texture3Features.count)) == Texture3Features.names)
        #expect(Array(Texture4Features.names.suffix(15)) == Texture4Features.cueNames)
        #expect(Set(Texture4Features.names).count == Texture4Features.count)
        #expect(TextureModel.featureNames(ofVersion: 4) == Texture4Features.names)
        #expect(Texture4Analyzer.readsResultsOf == [.moireV2, .artifactsV2])
        #expect(Texture3Analyzer.readsResultsOf.isEmpty)
    }

    /// Each cue of results whose fields are set by hand: log(1 + |e - 1|) = 1,
    /// log(1 + |-(e² - 1)|) = 2, log(1 + (e^0.5 - 1)) = 0.5; 3 of 12 tiles = 0.25;
    /// an absent (nil) or non-finite field is 0.
    @Test func cuesByHand() {
        var m = MoireAnalyzerV2.Result.unavailable(reason: "set by hand")
        m.bandEvidence = M_E - 1
        m.bandFrequency = 0.1
        m.chromaAmplitude = 5
        m.chromaLumaRatio = -(M_E * M_E - 1)
        m.lumaProminence = .nan
        m.orientationCoherence = 0.5
        m.peakEvidence = nil
        m.tilesWithBands = 3
        m.texturedTiles = 12
        m.tileCount = 12
        m.bandConfidence = 0.7
        m.peakConfidence = .infinity
        var a = ArtifactAnalyzerV2.Result.unavailable(reason: "set by hand")
        a.bandingColumns = 2
        a.bandingRows = nil
        a.fineDetailShare = 0.3
        a.surroundRatio = exp(0.5) - 1
        let expected: [Double] = [1, 0.1, 5, 2, 0, 0.5, 0, 0.25, 1, 0.7, 0, 2, 0, 0.3, 0.5]
        let cues = Texture4Features.cues(moire: m, artifacts: a)
        #expect(cues.count == expected.count)
        for (name, (c, e)) in zip(Texture4Features.cueNames, zip(cues, expected)) {
            #expect(abs(c - e) < 1e-12, "\(name): \(c), expected \(e)")
        }
        // No tiles: no shares (not a division by zero).
        m.tileCount = 0
        let noTiles = Texture4Features.cues(moire: m, artifacts: a)
        #expect(noTiles[7] == 0 && noTiles[8] == 0)
        // Both methods unavailable: every cue 0.
        let none = Texture4Features.cues(
            moire: .unavailable(reason: "flat"), artifacts: .unavailable(reason: "small"))
        #expect(none == [Double](repeating: 0, count: 15))
    }

    /// The vector is texture/3's, then the cues of what moire/2 and artifacts/2 (compiled-in
    /// constants) report for the same photo; the banded photo has bands to report.
    @Test func texture3ThenTheCuesOfMoire2AndArtifacts2() throws {
        let image = Self.banded()
        let four = try Texture4Features.extract(image)
        let three = try Texture3Features.extract(image)
        let moire = MoireAnalyzerV2().analyze(image)
        let artifacts = ArtifactAnalyzerV2().analyze(image)
        #expect(moire.status == .completed && artifacts.status == .completed)
        #expect((moire.tilesWithBands ?? 0) > 0)
        #expect(four.values == three.values + Texture4Features.cues(moire: moire, artifacts: artifacts))
        #expect(four.lumaStandardDeviation == three.lumaStandardDeviation)
        #expect(four.values.allSatisfy { $0.isFinite })
    }

    /// Read from shared results (posted before, or by another thread while it waits) or
    /// computed: the same vector. A method that is not expected is computed.
    @Test func sharedResultsGiveTheSameVector() throws {
        let image = Self.banded(seed: 11)
        let computed = try Texture4Features.extract(image)
        let moire = MoireAnalyzerV2().analyze(image)
        let artifacts = ArtifactAnalyzerV2().analyze(image)

        let posted = SharedResults(expected: [.moireV2, .artifactsV2])
        posted.post(moire, of: MoireAnalyzerV2.self)
        posted.post(artifacts, of: ArtifactAnalyzerV2.self)
        let read = try image.withRows { try Texture4Features.extract(rows: $0, shared: posted) }
        #expect(read.values == computed.values)

        // Only moire/2 shared, posted from another thread after the reader started waiting.
        let later = SharedResults(expected: [.moireV2])
        let poster = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            later.post(moire, of: MoireAnalyzerV2.self)
        }
        poster.start()
        let waited = try image.withRows { try Texture4Features.extract(rows: $0, shared: later) }
        #expect(waited.values == computed.values)
        #expect(later.result(of: ArtifactAnalyzerV2.self, lendingSlotOf: nil) == nil)

        // A method with no input posts nil; the reader then computes the cues itself.
        let missing = SharedResults(expected: [.moireV2, .artifactsV2])
        missing.post(nil, of: MoireAnalyzerV2.self)
        missing.post(nil, of: ArtifactAnalyzerV2.self)
        let fallback = try image.withRows { try Texture4Features.extract(rows: $0, shared: missing) }
        #expect(fallback.values == computed.values)
    }

    @Test func badInputIsRefusedAndConstantIsUnavailable() throws {
        #expect(throws: TextureFeatureError.notColour(channels: 1)) {
            try Texture4Features.extract(TextureImages.constant(width: 128, height: 128, channels: 1))
        }
        #expect(throws: TextureFeatureError.tooSmall(width: 63, height: 64, minimum: 64)) {
            try Texture4Features.extract(TextureImages.constant(width: 63, height: 64))
        }
        let tiny = try Texture4Features.extract(TextureImages.constant(width: 64, height: 64))
        #expect(tiny.values.allSatisfy { $0.isFinite })
        let constant = Texture4Analyzer().analyze(TextureImages.constant(width: 300, height: 200))
        #expect(constant.status == .unavailable)
        #expect(constant.algorithmVersion == .textureV4)
        let result = Texture4Analyzer().analyze(Self.banded())
        #expect(result.status == .completed)
        #expect(result.featureCount == Texture4Features.count)
        #expect(result.score.map { (0...1).contains($0) } == true)
    }
}

/// texture/4 inside a pipeline reads the results moire/2 and artifacts/2 post for the
/// same capture, and its outcome is the one it computes alone.
@Suite struct Texture4PipelineTests {
    static let methods: [MethodIdentifier] = [.moireV2, .textureV3, .textureV4, .artifactsV2]

    static func timeless(_ outcome: MethodOutcome) -> JSONObject {
        var fields = outcome.fields
        fields["analysis_time_ms"] = nil
        return fields
    }

    /// One after another and concurrently: texture/4 equals `Texture4Analyzer` alone, and
    /// the shared methods' outcomes equal theirs alone.
    @Test(arguments: [false, true])
    func sharedOutcomeEqualsTheMethodAlone(concurrent: Bool) throws {
        let image = Texture4FeatureTests.banded(seed: 3)
        let configuration = PipelineConfiguration.standard.selecting(Self.methods)
        let analyzer = try CaptureAnalyzer(configuration: configuration)
        let analysis = try analyzer.analyze(CaptureInput(image: image), concurrent: concurrent)
        let four = try #require(analysis.outcomes.first { $0.key == "texture/4" })
        let alone = MethodOutcome(computed: Texture4Analyzer().analyze(image), of: Texture4Analyzer.self)
        #expect(Self.timeless(four) == Self.timeless(alone))
        let moire = try #require(analysis.outcomes.first { $0.key == "moire/2" })
        #expect(
            Self.timeless(moire)
                == Self.timeless(MethodOutcome(computed: MoireAnalyzerV2().analyze(image), of: MoireAnalyzerV2.self)))
        #expect(analyzer.sharedResults(for: Self.methods)?.expected == [.moireV2, .artifactsV2])
        #expect(analyzer.readersLast(Self.methods) == [0, 1, 3, 2])
    }

    /// moire/2 configured otherwise is not shared (its results are not those the model
    /// was trained on): texture/4 computes the cues with the compiled-in constants, so its
    /// outcome is still the one it computes alone, while moire/2's own differs.
    @Test func aMethodConfiguredOtherwiseIsNotShared() throws {
        let image = Texture4FeatureTests.banded(seed: 3)
        var configuration = PipelineConfiguration.standard.selecting(Self.methods)
        configuration[MoireAnalyzerV2.self].evidenceMidpoint = 10
        let analyzer = try CaptureAnalyzer(configuration: configuration)
        #expect(analyzer.sharedResults(for: Self.methods)?.expected == [.artifactsV2])
        let analysis = try analyzer.analyze(CaptureInput(image: image), concurrent: true)
        let four = try #require(analysis.outcomes.first { $0.key == "texture/4" })
        let alone = MethodOutcome(computed: Texture4Analyzer().analyze(image), of: Texture4Analyzer.self)
        #expect(Self.timeless(four) == Self.timeless(alone))
    }

    /// `analyzeMethod` (the benchmark's per-method row) gives texture/4 the results of the
    /// configured methods it reads, and the same outcome.
    @Test func analyzeMethodSharesTheResultsItReads() throws {
        let image = Texture4FeatureTests.banded(seed: 5)
        let analyzer = try CaptureAnalyzer()
        let four = analyzer.analyzeMethod(.textureV4, on: CaptureInput(image: image))
        let alone = MethodOutcome(computed: Texture4Analyzer().analyze(image), of: Texture4Analyzer.self)
        #expect(Self.timeless(four) == Self.timeless(alone))
        #expect(analyzer.isReader(.textureV4) && !analyzer.isReader(.textureV3) && !analyzer.isReader(.moireV2))
    }
}

@Suite struct Texture4ModelTests {
    @Test func embeddedModelIsVersion4AndMatchesItsDigest() throws {
        let json = Data(Texture4Model.defaultModelJSON.utf8)
        let file = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("models/texture4-1.json"))
        #expect(json == file)
        #expect(Texture4Model.defaultModelSHA256 == SHA256Digest.hash(file))
        let model = try Texture4Model(modelFile: json)
        #expect(model.model.featureSetVersion == 4)
        #expect(model.model.featureNames == Texture4Features.names)
    }

    @Test func refusesATexture3Model() throws {
        do {
            _ = try Texture4Model(modelFile: Data(Texture3Model.defaultModelJSON.utf8))
            Issue.record("texture/4 accepted a texture/3 model")
        } catch {
            #expect(error.description.contains("feature set version 3"))
        }
    }

    /// Registered after texture/3 and the default aggregation input since it beat texture/3
    /// held out on real photos (models/README.md, "texture/4"); texture/3 still runs beside
    /// it, and a phone's unversioned texture result is read as texture/3.
    @Test func registeredAfterTexture3AsTheDefault() {
        let ids = MethodRegistry.standard.identifiers.map(\.description)
        let three = ids.firstIndex(of: "texture/3"), four = ids.firstIndex(of: "texture/4")
        #expect(three != nil && four != nil && three! + 1 == four!)
        #expect(MethodRegistry.standard.newestByFamily[.texture] == .textureV4)
        #expect(PipelineConfiguration.standard.methods.contains(.textureV3))
        #expect(MethodRegistry.standard.unversionedPayloadMethod(of: .texture)?.identifier == .textureV3)
    }
}
