import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// What `run` records for `rescore`: `aggregation_inputs`, `attestation_evidence` and the
/// ranking score, on the shared synthetic fixture.
@Suite(.serialized) struct RecordAggregationInputsTests {
    static func records(_ manifest: String) throws -> [SampleRecord] {
        let folder = try Fixtures.makeTemporaryFolder("rial-run-inputs")
        let path = folder.appendingPathComponent("samples.jsonl").path
        let plan = RunPlan(manifests: [manifest], jobs: 2, resamples: 0, buildConfiguration: "debug")
        _ = try DatasetRunner(plan: plan).run(samplesPath: path)
        return try SampleRecord.readLines(path: path)
    }

    @Test func everyEvaluatedSampleRecordsItsAggregationInputs() throws {
        let records = try Self.records(RunFixture.damaged())
        #expect(records.contains { $0.status == .failed })
        for record in records {
            guard record.status == .evaluated else {
                #expect(record.aggregationInputs == nil && record.attestationEvidence == nil)
                continue
            }
            let inputs = try #require(record.aggregationInputs)
            #expect(Set(inputs.keys) == Set(record.methods.keys))
            for (key, input) in inputs {
                #expect(input.score == record.methods[key]?["score"]?.numberValue)
                #expect(input.available == (record.methods[key]?["status"]?.stringValue == "completed"))
                #expect(input.source == .computed)
            }
            #expect(record.attestationEvidence != nil)
            let aggregate = try #require(record.aggregate)
            let ranking = try #require(aggregate.rankingScore)
            #expect(record.score("aggregate") == (aggregate.weights.isEmpty ? nil : ranking))
            #expect(record.decision == (ranking >= 0.5 ? .bonaFide : .attack))
            #expect(record.slimmed().aggregationInputs == inputs)
            #expect(record.slimmed().attestationEvidence == record.attestationEvidence)
            let line = record.jsonLine()
            #expect(line.contains("\"aggregation_inputs\":{") && line.contains("\"attestation_evidence\":{"))
            #expect(line.contains("\"ranking_score\":"))
        }
    }

    /// Records of runs written before these fields decode, and the aggregate's metric
    /// score falls back to `score`.
    @Test func olderRecordsDecodeWithoutThem() throws {
        let line = """
            {"aggregate":{"flags":[],"level":"MEDIUM","primary_method":"depth/2","score":0.74,"uncapped_score":0.9,\
            "weights":{"lidar":1}},"attestation":"none","bona_fide":true,"data":"simulated","dataset":"d",\
            "dataset_index":0,"decision":"bona_fide","group":"g","id":"a","index":0,"label":"real_scene",\
            "latency_ms":{},"methods":{},"sha256":{},"split":"test","status":"evaluated","tags":[]}
            """
        let record = try JSONDecoder().decode(SampleRecord.self, from: Data(line.utf8))
        #expect(record.aggregationInputs == nil)
        #expect(record.aggregate?.rankingScore == nil)
        #expect(record.score("aggregate") == 0.74)
    }
}
