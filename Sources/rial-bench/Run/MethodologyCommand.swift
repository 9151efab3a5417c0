import ArgumentParser
import Foundation
import Ink
import RialEval

/// `rial-bench methodology`: the reviewer's report, generated from a run.
struct Methodology: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write the methodology report (Markdown and HTML) from a run folder: methods and configuration, data and provenance, results with intervals, latency, limitations, reproduction commands."
    )

    @Option(help: "The run folder (normally the default run, reports/latest).", completion: .directory)
    var from: String = "reports/latest"

    @Option(help: "Markdown output; the HTML goes beside it with the .html extension.")
    var out: String = "reports/methodology.md"

    @Option(
        help: "A `rial-bench tune` output folder whose held-out numbers the report shows (its tune.json); repeatable.",
        completion: .directory)
    var tuning: [String] = []

    @Option(
        help:
            "A run folder of video recordings (e.g. `rial-bench run --default-set video`) whose per-method results, tamper detection and video levels the report adds.",
        completion: .directory)
    var videoFrom: String?

    @Option(
        help:
            "A `rial-bench dataset gap` output folder (its gap.json) whose domain-gap figures, real against simulated photos, the report shows; repeatable.",
        completion: .directory)
    var gap: [String] = []

    @Option(
        help:
            "A `rial-bench bench --json` report whose single-capture latency (each method against its target, end to end against the decode) the report shows beside the run's.",
        completion: .file(extensions: ["json"]))
    var bench: String?

    func run() throws {
        let results: RunResults
        do {
            // The folder is checked as report, compare and gate check it: a samples.jsonl that is
            // not the one results.json was computed from (an interrupted or altered run) is refused.
            results = try RunOutput.verifiedResults(folder: from)
        } catch {
            throw CLIError.badInput(error.description)
        }
        var video: (folder: String, results: RunResults)?
        if let videoFrom {
            do { video = (videoFrom, try RunOutput.verifiedResults(folder: videoFrom)) } catch {
                throw CLIError.badInput(error.description)
            }
        }
        var tunings: [MethodologyReport.TuningSummary] = []
        for folder in tuning {
            do { tunings.append(.init(folder: folder, report: try TuningReport.read(folder: folder))) } catch {
                throw CLIError.badInput(error.description)
            }
        }
        var gaps: [MethodologyReport.GapSummary] = []
        for folder in gap {
            do { gaps.append(.init(folder: folder, report: try DomainGapReport.read(folder: folder))) } catch {
                throw CLIError.badInput(error.description)
            }
        }
        var benchSummary: MethodologyReport.BenchSummary?
        if let bench {
            do { benchSummary = .init(path: bench, report: try Benchmark.Report.read(path: bench)) } catch {
                throw CLIError.badInput(error.description)
            }
        }
        let markdown = MethodologyReport.markdown(
            results: results, datasets: MethodologyReport.describe(results.datasets),
            folder: from, tunings: tunings, video: video, gaps: gaps, bench: benchSummary)
        let body = MarkdownParser().html(from: markdown)
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>rial-bench methodology</title>
            <style>
            body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
            table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;vertical-align:top}
            th{background:#f0f0f0}code{font-size:.88em;background:#f5f5f5;padding:0 .2em}pre{background:#f5f5f5;padding:.75rem;overflow:auto}
            blockquote{border-left:4px solid #c60;margin:0;padding:.25rem 1rem;background:#fff5eb}
            </style></head><body>
            \(body)
            </body></html>

            """
        let markdownURL = URL(fileURLWithPath: out)
        let htmlURL = markdownURL.deletingPathExtension().appendingPathExtension("html")
        try OutputFile.write(Data(markdown.utf8), to: markdownURL.path)
        try OutputFile.write(Data(html.utf8), to: htmlURL.path)
        Terminal.out("methodology: \(markdownURL.path), \(htmlURL.path)")
    }
}
