import ArgumentParser

@main
struct RialBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rial-bench",
        abstract: "Evaluate the rial. provenance-camera detection pipeline on labelled captures.",
        version: RialBenchVersion.string,
        subcommands: [Analyze.self, ConfigCommand.self, Inspect.self, Synth.self, DatasetCommand.self, BenchDecodeCommand.self,
                      TrainCommand.self]
    )
}

enum RialBenchVersion {
    static let string = "0.1.0"
}
