import Foundation
import RialMedia
import Testing

@testable import RialEval

/// A gate policy file laid over `GatePolicy.standard` (`GatePolicy.overlayRules`).
@Suite struct GatePolicyTests {
    func load(_ text: String) throws(RunError) -> GatePolicy {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gate-policy-\(UUID().uuidString).yaml").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do { return try GatePolicy.load(path: path) } catch {
            throw RunError(error.message.replacingOccurrences(of: path, with: "p.yaml"))
        }
    }

    @Test func emptyAndPartialFilesKeepTheDefaults() throws {
        #expect(try load("") == .standard)
        #expect(try load("{}") == .standard)
        #expect(try load("min_evaluated_fraction: null\nlatency: {}\n") == .standard)
        var fraction = GatePolicy.standard
        fraction.minEvaluatedFraction = 0.5
        #expect(try load("min_evaluated_fraction: 0.5") == fraction)
        var statistic = GatePolicy.standard
        statistic.latency?.statistic = "p90"
        #expect(try load("latency: {statistic: p90, relative_tolerance: null}") == statistic)
    }

    @Test func nullTurnsLatencyChecksOrNormalizationOff() throws {
        #expect(try load("latency: null").latency == nil)
        let absolute = try load("latency: {normalize_by: null}").latency
        #expect(absolute?.normalizeBy == nil && absolute?.statistic == "p50" && absolute?.relativeTolerance == 1.0)
    }

    @Test func writtenAccuracyChecksReplaceTheListAndKeepTheirOwnDefaults() throws {
        let policy = try load(
            """
            accuracy:
              - {metric: auc, polarity: higher_is_better}
              - {metric: eer, polarity: lower_is_better, relative_tolerance: 0.1, methods: [aggregate]}
            """)
        #expect(
            policy.accuracy == [
                .init(metric: "auc", polarity: .higherIsBetter),
                .init(metric: "eer", polarity: .lowerIsBetter, relativeTolerance: 0.1, methods: ["aggregate"]),
            ])
        #expect(policy.latency == GatePolicy.standard.latency)
    }

    @Test func badEntriesAreNamed() {
        #expect(throws: RunError("p.yaml: key 'accuracy[0].polarity' is required")) {
            try load("accuracy: [{metric: auc}]")
        }
        #expect(throws: RunError("p.yaml: key 'min_evaluated_fraction': expected a number")) {
            try load("min_evaluated_fraction: most")
        }
        #expect(throws: RunError("p.yaml: accuracy[0]: tolerances must be finite and >= 0")) {
            try load("accuracy: [{metric: auc, polarity: higher_is_better, absolute_tolerance: -1}]")
        }
        #expect(throws: RunError("p.yaml: latency.relative_tolerance must be finite and >= 0")) {
            try load("latency: {relative_tolerance: -1}")
        }
        #expect(throws: RunError("p.yaml: min_evaluated_fraction must be in 0...1")) {
            try load("min_evaluated_fraction: 2")
        }
    }
}
