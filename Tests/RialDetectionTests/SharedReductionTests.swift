import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialDetection

/// moire/2 and artifacts/2 reduce the photo once between them in a pipeline
/// (`MoireBandImage.reduced`, `wholeFrame`, `ImageRows.derived`), and that changes
/// neither's result.
@Suite struct SharedReductionTests {
    static func banded(width: Int, height: Int, seed: UInt64) -> Image8 {
        Texture4FeatureTests.banded(seed: seed, width: width, height: height)
    }

    /// The whole frame reduced holds, on every block under the tiles, the values of the
    /// tiles reduced alone (k = 2 for 1600 x 1200 at the default 768 px long side; a
    /// 1603 x 1201 image drops its last partial block row and column in both).
    @Test(arguments: [(1600, 1200), (1603, 1201)])
    func wholeFrameEqualsTheTilesOnTheirBlocks(size: (Int, Int)) {
        let image = Self.banded(width: size.0, height: size.1, seed: 11)
        let k = MoireBandImage.factor(width: size.0, height: size.1, analysisLongSide: 768)
        #expect(k == 2)
        let origins = [(x: 10, y: 20), (x: 400, y: 300), (x: 700, y: 50)]
        let n = 96
        image.withRows { rows in
            let tiles = MoireBandImage(image: rows, factor: k, origins: origins, tileSize: n)
            let whole = MoireBandImage.wholeFrame(image: rows, factor: k)
            #expect(whole.width == tiles.width && whole.height == tiles.height)
            let plane = tiles.width * tiles.height
            var compared = 0
            for o in origins {
                for y in o.y..<min(tiles.height, o.y + n) {
                    for x in o.x..<min(tiles.width, o.x + n) {
                        for c in 0..<3
                        where whole.planes[c * plane + y * tiles.width + x]
                            != tiles.planes[c * plane + y * tiles.width + x]
                        {
                            Issue.record("block (\(x), \(y)) plane \(c) differs")
                        }
                        compared += 1
                    }
                }
            }
            #expect(compared > 3 * 90 * 90)
            // By hand: block (0, 0)'s red is the mean of the 2 x 2 red samples at the corner.
            let corner = (0..<2).flatMap { y in (0..<2).map { x in Int(image[x, y, 0]) } }
            #expect(whole.planes[0] == Float(corner.reduce(0, +)) / 4)
        }
    }

    /// In a pipeline (sequential and concurrent) moire/2 and artifacts/2 equal the methods
    /// alone, though one of them reduced the photo for both; the store is shared, and a
    /// method alone has none.
    @Test(arguments: [false, true])
    func pipelineOutcomesEqualTheMethodsAlone(concurrent: Bool) throws {
        let image = Self.banded(width: 1600, height: 1200, seed: 5)
        let methods: [MethodIdentifier] = [.moireV2, .artifactsV2]
        let analyzer = try CaptureAnalyzer(configuration: PipelineConfiguration.standard.selecting(methods))
        let analysis = try analyzer.analyze(CaptureInput(image: image), concurrent: concurrent)
        let moire = try #require(analysis.outcomes.first { $0.key == "moire/2" })
        let artifacts = try #require(analysis.outcomes.first { $0.key == "artifacts/2" })
        let moireAlone = MethodOutcome(computed: MoireAnalyzerV2().analyze(image), of: MoireAnalyzerV2.self)
        let artifactsAlone = MethodOutcome(computed: ArtifactAnalyzerV2().analyze(image), of: ArtifactAnalyzerV2.self)
        #expect(Texture4PipelineTests.timeless(moire) == Texture4PipelineTests.timeless(moireAlone))
        #expect(Texture4PipelineTests.timeless(artifacts) == Texture4PipelineTests.timeless(artifactsAlone))
        #expect(moire.summary.status == .completed)
        #expect(artifacts.summary.status == .completed)
        MethodCapture.with(CaptureInput(image: image)) { capture in
            #expect(capture.rows?.sharesDerivedValues == false)
            #expect(capture.sharingDerivedValues().rows?.sharesDerivedValues == true)
        }
    }

    /// While the photo decodes, every reader reads the one store of the rows it is given:
    /// with the store's reduction replaced by that of a flat grey photo, artifacts/2 finds
    /// no luma range (unavailable) where alone it completes; with a fresh store both
    /// methods equal themselves alone (the JPEG's decoded pixels).
    @Test(arguments: [false, true])
    func streamedReadersShareOneStore(concurrent: Bool) throws {
        let image = Self.banded(width: 1600, height: 1200, seed: 9)
        let jpeg = try JPEGEncoder.encode(image, quality: 95)
        let decoded = try JPEGDecoder.decode(jpeg)
        let methods: [MethodIdentifier] = [.moireV2, .artifactsV2]
        let analyzer = try CaptureAnalyzer(configuration: PipelineConfiguration.standard.selecting(methods))
        let grey = Image8(
            width: 1600, height: 1200, channels: 3, samples: [UInt8](repeating: 128, count: 1600 * 1200 * 3))!
        let flat = grey.withRows { MoireBandImage.wholeFrame(image: $0, factor: 2) }
        for replaced in [false, true] {
            let (_, analysis) = try JPEGDecoder.decodeReporting(jpeg) { rows -> RowAnalysis in
                let shared = rows.sharingDerivedValues()
                if replaced { _ = shared.derived("moire-band-image/2") { flat } }
                return analyzer.analyzeRows(shared, depth: nil, concurrent: concurrent)
            }
            let artifacts = try #require(analysis.outcomes[.artifactsV2])
            let moire = try #require(analysis.outcomes[.moireV2])
            let artifactsAlone = MethodOutcome(
                computed: ArtifactAnalyzerV2().analyze(decoded), of: ArtifactAnalyzerV2.self)
            let moireAlone = MethodOutcome(computed: MoireAnalyzerV2().analyze(decoded), of: MoireAnalyzerV2.self)
            #expect(artifactsAlone.summary.status == .completed)
            if replaced {
                #expect(artifacts.summary.status == .unavailable, "concurrent \(concurrent)")
                #expect(Texture4PipelineTests.timeless(moire) != Texture4PipelineTests.timeless(moireAlone))
            } else {
                #expect(Texture4PipelineTests.timeless(artifacts) == Texture4PipelineTests.timeless(artifactsAlone))
                #expect(Texture4PipelineTests.timeless(moire) == Texture4PipelineTests.timeless(moireAlone))
            }
        }
    }
}
