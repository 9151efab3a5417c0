import ArgumentParser

@main
struct RialBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rial-bench",
        abstract: "Evaluate the rial. provenance-camera detection pipeline on labelled captures.",
        version: RialBenchVersion.string,
        subcommands: [Run.self, Report.self, Merge.self, Compare.self, Gate.self, Bench.self, Methodology.self,
                      Analyze.self, ConfigCommand.self, Inspect.self, Synth.self, DatasetCommand.self,
                      TrainCommand.self, BenchDecodeCommand.self]
    )
}

enum RialBenchVersion {
    static let string = "0.1.0"
}
