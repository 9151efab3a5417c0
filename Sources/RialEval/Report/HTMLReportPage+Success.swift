import Foundation
import RialDetection

extension HTMLReportPage {
    /// The product documents' success metrics (`RunResults.successMetrics`), the phone
    /// payload parity (`RunResults.payloadParity`) and privacy mode
    /// (`RunResults.privacyMode`), the same rows as report.md; nothing for runs without them.
    mutating func successAndParitySections() {
        if let success = results.successMetrics {
            html += "<h3>Success metrics (PRD 2.0 “Success Criteria”)</h3>\n"
            html += Self.tables(success.markdown(levels: results.ruleLevels))
        }
        if let parity = results.payloadParity {
            html += "<h3>Phone payload parity (story 9-6)</h3>\n"
            html += Self.tables(parity.markdown())
        }
        if let privacy = results.privacyMode {
            html += "<h3>Privacy mode (hash-only payloads)</h3>\n"
            html += Self.tables(privacy.markdown().map { $0.hasPrefix("### ") ? String($0.dropFirst(4)) : $0 })
        }
    }

    /// Markdown lines of plain paragraphs and pipe tables (as `SuccessMetrics.markdown`
    /// and `PayloadParity.markdown` write them) as HTML, every cell escaped.
    static func tables(_ lines: [String]) -> String {
        var out = ""
        var rows: [[String]] = []
        func cells(_ line: String) -> [String] {
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\\", with: "") }
        }
        func flush() {
            guard let head = rows.first else { return }
            out += "<div class=\"scroll\">\n<table>\n<thead><tr>"
            out += head.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            for row in rows.dropFirst() {
                out +=
                    "<tr>"
                    + row.enumerated().map {
                        $0.offset == 0 ? "<th>\(e($0.element))</th>" : "<td>\(e($0.element))</td>"
                    }.joined() + "</tr>\n"
            }
            out += "</tbody>\n</table>\n</div>\n"
            rows = []
        }
        for line in lines {
            if line.hasPrefix("|") {
                if line.hasPrefix("|---") { continue }
                rows.append(cells(line))
            } else {
                flush()
                if !line.isEmpty { out += "<p class=\"note\">\(e(line.replacingOccurrences(of: "`", with: "")))</p>\n" }
            }
        }
        flush()
        return out
    }
}
