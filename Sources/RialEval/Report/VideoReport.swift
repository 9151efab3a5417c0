import Foundation
import RialDetection

/// The video sections of report.md and report.html: tamper detection by tamper kind
/// (`RunResults.tamperDetection`) and the deployed video rule's levels and chain checks
/// (`RunResults.video`). Nothing for a run without video samples.
enum VideoReport {
    /// One table row of tamper detection: kind, recordings, caught, placed, named, rate
    /// with its interval.
    static func tamperRows(_ t: TamperDetection) -> [[String]] {
        var rows = t.kinds.map { k in
            [
                k.kind, "\(k.recordings)", "\(k.caught)", "\(k.placed)", "\(k.named)",
                "\(percent(k.detectionRate)) [\(percent(k.detectionInterval.lower)), \(percent(k.detectionInterval.upper))]",
            ]
        }
        let alarm =
            t.falseAlarmRate.map { rate in
                "\(percent(rate)) [\(percent(t.falseAlarmInterval!.lower)), \(percent(t.falseAlarmInterval!.upper))]"
            } ?? "—"
        rows.append(["intact (false alarms)", "\(t.intact)", "\(t.falseAlarms)", "—", "—", alarm])
        return rows
    }

    static let tamperHeader = [
        "tamper kind", "recordings", "caught", "at the labelled frame", "kind named", "rate [95% Wilson]",
    ]

    static let tamperNote =
        "Caught: the chain check says broken; at the labelled frame: its first bad frame is the label's; kind named: "
        + "the verifier's tamper kind is the label's. For intact recordings the rate is the false-alarm rate."

    /// The tables to show: all data, then each data kind; one table named by its kind
    /// when there is only one.
    static func sections(_ tamper: [String: TamperDetection]) -> [(String, TamperDetection)] {
        let kinds = tamper.keys.filter { $0 != "all" }.sorted()
        if kinds.count == 1, let only = tamper[kinds[0]] { return [(kinds[0], only)] }
        return (["all"] + kinds).compactMap { key in tamper[key].map { (key, $0) } }
    }

    static func levelNames(_ v: VideoSummary) -> [String] {
        let present = v.deployedLevels.values.flatMap(\.keys).compactMap(ConfidenceLevel.init(rawValue:))
        return ConfidenceLevel.shown(present).map(\.rawValue)
    }

    static func chainLine(_ v: VideoSummary) -> String {
        let statuses = v.chainStatus.keys.sorted().map { "\($0) \(v.chainStatus[$0]!)" }.joined(separator: ", ")
        return
            "\(v.samples) video samples (\(v.byData.keys.sorted().map { "\($0) \(v.byData[$0]!)" }.joined(separator: ", "))): "
            + "hash chain recomputed from raw frames for \(v.recomputed), deployed structural check only for "
            + "\(v.structuralOnly) (no raw frames), no chain for \(v.noChain)"
            + (statuses.isEmpty ? "." : "; chain status: \(statuses).")
    }

    static let ruleNote =
        "Deployed video rule (methods.md section 6, `aggregation.video_rule`): SUSPICIOUS when hardware or the chain "
        + "fails or depth is not real; HIGH with hardware, an intact attested chain and temporal/1 consistency and "
        + "stability at their minimums; MEDIUM with hardware and chain; else LOW. A chain checked structurally only "
        + "passes as the deployed backend would pass it."

    static func markdown(_ r: RunResults) -> [String] {
        var out: [String] = []
        if let tamper = r.tamperDetection {
            out.append("## Tamper detection by tamper kind (hash chain)")
            out.append("")
            out.append(tamperNote + "\n")
            for (title, t) in sections(tamper) {
                out.append("**\(MarkdownText.escape(title)) data** (\(t.tampered + t.intact) recordings)\n")
                out += markdownTable(tamperHeader, tamperRows(t))
                if !t.misses.isEmpty {
                    out.append(
                        "Missed or misplaced: " + t.misses.map(MarkdownText.escape).joined(separator: "; ") + "\n")
                }
            }
        }
        if let v = r.video {
            out.append("## Video: deployed confidence rule and chain checks")
            out.append("")
            out.append(MarkdownText.escape(chainLine(v)) + "\n")
            out.append(ruleNote + "\n")
            let names = levelNames(v)
            out += markdownTable(
                ["label"] + names,
                v.deployedLevels.keys.sorted().map { label in
                    [label] + names.map { "\(v.deployedLevels[label]![$0] ?? 0)" }
                })
        }
        return out
    }

