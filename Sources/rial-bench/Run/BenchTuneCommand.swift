import ArgumentParser
import Foundation
import RialEval

/// `rial-bench bench-tune`: how long `tune` takes on a large synthetic run.
struct BenchTuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-tune",
        abstract: "Time `rial-bench tune` on generated records (release builds).",
        discussion: """
            Generates --samples synthetic evaluated records (7 aggregation inputs each: depth/1 and the \
            newest version of depth, parallax, moire, texture and artifacts, plus attestation; groups of 4, 10 \
            sources), then times \
            what tune does after reading the run: extraction, the nested cross-validation with --folds outer \
            group folds, the final fit, the bootstrap intervals and the three output texts. Wall clock, \
            monotonic. The goal is under 30 s for 100,000 samples and 5 folds on 2 cores. Refuses debug \
            builds unless --allow-debug-build.
            """)

    @Option(help: "Synthetic samples.")
    var samples: Int = 100_000

    @Option(help: "Outer group folds.")
    var folds: Int = 5

    @Option(help: "Bootstrap resamples (tune's default).")
    var resamples: Int = 1000

    @Option(help: "Seed of the records and the folds.")
    var seed: UInt64 = 1

    @Flag(help: "Print the timing as JSON.")
    var json = false

    @Flag(help: "Run in a debug build anyway (the time is then meaningless).")
    var allowDebugBuild = false

    func validate() throws {
        if !(10...10_000_000).contains(samples) {
            throw ValidationError("--samples must be in 10...10000000, got \(samples)")
        }
        if !(2...100).contains(folds) { throw ValidationError("--folds must be in 2...100, got \(folds)") }
        try BootstrapOptionCheck.resamples(resamples)
        try ReleaseBuildCheck.require(allowDebugBuild: allowDebugBuild)
    }

    func run() throws {
        if !json { FileHandle.standardError.write(Data("bench-tune: generating \(samples) records...\n".utf8)) }
        let records = TuningBenchmark.syntheticRecords(count: samples, seed: seed)
        if !json { FileHandle.standardError.write(Data("bench-tune: tuning...\n".utf8)) }
        let timing: TuningBenchmark.Timing
        do { timing = try TuningBenchmark.run(records: records, folds: folds, resamples: resamples, seed: seed) } catch
        {
            throw CLIError.internalError(error.description)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            Terminal.out(String(decoding: try encoder.encode(timing), as: UTF8.self))
        } else {
            Terminal.out(
                String(
                    format:
                        "tune: %d samples x %d inputs, %d folds, %d resamples, %d cores, %@ build: %.2f s "
                        + "(extract %.2f, fit and evaluate %.2f, write %.2f); goal < 30 s",
                    timing.samples, timing.methods, timing.folds, timing.resamples, timing.cores,
                    BuildInfo.configuration, timing.totalSeconds, timing.extractSeconds, timing.tuneSeconds,
                    timing.writeSeconds))
        }
    }
}
