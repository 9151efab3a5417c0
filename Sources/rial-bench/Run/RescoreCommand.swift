import ArgumentParser
import Foundation
import RialDetection
import RialEval

/// `rial-bench rescore RUN --config FILE --out DIR`: a finished run aggregated again
/// under another configuration.
struct Rescore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Aggregate a finished run again under another configuration, without decoding or running any method.",
        discussion: """
            Aggregates every evaluated sample of RUN again from the method scores the run recorded \
            (aggregation_inputs), under FILE's weights, calibration, levels, caps, decision threshold, \
            profile and aggregate_with, and writes a run folder to --out: results.json with every metric, \
            the reports run writes, and the run's columns. The result equals a fresh run with FILE, \
            timings aside. Failed samples stay failed. FILE must run the same methods with the same \
            constants as RUN (a rescore cannot change what a method computed): a difference is refused \
            naming the key. Runs written before aggregation_inputs existed are refused: re-run them.

            By default the rescore reads only RUN's columns (aggregation-inputs.bin, metric-columns.bin, \
            each checked against results.json) and writes no samples.jsonl: the new folder's results.json \
            names the folder that holds the records (samples_from), and report --from, compare and tune \
            read them from there, aggregated under FILE. A method whose threshold did not change keeps the \
            run's metrics (same scores, same bootstrap). With --write-samples, or for a run without \
            metric columns (an older rial-bench) or with videos, payload results or privacy-mode \
            captures, RUN's samples.jsonl is read (checked as report --from checks it) and a complete \
            samples.jsonl is written.
            """)

    @Argument(help: ArgumentHelp("The run folder to rescore.", valueName: "run"), completion: .directory)
    var runFolder: String

    @Option(
        help: "YAML configuration file to aggregate under (see `rial-bench config print`).",
        completion: .file(extensions: ["yaml", "yml", "json"]))
    var config: String

    @Option(help: "Aggregation profile, e.g. ios_pro or android (default: the configuration's `profile`).")
    var profile: String?

    @Option(help: "Output folder (not RUN itself).")
    var out: String

    @Flag(
        help: "Write a complete samples.jsonl into --out (read from RUN's records) instead of naming RUN's records.")
    var writeSamples = false

    @Flag(help: "Write every point of every curve in roc.csv and det.csv (default: as RUN wrote them).")
    var fullCurves = false

    @OptionGroup var jobs: JobsOption

    func validate() throws {
        let resolved = { (path: String) in
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        if resolved(runFolder) == resolved(out) {
            throw ValidationError(
                "--out must not be the run folder being rescored (\(runFolder)); choose another folder")
        }
    }

    func run() throws {
        var configuration: PipelineConfiguration
        do { configuration = try ConfigurationFile.load(path: config) } catch {
            throw CLIError.badInput(error.description)
        }
        if let profile {
            let known = configuration.aggregation.profiles.keys.sorted()
            guard known.contains(profile) else {
                throw CLIError.usage(
                    "--profile '\(profile)': no such profile in \(config); known: " + known.joined(separator: ", "))
            }
            configuration.profile = profile
        }
        do {
            let staging = try RunFolderStaging(destination: out)
            let outcome: RunRescore.Outcome
            do {
                outcome = try RunRescore.rescore(
                    run: runFolder, configuration: configuration, configurationFile: config, into: staging.path,
                    jobs: jobs.count, toolVersion: RialBenchVersion.string, writeSamples: writeSamples,
                    curveExport: fullCurves ? .full : nil)
                try staging.commit()
            } catch {
                staging.discard()
                throw error
            }
            if let reason = outcome.recordsReason {
                Terminal.out("rescore: reading and writing every record: \(reason)")
            }
            Terminal.out(
                "\(outcome.rescored) samples rescored, \(outcome.failed) failed carried over "
                    + String(
                        format: outcome.wroteSamples
                            ? "(records %.2f s, metrics %.2f s, results and reports %.2f s)"
                            : "(columns %.2f s, metrics %.2f s, results and reports %.2f s)", outcome.recordSeconds,
                        outcome.metricsSeconds, outcome.writeSeconds))
            if !outcome.wroteSamples, let from = outcome.results.samplesFrom {
                Terminal.out("records: \(from)/\(RunOutput.samplesFile), aggregated under \(config)")
            }
            Terminal.out(RunSummary.render(outcome.results))
            Terminal.out("report: \(URL(fileURLWithPath: out).appendingPathComponent("report.html").path)")
        } catch let error as RunError {
            throw CLIError.badInput(error.description)
        }
    }
}
