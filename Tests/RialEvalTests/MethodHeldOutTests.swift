import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// Every method version's own held-out metrics beside the tuning study (`MethodHeldOut`).
/// Expected AUCs are counted by hand from the Mann-Whitney definition (share of
/// (bona fide, attack) pairs where the bona fide sample scores higher, ties 1/2).
@Suite struct MethodHeldOutTests {
    static func record(
        _ id: String, real: Bool, source: String, scores: [String: Double?], status: SampleRecord.Status = .evaluated
    ) -> SampleRecord {
        var inputs: [String: AggregationCandidate] = [:]
        for (key, score) in scores {
            inputs[key] = AggregationCandidate(
                family: MethodFamily(rawValue: String(key.split(separator: "/")[0]))!, source: .computed,
                available: score != nil, score: score)
        }
        return SampleRecord(
            id: id, datasetIndex: 0, index: 0, dataset: "d", label: .known(real ? .realScene : .lcdScreen),
            bonaFide: real, group: id, tags: ["source:\(source)"], attestation: .none, split: .test,
            data: .real, status: status, failure: nil, methods: [:], aggregate: nil, decision: nil,
            aggregationInputs: inputs, attestationEvidence: .missing, latencyMs: [:], sha256: [:])
    }

    @Test func pooledAndPerSourceAUCAreTheMethodsOwn() throws {
        // moire/1: bona fide 0.9 (A), 0.8 (B); attacks 0.2 (A), 0.85 (B).
        // Pooled pairs: 0.9>0.2, 0.9>0.85, 0.8>0.2, 0.8<0.85 -> 3/4. A: 1/1. B: 0/1.
        // texture/2 scores nothing on B: pooled = part A = 0.7 vs 0.1 -> 1.
        let records = [
            Self.record("a1", real: true, source: "A/x", scores: ["moire/1": 0.9, "texture/2": 0.7]),
            Self.record("a2", real: false, source: "A/x", scores: ["moire/1": 0.2, "texture/2": 0.1]),
            Self.record("b1", real: true, source: "B/y", scores: ["moire/1": 0.8, "texture/2": nil]),
            Self.record("b2", real: false, source: "B/y", scores: ["moire/1": 0.85, "texture/2": nil]),
            // A failed sample counts nowhere.
            Self.record("b3", real: false, source: "B/y", scores: ["moire/1": 0.99], status: .failed),
        ]
        let evaluated = records.filter { $0.status == .evaluated }
        let methods = MethodHeldOut.compute(
            records: records, parts: evaluated.map { String($0.tags[0].dropFirst(7)) }, groups: evaluated.map(\.id),
            decision: PipelineConfiguration.standard.decision, targetBPCER: 0.05,
            settings: BootstrapSettings(resamples: 0, seed: 1))
        #expect(methods.keys.sorted() == ["moire/1", "texture/2"])
        let moire = try #require(methods["moire/1"])
        #expect(moire.pooled.auc == 0.75)
        #expect(moire.pooled.bonaFide == 2 && moire.pooled.attacks == 2)
        #expect(moire.parts["A/x"]?.auc == 1)
        #expect(moire.parts["B/y"]?.auc == 0)
        let texture = try #require(methods["texture/2"])
        #expect(texture.pooled.auc == 1 && texture.pooled.samples == 2)
        #expect(texture.parts.keys.sorted() == ["A/x"])
        // APCER at BPCER 5% on moire/1 pooled: no bona fide may be rejected, so the
        // threshold is the lowest bona fide score 0.8 and the attack at 0.85 is accepted: 1/2.
        #expect(moire.pooled.apcerAtBPCER.apcerMax == 0.5)
    }
}
