import Foundation
import Testing

@testable import RialEval

@Suite struct SVGPlotTests {
    // MARK: Numbers and text

    @Test(
        arguments: [
            (60.0, 2, true, "60"), (60.5, 2, true, "60.5"), (430.004, 2, true, "430"), (1.0 / 3, 2, true, "0.33"),
            (-0.001, 2, true, "0"), (-12.345, 1, true, "-12.3"), (0.75, 3, false, "0.750"), (8.0, 1, false, "8.0"),
            (0.125, 2, false, "0.13"), (-0.125, 2, false, "-0.13"), (1e20, 0, true, "1000000000000"),
            (.nan, 2, true, "0"),
            (.infinity, 1, false, "0.0"), (12.0, 0, true, "12"),
        ] as [(Double, Int, Bool, String)])
    func numbersAreFixedPointWithoutExponent(value: Double, decimals: Int, trim: Bool, expected: String) {
        #expect(SVGNumber.format(value, decimals: decimals, trimZeros: trim) == expected)
    }

    @Test func escapingCoversMarkupQuotesAndForbiddenControls() {
        #expect(HTMLText.escape("<script>&\"'") == "&lt;script&gt;&amp;&quot;&#39;")
        #expect(HTMLText.escape("a\u{0}b\u{1B}c\td\ne") == "a\u{FFFD}b\u{FFFD}c\td\ne")
        #expect(HTMLText.escape("") == "")
        #expect(HTMLText.escape("plain ü ✓") == "plain ü ✓")
    }

    // MARK: Geometry

    /// scikit-learn's documented example: y = [0, 0, 1, 1], s = [.1, .4, .35, .8] gives
    /// the ROC points (0,0), (0,.5), (.5,.5), (.5,1), (1,1). The documented geometry puts
    /// the 360-px plot square's top-left corner at (64, 44), so (x, y) -> (64 + 360x,
    /// 404 - 360y), computed here by hand.
    @Test func rocPolylineOfSklearnExampleLandsOnExpectedPixels() throws {
        let records = zip([0.1, 0.4, 0.35, 0.8], [false, false, true, true]).enumerated().map { index, pair in
            HTMLReportFixtures.record(
                id: "s\(index)", index: index, label: pair.1 ? "real_scene" : "lcd_screen", data: "real",
                scores: ["depth/2": pair.0], aggregate: pair.0)
        }
        let svg = HTMLReportPlots.rocPlot(
            title: "ROC", keys: ["depth/2"], records: .init(records, keys: ["depth/2"]), metrics: [:]
        ).render(
            standalone: true)
        let group = try #require(svg.range(of: "<g data-series=\"depth/2\">"))
        let polyline = try #require(svg[group.upperBound...].range(of: "<polyline points=\""))
        let points = svg[polyline.upperBound...].prefix { $0 != "\"" }
        #expect(points == "64,404 64,224 244,224 244,44 424,44")
        #expect(SVGPlotMarkup.problem(in: svg) == nil)
    }

    @Test func frameMapsCornersAndCentre() {
        let frame = SVGCurvePlot.frame
        #expect(frame.point(0, 0) == SVGPoint(64, 404))
        #expect(frame.point(1, 1) == SVGPoint(424, 44))
        #expect(frame.point(0.25, 0.75) == SVGPoint(154, 134))
        #expect(frame.x.ticks.count == 11)
    }

    @Test func logAxisCoversWholeDecades() {
        let axis = SVGAxis.decades(covering: [0.3, 45, 120, .nan, 0], label: "ms")
        #expect(axis.lower == 0.1)
        #expect(axis.upper == 1000)
        #expect(axis.ticks == [0.1, 1, 10, 100, 1000])
        #expect(abs(axis.fraction(10) - 0.5) < 1e-12)
        #expect(axis.fraction(0) == 0)
        let empty = SVGAxis.decades(covering: [], label: "ms")
        #expect(empty.lower == 0.1 && empty.upper == 10)
    }

