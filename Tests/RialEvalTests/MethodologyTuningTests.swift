import Foundation
import RialDetection
import Testing

@testable import RialEval

/// The methodology's "what was fitted on what" and its held-out tuning section, and the
/// tune report's handling of a held-out part with one group.
@Suite struct MethodologyTuningTests {
    /// A leave-one-source-out tuning of the synthetic problem of `TuningTunerTests`
    /// (5 sources, groups of 4 samples, so every source holds several groups).
    static func report(groupsPerSource single: Bool = false) throws -> TuningReport {
        var problem = TuningTunerTests.problem(samples: 200, seed: 21)
        if single { problem.groups = problem.sources }
        var options = TuningOptions()
        options.scheme = .source
        return TuningReport.run(
            tuner: try Tuner(problem: problem, options: options), inputs: [],
            bootstrap: BootstrapSettings(resamples: 20, seed: 1), created: "2026-11-26")
    }

    @Test func tuneJSONReadsBack() throws {
        let report = try Self.report()
        let again = try TuningReport.decode(try report.jsonData())
        #expect(try again.jsonData() == report.jsonData())
    }

    @Test func methodologyShowsTheHeldOutTablePerSource() throws {
        let report = try Self.report()
        let lines = MethodologyReport.tuningSection(.init(folder: "tuned/real-dev", report: report))
        let text = lines.joined(separator: "\n")
        #expect(text.contains("## Tuning, held out: `tuned/real-dev`"))
        #expect(text.contains("### Held out, pooled"))
        #expect(text.contains("### Per held-out source"))
        for source in 0..<5 { #expect(text.contains("owner/repo\(source)")) }
        #expect(!text.contains("det.svg"))
    }

    /// Groups equal to sources: each held-out source is one group, and its bootstrap
    /// interval would be a single point, so the table says "(1 group)" instead.
    @Test func aSingleGroupHasNoInterval() throws {
        let text = try Self.report(groupsPerSource: true).markdown()
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| owner/repo") }
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0.contains("(1 group)") && $0.contains("| 1 |") })
        let many = try Self.report().markdown()
        #expect(!many.contains("(1 group)"))
    }

    @Test func fittedOnNamesTheDataOfEachFit() {
        let text = MethodologyReport.fittedOn(.standard).joined(separator: "\n")
        #expect(text.contains("`depth/2`") && text.contains("`train` split of the default synthetic set"))
        #expect(text.contains(TextureModel.default.modelID))
        #expect(text.contains("not fitted to any data"))
        var tuned = PipelineConfiguration.standard
        tuned.provenance = ["objective": "auc", "seed": "1"]
        let tunedText = MethodologyReport.fittedOn(tuned).joined(separator: "\n")
        #expect(tunedText.contains("from a tuned configuration") && tunedText.contains("objective: auc"))
    }
}

extension MethodologyTuningTests {
    /// The headline names the held-out scheme and both AUCs, and the reproduction block
    /// the tuning folder.
    @Test func headlineAndReproductionNameTheTuning() throws {
        let report = try Self.report()
        let text = MethodologyReport.tuningHeadline(.init(folder: "tuned/x", report: report)).joined()
        #expect(text.contains("leave-one-source-out, 5 sources"))
        #expect(text.contains(String(format: "%.3f", report.heldOutBefore.auc)))
        #expect(text.contains(String(format: "%.3f", report.heldOutAfter.auc)))
    }
}

extension MethodologyTuningTests {
    /// The versions that fed the aggregate are named when every input run recorded the
    /// same `aggregate_with`, said to differ when they do not, and said to be missing for
    /// a tune.json written before they were kept (which still reads).
    @Test func headlineNamesTheAggregatedVersions() throws {
        var report = try Self.report()
        let versions: [MethodFamily: MethodIdentifier] = [
            .texture: .textureV3, .moire: .moireV2, .artifacts: .artifactsV2,
        ]
        let input = TuningReport.InputRun(
            folder: "runs/a", samplesSHA256: "00", samples: 10, seeds: [:], aggregateWith: versions)
        report.inputs = [input, input]
        var text = MethodologyReport.tuningHeadline(.init(folder: "tuned/x", report: report)).joined()
        // Families in their declared order.
        #expect(
            text.contains(
                "Aggregated versions (every input run's `aggregate_with`): `moire/2`, `texture/3`, `artifacts/2`."))
        #expect(
            try TuningReport.decode(try report.jsonData()).aggregatedVersions == [.moireV2, .textureV3, .artifactsV2])

        var other = input
        other.aggregateWith?[.artifacts] = .artifactsV1
        report.inputs = [input, other]
        text = report.markdown()
        #expect(report.aggregatedVersions == nil)
        #expect(text.contains("the input runs' `aggregate_with` differ"))

        // An older tune.json: the inputs have no `aggregate_with`.
        report.inputs = [TuningReport.InputRun(folder: "runs/a", samplesSHA256: "00", samples: 10, seeds: [:])]
        var json = try JSONSerialization.jsonObject(with: try report.jsonData()) as! [String: Any]
        #expect(((json["inputs"] as! [[String: Any]])[0]["aggregate_with"]) == nil)
        json["created"] = "2026-11-20"
        let old = try TuningReport.decode(try JSONSerialization.data(withJSONObject: json))
        #expect(old.aggregatedVersions == nil)
        #expect(old.markdown().contains("Aggregated versions: not recorded"))
    }
}
