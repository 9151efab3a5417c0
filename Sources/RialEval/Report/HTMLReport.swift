import Foundation
import RialDetection
import RialMedia

/// `report.html` of a run and its SVG plots (specs/evaluation.md, outputs).
///
/// The HTML is one self-contained file: CSS and the SVG plots are inline, there is no
/// script, web font or external resource, so it reads the same offline, from a CI
/// artifact and on paper. It shows, in order: what data the numbers rest on (real vs
/// simulated samples per label, a TEST RUN banner for `--limit` runs, failures); the
/// metrics table of every method and the aggregate, also split by data kind; ROC and
/// precision-recall curves; score histograms by label and confusion heatmaps per method;
/// latency against the targets; per-label, per-tag, per-attestation and per-group
/// breakdowns; environment, configuration, hashes and seeds. Every text taken from the
/// run (ids, tags, reasons, paths) is escaped; undefined values print as "—" with the
/// reason next to the table.
///
/// The SVG files are the same plots as stand-alone images: `roc.svg`, `pr.svg`,
/// `latency.svg`, and per method `scores-<key>.svg` and `confusion-<key>.svg` with the
/// key made file-name safe (`depth/2` -> `depth-2`, see `fileStems(_:)`); per data kind
/// `det-<kind>.svg` (DET curves) and `scores-aggregate-<kind>.svg` (the aggregate's
/// scores by species with level boundaries and cap ceilings).
public enum HTMLReport {
    /// `(file name, contents)` of `report.html` and every SVG plot, in a fixed order.
    /// Pure: the same results and records give the same bytes.
    public static func files(results: RunResults, records: [SampleRecord]) -> [(String, String)] {
        files(
            results: results, sampleCount: records.count,
            columns: ScoreColumns(records: records, keys: HTMLReportPlots.columnKeys(results)))
    }

    /// `columns`: of the run's `sampleCount` records, with at least `HTMLReportPlots.columnKeys(results)`.
    static func files(results: RunResults, sampleCount: Int, columns: ScoreColumns) -> [(String, String)] {
        let plots = HTMLReportPlots(results: results, columns: columns)
        var page = HTMLReportPage(results: results, sampleCount: sampleCount, plots: plots)
        var files = [("report.html", page.render())]
        files.append(("roc.svg", plots.roc.render(standalone: true)))
        files.append(("pr.svg", plots.precisionRecall.render(standalone: true)))
        for method in plots.methods {
            files.append(("scores-\(method.stem).svg", method.scores.render(standalone: true)))
            if let confusion = method.confusion {
                files.append(("confusion-\(method.stem).svg", confusion.render(standalone: true)))
            }
        }
        for (kind, plot) in plots.detByData { files.append(("det-\(kind).svg", plot.render(standalone: true))) }
        for (kind, plot) in plots.aggregateScoresByData {
            files.append(("scores-aggregate-\(kind).svg", plot.render(standalone: true)))
        }
        files.append(("latency.svg", plots.latency.render(standalone: true)))
        return files
    }

    /// The contents of `report.html`.
    public static func render(results: RunResults, records: [SampleRecord]) -> String {
        render(results: results, records: records, plots: HTMLReportPlots(results: results, records: records))
    }

    static func render(results: RunResults, records: [SampleRecord], plots: HTMLReportPlots) -> String {
        var page = HTMLReportPage(results: results, sampleCount: records.count, plots: plots)
        return page.render()
    }

    /// The keys to report, in `results.methods` order (method keys, then `aggregate`),
    /// keeping only those with metrics; keys with metrics but not listed come after the
    /// methods, sorted; `aggregate` last.
    static func methodKeys(_ results: RunResults) -> [String] {
        var keys = results.methods.filter { results.metrics[$0] != nil && $0 != "aggregate" }
        keys += results.metrics.keys.filter { !keys.contains($0) && $0 != "aggregate" }.sorted()
        if results.metrics["aggregate"] != nil { keys.append("aggregate") }
        return keys
    }

    /// Latency keys: method keys in report order, then the others sorted, `total` last.
    static func latencyKeys(_ results: RunResults) -> [String] {
        let methods = methodKeys(results).filter { results.latency[$0] != nil }
        var rest = results.latency.keys.filter { !methods.contains($0) && $0 != "total" }.sorted()
        if results.latency["total"] != nil { rest.append("total") }
        return methods + rest
    }

    /// A file-name-safe form of each key: every character outside `A-Z a-z 0-9 . _ -`
    /// becomes `-` (`depth/2` -> `depth-2`); a leading `.` becomes `-`; an empty result
    /// is `method`. Two keys that would collide get `-2`, `-3`, ... in order.
    static func fileStems(_ keys: [String]) -> [String: String] {
        var result: [String: String] = [:], used = Set<String>()
        for key in keys where result[key] == nil {
            var stem = String(
                key.unicodeScalars.map { scalar -> Character in
                    let allowed =
                        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                        || scalar == "." || scalar == "_" || scalar == "-"
                    return allowed ? Character(scalar) : "-"
                })
            if stem.hasPrefix(".") { stem = "-" + stem.dropFirst() }
            if stem.isEmpty { stem = "method" }
            var candidate = stem, counter = 2
            while used.contains(candidate) {
                candidate = "\(stem)-\(counter)"
                counter += 1
            }
            used.insert(candidate)
            result[key] = candidate
        }
        return result
    }
}
