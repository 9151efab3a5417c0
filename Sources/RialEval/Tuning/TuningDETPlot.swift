import Foundation

/// The detection error trade-off of held-out ranking scores before and after tuning, on
/// normal-deviate axes (Martin et al. 1997): x = pooled APCER, y = BPCER, each drawn at
/// `Φ⁻¹(rate)`, so two normal score distributions give a straight line. Rates outside
/// 0.1%...60% are drawn at the edge. One point per distinct score (the ROC points of
/// `RankingSummary`), markers at each configuration's own operating point.
struct TuningDETPlot {
    struct Curve {
        var name: String
        var style: SVGSeriesStyle
        /// (APCER pooled, BPCER) per threshold.
        var points: [(apcer: Double, bpcer: Double)]
        var marker: (apcer: Double, bpcer: Double)?
    }

    var title: String
    var curves: [Curve]

    static let ticks = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.6]
    static let left = 70.0, top = 44.0, size = 360.0

    /// Position along an axis, 0...1, of `rate` (clamped into the tick range).
    static func fraction(_ rate: Double) -> Double {
        let lo = standardNormalQuantile(ticks.first!), hi = standardNormalQuantile(ticks.last!)
        let r = min(max(rate.isNaN ? ticks.first! : rate, ticks.first!), ticks.last!)
        return (standardNormalQuantile(r) - lo) / (hi - lo)
    }

    func render() -> SVGDocument {
        let width = Self.left + Self.size + 230, height = Self.top + Self.size + 60
        var svg = SVGDocument(width: width, height: height, title: title)
        func point(_ apcer: Double, _ bpcer: Double) -> SVGPoint {
            SVGPoint(Self.left + Self.size * Self.fraction(apcer), Self.top + Self.size * (1 - Self.fraction(bpcer)))
        }
        svg.text(title, at: SVGPoint(Self.left, 24), size: 15, weight: "bold")
        svg.rect(x: Self.left, y: Self.top, width: Self.size, height: Self.size, fill: "none", stroke: "#444444")
        for tick in Self.ticks {
            let label = tick < 0.01 ? String(format: "%.1f%%", 100 * tick) : String(format: "%.0f%%", 100 * tick)
            let x = point(tick, Self.ticks[0]).x, y = point(Self.ticks[0], tick).y
            svg.line(
                from: SVGPoint(x, Self.top), to: SVGPoint(x, Self.top + Self.size), stroke: "#dddddd", width: 0.5)
            svg.line(
                from: SVGPoint(Self.left, y), to: SVGPoint(Self.left + Self.size, y), stroke: "#dddddd", width: 0.5)
            svg.text(label, at: SVGPoint(x, Self.top + Self.size + 16), anchor: .middle, size: 10)
            svg.text(label, at: SVGPoint(Self.left - 6, y + 4), anchor: .end, size: 10)
        }
        svg.text(
            "APCER (pooled attacks accepted), normal deviate scale",
            at: SVGPoint(Self.left + Self.size / 2, Self.top + Self.size + 40), anchor: .middle, size: 12)
        svg.text(
            "BPCER (bona fide rejected)", at: SVGPoint(18, Self.top + Self.size / 2), anchor: .middle, size: 12,
            rotation: -90)
        for curve in curves {
            svg.polyline(
                curve.points.map { point($0.apcer, $0.bpcer) }, stroke: curve.style.colour, width: curve.style.width,
                dash: curve.style.dash)
            if let m = curve.marker, m.apcer.isFinite, m.bpcer.isFinite {
                svg.circle(
                    at: point(m.apcer, m.bpcer), r: 4.5, fill: "#ffffff", stroke: curve.style.colour, strokeWidth: 2)
            }
        }
        let legend = SVGLegend(
            entries: curves.map {
                SVGLegend.Entry(name: $0.name, detail: "circle: its operating point", style: $0.style)
            })
        legend.draw(in: &svg, at: SVGPoint(Self.left + Self.size + 20, Self.top))
        return svg
    }
}

extension TuningReport {
    /// `det.svg`: held-out DET curves, pooled over the folds, of the base configuration and
    /// of the tuned fits (each held-out sample scored by its own fold's fit; the curve
    /// pools their ranking scores, the marker uses each fold's threshold).
    static func detPlot(before: RankingSummary, after: RankingSummary, report: TuningReport) -> String {
        func curve(_ s: RankingSummary) -> [(apcer: Double, bpcer: Double)] {
            s.rocPoints.map { ($0.fpr, 1 - $0.tpr) }
        }
        let plot = TuningDETPlot(
            title:
                "Held-out DET, \(report.samples) samples (\(report.foldScheme == .source ? "leave-one-source-out" : "group \(report.folds)-fold"))",
            curves: [
                .init(
                    name: "before (base configuration)",
                    style: SVGSeriesStyle(colour: "#999999", width: 1.5, dash: "6 3"),
                    points: curve(before),
                    marker: (report.heldOutBefore.operatingPoint.apcerPooled, report.heldOutBefore.operatingPoint.bpcer)
                ),
                .init(
                    name: "after (tuned per fold)", style: SVGSeriesStyle(colour: "#0072B2", width: 2.5, dash: nil),
                    points: curve(after),
                    marker: (report.heldOutAfter.operatingPoint.apcerPooled, report.heldOutAfter.operatingPoint.bpcer)),
            ])
        return plot.render().render(standalone: true)
    }
}