    /// The drawn precision-recall steps enclose exactly the step-sum average precision:
    /// sklearn's example has AP = 0.8333 (precision [.5, .667, .5, 1, 1], recall
    /// [1, 1, .5, .5, 0]).
    @Test func precisionRecallStepsEncloseAveragePrecision() {
        let curve = PrecisionRecallCurve(scores: [0.1, 0.4, 0.35, 0.8], bonaFide: [false, false, true, true])
        let path = HTMLReportPlots.stepsPost(recall: curve.recall, precision: curve.precision)
        var area = 0.0
        for (a, b) in zip(path, path.dropFirst()) where a.y == b.y { area += abs(b.x - a.x) * a.y }
        #expect(abs(area - 5.0 / 6) < 1e-12)
        #expect(abs(curve.averagePrecision - 5.0 / 6) < 1e-12)
    }

    @Test func histogramBinsAreHalfOpenWithClosedLastBinAndClampedEnds() {
        let counts = SVGScoreHistogram.binCounts([0, 0.05, 0.049, 0.999, 1.0, -0.2, 1.3, .nan, .infinity], bins: 20)
        #expect(counts.count == 20)
        #expect(counts[0] == 3)
        #expect(counts[1] == 1)
        #expect(counts[19] == 3)
        #expect(counts.reduce(0, +) == 7)
    }

    @Test func heatColoursRunFromWhiteToDarkBlue() {
        #expect(SVGPalette.heat(0) == "#ffffff")
        #expect(SVGPalette.heat(1) == "#08519c")
        #expect(SVGPalette.heat(.nan) == "#eeeeee")
        #expect(SVGPalette.colour(label: "real_scene") == "#3cb44b")
        #expect(
            SVGPalette.orderedLabels(["zeta", "printed_paper", "real_scene", "lcd_screen"])
                == ["real_scene", "lcd_screen", "printed_paper", "zeta"])
    }

    // MARK: Well-formedness

    @Test func everyPlotOfTheFixtureIsWellFormedAndDeterministic() throws {
        let records = HTMLReportFixtures.records()
        let results = HTMLReportFixtures.results(records)
        let files = HTMLReport.files(results: results, records: records)
        let again = HTMLReport.files(results: results, records: records)
        #expect(files.map(\.0) == again.map(\.0))
        #expect(files.map(\.1) == again.map(\.1))
        for (name, text) in files where name.hasSuffix(".svg") {
            #expect(
                text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""),
                "\(name)")
            #expect(SVGPlotMarkup.problem(in: text) == nil, "\(name): \(SVGPlotMarkup.problem(in: text) ?? "")")
            #expect(
                text.range(of: #"="[^"]*(nan|inf)"#, options: .regularExpression) == nil,
                "\(name) has a non-finite number")
        }
    }

    @Test func hostileTitleIsEscapedInsideTheSVG() {
        var svg = SVGDocument(width: 10, height: 10, title: HTMLReportFixtures.hostileID)
        svg.text(HTMLReportFixtures.hostileTag, at: SVGPoint(1, 2))
        svg.beginGroup([("data-series", "a\"b")])
        svg.endGroup()
        let text = svg.render(standalone: true)
        #expect(text.contains("<title>&lt;script&gt;&amp;&quot;</title>"))
        #expect(text.contains(">&lt;tag&amp;&gt;</text>"))
        #expect(text.contains("data-series=\"a&quot;b\""))
        #expect(SVGPlotMarkup.problem(in: text) == nil)
    }

    /// The checker itself: it must reject what a browser's XML parser rejects.
    @Test(arguments: [
        "", "<svg>", "<svg></g>", "<svg><g></svg></g>", "<svg a=\"1\" a=\"2\"/>", "<svg a=1/>", "<svg>&</svg>",
        "<svg>&nbsp;</svg>", "<svg a=\"<\"/>", "<svg/><svg/>", "text<svg/>", "<svg", "<svg><!-- open</svg>",
        "<svg a=\"x/>",
    ])
    func markupCheckerRejectsMalformedInput(_ text: String) {
        #expect(SVGPlotMarkup.problem(in: text) != nil)
    }

    @Test func markupCheckerAcceptsWellFormedInput() {
        let svg = "<?xml version=\"1.0\"?>\n<svg a='1' b=\"&amp;&#38;&#x26;\"><g/><!-- c --><t>x &lt; y</t></svg>\n"
        #expect(SVGPlotMarkup.problem(in: svg) == nil)
        let html =
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>a > b { }</style></head>"
            + "<body><br>&nbsp;</body></html>"
        #expect(SVGPlotMarkup.problem(in: html, html: true) == nil)
        #expect(SVGPlotMarkup.problem(in: html) != nil) // XML mode: unknown entity, unclosed <meta>
    }
}
