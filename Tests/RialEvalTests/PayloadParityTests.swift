import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// Issue 14 item 6: a run over captures carrying phone payloads reports phone score vs
/// reference re-computation per family and phone level vs re-aggregated level. The
/// payloads are generated here from a run's own results (the synthetic `RunFixture`,
/// 8 samples) with documented perturbations, so every expected number follows from the
/// perturbation, not from the code under test.
@Suite(.serialized) struct PayloadParityTests {
    /// Runs `manifest` and returns its records.
    static func run(_ manifest: String) throws -> [SampleRecord] {
        let folder = try Fixtures.makeTemporaryFolder("rial-parity-run")
        let path = folder.appendingPathComponent("samples.jsonl").path
        let plan = RunPlan(manifests: [manifest], jobs: 2, resamples: 0, buildConfiguration: "debug")
        _ = try DatasetRunner(plan: plan).run(samplesPath: path)
        return try SampleRecord.readLines(path: path)
    }

    /// The families the phone computes, with the versions this pipeline aggregates.
    static let families: [(family: String, method: String)] = DetectionPayload.families.map {
        ($0.rawValue, PipelineConfiguration.standard.aggregateWith[$0]!.description)
    }

    /// A copy of the fixture where sample i carries `payloads[i]` (story 9-6 AC 3 layout).
    static func withPayloads(_ payloads: [JSONObject]) throws -> String {
        let copy = try Fixtures.makeTemporaryFolder("rial-parity")
        for item in try FileManager.default.contentsOfDirectory(atPath: RunFixture.folder.path) {
            try FileManager.default.copyItem(
                at: RunFixture.folder.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let manifestURL = copy.appendingPathComponent("manifest.json")
        var object = try JSONValue.parse(Data(contentsOf: manifestURL)).objectValue!
        var samples = object["samples"]!.arrayValue!
        for (i, payload) in payloads.enumerated() {
            let name = "payload-\(i).json"
            try JSONValue.object(["detection": .object(payload)]).serializedData()
                .write(to: copy.appendingPathComponent(name))
            var sample = samples[i].objectValue!
            sample["payload"] = .string(name)
            samples[i] = .object(sample)
        }
        object["samples"] = .array(samples)
        try JSONValue.object(object).serializedData().write(to: manifestURL)
        return manifestURL.path
    }

    /// The phone payload of a base record: each family's result as this run computed it
    /// (every field, `algorithm_version` included), `moire` score changed by `moire`, and
    /// `aggregated` with the record's level in story 9-6 AC 5's lower-case vocabulary
    /// (`level` in its place when given).
    static func payload(of record: SampleRecord, moire: (Double) -> Double = { $0 }, level: ConfidenceLevel? = nil)
        -> JSONObject
    {
        var payload = JSONObject()
        for (family, method) in families {
            var fields = record.methods[method]?.objectValue ?? [:]
            if family == "moire", let score = fields["score"]?.numberValue { fields["score"] = .number(moire(score)) }
            payload[family] = .object(fields)
        }
        let phoneLevel = level ?? record.aggregate!.level
        payload["aggregated"] = [
            "confidence_level": .string(phoneLevel.rawValue.lowercased()),
            "overall_confidence": .number(record.aggregate!.score),
        ]
        return payload
    }

    static let base: [SampleRecord] = (try? run(RunFixture.manifest)) ?? []

    /// Payloads equal to the run's own results: every difference is 0; the phone level of
    /// sample 0 is changed, so 7 of 8 levels agree and the one off-diagonal cell is
    /// (changed level, run level).
    @Test func unchangedPayloadsHaveZeroDifferencesAndOneLevelMismatch() throws {
        let base = Self.base
        try #require(base.count == 8 && base.allSatisfy { $0.status == .evaluated })
        let original = base[0].aggregate!.level
        let changed: ConfidenceLevel = original == .suspicious ? .veryHigh : .suspicious
        let payloads = base.enumerated().map { i, r in Self.payload(of: r, level: i == 0 ? changed : nil) }
        let records = try Self.run(try Self.withPayloads(payloads))
        // The phone's scores feed aggregation; equal to the local ones, so levels are unchanged.
        #expect(records.map { $0.aggregate?.level } == base.map { $0.aggregate?.level })
        // The phone's algorithm versions are kept as written.
        for (family, method) in Self.families {
            #expect(records[0].methods["payload.\(family)"]?["algorithm_version"] == .string(method))
            #expect(records[0].methods["payload.\(family)"]?["phone_algorithm_version"] == .string(method))
        }
        let parity = try #require(PayloadParity(records, configuration: .standard))
        #expect(parity.samples == 8)
        for (family, method) in Self.families {
            let scored = base.filter { $0.score(method) != nil }.count
            let d = try #require(parity.methods[family])
            #expect(d.n == scored && d.referenceKey == method && d.phoneKey == "payload.\(family)")
            #expect(d.mean == 0 && d.median == 0 && d.p95Abs == 0 && d.maxAbs == 0)
        }
        #expect(parity.levelSamples == 8)
        #expect(parity.levelAgreement == 7.0 / 8.0)
        #expect(parity.levels[changed.rawValue]?[original.rawValue] == 1)
        let diagonal = ConfidenceLevel.allCases.reduce(0) { $0 + (parity.levels[$1.rawValue]?[$1.rawValue] ?? 0) }
        #expect(diagonal == 7)
        let text = parity.markdown().joined(separator: "\n")
        let moire = Self.families.first { $0.family == "moire" }!.method
        #expect(text.contains("| moire | payload.moire | \(moire) | \(parity.methods["moire"]!.n) | 0 | 0 | 0 | 0 |"))
    }

    /// Moire scores moved by 0.25 (down when the score is at least 0.25, else up): every
    /// |difference| is 0.25, so p95 and max are 0.25, and the mean is
    /// 0.25 x (up - down) / n; texture and artifacts stay at 0.
    @Test func perturbedMoireScoresGiveThePerturbation() throws {
        let base = Self.base
        try #require(base.count == 8)
        let shift = 0.25
        let payloads = base.map { Self.payload(of: $0, moire: { $0 >= shift ? $0 - shift : $0 + shift }) }
        let records = try Self.run(try Self.withPayloads(payloads))
        let parity = try #require(PayloadParity(records, configuration: .standard))
        let moireMethod = Self.families.first { $0.family == "moire" }!.method
        let scores = base.compactMap { $0.score(moireMethod) }
        let up = scores.filter { $0 < shift }.count, down = scores.count - up
        let d = try #require(parity.methods["moire"])
        #expect(d.n == scores.count)
        #expect(abs(d.p95Abs - shift) < 1e-12 && abs(d.maxAbs - shift) < 1e-12)
        #expect(abs(d.mean - shift * Double(up - down) / Double(scores.count)) < 1e-12)
        #expect(parity.methods["texture"]?.maxAbs == 0 && parity.methods["artifacts"]?.maxAbs == 0)
    }

    /// Nearest-rank p95 and the median of an even count, by hand: differences
    /// 0.1 x [-3, -1, 0, 2, 4] -> mean 0.04, median 0, p95 |d| (5th of 5) 0.4, max 0.4;
    /// with 20 values 1...20 (x0.01): p95 is the 19th smallest, 0.19; median (0.10+0.11)/2.
    @Test func statisticsByHand() {
        let five = PayloadParity.Difference(phoneKey: "p", referenceKey: "r", differences: [-0.3, -0.1, 0, 0.2, 0.4])
        #expect(abs(five.mean - 0.04) < 1e-12 && five.median == 0 && five.p95Abs == 0.4 && five.maxAbs == 0.4)
        let twenty = PayloadParity.Difference(
            phoneKey: "p", referenceKey: "r", differences: (1...20).map { Double($0) / 100 })
        #expect(twenty.p95Abs == 0.19 && twenty.maxAbs == 0.2 && abs(twenty.median - 0.105) < 1e-12)
    }
}
