import ArgumentParser
import Foundation
import RialEval

/// `rial-bench bench-rescore`: how long `rescore` takes on a large synthetic run.
struct BenchRescoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-rescore",
        abstract: "Measure rescore on a large synthetic run folder (release builds).",
        discussion: """
            Writes a run folder of --samples synthetic records shaped as run writes them (every registered method version, \
            each with --fields-per-method further numbers, aggregation inputs, latencies, hashes; not \
            timed; with --distinct-scores every line's method scores differ, else they cycle through \
            1,000 templates; --groups N puts line i in group i mod N, else the templates' 200 groups), then \
            times rescore on it under a configuration that changes weights, a \
            calibration and the decision threshold: the aggregation sidecar's part (read and verify \
            aggregation-inputs.bin, aggregate every sample from its columns), then the whole rescore as the \
            command runs it: from the run's columns (read and verify them, aggregate) or, with \
            --write-samples, the record pass (verify, read, aggregate, write samples.jsonl); then the \
            metrics and reports, with --resamples bootstrap resamples. The run folder is removed afterwards \
            unless --keep.
            """)

    @Option(help: "Records in the synthetic run.")
    var samples: Int = 1_000_000

    @Option(help: "Numeric fields per method result besides the common ones (line size).")
    var fieldsPerMethod: Int = 8

    @Option(help: "Bootstrap resamples recorded in the synthetic run (the rescore computes as many; run's default).")
    var resamples: Int = 1000

    @Flag(help: "Give every line its own method scores (else 1,000 templates repeat).")
    var distinctScores = false

    @Option(help: "Put line i in group i mod N (default: the templates' 200 groups).")
    var groups: Int?

    @Flag(help: "Write only the aggregation sidecar (samples.jsonl left empty) and time only its part of a rescore.")
    var sidecarOnly = false

    @Flag(
        help:
            "Time rescore --write-samples (read and write every record) instead of the rescore from the run's columns.")
    var writeSamples = false

    @Option(help: "Folder for the synthetic run and the rescore (default: a new temporary folder).")
    var folder: String?

    @Flag(help: "Keep the synthetic run folder.")
    var keep = false

    @OptionGroup var jobs: JobsOption

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(help: "Run in a debug build anyway (numbers are then meaningless).")
    var allowDebugBuild = false

    func validate() throws {
        if samples < 1 { throw ValidationError("--samples must be at least 1, got \(samples)") }
        if !(0...1000).contains(fieldsPerMethod) {
            throw ValidationError("--fields-per-method must be in 0...1000, got \(fieldsPerMethod)")
        }
        try BootstrapOptionCheck.resamples(resamples)
        if let groups, groups < 1 { throw ValidationError("--groups must be at least 1, got \(groups)") }
        try ReleaseBuildCheck.require(allowDebugBuild: allowDebugBuild)
    }

    func run() throws {
        let base =
            folder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("rial-bench-rescore-\(UUID().uuidString)")
            .path
        let run = URL(fileURLWithPath: base).appendingPathComponent("run").path
        defer { if !keep { try? FileManager.default.removeItem(atPath: base) } }
        do {
            if !json { FileHandle.standardError.write(Data("bench-rescore: writing \(samples) records...\n".utf8)) }
            try RescoreBenchmark.writeRun(
                folder: run, samples: samples, fieldsPerMethod: fieldsPerMethod, resamples: resamples,
                distinctScores: distinctScores, samplesFile: !sidecarOnly, groups: groups)
            if !json { FileHandle.standardError.write(Data("bench-rescore: rescoring...\n".utf8)) }
            var report = try RescoreBenchmark.measure(
                run: run, out: URL(fileURLWithPath: base).appendingPathComponent("rescored").path, jobs: jobs.count,
                full: !sidecarOnly, writeSamples: writeSamples)
            report.distinctScores = distinctScores
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                Terminal.out(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                if !sidecarOnly {
                    Terminal.out(
                        String(
                            format:
                                "rescore of %d samples (%.0f bytes per line, %.2f GB), %d jobs, %d resamples, "
                                + (report.wroteSamples
                                    ? "writing samples.jsonl: records" : "from the run's columns: columns")
                                + " %.2f s, metrics %.2f s, results and reports %.2f s, total %.2f s",
                            report.samples, Double(report.bytes) / Double(max(1, report.samples)),
                            Double(report.bytes) / 1e9, report.jobs, report.bootstrapResamples, report.recordSeconds,
                            report.metricsSeconds, report.writeSeconds, report.totalSeconds))
                }
                Terminal.out(
                    String(
                        format:
                            "aggregation sidecar (%.1f MB, \(distinctScores ? "distinct" : "template") scores): read and SHA-256 %.2f s, parse %.2f s, aggregate %.2f s (compiled plan %.2f s), aggregate's metrics %.2f s",
                        Double(report.sidecarBytes) / 1e6, report.sidecarReadSeconds, report.sidecarParseSeconds,
                        report.sidecarAggregateSeconds, report.planAggregateSeconds,
                        report.aggregateMetricsSeconds))
                Terminal.out(
                    "aggregate's metrics by part: "
                        + report.aggregateMetricsParts.sorted { $0.key < $1.key }.map {
                            "\($0.key) " + String(format: "%.2f s", $0.value)
                        }.joined(separator: ", "))
                Terminal.out(
                    "CPU seconds (all threads): "
                        + report.cpuSeconds.sorted { $0.key < $1.key }.map {
                            "\($0.key) " + String(format: "%.2f", $0.value)
                        }.joined(separator: ", "))
            }
        } catch let error as RunError {
            throw CLIError.badInput(error.description)
        }
    }
}
