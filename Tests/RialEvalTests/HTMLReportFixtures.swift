import Foundation
import RialDetection
import RialMedia

@testable import RialEval

/// Sample records and results for the HTML report and SVG plot tests: two methods and
/// the aggregate on real and simulated samples of five labels, seeded, with tags,
/// groups, unscored samples, failures and hostile text in ids, tags and reasons.
enum HTMLReportFixtures {
    static let hostileID = "<script>&\""
    static let hostileTag = "<tag&>"
    static let hostileReason = "<b>bad</b> & \"quoted\" 'reason'"

    /// One evaluated record; a nil method score is recorded as `unavailable`.
    static func record(
        id: String, index: Int, label: String, data: String, scores: [String: Double?], aggregate: Double,
        tags: [String] = [], group: String? = nil, latency: [String: Double] = [:]
    ) -> SampleRecord {
        var methods = JSONObject()
        for key in scores.keys.sorted() {
            if let score = scores[key]!.flatMap({ $0 }) {
                methods[key] = .object(["status": .string("completed"), "score": .number(score)])
            } else {
                methods[key] = .object(["status": .string("unavailable")])
            }
        }
        return SampleRecord(
            id: id, datasetIndex: 0, index: index, dataset: "fixture",
            label: SampleRecord.Label(rawValue: label)!, bonaFide: label == "real_scene", group: group,
            tags: tags, attestation: .secureEnclave, split: .test,
            data: SampleRecord.DataKind(rawValue: data)!, status: .evaluated, failure: nil, methods: methods,
            aggregate: .init(
                score: aggregate, level: .medium, flags: [], uncappedScore: aggregate,
                weights: [.lidar: 1], primaryMethod: "depth/2"),
            decision: aggregate >= 0.5 ? .bonaFide : .attack, latencyMs: latency, sha256: [:])
    }

    /// A failed record.
    static func failed(id: String, index: Int, reason: String) -> SampleRecord {
        SampleRecord(
            id: id, datasetIndex: 0, index: index, dataset: "fixture", label: .known(.lcdScreen), bonaFide: false,
            group: nil, tags: [], attestation: .none, split: .test, data: .real, status: .failed,
            failure: .init(stage: .load, reason: reason), methods: [:], aggregate: nil, decision: nil,
            latencyMs: [:], sha256: [:])
    }

    /// `(label, data kind, count)` of the standard fixture.
    static let composition: [(String, String, Int)] = [
        ("real_scene", "real", 30), ("lcd_screen", "real", 10), ("printed_paper", "real", 8),
        ("real_scene", "simulated", 20), ("oled_screen", "simulated", 10), ("screen", "simulated", 6),
    ]

    /// Seeded records of `composition` plus two failures (one with a hostile id).
    /// `attacksIn` limits attack labels to those data kinds (to make a kind without attacks).
    static func records(seed: UInt64 = 11, attacksIn kinds: Set<String> = ["real", "simulated"]) -> [SampleRecord] {
        var rng = SplitMix64(seed: seed)
        var records: [SampleRecord] = []
        var index = 0
        for (label, data, count) in composition where label == "real_scene" || kinds.contains(data) {
            for i in 0..<count {
                let bonaFide = label == "real_scene"
                let u = Double.random(in: 0..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
                let depth2 = bonaFide ? 0.45 + 0.5 * u : 0.05 + 0.55 * u
                let depth1: Double? = i % 9 == 4 ? nil : (bonaFide ? 0.3 + 0.6 * v : 0.1 + 0.6 * v)
                let aggregate = ((depth1 ?? depth2) + depth2) / 2
                var tags = [data == "simulated" ? "synthetic" : "indoor"]
                if i % 4 == 0 { tags.append("low_light") }
                if i == 1 { tags.append(hostileTag) }
                let latency = [
                    "depth/1": 2 + 10 * u, "depth/2": 20 + 70 * v, "aggregation": 0.05 + 0.1 * u,
                    "sha256": 1 + u, "total": 30 + 80 * v,
                ]
                records.append(
                    record(
                        id: "\(data)-\(label)-\(i)", index: index, label: label, data: data,
                        scores: ["depth/1": depth1, "depth/2": depth2], aggregate: aggregate, tags: tags,
                        group: "scene-\(label)-\(i / 3)", latency: latency))
                index += 1
            }
        }
        records.append(failed(id: hostileID, index: index, reason: hostileReason))
        records.append(failed(id: "broken-2", index: index + 1, reason: "image.jpg: not a JPEG file"))
        return records
    }

    /// `RunResults.build` over `records` with 40 bootstrap resamples.
    static func results(_ records: [SampleRecord], limit: Int? = nil, build: String = "release") -> RunResults {
        let dataset = RunDataset(
            path: "/data/fixture/manifest.json", name: "fixture <set>",
            manifestSHA256: String(repeating: "ab", count: 32),
            original: records.count + 10, selected: records.count,
            evaluated: records.filter { $0.status == .evaluated }.count,
            failed: records.filter { $0.status == .failed }.count, data: "mixed")
        let context = RunResults.Context(
            configuration: PipelineConfiguration(), datasets: [dataset], limit: limit, seed: 42,
            resamples: 40, build: build, jobs: 2, runSeconds: 12.5, toolVersion: "0.0-test")
        return RunResults.build(records: records, context: context)
    }
}
