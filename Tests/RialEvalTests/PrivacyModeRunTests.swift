import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// Issue 15 item 6 end to end: `scripts/make-privacy-fixture` writes hash-only payloads for
/// the synthetic `RunFixture` (8 samples) from the files and a run's own depth/1 results,
/// with documented perturbations; a run over the result records each sample's verification
/// and the summary counts follow from the perturbations alone.
@Suite(.serialized) struct PrivacyModeRunTests {
    static func run(_ manifest: String, into folder: URL) throws -> [SampleRecord] {
        let path = folder.appendingPathComponent("samples.jsonl").path
        let plan = RunPlan(manifests: [manifest], jobs: 2, resamples: 0, buildConfiguration: "debug")
        _ = try DatasetRunner(plan: plan).run(samplesPath: path)
        return try SampleRecord.readLines(path: path)
    }

    @Test(.enabled(if: EvalFixtures.hasPython3)) func fixtureRunCountsFollowThePerturbations() throws {
        let first = try Fixtures.makeTemporaryFolder("rial-privacy-base")
        let base = try Self.run(RunFixture.manifest, into: first)
        try #require(base.count == 8 && base.allSatisfy { $0.status == .evaluated })
        let withDepth = base.filter { $0.methods["depth/1"]?["status"] == "completed" }.count
        try #require(withDepth > 0)

        let out = try Fixtures.makeTemporaryFolder("rial-privacy-fixture")
        let script = EvalFixtures.packageRoot.appendingPathComponent("scripts/make-privacy-fixture").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Every 3rd sample a wrong hash (i % 3 == 2: samples 2 and 5), every 2nd sample with
        // depth shifted by 0.01 m at depth_variance.
        process.arguments = [
            "python3", script, first.path, RunFixture.manifest, out.path, "--hash-every", "3", "--parity-every", "2",
            "--shift", "0.01",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)

        let records = try Self.run(out.appendingPathComponent("manifest.json").path, into: out)
        try #require(records.count == 8 && records.allSatisfy { $0.status == .evaluated && $0.privacy != nil })
        let summary = try #require(PrivacyModeSummary(records))
        #expect(summary.samples == 8)
        // floor(8 / 3) = 2 wrong hashes.
        #expect(summary.all.hash == .init(pass: 6, fail: 2, unavailable: 0))
        #expect(records[2].privacy?.hash.status == .fail && records[5].privacy?.hash.status == .fail)
        // ceil(d / 2) of the d samples with depth shifted: they fail; the others equal the run's depth/1.
        let shifted = (withDepth + 1) / 2
        #expect(summary.all.depthParity == .init(pass: withDepth - shifted, fail: shifted, unavailable: 8 - withDepth))
        #expect(summary.all.largest?.key == "depth_variance")
        #expect(abs((summary.all.largest?.difference ?? 0) - 0.01) < 1e-9)
        // The full capture's level of every sample is in the table, once.
        #expect(summary.all.levels["full_capture"]?.values.reduce(0, +) == 8)
        #expect(summary.all.levels["privacy_sound"]?.values.reduce(0, +) == 8)
        // RunFixture is synthetic: every number is simulated data.
        #expect(summary.byData.keys.sorted() == ["simulated"])
        // A wrong hash or a broken parity is a failed check: SUSPICIOUS under the sound rule.
        for r in records where r.privacy!.hash.status == .fail || r.privacy!.depthParity?.status == .fail {
            #expect(r.privacy!.confidence.level == .suspicious)
        }
        #expect(summary.markdown().contains { $0.contains("| media hash matches the image | 6 | 2 | 0 | 75% of 8 |") })
        // Samples without a privacy payload have no privacy record.
        #expect(base.allSatisfy { $0.privacy == nil })
    }

    /// A rescore cannot re-verify a payload (the run recorded the verification, not the
    /// payload): a changed `privacy` section is refused naming the key.
    @Test func rescoreRefusesAChangedPrivacySection() throws {
        var changed = PipelineConfiguration.standard
        changed.privacy.levelCap = .medium
        #expect(throws: RunError.self) { try Rescorer.compatibility(of: changed, with: .standard) }
        do { try Rescorer.compatibility(of: changed, with: .standard) } catch {
            #expect(
                error.message.hasPrefix(
                    "key 'privacy.level_cap': the run used \"HIGH\", the configuration has \"MEDIUM\""))
        }
    }

    /// `rescore`'s line scanner reads a record's `privacy` as the decoder does.
    @Test func rescoreScannerKeepsThePrivacyRecord() throws {
        let rescorer = try Rescorer(configuration: .standard)
        var record = try #require(RescorerTests.records.first { $0.status == .evaluated })
        record.privacy = PrivacyVerificationTests.verify(
            try PrivacyVerificationTests.payload(), sha: PrivacyVerificationTests.hashA,
            depth: PrivacyVerificationTests.realMap)
        let line = Array(record.jsonLine().utf8)
        let fast = try #require(line.withUnsafeBufferPointer { SampleRecordLine.rescore($0, rescorer: rescorer) })
        #expect(fast.record.privacy == record.privacy)
        #expect(fast.record == rescorer.rescore(record).slimmed())
    }

    @Test func badPrivacyPayloadFailsTheSampleNamingTheFile() throws {
        let copy = try Fixtures.makeTemporaryFolder("rial-privacy-bad")
        for item in try FileManager.default.contentsOfDirectory(atPath: RunFixture.folder.path) {
            try FileManager.default.copyItem(
                at: RunFixture.folder.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let manifestURL = copy.appendingPathComponent("manifest.json")
        var object = try JSONValue.parse(Data(contentsOf: manifestURL)).objectValue!
        var samples = object["samples"]!.arrayValue!
        var sample = samples[0].objectValue!
        sample["privacy_payload"] = "bad.json"
        samples[0] = .object(sample)
        object["samples"] = .array(samples)
        try JSONValue.object(object).serializedData().write(to: manifestURL)
        try Data(#"{"capture_mode": "hash_only"}"#.utf8).write(to: copy.appendingPathComponent("bad.json"))
        let records = try Self.run(manifestURL.path, into: copy)
        #expect(records[0].status == .failed)
        #expect(records[0].failure?.stage == .load)
        #expect(
            records[0].failure?.reason.hasPrefix(
                copy.appendingPathComponent("bad.json").path + ": privacy payload: 'media_hash' is missing") == true)
        #expect(records[1].status == .evaluated && records[1].privacy == nil)
    }
}