    /// The methodology's video section (`rial-bench methodology`); empty without video samples.
    static func methodology(_ r: RunResults) -> [String] {
        guard let v = r.video else { return [] }
        var out = ["## Video recordings", ""]
        out.append(
            MarkdownText.escape(chainLine(v)) + " Where a sample has its raw frames (`.rlfs`, the NV12 bytes the phone "
                + "hashed), every hash is recomputed, H1 = SHA-256(frame ‖ depth ‖ timestamp) and Hn over H(n-1) too, "
                + "and the first frame that does not verify is placed and its tamper named (modified, dropped, inserted, "
                + "reordered, truncated, a wrong checkpoint, final hash or attestation). Without raw frames (an MP4 "
                + "alone: its decoded pixels are not the hashed bytes) only the deployed verifier's structural check "
                + "runs, which never recomputes a hash: such a sample's chain passes whenever the recorded chain is "
                + "self-consistent, and it is counted apart. The photo methods analyse one still per recording: the "
                + "sample's own `image`, else the middle raw frame converted NV12 -> RGB with the BT.601 video-range "
                + "matrix (the phone's default for NV12 capture buffers), with the depth keyframe nearest in time as "
                + "its depth; the temporal methods read all depth keyframes. Their ROC, AUC and intervals are in the "
                + "per-method tables above like any method's.")
        out.append("")
        out.append(ruleNote)
        out.append("")
        if let tamper = r.tamperDetection {
            out.append(tamperNote + " Wilson 95% intervals; every count is of recordings.")
            out.append("")
            for (title, t) in sections(tamper) {
                out.append("**\(MarkdownText.escape(title)) data** (\(t.tampered + t.intact) recordings)\n")
                out += markdownTable(tamperHeader, tamperRows(t))
            }
        }
        let names = levelNames(v)
        out += markdownTable(
            ["label"] + names,
            v.deployedLevels.keys.sorted().map { label in [label] + names.map { "\(v.deployedLevels[label]![$0] ?? 0)" }
            })
        return out
    }

    static func markdownTable(_ header: [String], _ rows: [[String]]) -> [String] {
        var out = ["| " + header.map(MarkdownText.escape).joined(separator: " | ") + " |"]
        out.append("|" + header.indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|")
        for row in rows { out.append("| " + row.map(MarkdownText.escape).joined(separator: " | ") + " |") }
        out.append("")
        return out
    }

    static func percent(_ value: Double) -> String {
        value.isFinite ? String(format: "%.1f%%", 100 * value) : "—"
    }
}

extension HTMLReportPage {
    /// The video sections (`VideoReport`); nothing without video samples.
    mutating func videoTables() {
        func table(_ header: [String], _ rows: [[String]]) {
            html += "<div class=\"scroll\">\n<table>\n<thead><tr>"
            html += header.enumerated().map {
                "<th\($0.offset == 0 ? " class=\"key\"" : "")>\(Self.e($0.element))</th>"
            }
            .joined()
            html += "</tr></thead>\n<tbody>\n"
            for row in rows {
                html += "<tr><th>\(Self.e(row[0]))</th>" + row.dropFirst().map { "<td>\(Self.e($0))</td>" }.joined()
                html += "</tr>\n"
            }
            html += "</tbody>\n</table>\n</div>\n"
        }
        if let tamper = results.tamperDetection {
            html += "<h3>Tamper detection by tamper kind (hash chain)</h3>\n"
            html += "<p class=\"note\">\(Self.e(VideoReport.tamperNote))</p>\n"
            for (title, t) in VideoReport.sections(tamper) {
                html += "<p><strong>\(Self.e(title)) data</strong> (\(t.tampered + t.intact) recordings)</p>\n"
                table(VideoReport.tamperHeader, VideoReport.tamperRows(t))
                if !t.misses.isEmpty {
                    html += "<p class=\"note\">Missed or misplaced: \(Self.e(t.misses.joined(separator: "; ")))</p>\n"
                }
            }
        }
        if let v = results.video {
            html += "<h3>Video: deployed confidence rule and chain checks</h3>\n"
            html += "<p class=\"note\">\(Self.e(VideoReport.chainLine(v))) \(Self.e(VideoReport.ruleNote))</p>\n"
            let names = VideoReport.levelNames(v)
            table(
                ["label"] + names,
                v.deployedLevels.keys.sorted().map { label in
                    [label] + names.map { "\(v.deployedLevels[label]![$0] ?? 0)" }
                })
        }
    }
}
