import Foundation

extension Benchmark.Report {
    /// The report as `bench --json` prints it, as `results.json` is written
    /// (`RunResults.encoder`: a NaN ratio, e.g. end to end over a decode that never
    /// finished, as "nan" where a plain encoder would refuse it).
    public func jsonData() throws -> Data {
        try RunResults.encoder.encode(self)
    }

    /// The schema this rial-bench writes and reads.
    public static let format = "rial-bench-bench/1"

    /// Reads a report that `rial-bench bench --json` printed to `path`.
    ///
    /// - Throws: `RunError` naming the file when it is missing or unreadable (as for
    ///   `results.json`), not a bench report, or of another schema version.
    public static func read(path: String) throws(RunError) -> Benchmark.Report {
        let report = try RunResults.decodeReport(
            Benchmark.Report.self, from: try RunResults.contents(of: path), path: path,
            what: "bench report (rial-bench bench --json)")
        guard report.schema == format else {
            throw RunError("\(path): schema '\(report.schema)', this rial-bench reads '\(format)'")
        }
        return report
    }
}
