import Foundation
import RialMedia

/// Writes the human-readable outputs of a run folder from `results.json` and the
/// sample records: `report.md`, `report.html`, `roc.csv`, `det.csv`, `scores.csv` and per-method SVG plots.
public enum ReportWriter {
    /// Writes every report file into `folder`.
    ///
    /// - Throws: `RunError` naming a file that cannot be written.
    public static func write(results: RunResults, records: [SampleRecord], folder: String) throws(RunError) {
        try write(results: results, records: records, folder: folder, columns: nil)
    }

    /// `known`: score columns of `records` already read (used when they hold every key the reports read).
    static func write(results: RunResults, records: [SampleRecord], folder: String, columns known: ScoreColumns?)
        throws(RunError)
    {
        // Each score read once for every report below.
        let keys = HTMLReportPlots.columnKeys(results)
        let columns =
            known.flatMap { k in keys.allSatisfy(k.keys.contains) ? k : nil }
            ?? ScoreColumns(records: records, keys: keys)
        try write(results: results, sampleCount: records.count, folder: folder, columns: columns)
    }

    /// Writes every report file into `folder` from score columns of the run's `sampleCount`
    /// records that hold every key of `HTMLReportPlots.columnKeys(results)` (a rescore from
    /// the run's columns, which reads no record).
    static func write(results: RunResults, sampleCount: Int, folder: String, columns: ScoreColumns)
        throws(RunError)
    {
        let url = URL(fileURLWithPath: folder)
        // Independent renderings, on all cores; written in this fixed order.
        let parts: [@Sendable () -> [(String, String)]] = [
            { [("report.md", MarkdownReport.render(results))] },
            { [("roc.csv", CSVExport.roc(results: results, columns: columns))] },
            { [("det.csv", CSVExport.det(results: results, columns: columns))] },
            { [("scores.csv", CSVExport.scores(results: results, columns: columns))] },
            { [("metrics.csv", CSVExport.metrics(results))] },
            { HTMLReport.files(results: results, sampleCount: sampleCount, columns: columns) },
        ]
        let files = parts.indices.concurrentMap { parts[$0]() }.flatMap { $0 }
        for (name, text) in files {
            do { try Data(text.utf8).write(to: url.appendingPathComponent(name)) } catch {
                throw RunError("\(folder)/\(name): cannot be written (\(error.localizedDescription))")
            }
        }
    }
}
