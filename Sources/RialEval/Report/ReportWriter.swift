import Foundation
import RialMedia

/// Writes the human-readable outputs of a run folder from `results.json` and the
/// sample records: `report.md`, `report.html`, `roc.csv`, `det.csv`, `scores.csv` and per-method SVG plots.
public enum ReportWriter {
    /// Writes every report file into `folder`.
    ///
    /// - Throws: `RunError` naming a file that cannot be written.
    public static func write(results: RunResults, records: [SampleRecord], folder: String) throws(RunError) {
        let url = URL(fileURLWithPath: folder)
        var files: [(String, String)] = [
            ("report.md", MarkdownReport.render(results)),
            ("roc.csv", CSVExport.roc(results: results, records: records)),
            ("det.csv", CSVExport.det(results: results, records: records)),
            ("scores.csv", CSVExport.scores(results: results, records: records)),
            ("metrics.csv", CSVExport.metrics(results)),
        ]
        files += HTMLReport.files(results: results, records: records)
        for (name, text) in files {
            do { try Data(text.utf8).write(to: url.appendingPathComponent(name)) } catch {
                throw RunError("\(folder)/\(name): cannot be written (\(error.localizedDescription))")
            }
        }
    }
}
