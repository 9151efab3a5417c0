import ArgumentParser
import Foundation
import RialEval

/// `rial-bench compare RUN_A RUN_B`: paired comparison of two runs.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Compare two run folders on their shared samples (paired bootstrap for AUC differences, McNemar for decisions)."
    )

    @Argument(help: "Run folder A (e.g. the baseline configuration).", completion: .directory)
    var first: String

    @Argument(help: "Run folder B.", completion: .directory)
    var second: String

    @Option(help: "Bootstrap resamples.")
    var resamples: Int = 1000

    @Option(help: "Bootstrap seed.")
    var seed: UInt64 = 42

    @Option(help: "Also write the Markdown table here.", completion: .file(extensions: ["md"]))
    var markdown: String?

    func validate() throws {
        try BootstrapOptionCheck.resamples(resamples)
    }

    func run() throws {
        do {
            func load(_ folder: String) throws(RunError) -> (RunResults, [SampleRecord]) {
                let results = try RunOutput.verifiedResults(folder: folder)
                return (results, try RunOutput.records(folder: folder, results: results, slim: true))
            }
            let a = try load(first), b = try load(second)
            let comparison = RunComparison.compare(
                first: a, second: b,
                settings: BootstrapSettings(resamples: resamples, seed: seed))
            if comparison.sharedSamples == 0 {
                throw CLIError.badInput("\(first) and \(second) share no samples (same dataset name and sample id)")
            }
            let text = comparison.markdown(first: first, second: second)
            Terminal.out(text, terminator: "")
            if let markdown { try OutputFile.write(Data(text.utf8), to: markdown) }
        } catch let error as RunError {
            throw CLIError.badInput(error.description)
        }
    }
}
