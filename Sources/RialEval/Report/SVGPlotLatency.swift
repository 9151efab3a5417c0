/// Latency percentiles against targets: per latency key, three horizontal bars (p50,
/// p90, p99) on a logarithmic millisecond axis, a red marker at the target, and the
/// verdict (`PASS`/`FAIL`/`n/a`) at the right.
struct SVGLatencyChart: Sendable {
    struct Row: Sendable {
        var key: String
        var p50: Double
        var p90: Double
        var p99: Double
        var target: Double?
        var verdict: String
    }

    static let plotLeft = 130.0
    static let plotWidth = 460.0
    static let plotTop = 62.0
    static let rowHeight = 40.0
    static let width = plotLeft + plotWidth + 110
    static let percentileShades = [("p50", "#08519c"), ("p90", "#4a90c8"), ("p99", "#a6c8e6")]

    var title: String
    var rows: [Row]
    /// Line under the title, e.g. why verdicts are `n/a`.
    var note: String?

    func render() -> SVGDocument {
        let plotHeight = Double(max(1, rows.count)) * Self.rowHeight
        let height = Self.plotTop + plotHeight + 62
        var svg = SVGDocument(width: Self.width, height: height, title: title)
        svg.text(title, at: SVGPoint(10, 22), size: 15, weight: "bold")
        if let note { svg.text(note, at: SVGPoint(10, 40), size: 11, fill: "#555555") }
        let values = rows.flatMap { [$0.p50, $0.p90, $0.p99] + ($0.target.map { [$0] } ?? []) }
        let frame = SVGPlotFrame(
            left: Self.plotLeft, top: Self.plotTop, width: Self.plotWidth, height: plotHeight,
            x: .decades(covering: values, label: "milliseconds (log scale)"),
            y: SVGAxis(lower: 0, upper: 1, scale: .linear, ticks: [], label: "", tickDecimals: 0))
        frame.drawAxes(in: &svg)

        // Legend above the plot, right-aligned with it.
        var x = Self.plotLeft + Self.plotWidth - 250
        for (name, colour) in Self.percentileShades {
            svg.rect(x: x, y: Self.plotTop - 18, width: 14, height: 10, fill: colour)
            svg.text(name, at: SVGPoint(x + 18, Self.plotTop - 9), size: 11)
            x += 52
        }
        svg.line(
            from: SVGPoint(x + 4, Self.plotTop - 20), to: SVGPoint(x + 4, Self.plotTop - 6), stroke: "#d00000", width: 3
        )
        svg.text("target (p50)", at: SVGPoint(x + 12, Self.plotTop - 9), size: 11)

        if rows.isEmpty {
            svg.text(
                "no latency measured", at: SVGPoint(frame.left + frame.width / 2, frame.top + 24), anchor: .middle,
                fill: "#777777")
        }
        for (index, row) in rows.enumerated() {
            let top = Self.plotTop + Double(index) * Self.rowHeight
            svg.beginGroup([("data-key", row.key)])
            svg.text(
                row.key, at: SVGPoint(Self.plotLeft - 10, top + Self.rowHeight / 2 + 4), anchor: .end, weight: "bold")
            for (bar, (value, shade)) in zip([row.p50, row.p90, row.p99], Self.percentileShades.map(\.1)).enumerated()
            where value.isFinite {
                let y = top + 7 + Double(bar) * 9
                let end = min(frame.right, max(frame.left, frame.px(value)))
                svg.rect(x: frame.left, y: y, width: end - frame.left, height: 8, fill: shade)
            }
            if let target = row.target, target.isFinite {
                let tx = min(frame.right, max(frame.left, frame.px(target)))
                svg.line(
                    from: SVGPoint(tx, top + 3), to: SVGPoint(tx, top + Self.rowHeight - 3), stroke: "#d00000", width: 3
                )
            }
            let colour = row.verdict == "PASS" ? "#1b7f3b" : row.verdict == "FAIL" ? "#c00000" : "#777777"
            svg.text(
                row.verdict, at: SVGPoint(frame.right + 14, top + Self.rowHeight / 2), weight: "bold", fill: colour)
            let targetText = row.target.map { "target \(SVGNumber.format($0, decimals: 1)) ms" } ?? "no target"
            svg.text(
                targetText, at: SVGPoint(frame.right + 14, top + Self.rowHeight / 2 + 13), size: 10, fill: "#555555")
            if index > 0 {
                svg.line(from: SVGPoint(frame.left, top), to: SVGPoint(frame.right, top), stroke: "#dddddd")
            }
            svg.endGroup()
        }
        return svg
    }
}
