import Foundation

/// One axis of a plot: the data range, linear or base-10 logarithmic, where the ticks
/// go and how they are labelled.
struct SVGAxis: Sendable {
    enum Scale: Sendable {
        case linear
        /// Base-10 logarithmic; values at or below 0 are drawn at `lower`.
        case log10
        /// Normal deviate (probit): a rate `p` at `Φ⁻¹(p)`, the axes of a DET plot
        /// (sklearn's `DetCurveDisplay`); rates outside `lower...upper` (0 and 1
        /// included) are drawn at the nearer end.
        case probit
    }

    var lower: Double
    var upper: Double
    var scale: Scale
    var ticks: [Double]
    var label: String
    /// Decimals of the tick labels (`SVGNumber`, trailing zeros trimmed).
    var tickDecimals: Int

    /// A linear axis from `lower` to `upper` with a tick every `step` (counted from
    /// `lower`, so 0...1 by 0.1 gives 11 ticks).
    static func linear(_ lower: Double, _ upper: Double, step: Double, label: String, tickDecimals: Int = 1) -> SVGAxis
    {
        var ticks: [Double] = []
        if step > 0, upper > lower {
            let count = Int(((upper - lower) / step + 1e-9).rounded(.down))
            ticks = (0...count).map { lower + Double($0) * step }
        }
        return SVGAxis(
            lower: lower, upper: upper, scale: .linear, ticks: ticks, label: label, tickDecimals: tickDecimals)
    }

    /// A logarithmic axis over whole decades covering `values` (positive finite ones;
    /// 0.1...10 when there are none), ticked at each power of ten.
    static func decades(covering values: [Double], label: String) -> SVGAxis {
        let positive = values.filter { $0.isFinite && $0 > 0 }
        var low = (positive.min().map { Foundation.log10($0).rounded(.down) } ?? -1)
        var high = (positive.max().map { Foundation.log10($0).rounded(.up) } ?? 1)
        low = max(-6, low)
        high = min(9, max(high, low + 1))
        let ticks = stride(from: low, through: high, by: 1).map { Foundation.pow(10, $0) }
        return SVGAxis(
            lower: Foundation.pow(10, low), upper: Foundation.pow(10, high), scale: .log10, ticks: ticks,
            label: label, tickDecimals: Int(max(0, -low)))
    }

    /// A normal-deviate axis from `lower` to `upper` (rates in (0, 1)) ticked at the
    /// rates of sklearn's `DetCurveDisplay` that fall inside.
    static func probit(_ lower: Double = 0.001, _ upper: Double = 0.999, label: String) -> SVGAxis {
        let ticks = [0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999].filter { $0 >= lower && $0 <= upper }
        return SVGAxis(lower: lower, upper: upper, scale: .probit, ticks: ticks, label: label, tickDecimals: 3)
    }

    /// Position of `value` along the axis, 0 at `lower` and 1 at `upper` (not clamped
    /// for linear axes; NaN stays NaN).
    func fraction(_ value: Double) -> Double {
        switch scale {
        case .linear:
            return upper > lower ? (value - lower) / (upper - lower) : 0
        case .log10:
            guard value > 0 else { return value.isNaN ? .nan : 0 }
            let a = Foundation.log10(lower), b = Foundation.log10(upper)
            return b > a ? (Foundation.log10(value) - a) / (b - a) : 0
        case .probit:
            guard !value.isNaN else { return .nan }
            let a = NormalQuantile.of(lower), b = NormalQuantile.of(upper)
            let v = NormalQuantile.of(min(upper, max(lower, value)))
            return b > a ? (v - a) / (b - a) : 0
        }
    }
}

/// The standard normal quantile `Φ⁻¹(p)` (scipy's `norm.ppf`): Acklam's rational
/// approximation (relative error below 1.2e-9) refined by one Halley step on
/// `Φ(x) = erfc(-x/√2)/2`. `p` outside (0, 1): `-inf` at 0 and below, `+inf` at 1 and
/// above; NaN stays NaN.
enum NormalQuantile {
    static func of(_ p: Double) -> Double {
        guard !p.isNaN else { return .nan }
        if p <= 0 { return -.infinity }
        if p >= 1 { return .infinity }
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00,
        ]
        let b = [
            -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
            6.680131188771972e+01, -1.328068155288572e+01,
        ]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * Foundation.log(p)).squareRoot()
            x =
                (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x =
                (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * Foundation.log(1 - p)).squareRoot()
            x =
                -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let e = 0.5 * Foundation.erfc(-x / 2.0.squareRoot()) - p
        let u = e * (2 * Double.pi).squareRoot() * Foundation.exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }
}

