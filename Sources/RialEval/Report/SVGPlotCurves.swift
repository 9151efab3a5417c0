/// Curves in the unit square with a legend on the right: the ROC and precision-recall
/// plots.
///
/// Geometry (pixels): the plot area is a 360 × 360 square with its top-left corner at
/// (`plotLeft`, `plotTop`) = (64, 44), so data (x, y) in 0...1 maps to
/// `(64 + 360·x, 404 - 360·y)`; the legend starts 20 px right of the square; the image is
/// 654 × 464 (taller when the legend needs it), so two plots fit side by side on a
/// 1400 px page. Axes run 0...1 with ticks and grid every 0.1.
struct SVGCurvePlot: Sendable {
    static let plotLeft = 64.0
    static let plotTop = 44.0
    static let plotSize = 360.0
    static let legendWidth = 210.0
    static let width = plotLeft + plotSize + 20 + legendWidth
    static let height = plotTop + plotSize + 60

    /// One curve: its data points in 0...1 (drawn in order; NaN points are skipped) and
    /// an optional marker (e.g. the operating point).
    struct Series: Sendable {
        var key: String
        var name: String
        var detail: String?
        var style: SVGSeriesStyle
        var points: [(x: Double, y: Double)]
        var marker: (x: Double, y: Double)?
    }

    /// A dashed grey reference line (the chance diagonal, the PR prevalence).
    struct Reference: Sendable {
        var from: (x: Double, y: Double)
        var to: (x: Double, y: Double)
        var label: String
        var detail: String? = nil
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var series: [Series]
    var reference: Reference?
    /// Lines under the legend (what the markers mean, undefined curves).
    var notes: [String] = []
    /// Axes other than 0...1 linear (the DET plot's normal-deviate axes); labels are
    /// `xLabel`/`yLabel` either way.
    var axes: (x: SVGAxis, y: SVGAxis)? = nil

    /// The frame every curve plot uses (see the type's comment).
    static var frame: SVGPlotFrame {
        SVGPlotFrame(
            left: plotLeft, top: plotTop, width: plotSize, height: plotSize,
            x: .linear(0, 1, step: 0.1, label: ""), y: .linear(0, 1, step: 0.1, label: ""))
    }

    func render() -> SVGDocument {
        var legend = SVGLegend(
            entries: series.map { SVGLegend.Entry(name: $0.name, detail: $0.detail, style: $0.style) })
        if let reference {
            legend.entries.append(
                SVGLegend.Entry(
                    name: reference.label, detail: reference.detail,
                    style: SVGSeriesStyle(colour: "#888888", width: 1, dash: "4 4")))
        }
        let noteLines = notes.map { SVGTextWrap.lines($0, maxCharacters: 34) }
        let notesHeight = noteLines.reduce(0.0) { $0 + Double($1.count) * 15 + 4 }
        let height = max(Self.height, Self.plotTop + legend.height + 10 + notesHeight + 10)
        var svg = SVGDocument(width: Self.width, height: height, title: title)
        var frame = Self.frame
        if let axes {
            frame.x = axes.x
            frame.y = axes.y
        }
        frame.x.label = xLabel
        frame.y.label = yLabel
        svg.text(title, at: SVGPoint(Self.plotLeft, 24), size: 15, weight: "bold")
        frame.drawAxes(in: &svg)
        if let reference {
            svg.line(
                from: frame.point(reference.from.x, reference.from.y), to: frame.point(reference.to.x, reference.to.y),
                stroke: "#888888", width: 1, dash: "4 4")
        }
        // Thin lines last so the thick aggregate does not hide them.
        for item in series.sorted(by: { $0.style.width > $1.style.width }) {
            svg.beginGroup([("data-series", item.key)])
            for run in Self.finiteRuns(item.points) {
                svg.polyline(
                    Self.visible(run.map { frame.point($0.x, $0.y) }), stroke: item.style.colour,
                    width: item.style.width, dash: item.style.dash, attributes: [("class", "curve")])
            }
            if let marker = item.marker, marker.x.isFinite, marker.y.isFinite {
                svg.circle(
                    at: frame.point(marker.x, marker.y), r: 4.5, fill: "#ffffff", stroke: item.style.colour,
                    strokeWidth: 2)
            }
            svg.endGroup()
        }
        let legendX = Self.plotLeft + Self.plotSize + 20
        legend.draw(in: &svg, at: SVGPoint(legendX, Self.plotTop))
        var y = Self.plotTop + legend.height + 10
        for lines in noteLines {
            for line in lines {
                svg.text(line, at: SVGPoint(legendX, y + 10), size: 11, fill: "#555555")
                y += 15
            }
            y += 4
        }
        return svg
    }

    /// Below this distance (pixels, in x and in y) from the last point drawn a point is
    /// not drawn: a million-sample curve would otherwise put a million points into the page.
    static let pixelTolerance = 0.1

    /// `points` (pixels) without those closer than `pixelTolerance` in both x and y to the
    /// last point kept; the first and last are always kept. The line drawn departs from the
    /// full one by less than the tolerance, so the picture is the same.
    static func visible(_ points: [SVGPoint]) -> [SVGPoint] {
        guard points.count > 2 else { return points }
        var kept = [points[0]]
        for point in points.dropFirst().dropLast() {
            let last = kept[kept.count - 1]
            if abs(point.x - last.x) >= pixelTolerance || abs(point.y - last.y) >= pixelTolerance { kept.append(point) }
        }
        kept.append(points[points.count - 1])
        return kept
    }

    /// The stretches of consecutive points whose coordinates are both finite.
    static func finiteRuns(_ points: [(x: Double, y: Double)]) -> [[(x: Double, y: Double)]] {
        var runs: [[(x: Double, y: Double)]] = [[]]
        for point in points {
            if point.x.isFinite, point.y.isFinite {
                runs[runs.count - 1].append(point)
            } else if !runs[runs.count - 1].isEmpty {
                runs.append([])
            }
        }
        return runs.filter { $0.count >= 2 }
    }
}

/// Greedy word wrap for SVG text, which has no automatic line breaking.
enum SVGTextWrap {
    /// `text` split at spaces into lines of at most `maxCharacters` characters (a longer
    /// word stands alone on its line).
    static func lines(_ text: String, maxCharacters: Int) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= maxCharacters {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
