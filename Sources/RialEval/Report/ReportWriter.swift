import Foundation
import RialMedia

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        let metric = metricParts(results: results, sampleCount: sampleCount, columns: columns)
        // The longest (the HTML report) first, then the sample tables, then the short ones.
        try write(
            parts: [metric[0]]
                + sampleParts(methods: results.methods, export: results.curveExport ?? .standard, columns: columns)
                + metric.dropFirst(),
            folder: folder)
    }

    /// A report part: renders its files (name, contents in pieces).
    typealias Part = @Sendable () -> [(String, [String])]

    /// The reports that read only the samples' scores (`scores.csv`, `roc.csv`, `det.csv`),
    /// not the metrics: a rescore writes them while the metrics are computed.
    static func sampleParts(methods: [String], export: CurveExport, columns: ScoreColumns) -> [Part] {
        [
            // In pieces: a million samples' rows are hundreds of MB, not joined into one string.
            { [("scores.csv", CSVExport.scoresPieces(methods: methods, columns: columns))] },
            { [("roc.csv", [CSVExport.roc(methods: methods, export: export, columns: columns)])] },
            { [("det.csv", [CSVExport.det(methods: methods, export: export, columns: columns)])] },
        ]
    }

    /// The reports that read the metrics: the HTML report (first: the longest), `report.md`,
    /// `metrics.csv`.
    static func metricParts(results: RunResults, sampleCount: Int, columns: ScoreColumns) -> [Part] {
        [
            { HTMLReport.files(results: results, sampleCount: sampleCount, columns: columns).map { ($0.0, [$0.1]) } },
            { [("report.md", [MarkdownReport.render(results)])] },
            { [("metrics.csv", [CSVExport.metrics(results)])] },
        ]
    }

    /// Renders `parts` on all cores, in order as workers free up; each part writes its files
    /// into `folder` as soon as they are rendered (the others still rendering). Throws the
    /// first failure in `parts` order.
    static func write(parts: [Part], folder: String) throws(RunError) {
        let url = URL(fileURLWithPath: folder)
        let outcomes = parts.indices.concurrentMap { index -> RunError? in
            for (name, pieces) in parts[index]() {
                let written = Result { () throws(RunError) in
                    try write(pieces: pieces, to: url.appendingPathComponent(name).path, shownAs: "\(folder)/\(name)")
                }
                if case .failure(let error) = written { return error }
            }
            return nil
        }
        if let failure = outcomes.compactMap({ $0 }).first { throw failure }
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, bytes, count)
        #else
            Darwin.write(fd, bytes, count)
        #endif
    }

    /// Writes `pieces` one after another into the file at `path` (created or truncated),
    /// each from its own UTF-8 storage: no joined copy of a large report.
    static func write(pieces: [String], to path: String, shownAs shown: String) throws(RunError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw RunError("\(shown): cannot be written (\(String(cString: strerror(errno))))") }
        var failure: Int32 = 0
        for var piece in pieces where failure == 0 {
            piece.withUTF8 { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += written
                }
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            throw RunError("\(shown): cannot be written (\(String(cString: strerror(failure))))")
        }
    }
}
