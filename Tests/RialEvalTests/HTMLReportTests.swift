import Foundation
import Testing

@testable import RialEval

@Suite struct HTMLReportTests {
    static let records = HTMLReportFixtures.records()
    static let results = HTMLReportFixtures.results(records)
    static let files = HTMLReport.files(results: results, records: records)
    static var html: String { files.first { $0.0 == "report.html" }!.1 }

    @Test func filesAreTheReportAndOnePlotSetPerMethodWithSafeNames() {
        let names = Self.files.map(\.0)
        #expect(names.first == "report.html")
        for expected in [
            "roc.svg", "pr.svg", "latency.svg", "scores-depth-1.svg", "scores-depth-2.svg", "scores-aggregate.svg",
            "confusion-depth-1.svg", "confusion-depth-2.svg", "confusion-aggregate.svg",
        ] {
            #expect(names.contains(expected), "\(expected) missing")
        }
        #expect(names.allSatisfy { !$0.contains("/") })
        #expect(Set(names).count == names.count)
    }

    @Test func fileStemsReplaceUnsafeCharactersAndNeverCollide() {
        let stems = HTMLReport.fileStems(["depth/2", "depth-2", "../x", "", "a b", "ok_1.2"])
        #expect(stems["depth/2"] == "depth-2")
        #expect(stems["depth-2"] == "depth-2-2")
        #expect(stems["../x"] == "-.-x")
        #expect(stems[""] == "method")
        #expect(stems["a b"] == "a-b")
        #expect(stems["ok_1.2"] == "ok_1.2")
    }

