import ArgumentParser
import Foundation
import Ink
import RialDetection
import RialEval

extension TuningObjective: ExpressibleByArgument {}
extension FoldScheme: ExpressibleByArgument {}

/// `rial-bench tune --from RUN... --out DIR`: fits calibrations, weights, the decision
/// threshold and the level boundaries on finished runs, with held-out estimates.
struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Fit a profile's weights, per-method calibration, decision threshold and level boundaries on finished runs, with nested cross-validated held-out estimates.",
        discussion: """
            Reads the samples.jsonl of each run folder (checked against its results.json; several runs are \
            pooled; runs written before aggregation_inputs existed are refused) and fits, on the aggregate's \
            ranking score exactly as run/rescore compute it: per method Platt or isotonic calibration (chosen \
            by inner group-fold log loss), the profile's weights (non-negative, summing to 1; grid plus \
            pattern search from the current weights), the decision threshold for the target operating point \
            and the level boundaries. Every searched weight is 0 or at least --min-weight-share of the searched \
            weight, and a method whose calibrated score does not beat a constant on the inner held-out folds \
            gets weight 0 (it neither moves the mean nor votes in the agreement boost or disagreement cap). \
            With --select-against-base each fit is measured on inner group folds of its own data against the \
            base configuration and replaced by it when not better there. \
            Every reported number is measured on held-out folds (group K-fold: no \
            group in two folds; or --by source: leave one source out, the source being the tag \
            source:OWNER/NAME, else the dataset name); each fold's fit saw only the other folds. The final \
            configuration is fitted on all data. Writes DIR/tuned.yaml (for run/rescore/analyze --config), \
            DIR/tune.json, DIR/tune.md, DIR/tune.html and DIR/det.svg (held-out DET curves). Same inputs and seed give the same files apart from the date.
            """)

    @Option(name: .customLong("from"), help: "A run folder (repeatable; the runs are pooled).", completion: .directory)
    var runs: [String] = []

    @Option(help: "Profile to tune (default: the base configuration's `profile`).")
    var profile: String?

    @Option(help: "What the weight search maximises: auc, pauc (APCER 0-10%) or apcer-at-bpcer.")
    var objective: TuningObjective = .auc

    @Option(help: "Operating point: the highest threshold whose BPCER on the fitting data is <= this (default 0.05).")
    var targetBPCER: Double?

    @Option(help: "Operating point instead: the lowest threshold whose APCER (max over species) is <= this.")
    var targetAPCER: Double?

    @Option(help: "Outer group folds (ignored with --by source).")
    var folds: Int = 5

    @Option(help: "Outer folds: group (group K-fold) or source (leave one source out).")
    var by: FoldScheme = .group

    @Option(help: "Seed of the outer and inner group folds and of the bootstrap (the search itself is deterministic).")
    var seed: UInt64 = 1

    @Option(
        help: "Base configuration (default: the first run's configuration).",
        completion: .file(extensions: ["yaml", "yml", "json"]))
    var config: String?

    @Option(help: "Bootstrap resamples for the intervals (0 = none).")
    var resamples: Int = 1000

    @Option(
        help:
            "Every searched weight is 0 or at least this share of the searched weight (0...0.5; 0 = no minimum): a weighted method votes in the agreement boost and disagreement cap."
    )
    var minWeightShare: Double = 0.1

    @Flag(
        help:
            "Keep weighting methods whose calibrated score does not beat a constant on inner held-out folds (by default they get weight 0)."
    )
    var keepUninformative = false

    @Flag(
        help:
            "Check each fit against the base configuration on inner group folds of its data and keep the base configuration where the fit is not better there."
    )
    var selectAgainstBase = false

    @Option(help: "Output folder for tuned.yaml, tune.json, tune.md, tune.html and det.svg.", completion: .directory)
    var out: String

    func validate() throws {
        if runs.isEmpty { throw ValidationError("give at least one run folder with --from") }
        if targetBPCER != nil && targetAPCER != nil {
            throw ValidationError("give --target-bpcer or --target-apcer, not both")
        }
        for (name, value) in [("--target-bpcer", targetBPCER), ("--target-apcer", targetAPCER)] {
            if let value, !(value > 0 && value < 1) {
                throw ValidationError("\(name) must be in (0, 1), got \(value)")
            }
        }
        if !(2...100).contains(folds) { throw ValidationError("--folds must be in 2...100, got \(folds)") }
        if !(minWeightShare.isFinite && (0...0.5).contains(minWeightShare)) {
            throw ValidationError("--min-weight-share must be in 0...0.5, got \(minWeightShare)")
        }
        try BootstrapOptionCheck.resamples(resamples)
    }

    func run() throws {
        var records: [SampleRecord] = []
        var origin: [Int] = []
        var inputs: [TuningReport.InputRun] = []
        var samplesPaths: [String] = []
        var firstConfiguration: PipelineConfiguration?
        for (k, folder) in runs.enumerated() {
            do {
                let results = try RunOutput.verifiedResults(folder: folder)
                samplesPaths.append(RunOutput.samplesPath(folder: folder, results: results))
                let lines = try RunOutput.records(folder: folder, results: results, slim: true)
                records += lines
                origin += Array(repeating: k, count: lines.count)
                inputs.append(
                    .init(
                        folder: folder, samplesSHA256: results.samplesSHA256 ?? "", samples: lines.count,
                        seeds: results.seeds, aggregateWith: results.configuration.aggregateWith))
                if firstConfiguration == nil { firstConfiguration = results.configuration }
            } catch {
                throw CLIError.badInput(error.description)
            }
        }
        var base = firstConfiguration ?? .standard
        if let config {
            do { base = try ConfigurationFile.load(path: config) } catch { throw CLIError.badInput(error.description) }
        }
        let profileName = profile ?? base.profile
        guard base.aggregation.profiles[profileName] != nil else {
            throw CLIError.usage(
                "--profile '\(profileName)': no such profile; known: "
                    + base.aggregation.profiles.keys.sorted().joined(separator: ", "))
        }
        base.profile = profileName
        let problem: TuningProblem
        do {
            problem = try TuningProblem.from(records: records, base: base, profileName: profileName) { i in
                samplesPaths[origin[i]]
            }
        } catch {
            throw CLIError.badInput(error.description)
        }
        guard problem.bonaFide.contains(true), problem.bonaFide.contains(false) else {
            throw CLIError.badInput("\(runs.joined(separator: ", ")): tuning needs both bona fide and attack samples")
        }
        let keys = by == .source ? problem.sources : problem.groups
        let distinct = Set(keys)
        guard distinct.count >= 2 else {
            throw CLIError.badInput(
                "\(runs.joined(separator: ", ")): --by \(by.rawValue) needs at least 2 \(by == .source ? "sources" : "groups") "
                    + "to hold one out, found \(distinct.count) (\(distinct.sorted().first ?? ""))")
        }
        var options = TuningOptions()
        options.objective = objective
        options.target = targetAPCER.map { .apcer($0) } ?? .bpcer(targetBPCER ?? 0.05)
        options.folds = folds
        options.scheme = by
        options.seed = seed
        options.minimumWeightShare = minWeightShare
        options.dropUninformative = !keepUninformative
        options.selectAgainstBase = selectAgainstBase
        let tuner: Tuner
        do { tuner = try Tuner(problem: problem, options: options) } catch {
            throw CLIError.badInput(CLIError.configurationMessage(error, file: config))
        }
        let created = ISO8601DateFormatter().string(from: Date())
        let progress = ProgressReporter.Deferred(label: "tune fits")
        FileHandle.standardError.write(
            Data("tune: \(problem.count) samples, \(problem.matrix.columns.count) aggregation inputs\n".utf8))
        var report = TuningReport.run(
            tuner: tuner, inputs: inputs, bootstrap: BootstrapSettings(resamples: resamples, seed: seed),
            created: created
        ) { done, total in progress.update(done, of: total) }
        report.methods = MethodHeldOut.compute(
            records: records, parts: keys, groups: problem.groups, decision: base.decision,
            targetBPCER: report.heldOutAfter.apcerAtBPCER.targetBPCER,
            settings: BootstrapSettings(resamples: resamples, seed: seed))
        var tuned = report.final.applied(to: base, profile: profileName)
        tuned.provenance = report.provenance
        let yaml = ConfigurationPrinter.yaml(tuned)
        do {
            let reread = try ConfigurationFile.parse(yaml, path: "tuned.yaml")
            try reread.validate()
        } catch {
            throw CLIError.internalError("tuned.yaml does not read back as a valid configuration: \(error)")
        }
        let folder = URL(fileURLWithPath: out)
        let json: Data
        do { json = try report.jsonData() } catch {
            throw CLIError.internalError("tune.json cannot be encoded: \(error)")
        }
        try OutputFile.write(Data(yaml.utf8), to: folder.appendingPathComponent("tuned.yaml").path)
        try OutputFile.write(json, to: folder.appendingPathComponent(TuningReport.fileName).path)
        let markdown = report.markdown()
        try OutputFile.write(Data(markdown.utf8), to: folder.appendingPathComponent("tune.md").path)
        try OutputFile.write(Data(report.detSVG.utf8), to: folder.appendingPathComponent("det.svg").path)
        // The HTML page shows the same text with the DET plot inline (readable offline).
        let body = MarkdownParser().html(from: markdown.replacingOccurrences(of: "![DET curves](det.svg)", with: ""))
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>rial-bench tune</title>
            <style>
            body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
            table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;vertical-align:top}
            th{background:#f0f0f0}code{font-size:.88em;background:#f5f5f5;padding:0 .2em}
            </style></head><body>
            \(body)
            \(report.detSVG)
            </body></html>

            """
        try OutputFile.write(Data(html.utf8), to: folder.appendingPathComponent("tune.html").path)
        Terminal.out(folder.appendingPathComponent("tune.html").path)
    }
}
