import Foundation
import RialMedia
import Testing

@testable import RialEval

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// User text (method keys from a results file, policy keys, file paths, labels, data
/// kinds, CPU names) stays literal and the output well-formed in every Markdown, XML,
/// HTML and CSV file (issue 17, item 7): a Markdown table keeps its column count, the
/// gate's JUnit XML parses and gives every name back, no tag gets through unescaped, and
/// no CSV cell starts a formula.
@Suite struct OutputEscapingFaultTests {
    /// Names a hostile or careless user can put in a results file, a policy or a path.
    static let hostile: [String] = [
        "a|b", "|", "||x||", "*bold* _it_", "<script>alert(1)</script>", "a & b &amp;", "\"quoted\" 'single'",
        "line\nbreak", "cr\rlf\r\n", "nul\u{0}bel\u{7}esc\u{1B}[31m", "=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)",
        "`tick`", "``", "back\\slash\\", "\\|", "[link](http://x)", "]]></testcase>", "non\u{FFFE}char\u{FFFF}",
        "tab\there", "\u{202E}rtl", "$x$", "~~s~~", "", " ", "del\u{7F}c1\u{85}", "<!-- c -->", "depth/2",
    ]

    /// Pipes that split a GFM table row: `|` not escaped by an odd run of backslashes.
    static func cellSeparators(_ line: Substring) -> Int {
        var count = 0, escaped = false
        for character in line {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                count += 1
            }
        }
        return count
    }

    /// Every table (a run of lines starting with `|`) keeps its header's column count; no
    /// control character but the line feeds; no raw tag outside a code span.
    /// `allowingHTML`: the document has HTML of its own (the methodology's `<details>`), so
    /// only the hostile names' tags are looked for.
    static func expectWellFormedMarkdown(_ markdown: String, _ context: String, allowingHTML: Bool = false) {
        var columns: Int?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            let separators = cellSeparators(line)
            if let columns {
                #expect(separators == columns, "\(context): row \(line.debugDescription)")
            } else {
                columns = separators
            }
        }
        #expect(
            !markdown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(context): control character")
        // Outside code spans (where `<` is literal text), no tag or comment can start.
        let outsideCode = markdown.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        let rawTag = zip(" " + outsideCode, outsideCode).contains { previous, character in
            character == "<" && previous != "\\"
        }
        if allowingHTML {
            let raw = ["<script>", "<!--"].contains { tag in
                outsideCode.components(separatedBy: tag).dropLast().contains { !$0.hasSuffix("\\") }
            }
            #expect(!raw, "\(context): raw HTML")
        } else {
            #expect(!rawTag, "\(context): raw HTML")
        }
    }

    /// `text` as an XML 1.0 parser gives it back from `HTMLText`'s output.
    static func xmlRoundTrip(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let forbidden =
                (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
                || scalar.value == 0xFFFE || scalar.value == 0xFFFF
            out.append(forbidden ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }

    /// The elements and attributes of an XML document, or nil when it does not parse.
    final class XMLElements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var text = ""
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            elements.append((elementName, attributeDict))
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        static func parse(_ xml: String) -> XMLElements? {
            let delegate = XMLElements()
            let parser = XMLParser(data: Data(xml.utf8))
            parser.delegate = delegate
            return parser.parse() ? delegate : nil
        }
    }

    static func check(_ name: String, passed: Bool) -> GateReport.Check {
        GateReport.Check(
            kind: name, name: name, baseline: 0.9, current: 0.8, limit: 0.88, rule: "higher_is_better, \(name)",
            passed: passed, note: passed ? nil : name)
    }

    @Test(arguments: hostile) func gateMarkdownKeepsItsTable(_ name: String) {
        let report = GateReport(
            baseline: name, current: name, checks: [Self.check(name, passed: true), Self.check(name, passed: false)])
        let markdown = report.markdown()
        Self.expectWellFormedMarkdown(markdown, "gate \(name.debugDescription)")
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 9, "\(markdown)")
        #expect(lines.filter { $0.hasPrefix("|") }.map(Self.cellSeparators) == [8, 8, 8, 8], "\(markdown)")
    }

    @Test(arguments: hostile) func gateJUnitParsesAndGivesTheNamesBack(_ name: String) throws {
        let report = GateReport(
            baseline: name, current: name, checks: [Self.check(name, passed: true), Self.check(name, passed: false)])
        let xml = report.junitXML()
        let parsed = try #require(XMLElements.parse(xml), "JUnit XML of \(name.debugDescription) does not parse")
        let cases = parsed.elements.filter { $0.name == "testcase" }
        #expect(cases.count == 2)
        for testcase in cases {
            #expect(testcase.attributes["name"] == Self.xmlRoundTrip(name), "\(xml)")
            #expect(testcase.attributes["classname"] == "gate." + Self.xmlRoundTrip(name), "\(xml)")
        }
        let failure = try #require(parsed.elements.first { $0.name == "failure" })
        #expect(failure.attributes["message"] == Self.xmlRoundTrip(name), "\(xml)")
        #expect(!xml.contains("<script>"))
    }

    @Test(arguments: hostile) func gateErrorReportsCarryTheMessage(_ name: String) throws {
        let problems = ["\(name): not a rial-bench results file", "policy: unknown key '\(name)'"]
        let xml = GateReport.errorJUnitXML(problems)
        let parsed = try #require(XMLElements.parse(xml), "error JUnit of \(name.debugDescription) does not parse")
        let error = try #require(parsed.elements.first { $0.name == "error" })
        #expect(error.attributes["message"] == Self.xmlRoundTrip(problems[0]), "\(xml)")
        #expect(parsed.elements.filter { $0.name == "testcase" }.count == 1)
        #expect(parsed.elements.first?.attributes["errors"] == "1")
        let markdown = GateReport.errorMarkdown(problems)
        Self.expectWellFormedMarkdown(markdown, "gate error \(name.debugDescription)")
        #expect(markdown.split(separator: "\n", omittingEmptySubsequences: false).count == 5, "\(markdown)")
        #expect(markdown.contains("ERROR"))
    }

    @Test(arguments: hostile) func compareMarkdownKeepsItsTable(_ name: String) {
        let row = RunComparison.Row(
            method: name, auc: PairedAUCComparison(first: [], second: []),
            mcnemar: McNemarTest(onlyFirstCorrect: 1, onlySecondCorrect: 2))
        let comparison = RunComparison(rows: [row, row], sharedSamples: 0, onlyFirst: 0, onlySecond: 0)
        let markdown = comparison.markdown(first: name, second: name)
        Self.expectWellFormedMarkdown(markdown, "compare \(name.debugDescription)")
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 9, "\(markdown)")
        #expect(lines.filter { $0.hasPrefix("|") }.map(Self.cellSeparators) == [10, 10, 10, 10], "\(markdown)")
    }

    /// The fixture run with its method and latency keys, labels, data kinds, build and
    /// CPU name replaced by `name` (as a results file read by `report --from` may hold).
    static func hostileResults(_ name: String) -> RunResults {
        var results = HTMLReportFixtures.results(HTMLReportFixtures.records())
        func renamed<V>(_ table: [String: V]) -> [String: V] {
            Dictionary(table.map { ("\(name)#\($0.key)", $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        results.methods = results.methods.map { "\(name)#\($0)" }
        results.metrics = renamed(results.metrics)
        results.metricsByData = renamed(results.metricsByData.mapValues(renamed))
        results.latency = renamed(results.latency)
        results.counts.byData = renamed(results.counts.byData.mapValues(renamed))
        results.build = name
        results.profile = name
        results.datasets = results.datasets.map {
            var dataset = $0
            dataset.name = name
            dataset.data = name
            return dataset
        }
        results.environment.cpu = name
        results.created = name
        return results
    }

    @Test(arguments: hostile) func reportMarkdownKeepsItsTables(_ name: String) {
        let markdown = MarkdownReport.render(Self.hostileResults(name))
        Self.expectWellFormedMarkdown(markdown, "report.md \(name.debugDescription)")
    }

    @Test(arguments: hostile) func methodologyKeepsItsTables(_ name: String) {
        let source = MethodologyReport.DatasetDescription.Source(
            id: name, label: name, source: name, license: name, sha256: name)
        let markdown = MethodologyReport.markdown(
            results: Self.hostileResults(name),
            datasets: [.init(name: name, licences: [name, name], sources: [source, source])], folder: name)
        Self.expectWellFormedMarkdown(markdown, "methodology \(name.debugDescription)", allowingHTML: true)
    }

    @Test(arguments: hostile) func reportHTMLHasNoRawTag(_ name: String) {
        let html = HTMLReport.render(results: Self.hostileResults(name), records: HTMLReportFixtures.records())
        #expect(!html.contains("<script>") && !html.contains("<!-- c"), "report.html \(name.debugDescription)")
        #expect(!html.unicodeScalars.contains { $0.value < 0x09 || $0 == "\u{1B}" || $0.value == 0xFFFE })
    }

    @Test(arguments: hostile) func csvCellsStartNoFormula(_ name: String) {
        for cell in [CSVExport.text(name)] {
            if let first = cell.first, first != "\"" { #expect(!CSVExport.formulaStarts.contains(first)) }
            if cell.hasPrefix("\"") { #expect(!CSVExport.formulaStarts.contains(cell.dropFirst().first ?? "x")) }
        }
        let csv = CSVExport.metrics(Self.hostileResults(name))
        #expect(!csv.contains(",=") && !csv.contains("\n=") && !csv.contains("\n+1") && !csv.contains("\n@"))
    }
}
