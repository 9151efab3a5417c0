import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialDetection

/// moire/2 and artifacts/2 reduce the photo once between them in a pipeline
/// (`MoireBandFrame`, `wholeFrame`, `ImageRows.derived`), and that changes
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
        let flat = MoireBandFrame(imageWidth: 1600, imageHeight: 1200, factor: 2)
        grey.withRows { flat.write(from: $0) }
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

    /// The shared frame is read while it is written: the writer (on another thread)
    /// stops after publishing the top half until the reader has copied it, then writes the
    /// rest while the reader waits for each block row (`MoireBandFrame.waitForRows`) and
    /// copies it at once; the copy is the finished reduction bit for bit (`wholeFrame`
    /// alone), and later askers get the same frame.
    @Test func aReaderFollowsTheWriterRowByRow() {
        let image = Self.banded(width: 1600, height: 1200, seed: 3)
        image.withRows { rows in
            let reference = MoireBandImage.wholeFrame(image: rows, factor: 2)
            let shared = rows.sharingDerivedValues()
            let (frame, writer) = MoireBandFrame.shared(by: shared, factor: 2)
            #expect(writer)
            #expect(MoireBandFrame.shared(by: shared, factor: 2).writer == false)
            #expect(MoireBandFrame.sharedIfStarted(by: shared, factor: 2) === frame)
            #expect(MoireBandFrame.sharedIfStarted(by: shared, factor: 3) == nil)
            #expect(frame.rowsWritten == 0)
            let w = frame.width, h = frame.height, plane = w * h, half = h / 2
            let topCopied = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            Thread {
                frame.write(from: shared) { by in
                    if by == half - 1 { topCopied.wait() }
                    if by >= half { usleep(100) }
                }
                done.signal()
            }.start()
            var copied = [Float](repeating: -1, count: 3 * plane)
            frame.image.planes.withUnsafeBufferPointer { planes in
                func copy(_ by: Int) {
                    for c in 0..<3 {
                        for x in 0..<w { copied[c * plane + by * w + x] = planes[c * plane + by * w + x] }
                    }
                }
                while frame.rowsWritten < half { usleep(100) }
                #expect(frame.rowsWritten == half, "the writer waits for the top half's copy")
                for by in 0..<half { copy(by) }
                topCopied.signal()
                for by in half..<h {
                    frame.waitForRows(by + 1, lendingSlotOf: shared)
                    copy(by)
                }
            }
            done.wait()
            #expect(frame.rowsWritten == h)
            #expect(copied.map(\.bitPattern) == reference.planes.map(\.bitPattern))
            #expect(MoireBandImage.wholeFrame(image: shared, factor: 2).planes === frame.image.planes)
        }
    }

    /// moire/2 measures the band spectra of the tiles whose rows another reader has
    /// reduced already between `moire/1`'s tile pairs, and the rest after: with the
    /// shared frame finished before it starts, written slowly on another thread while it
    /// runs, or written by moire/2 itself, its result equals the method alone's, as does
    /// artifacts/2's when it reads the frame moire/2 writes.
    @Test(arguments: ["finished", "written meanwhile", "moire/2 writes"])
    func moireMeasuresBandsOnTheRowsReducedSoFar(frameState: String) {
        let image = Self.banded(width: 1600, height: 1200, seed: 21)
        let moireAlone = MoireAnalyzerV2().analyze(image)
        let artifactsAlone = ArtifactAnalyzerV2().analyze(image)
        #expect(moireAlone.status == .completed)
        image.withRows { rows in
            let shared = rows.sharingDerivedValues()
            let done = DispatchSemaphore(value: 0)
            switch frameState {
            case "finished":
                _ = MoireBandImage.wholeFrame(image: shared, factor: 2)
                done.signal()
            case "written meanwhile":
                let (frame, writer) = MoireBandFrame.shared(by: shared, factor: 2)
                #expect(writer)
                Thread {
                    frame.write(from: shared) { _ in usleep(300) }
                    done.signal()
                }.start()
            default:
                done.signal()
            }
            var moire = MoireAnalyzerV2().evaluate(shared)
            done.wait()
            moire.analysisTimeMs = moireAlone.analysisTimeMs
            #expect(moire == moireAlone, "\(frameState)")
            var artifacts = ArtifactAnalyzerV2().evaluate(shared)
            artifacts.analysisTimeMs = artifactsAlone.analysisTimeMs
            #expect(artifacts == artifactsAlone, "\(frameState)")
        }
    }
}

extension MoireBandImage {
    /// Every block of the photo reduced at factor `k`: the frame `image`'s readers share
    /// (`MoireBandFrame.shared`), written by this caller if it is the first to ask,
    /// otherwise waited for to its last row.
    static func wholeFrame(image: ImageRows, factor k: Int) -> Self {
        let (frame, writer) = MoireBandFrame.shared(by: image, factor: k)
        if writer { frame.write(from: image) }
        frame.waitForRows(frame.height, lendingSlotOf: image)
        return frame.image
    }
}
