import ArgumentParser
import Foundation
import RialEval

/// `rial-bench bench-compare --before A.json ... --after B.json ...`: two builds' (or
/// configurations') latency, item by item, over repeated `bench --json` reports.
struct BenchCompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-compare",
        abstract:
            "Compare repeated `bench --json` reports before and after a change, item by item (rank-sum test over the reports' p50s); exit 2 on a regression with --fail-above.",
        discussion: """
            A shared machine's speed drifts between runs by more than one run's own spread, so each \
            report's p50 of an item counts as one observation: a row shows the median over a side's \
            reports with their range, the change of the medians, and the two-sided Wilcoxon-Mann-Whitney \
            p-value of the two sides' p50s (exact with ties up to 40 reports in all). A change with p >= \
            --alpha is marked ~. Run the two builds alternately, at least 4 reports a side (with 3 a side \
            the smallest possible p is 0.1), e.g.

              for i in 1 2 3 4 5; do
                A/rial-bench bench --json > a$i.json
                B/rial-bench bench --json > b$i.json
              done
              rial-bench bench-compare --before a*.json --after b*.json --fail-above 5

            Reports of different captures are refused (their times measure different inputs) unless \
            --allow-different-captures. Prints Markdown (also appended to $GITHUB_STEP_SUMMARY when set), \
            or JSON with --json.
            """)

    @Option(
        parsing: .upToNextOption, help: "`bench --json` reports of the build before the change.",
        completion: .file(extensions: ["json"]))
    var before: [String] = []

    @Option(
        parsing: .upToNextOption, help: "`bench --json` reports of the build after the change.",
        completion: .file(extensions: ["json"]))
    var after: [String] = []

    @Option(help: "Significance level of the rank-sum test.")
    var alpha: Double = 0.05

    @Option(
        name: .customLong("fail-above"),
        help: "Exit 2 when an item's median p50 grows by more than this many percent at p < alpha.")
    var failAbove: Double?

    @Flag(help: "Compare reports that timed different captures.")
    var allowDifferentCaptures = false

    @Flag(help: "Print the comparison as JSON.")
    var json = false

    @Option(help: "Also write the Markdown here.", completion: .file(extensions: ["md"]))
    var markdown: String?

    func validate() throws {
        guard !before.isEmpty, !after.isEmpty else {
            throw ValidationError("give at least one report after --before and one after --after")
        }
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1") }
        if let failAbove, !(failAbove.isFinite && failAbove >= 0) {
            throw ValidationError("--fail-above must be a non-negative percentage")
        }
    }

    func run() throws {
        let comparison: BenchComparison
        do {
            comparison = try BenchComparison(
                before: try before.map { path throws(RunError) in try Benchmark.Report.read(path: path) },
                after: try after.map { path throws(RunError) in try Benchmark.Report.read(path: path) },
                alpha: alpha, failAbove: failAbove.map { $0 / 100 }, allowDifferentCaptures: allowDifferentCaptures)
        } catch {
            throw CLIError.badInput(error.description)
        }
        let text = comparison.markdown()
        if json {
            Terminal.out(String(decoding: try comparison.jsonData(), as: UTF8.self))
        } else {
            Terminal.out(text, terminator: "")
        }
        if let markdown { try OutputFile.write(Data(text.utf8), to: markdown) }
        Gate.appendStepSummary(text)
        if !comparison.regressions.isEmpty { throw ExitStatus.regression }
    }
}