/// The plot area of a chart and its two axes: maps data to pixels and draws the frame,
/// grid, ticks, tick labels and axis labels.
///
/// `px(x) = left + width · fx(x)`, `py(y) = top + height · (1 - fy(y))` with `f` the
/// axis fraction, so y grows upwards on screen.
struct SVGPlotFrame: Sendable {
    /// Plot area in pixels (inside the axes).
    var left: Double
    var top: Double
    var width: Double
    var height: Double
    var x: SVGAxis
    var y: SVGAxis

    var right: Double { left + width }
    var bottom: Double { top + height }

    func px(_ value: Double) -> Double { left + width * x.fraction(value) }
    func py(_ value: Double) -> Double { top + height * (1 - y.fraction(value)) }
    func point(_ xValue: Double, _ yValue: Double) -> SVGPoint { SVGPoint(px(xValue), py(yValue)) }

    /// Frame, light grid at the ticks, tick marks, tick labels and axis labels.
    func drawAxes(in svg: inout SVGDocument, grid: Bool = true) {
        let gridColour = "#e3e3e3", axisColour = "#555555"
        for tick in x.ticks {
            let p = px(tick)
            if grid { svg.line(from: SVGPoint(p, top), to: SVGPoint(p, bottom), stroke: gridColour) }
            svg.line(from: SVGPoint(p, bottom), to: SVGPoint(p, bottom + 5), stroke: axisColour)
            svg.text(
                SVGNumber.format(tick, decimals: x.tickDecimals), at: SVGPoint(p, bottom + 18), anchor: .middle,
                size: 11,
                fill: "#444444")
        }
        for tick in y.ticks {
            let p = py(tick)
            if grid { svg.line(from: SVGPoint(left, p), to: SVGPoint(right, p), stroke: gridColour) }
            svg.line(from: SVGPoint(left - 5, p), to: SVGPoint(left, p), stroke: axisColour)
            svg.text(
                SVGNumber.format(tick, decimals: y.tickDecimals), at: SVGPoint(left - 8, p + 4), anchor: .end, size: 11,
                fill: "#444444")
        }
        svg.rect(x: left, y: top, width: width, height: height, fill: "none", stroke: axisColour, strokeWidth: 1)
        if !x.label.isEmpty {
            svg.text(x.label, at: SVGPoint(left + width / 2, bottom + 38), anchor: .middle, size: 12.5)
        }
        if !y.label.isEmpty {
            let at = SVGPoint(left - 44, top + height / 2)
            svg.text(y.label, at: at, anchor: .middle, size: 12.5, rotation: -90)
        }
    }
}

/// A legend: one entry per series, a line (or box) sample in the series' style, the
/// name, and an optional second line in grey (e.g. the AUC).
struct SVGLegend: Sendable {
    struct Entry: Sendable {
        var name: String
        var detail: String?
        var style: SVGSeriesStyle
        /// A filled box (histograms, bars) instead of a line sample.
        var box: Bool = false
    }

    var entries: [Entry]

    /// Height of one entry in pixels: 32 with a detail line, 20 without.
    static func entryHeight(_ entry: Entry) -> Double { entry.detail == nil ? 20 : 32 }

    var height: Double { entries.reduce(0) { $0 + Self.entryHeight($1) } }

    /// Draws the entries downwards from `origin` (top-left).
    func draw(in svg: inout SVGDocument, at origin: SVGPoint) {
        var y = origin.y
        for entry in entries {
            let mid = y + 8
            if entry.box {
                svg.rect(x: origin.x, y: mid - 6, width: 24, height: 12, fill: entry.style.colour, opacity: 0.85)
            } else {
                svg.line(
                    from: SVGPoint(origin.x, mid), to: SVGPoint(origin.x + 24, mid), stroke: entry.style.colour,
                    width: entry.style.width, dash: entry.style.dash)
            }
            svg.text(entry.name, at: SVGPoint(origin.x + 32, mid + 4), weight: "bold")
            if let detail = entry.detail {
                svg.text(detail, at: SVGPoint(origin.x + 32, mid + 18), size: 11, fill: "#555555")
            }
            y += Self.entryHeight(entry)
        }
    }
}
