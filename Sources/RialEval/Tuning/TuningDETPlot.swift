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
        let lo = probit(ticks.first!), hi = probit(ticks.last!)
        let r = min(max(rate.isNaN ? ticks.first! : rate, ticks.first!), ticks.last!)
        return (probit(r) - lo) / (hi - lo)
    }

    /// `Φ⁻¹(p)` for p in (0, 1) by Acklam's rational approximation (relative error below
    /// 1.2e-9, far below a pixel), fast enough for one call per curve point; the exact
    /// bisection (`standardNormalQuantile`) is for statistics.
    static func probit(_ p: Double) -> Double {
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
            -3.066479806614716e+01, 2.506628277459239e+00,
        ]
        let b = [
            -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
            -1.328068155288572e+01,
        ]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
            4.374664141464968e+00, 2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        func tail(_ q: Double) -> Double {
            (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p < low { return tail((-2 * log(p)).squareRoot()) }
        if p > 1 - low { return -tail((-2 * log(1 - p)).squareRoot()) }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
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
