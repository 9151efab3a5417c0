import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// depth/2 over a whole rial-bench dataset, on demand: with `RIAL_DEPTH_V2_MANIFEST` (a
/// `manifest.json` whose samples carry `f32le_gzip` depth) and `RIAL_DEPTH_V2_DUMP` (an
/// output path) set, writes one JSON line per sample `{"id", "label", "split", "tags",
/// "result"}` so the score weights can be fitted and checked outside Swift (ROC AUC per
/// split). `RIAL_DEPTH_V2_TIMING=1` also times the analysis of every map. Skipped
/// otherwise: the synthetic set is generated on demand and not part of the checkout.
@Suite struct DepthV2DatasetTests {
    static let environment = ProcessInfo.processInfo.environment

    struct Manifest: Decodable {
        struct Sample: Decodable {
            struct Depth: Decodable {
                var path: String
                var format: String
                var width: Int?
                var height: Int?
            }
            var id: String
            var label: String
            var split: String?
            var tags: [String]?
            var depth: Depth?
        }
        var samples: [Sample]
    }

    struct Line: Encodable {
        var id: String
        var label: String
        var split: String?
        var tags: [String]?
        var timeMs: Double?
        var result: DepthAnalyzerV2.Result

        enum CodingKeys: String, CodingKey {
            case id, label, split, tags, result
            case timeMs = "time_ms"
        }
    }

    @Test(.enabled(if: environment["RIAL_DEPTH_V2_MANIFEST"] != nil && environment["RIAL_DEPTH_V2_DUMP"] != nil))
    func dumpDataset() throws {
        let manifestPath = Self.environment["RIAL_DEPTH_V2_MANIFEST"]!
        let root = URL(fileURLWithPath: manifestPath).deletingLastPathComponent()
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: manifestPath)))
        let timing = Self.environment["RIAL_DEPTH_V2_TIMING"] == "1"
        let analyzer = DepthAnalyzerV2()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var output = Data()
        var samples: [(id: String, label: String, split: String?, tags: [String]?, map: DepthMap)] = []
        for sample in manifest.samples {
            guard let depth = sample.depth, let format = DepthFormat(rawValue: depth.format) else { continue }
            let map = try DepthReader.read(
                path: root.appendingPathComponent(depth.path).path, format: format,
                width: depth.width, height: depth.height)
            samples.append((sample.id, sample.label, sample.split, sample.tags, map))
        }
        for name in ["promptda/arkit_depth.png", "arkitscenes/41069021_305.244_depth.png"] {
            let map = try DepthReader.read(path: Fixtures.real(name), format: .u16PngMm)
            samples.append((name, "fixture", "fixture", nil, map))
        }
        for sample in samples {
            var time: Double?
            if timing {
                _ = analyzer.analyze(sample.map)
                var times: [Double] = []
                for _ in 0..<9 { times.append(analyzer.analyze(sample.map).analysisTimeMs) }
                time = times.sorted()[times.count / 2]
            }
            let line = Line(
                id: sample.id, label: sample.label, split: sample.split, tags: sample.tags, timeMs: time,
                result: analyzer.evaluate(sample.map))
            output.append(try encoder.encode(line))
            output.append(0x0A)
        }
        try output.write(to: URL(fileURLWithPath: Self.environment["RIAL_DEPTH_V2_DUMP"]!))
        #expect(!samples.isEmpty)
    }
}
