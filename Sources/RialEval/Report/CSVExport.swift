import Foundation
import RialMedia

/// CSV exports of a run (RFC 4180 quoting).
///
/// Text cells (ids, dataset names, groups, labels, method keys) are written with `text(_:)`:
/// one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`,
/// so a spreadsheet shows it as text instead of running it as a formula (OWASP "CSV
/// injection"); to get the original back, drop one leading `'` when the next character
/// is one of those six. Number cells (`value(_:)`: scores, thresholds, rates, counts,
/// `nan`, `inf`, `-inf`) are never changed, so `-0.5` stays a number.
public enum CSVExport {
    /// `roc.csv`: every method's ROC curve (scikit-learn `roc_curve(drop_intermediate=False)`;
    /// a curve longer than `results.curveExport`'s `fullPoints` thinned by its rule,
    /// `CurveExport`): `method,threshold,fpr,tpr` with `inf` for the first threshold.
    public static func roc(results: RunResults, records: [SampleRecord]) -> String {
        roc(results: results, columns: ScoreColumns(records: records, keys: results.methods))
    }

    static func roc(results: RunResults, columns: ScoreColumns) -> String {
        roc(methods: results.methods, export: results.curveExport ?? .standard, columns: columns)
    }

    /// `roc.csv` of the keys `methods` (a run's `methods`) under `export`.
    static func roc(methods: [String], export: CurveExport, columns: ScoreColumns) -> String {
        var lines = ["method,threshold,fpr,tpr"]
        let rows = columns.all
        for key in methods {
            let curve = columns.rocCurve(key, rows: rows, subset: "all", scoredOnly: true)
            for i in export.kept(x: curve.falsePositiveRates, y: curve.truePositiveRates) {
                lines.append(
                    "\(text(key)),\(value(curve.thresholds[i])),\(value(curve.falsePositiveRates[i])),\(value(curve.truePositiveRates[i]))"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `det.csv`: every method's DET points (`DETCurve`, = scikit-learn
    /// `det_curve(y_true = bona fide, y_score = score)`: `fpr` = pooled APCER, `fnr` =
    /// BPCER), on all evaluated samples (`data` = `all`) and per data kind:
    /// `method,data,threshold,apcer,bpcer`, thresholds increasing within a block; a curve
    /// longer than `results.curveExport`'s `fullPoints` thinned by its rule (`CurveExport`).
    public static func det(results: RunResults, records: [SampleRecord]) -> String {
        det(results: results, columns: ScoreColumns(records: records, keys: results.methods))
    }

    static func det(results: RunResults, columns: ScoreColumns) -> String {
        det(methods: results.methods, export: results.curveExport ?? .standard, columns: columns)
    }

    /// `det.csv` of the keys `methods` (a run's `methods`) under `export`.
    static func det(methods: [String], export: CurveExport, columns: ScoreColumns) -> String {
        var lines = ["method,data,threshold,apcer,bpcer"]
        let kinds = Set(columns.data).sorted { $0.rawValue < $1.rawValue }
        let subsets = [("all", columns.all)] + kinds.map { ($0.rawValue, columns.rows(of: $0)) }
        for key in methods {
            for (kind, rows) in subsets {
                let curve = DETCurve(curve: columns.rocCurve(key, rows: rows, subset: kind, scoredOnly: true))
                for i in export.kept(x: curve.apcer, y: curve.bpcer) {
                    lines.append(
                        "\(text(key)),\(text(kind)),\(value(curve.thresholds[i])),\(value(curve.apcer[i])),\(value(curve.bpcer[i]))"
                    )
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `scores.csv`: one row per evaluated sample, one column per method (empty = not scored).
    public static func scores(results: RunResults, records: [SampleRecord]) -> String {
        scores(results: results, columns: ScoreColumns(records: records, keys: results.methods))
    }

    static func scores(results: RunResults, columns: ScoreColumns) -> String {
        scoresPieces(results: results, columns: columns).joined()
    }

    /// `scores.csv` in pieces (the header line, then chunks of rows), for writing without
    /// joining them.
    static func scoresPieces(results: RunResults, columns: ScoreColumns) -> [String] {
        scoresPieces(methods: results.methods, columns: columns)
    }

    /// `scoresPieces` of the keys `methods` (a run's `methods`).
    static func scoresPieces(methods: [String], columns: ScoreColumns) -> [String] {
        var lines = [
            (["id", "dataset", "label", "bona_fide", "data", "group"] + methods).map(text).joined(separator: ",")
                + "\n"
        ]
        let methodColumns = methods.map { columns.column($0) }
        // Rows in chunks on every core (a million-sample run writes hundreds of MB here).
        let chunk = 1 << 15
        let chunks = stride(from: 0, to: columns.count, by: chunk).map { $0..<min($0 + chunk, columns.count) }
        lines += chunks.indices.concurrentMap { c -> String in
            var out = ""
            out.reserveCapacity(chunks[c].count * (48 + 20 * methodColumns.count))
            for i in chunks[c] {
                out += text(columns.ids[i])
                out += ","
                out += text(columns.datasets[i])
                out += ","
                out += text(columns.labels[i])
                out += columns.bonaFide[i] ? ",1," : ",0,"
                out += text(columns.data[i].rawValue)
                out += ","
                out += text(columns.groups[i] ?? "")
                for column in methodColumns {
                    out += ","
                    if let score = column?[i] ?? nil { append(score, to: &out) }
                }
                out += "\n"
            }
            return out
        }
        return lines
    }

    /// `metrics.csv`: the headline metrics per data subset and method.
    public static func metrics(_ results: RunResults) -> String {
        var lines = [
            "data,method,n_bona_fide,n_attack,auc,auc_ci_low,auc_ci_high,eer,apcer_max,bpcer,acer,bpcer20,bpcer100"
        ]
        var sets: [(String, [String: MethodMetrics])] = [("all", results.metrics)]
        for kind in results.metricsByData.keys.sorted() { sets.append((kind, results.metricsByData[kind]!)) }
        for (kind, metrics) in sets {
            for key in results.methods {
                guard let m = metrics[key] else { continue }
                let row: [String] = [
                    text(kind), text(key), "\(m.bonaFideCount)", "\(m.attackCount)", value(m.auc),
                    m.aucCI.map { value($0.lower) } ?? "", m.aucCI.map { value($0.upper) } ?? "",
                    value(m.eer), value(m.apcer.max), value(m.bpcer), value(m.acer), value(m.bpcer20),
                    value(m.bpcer100),
                ]
                lines.append(row.joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Appends `value(v)` to `out` without building a string for it: `nan`, `inf`,
    /// `-inf`; the integer digits when `v` is a whole number below 2^53 in magnitude (as
    /// `JSONValue.numberText`); else Swift's shortest round-trip form.
    static func append(_ v: Double, to out: inout String) {
        if v.isNaN {
            out += "nan"
        } else if v.isInfinite {
            out += v > 0 ? "inf" : "-inf"
        } else if v == v.rounded(), abs(v) < 0x1p53 {
            out += String(Int64(v))
        } else {
            v.write(to: &out)
        }
    }

    /// A number cell (see `append(_:to:)`).
    static func value(_ v: Double) -> String {
        var text = ""
        append(v, to: &text)
        return text
    }

    /// Leading characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// A text cell: `'` before a leading formula character, then RFC 4180 quoting.
    public static func text(_ text: String) -> String {
        // Bytes, not characters: every character that matters is ASCII, and a CR LF pair is
        // one `Character` that equals neither CR nor LF.
        let formula: Bool
        switch text.utf8.first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"),
            UInt8(ascii: "\r"):
            formula = true
        default: formula = false
        }
        return field(formula ? "'" + text : text)
    }

    /// RFC 4180: quoted (with `""` for `"`) when the cell holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
                    || $0 == UInt8(ascii: "\r")
            })
        else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
