import Foundation
import RialMedia

/// The files of a run folder and how they are written.
public enum RunOutput {
    public static let samplesFile = "samples.jsonl"
    public static let resultsFile = "results.json"

    /// Creates `folder` (and parents).
    public static func prepare(folder: String) throws(RunError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw RunError("\(folder): cannot create the output folder (\(error.localizedDescription))")
        }
    }

    /// Writes `results` and every report of `folder` from the records.
    public static func writeResultsAndReports(results: RunResults, records: [SampleRecord], folder: String)
        throws(RunError)
    {
        let url = URL(fileURLWithPath: folder)
        do {
            try results.jsonData().write(to: url.appendingPathComponent(resultsFile))
        } catch {
            throw RunError("\(folder)/\(resultsFile): cannot be written (\(error.localizedDescription))")
        }
        try ReportWriter.write(results: results, records: records, folder: folder)
    }
}
