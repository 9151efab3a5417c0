import ArgumentParser
import Foundation
import RialDetection
import RialEval
import RialMedia

/// `rial-bench run`: the main job, every method and the aggregator over labelled data.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Evaluate every method and the aggregator on labelled datasets and write results, per-sample logs and reports.",
        discussion: """
            Without --dataset, runs the built-in default data: the default synthetic set (generated once \
            and cached) and the real public set when the data mirror is reachable; --default-set video \
            runs the default video set instead (simulated recordings and tamper suites, also cached), \
            all runs both. Samples are analysed \
            in parallel (one sample per worker) and written in manifest order; a sample that cannot be \
            read is recorded as failed and the run goes on (exit 3 with --strict). The run folder gets \
            results.json, samples.jsonl, report.md, report.html, roc.csv, scores.csv, metrics.csv and SVG plots.
            """)

    @Option(
        name: .customLong("dataset"), help: "A dataset manifest; repeatable (default: the built-in default data).",
        completion: .file(extensions: ["json"]))
    var datasets: [String] = []

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: "Output folder.")
    var out: String = "reports/latest"

    @OptionGroup var jobs: JobsOption

    @Option(help: "Evaluate at most N samples: a test run, marked as such in every output.")
    var limit: Int?

    @Option(help: "Only samples of this split.")
    var split: DatasetSplit?

    @Option(help: "Only samples carrying this tag, e.g. source:OWNER/NAME (repeatable: every one of them).")
    var tag: [String] = []

    @Option(help: "Seed of the bootstrap confidence intervals.")
    var seed: UInt64 = 42

    @Option(help: "Bootstrap resamples for the 95% confidence intervals (0 = none).")
    var resamples: Int = 1000

    @OptionGroup var sharding: ShardOptions

    @Option(help: "Folder of the real data mirror, for the default data.")
    var mirror: String?

    @Option(help: "Default data without --dataset: photo (synthetic and real public), video, or all.")
    var defaultSet: DefaultSet = .photo

    @Flag(help: "Exit 3 when any sample failed.")
    var strict = false

    @Flag(help: "Write every point of every curve in roc.csv and det.csv (default: curves over 10,000 points thinned).")
    var fullCurves = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
        if !datasets.isEmpty && defaultSet != .photo {
            throw ValidationError("--default-set chooses the data when no --dataset is given; give one or the other")
        }
        try BootstrapOptionCheck.resamples(resamples)
    }

    func run() throws {
        let shard: ShardOptions.Shard?
        do { shard = try sharding.resolved() } catch let problem as ShardOptions.Problem {
            throw CLIError.usage(problem.description)
        }
        if let shard, let origin = shard.origin { Terminal.out("shard \(shard.index)/\(shard.count) from \(origin)") }
        let configuration = try pipeline.resolvedConfiguration()
        let manifests =
            datasets.isEmpty
            ? try DefaultDatasets.prepare(mirror: mirror, jobs: jobs.count, set: defaultSet)
            : datasets
        var plan = RunPlan(
            manifests: manifests, configuration: configuration, jobs: jobs.count, limit: limit, split: split,
            seed: seed, resamples: resamples, shard: shard.map { ($0.index, $0.count) },
            buildConfiguration: BuildInfo.configuration, acceptJPEGWarnings: pipeline.acceptJPEGWarnings)
        plan.tags = tag
        if fullCurves { plan.curveExport = .full }
        try RunExecution.execute(plan: plan, out: out, strict: strict)
    }
}

/// How this binary was built.
enum BuildInfo {
    static var configuration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }
}

/// The steps of a run shared by `run` and tests: execute, compute results, write reports.
enum RunExecution {
    static func execute(plan: RunPlan, out: String, strict: Bool) throws {
        let runner: DatasetRunner
        do { runner = try DatasetRunner(plan: plan) } catch {
            throw CLIError.badInput(CLIError.configurationMessage(error))
        }
        do {
            // Everything is written into a staging folder beside `out` and renamed into place at
            // the end, so an interrupted run never leaves new samples beside old results.
            let staging = try RunFolderStaging(destination: out)
            let outcome: DatasetRunner.Outcome
            let results: RunResults
            do {
                let samplesPath = URL(fileURLWithPath: staging.path).appendingPathComponent(RunOutput.samplesFile).path
                let progress = ProgressReporter.Deferred(label: "samples")
                outcome = try runner.run(samplesPath: samplesPath) { done, total, _ in
                    progress.update(done, of: total)
                }
                let records = try SampleRecord.readLines(path: samplesPath, slim: true)
                var context = RunResults.Context(
                    configuration: plan.configuration, datasets: outcome.datasets, limit: plan.limit,
                    seed: plan.seed, resamples: plan.resamples, build: plan.buildConfiguration, jobs: plan.jobs,
                    runSeconds: outcome.seconds, shards: 1, toolVersion: RialBenchVersion.string,
                    shard: plan.shard.map { RunShard(index: $0.index, count: $0.count) })
                context.curveExport = plan.curveExport
                results = RunResults.build(records: records, context: context)
                try RunOutput.writeResultsAndReports(results: results, records: records, folder: staging.path)
                try staging.commit()
            } catch {
                staging.discard()
                throw error
            }
            for failure in results.failures.prefix(20) {
                Terminal.warning("\(failure.id): \(failure.stage): \(failure.reason)")
            }
            if results.failures.count > 20 {
                Terminal.warning("\(results.failures.count - 20) more failed samples in results.json")
            }
            Terminal.out(RunSummary.render(results))
            Terminal.out("report: \(URL(fileURLWithPath: out).appendingPathComponent("report.html").path)")
            if strict && outcome.failed > 0 { throw ExitStatus.samplesFailed }
        } catch let error as RunError {
            throw CLIError.badInput(error.description)
        }
    }
}

/// The few lines `run` prints at the end.
enum RunSummary {
    static func render(_ r: RunResults) -> String {
        var lines: [String] = []
        if r.testRun { lines.append("TEST RUN (--limit \(r.limit ?? 0)): numbers are not representative") }
        lines.append(
            "\(r.counts.evaluated) samples evaluated, \(r.counts.failed) failed, \(String(format: "%.1f", r.runSeconds)) s with \(r.jobs) jobs"
        )
        var table = TextTable(["method", "n", "AUC", "95% CI", "EER", "APCER", "BPCER"])
        for key in r.methods {
            guard let m = r.metrics[key] else { continue }
            func f(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "-" }
            table.append([
                key, "\(m.bonaFideCount)+\(m.attackCount)", f(m.auc),
                m.aucCI.map { "\(f($0.lower))-\(f($0.upper))" } ?? "-", f(m.eer), f(m.apcer.max), f(m.bpcer),
            ])
        }
        lines.append(table.render())
        return lines.joined(separator: "\n")
    }
}
