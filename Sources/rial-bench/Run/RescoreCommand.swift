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
            Reads RUN's samples.jsonl (checked against its results.json as report --from checks it), \
            aggregates every evaluated sample again from the method scores the run recorded \
            (aggregation_inputs), under FILE's weights, calibration, levels, caps, decision threshold, \
            profile and aggregate_with, and writes a complete run folder to --out: samples.jsonl, \
            results.json with every metric, and the reports run writes. The result equals a fresh run with \
            FILE, timings aside. Failed samples stay failed. FILE must run the same methods with the same \
            constants as RUN (a rescore cannot change what a method computed): a difference is refused \
            naming the key. Runs written before aggregation_inputs existed are refused: re-run them.
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
                    jobs: jobs.count, toolVersion: RialBenchVersion.string)
                try staging.commit()
            } catch {
                staging.discard()
                throw error
            }
            Terminal.out(
                "\(outcome.rescored) samples rescored, \(outcome.failed) failed carried over "
                    + String(
                        format: "(records %.2f s, metrics and reports %.2f s)", outcome.recordSeconds,
                        outcome.reportSeconds))
            Terminal.out(RunSummary.render(outcome.results))
            Terminal.out("report: \(URL(fileURLWithPath: out).appendingPathComponent("report.html").path)")
        } catch let error as RunError {
            throw CLIError.badInput(error.description)
        }
    }
}
