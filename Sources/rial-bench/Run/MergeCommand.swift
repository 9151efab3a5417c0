import ArgumentParser
import Foundation
import RialEval

/// `rial-bench merge`: combine shard run folders into one run.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Combine the folders of a sharded run (run --shard I/N) into one run folder.",
        discussion: """
            The samples are put back in manifest order and every metric is recomputed, so the merged \
            samples.jsonl and metrics equal those of an unsharded run (timings aside). All shards must \
            come from the same configuration and manifests, and together be every shard 1/N...N/N of one \
            split, each once; each folder must pass its samples.jsonl check.
            """)

    @Argument(help: "Shard run folders.", completion: .directory)
    var shards: [String]

    @Option(help: "Output folder.")
    var out: String

    func validate() throws {
        if shards.count < 1 { throw ValidationError("give at least one shard folder") }
    }

    func run() throws {
        do {
            let merged = try RunMerger.merge(folders: shards, toolVersion: RialBenchVersion.string)
            let staging = try RunFolderStaging(destination: out)
            do {
                let samples =
                    merged.records.map { $0.jsonLine() }.joined(separator: "\n") + (merged.records.isEmpty ? "" : "\n")
                let path = URL(fileURLWithPath: staging.path).appendingPathComponent(RunOutput.samplesFile)
                do { try Data(samples.utf8).write(to: path) } catch {
                    throw RunError("\(path.path): cannot be written")
                }
                try RunOutput.writeResultsAndReports(
                    results: merged.results, records: merged.records, folder: staging.path)
                try staging.commit()
            } catch {
                staging.discard()
                throw error
            }
            Terminal.out(RunSummary.render(merged.results))
            Terminal.out("report: \(URL(fileURLWithPath: out).appendingPathComponent("report.html").path)")
        } catch let error as RunError {
            throw CLIError.badInput(error.description)
        }
    }
}

/// `rial-bench report --from DIR`: re-render the reports of a run folder.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Re-render report.md, report.html, CSVs and plots of a run folder from its results.json and samples.jsonl, without re-running."
    )

    @Option(help: "The run folder.", completion: .directory)
    var from: String

    @Flag(
        help:
            "Also recompute the metrics from samples.jsonl (e.g. after changing the report code or the decision threshold in results.json)."
    )
    var recompute = false

    func run() throws {
        do {
            let folder = URL(fileURLWithPath: from)
            var results = try RunOutput.verifiedResults(folder: from)
            let records = try RunOutput.records(folder: from, results: results, slim: true)
            if recompute {
                let samplesFrom = results.samplesFrom
                results = RunResults.build(records: records, context: results.context)
                results.samplesFrom = samplesFrom
            }
            try RunOutput.writeResultsAndReports(results: results, records: records, folder: from)
            Terminal.out("report: \(folder.appendingPathComponent("report.html").path)")
        } catch {
            throw CLIError.badInput(error.description)
        }
    }
}
