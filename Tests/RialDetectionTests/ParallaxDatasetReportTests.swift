import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialDetection

/// Manual measurement, off by default: runs parallax/1 over every stereo sample of a
/// manifest and writes one JSON line per sample (id, label, tags, result) to
/// `$RIAL_PARALLAX_REPORT`. Run with a release build for meaningful timings:
///
///     RIAL_PARALLAX_REPORT=/tmp/parallax.jsonl \
///     RIAL_PARALLAX_MANIFEST=.cache/rial-bench/synth-87b3aafee695d2ea/manifest.json \
///     swift test -c release --scratch-path .build-NAME --filter ParallaxDatasetReportTests
@Suite struct ParallaxDatasetReportTests {
    static let output = ProcessInfo.processInfo.environment["RIAL_PARALLAX_REPORT"]
    static let manifest = ProcessInfo.processInfo.environment["RIAL_PARALLAX_MANIFEST"]

    struct Manifest: Decodable {
        struct Sample: Decodable {
            struct Stereo: Decodable {
                var right: String
                var baselineMm: Double?
                var focalPx: Double?
                enum CodingKeys: String, CodingKey {
                    case right
                    case baselineMm = "baseline_mm"
                    case focalPx = "focal_px"
                }
            }
            var id: String
            var label: String
            var image: String
            var tags: [String]?
            var split: String?
            var stereo: Stereo?
        }
        var samples: [Sample]
    }

    @Test(.enabled(if: output != nil && manifest != nil))
    func writeReport() throws {
        let manifestURL = URL(fileURLWithPath: try #require(Self.manifest))
        let folder = manifestURL.deletingLastPathComponent()
        let samples = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL)).samples
        let analyzer = ParallaxAnalyzer()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var lines: [String] = []
        var completed = 0
        for sample in samples {
            guard let stereo = sample.stereo else { continue }
            let left = try ImageReader.read(path: folder.appendingPathComponent(sample.image).path).image
            let right = try ImageReader.read(path: folder.appendingPathComponent(stereo.right).path).image
            let result = analyzer.analyze(
                left: left, right: right, focalPx: stereo.focalPx, baselineMm: stereo.baselineMm)
            if result.status == .completed { completed += 1 }
            let json = String(decoding: try encoder.encode(result), as: UTF8.self)
            let tags = String(decoding: try encoder.encode(sample.tags ?? []), as: UTF8.self)
            let meta = String(
                decoding: try encoder.encode([sample.id, sample.label, sample.split ?? ""]), as: UTF8.self)
            lines.append("{\"sample\":\(meta),\"tags\":\(tags),\"result\":\(json)}")
        }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: try #require(Self.output), atomically: true, encoding: .utf8)
        #expect(completed > 0)
    }
}
