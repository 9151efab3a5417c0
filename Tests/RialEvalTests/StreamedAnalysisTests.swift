import Foundation
import RialCodecs
import RialDetection
import RialMedia
import RialSynth
import RialTestSupport
import Testing

@testable import RialEval

/// The low-latency path for one capture (`CaptureLoader.load(_:analyzingRowsWith:)`:
/// the row methods read the photo while it decodes) must give the same analysis as
/// decoding first and analysing after; only the times may differ.
@Suite struct StreamedAnalysisTests {
    /// An outcome without its times (the only fields streaming may change).
    static func timeless(_ outcome: MethodOutcome) -> MethodOutcome {
        var copy = outcome
        copy.summary.analysisTimeMs = 0
        copy.fields["analysis_time_ms"] = nil
        return copy
    }

    @Test(arguments: [SynthClass.realScene, .lcdScreen, .oledScreen, .printedPaper])
    func streamedAnalysisEqualsDecodeThenAnalyse(_ synthClass: SynthClass) throws {
        let capture = SynthGenerator.generate(index: 3, seed: 99, class: synthClass, width: 1024, height: 768)
        let folder = try Fixtures.makeTemporaryFolder("streamed-analysis")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("photo.jpg"), depth = folder.appendingPathComponent("depth.f32.gz")
        try JPEGEncoder.encode(capture.image, quality: 90).write(to: image)
        try DepthWriter.encode(capture.depth, format: .f32leGzip).write(to: depth)
        let files = CaptureFiles(
            image: image.path, depth: depth.path,
            attestation: AttestationEvidence(status: .pass, method: .secureEnclave))
        let analyzer = try CaptureAnalyzer()

        let plain = try CaptureLoader.load(files)
        let streamed = try CaptureLoader.load(files, analyzingRowsWith: analyzer)
        #expect(plain.rows == nil)
        let rows = try #require(streamed.rows)
        #expect(
            Set(rows.outcomes.keys) == [
                .depthV1, .depthV2, .moireV1, .moireV2, .textureV1, .textureV2, .textureV3, .textureV4, .artifactsV1,
                .artifactsV2,
            ])
        #expect(streamed.input.image == plain.input.image)
        #expect(streamed.sha256 == plain.sha256)
        #expect(streamed.latencyMs["decode_and_row_methods"] != nil && streamed.latencyMs["decode"] == nil)

        let expected = try analyzer.analyze(plain.input)
        let actual = try analyzer.analyze(streamed.input, rows: streamed.rows)
        #expect(actual.outcomes.map(\.key) == expected.outcomes.map(\.key))
        for (a, e) in zip(actual.outcomes, expected.outcomes) {
            #expect(Self.timeless(a) == Self.timeless(e), "\(synthClass): \(a.key)")
        }
        #expect(actual.aggregation.confidenceScore == expected.aggregation.confidenceScore)
        #expect(actual.aggregation.confidenceLevel == expected.aggregation.confidenceLevel)
        #expect(actual.aggregated == expected.aggregated)
        // Every method really ran on the rows (none was re-run on the finished image).
        for method in rows.outcomes.keys {
            #expect(actual.outcomes.first { $0.key == method.description } == rows.outcomes[method])
        }
    }

    @Test func aCorruptPhotoFailsTheStreamedLoadWithItsPath() throws {
        let capture = SynthGenerator.generate(index: 1, seed: 5, class: .realScene, width: 640, height: 480)
        let folder = try Fixtures.makeTemporaryFolder("streamed-corrupt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("cut.jpg")
        let jpeg = try JPEGEncoder.encode(capture.image, quality: 90)
        try jpeg.prefix(jpeg.count / 2).write(to: image)
        let analyzer = try CaptureAnalyzer()
        #expect {
            _ = try CaptureLoader.load(CaptureFiles(image: image.path), analyzingRowsWith: analyzer)
        } throws: { error in
            guard let error = error as? CaptureLoadError else { return false }
            return error.path == image.path && error.message.contains("Premature end")
        }
    }
}