    @Test func htmlIsWellFormedAndSelfContained() {
        let html = Self.html
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(
            SVGPlotMarkup.problem(in: html, html: true) == nil, "\(SVGPlotMarkup.problem(in: html, html: true) ?? "")")
        let lower = html.lowercased()
        for forbidden in ["<script", "<link", "<img", "<iframe", "@import", "url(", "src=", "@font-face", "https://"] {
            #expect(!lower.contains(forbidden), "report.html contains \(forbidden)")
        }
        // The only http URL is the SVG namespace name, once per inline plot.
        let httpCount = html.components(separatedBy: "http://").count - 1
        #expect(httpCount == html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1)
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!html.contains("<?xml"))
    }

    @Test func hostileIdsTagsAndReasonsAreEscaped() {
        let html = Self.html
        #expect(!html.contains(HTMLReportFixtures.hostileID))
        #expect(html.contains("&lt;script&gt;&amp;&quot;"))
        #expect(!html.contains(HTMLReportFixtures.hostileReason))
        #expect(html.contains("&lt;b&gt;bad&lt;/b&gt; &amp; &quot;quoted&quot; &#39;reason&#39;"))
        #expect(!html.contains("<tag&>"))
        #expect(html.contains("&lt;tag&amp;&gt;"))
        #expect(html.contains("fixture &lt;set&gt;"))
    }

    @Test(arguments: [nil, 40] as [Int?])
    func testRunBannerAppearsIffTestRun(limit: Int?) {
        let results = HTMLReportFixtures.results(Self.records, limit: limit)
        #expect(results.testRun == (limit != nil))
        let html = HTMLReport.render(results: results, records: Self.records)
        #expect(html.contains("TEST RUN") == results.testRun)
        #expect(html.contains("class=\"banner test-run\"") == results.testRun)
        if limit != nil { #expect(html.contains("<code>--limit 40</code>")) }
    }

    @Test func headerStatesRealAndSimulatedCountsPerLabel() throws {
        let html = Self.html
        let header = try #require(html.components(separatedBy: "</header>").first)
        #expect(header.contains("84 evaluated samples — 48 real, 36 simulated"))
        #expect(header.contains("2 failed and are in no metric"))
        // Columns: real_scene, lcd_screen, oled_screen, screen, printed_paper, total.
        let row = { (name: String, cells: [Int], total: Int) in
            "<tr><th>\(name)</th>" + cells.map { "<td>\($0)</td>" }.joined() + "<td><strong>\(total)</strong></td></tr>"
        }
        #expect(header.contains(row("real (photos of the world)", [30, 10, 0, 0, 8], 48)))
        #expect(header.contains(row("simulated (RialSynth renders)", [20, 0, 10, 6, 0], 36)))
        #expect(header.contains(row("all", [50, 10, 10, 6, 8], 84)))
        #expect(!header.contains("NO REAL DATA"))
    }

    @Test func everyMethodHasARowInEveryMetricsTableIncludingTheDataKindSplit() {
        let html = Self.html
        for context in ["all", "real", "simulated"] {
            #expect(html.contains("<table class=\"metrics\" data-context=\"\(context)\">"), "\(context)")
        }
        let rows = html.components(separatedBy: "<tr class=\"aggregate\">").count - 1
        #expect(rows == 6) // metrics + APCER tables for all, real, simulated
        #expect(html.contains("<strong>2 samples failed</strong>"))
    }

    @Test func inlinePlotsMatchTheSVGFiles() {
        let html = Self.html
        for (name, text) in Self.files where name.hasSuffix(".svg") {
            let inline = text.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", with: "")
            #expect(html.contains(inline), "\(name) is not inlined")
        }
    }

    /// A data kind without attacks: AUC, EER and APCER are undefined there and print as
    /// "—" with the reason.
    @Test func undefinedMetricsPrintAsDashWithTheWarning() throws {
        let records = HTMLReportFixtures.records(attacksIn: ["real"])
        let results = HTMLReportFixtures.results(records)
        #expect(results.metricsByData["simulated"]?["aggregate"]?.auc.isNaN == true)
        let html = HTMLReport.render(results: results, records: records)
        let simulated = try #require(
            html.components(separatedBy: "<table class=\"metrics\" data-context=\"simulated\">").last)
        let table = try #require(simulated.components(separatedBy: "</table>").first)
        #expect(
            table.contains(
                "<span class=\"undef\" title=\"no attack sample: FPR, APCER, AUC and EER are undefined\">—</span>"))
        #expect(!table.contains("nan") && !table.contains("NaN"))
        #expect(
            simulated.contains(
                "<li><strong>aggregate</strong>: no attack sample: FPR, APCER, AUC and EER are undefined"))
        #expect(SVGPlotMarkup.problem(in: html, html: true) == nil)
    }

    @Test func debugBuildsShowNotApplicableLatencyVerdicts() {
        let debug = HTMLReportFixtures.results(Self.records, build: "debug")
        let html = HTMLReport.render(results: debug, records: Self.records)
        #expect(html.contains("<strong>debug build:</strong>"))
        #expect(
            !html.contains("<span class=\"pass\">PASS</span>") && !html.contains("<span class=\"fail\">FAIL</span>"))
        #expect(
            Self.html.contains("<span class=\"pass\">PASS</span>")
                || Self.html.contains("<span class=\"fail\">FAIL</span>"))
    }

    @Test func environmentListsHashesAndSeeds() {
        let html = Self.html
        #expect(html.contains(Self.results.configurationSHA256))
        #expect(html.contains(String(repeating: "ab", count: 32)))
        #expect(html.contains("<tr><th>seed <code>bootstrap</code></th><td class=\"text\">42</td></tr>"))
    }

    @Test func aRunWhereEverySampleFailedStillRendersValidFiles() throws {
        let records = [
            HTMLReportFixtures.failed(id: "a", index: 0, reason: "gone"),
            HTMLReportFixtures.failed(id: "b", index: 1, reason: "gone"),
        ]
        let results = HTMLReportFixtures.results(records)
        let files = HTMLReport.files(results: results, records: records)
        let html = try #require(files.first { $0.0 == "report.html" }?.1)
        #expect(SVGPlotMarkup.problem(in: html, html: true) == nil)
        #expect(html.contains("No sample was evaluated."))
        #expect(html.contains("<strong>2 samples failed</strong>"))
        for (name, text) in files where name.hasSuffix(".svg") {
            #expect(SVGPlotMarkup.problem(in: text) == nil, "\(name)")
        }
    }

    @Test func noRecordsStillRendersFromResultsAlone() {
        let html = HTMLReport.render(results: Self.results, records: [])
        #expect(SVGPlotMarkup.problem(in: html, html: true) == nil)
        #expect(html.contains("No sample records were given"))
    }
}
