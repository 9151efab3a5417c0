import ArgumentParser

@main
struct RialBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rial-bench",
        abstract: "Evaluate the rial. provenance-camera detection pipeline on labelled captures.",
        version: RialBenchVersion.string,
        subcommands: [
            Run.self, Report.self, Merge.self, Rescore.self, Compare.self, Gate.self, Bench.self, Methodology.self,
            Analyze.self, ConfigCommand.self, Inspect.self, Synth.self, DatasetCommand.self,
            TrainCommand.self, BenchDecodeCommand.self, BenchRescoreCommand.self, BenchChainCommand.self, Tune.self,
            BenchTuneCommand.self, BenchCompareCommand.self,
        ]
    )

    /// Parses the command line and runs the command. The one place where a failure
    /// becomes output: a `CLIError` prints its lines as `rial-bench: error: …` and exits
    /// with its status; anything else (usage errors, `--help`, a bare `ExitCode`) is
    /// ArgumentParser's.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            for message in error.messages { Terminal.error(message) }
            exit(withError: error.status)
        } catch {
            exit(withError: error)
        }
    }
}

enum RialBenchVersion {
    static let string = "0.1.0"
}
