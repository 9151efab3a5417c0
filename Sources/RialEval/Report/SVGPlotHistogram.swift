/// Score distributions of one method by label: one strip of histogram bars per label,
/// stacked vertically over a shared 0...1 score axis, with the decision threshold as a
/// dashed line across all strips.
///
/// Bars are the share of the label's scored samples in each bin, so labels with very
/// different counts compare; every strip uses the same vertical scale (the largest share,
/// rounded up to a multiple of 10 %), printed at the strip's left. Bins are
/// `[k/bins, (k+1)/bins)`, the last one closed; scores outside 0...1 go to the end bins.
struct SVGScoreHistogram: Sendable {
    /// One label's scores.
    struct Group: Sendable {
        var label: String
        var colour: String
        /// Finite scores.
        var scores: [Double]
        /// Samples of the label without a finite score.
        var unscored: Int
    }

    static let plotLeft = 170.0
    static let plotWidth = 440.0
    static let plotTop = 52.0
    static let stripHeight = 64.0
    static let stripGap = 14.0
    static let width = plotLeft + plotWidth + 30

    var title: String
    var groups: [Group]
    var threshold: Double
    var bins: Int = 20
    /// Vertical reference lines across all strips (level boundaries, cap ceilings), each
    /// labelled at the bottom of the plot; explained by `legend` under the axis.
    var markers: [Marker] = []
    /// One line under the axis label saying what the markers are.
    var legend: String? = nil

    /// A vertical line at a score, labelled (rotated) at the bottom of the plot, or at
    /// the top when `labelAtTop` (so two close markers do not overwrite each other).
    struct Marker: Sendable {
        var value: Double
        var label: String
        var colour: String
        var dash: String
        var labelAtTop = false
    }

    /// Counts per bin of `scores` (finite values only).
    static func binCounts(_ scores: [Double], bins: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: max(1, bins))
        for score in scores where score.isFinite {
            let index = Int((score * Double(counts.count)).rounded(.down))
            counts[min(counts.count - 1, max(0, index))] += 1
        }
        return counts
    }

    func render() -> SVGDocument {
        let strips = max(1, groups.count)
        let plotHeight = Double(strips) * Self.stripHeight + Double(strips - 1) * Self.stripGap
        let legendLines = legend.map { SVGTextWrap.lines($0, maxCharacters: 100) } ?? []
        let height = Self.plotTop + plotHeight + 62 + Double(legendLines.count) * 15 + (legendLines.isEmpty ? 0 : 4)
        var svg = SVGDocument(width: Self.width, height: height, title: title)
        svg.text(title, at: SVGPoint(10, 22), size: 15, weight: "bold")
        let frame = SVGPlotFrame(
            left: Self.plotLeft, top: Self.plotTop, width: Self.plotWidth, height: plotHeight,
            x: .linear(0, 1, step: 0.1, label: "score (higher = more likely a real scene)"),
            y: SVGAxis(lower: 0, upper: 1, scale: .linear, ticks: [], label: "", tickDecimals: 0))
        let histograms = groups.map { Self.binCounts($0.scores, bins: bins) }
        var largest = 0.0
        for (group, counts) in zip(groups, histograms) where !group.scores.isEmpty {
            largest = max(largest, Double(counts.max() ?? 0) / Double(group.scores.count))
        }
        let scaleTop = max(0.1, (largest * 10 - 1e-9).rounded(.up) / 10)

        for (x, tick) in frame.x.ticks.map({ (frame.px($0), $0) }) {
            svg.line(from: SVGPoint(x, frame.top), to: SVGPoint(x, frame.bottom), stroke: "#ececec")
            svg.line(from: SVGPoint(x, frame.bottom), to: SVGPoint(x, frame.bottom + 5), stroke: "#555555")
            svg.text(
                SVGNumber.format(tick, decimals: 1), at: SVGPoint(x, frame.bottom + 18), anchor: .middle, size: 11,
                fill: "#444444")
        }
        svg.text(
            frame.x.label, at: SVGPoint(frame.left + frame.width / 2, frame.bottom + 38), anchor: .middle, size: 12.5)

        let binWidth = Self.plotWidth / Double(bins)
        for (index, (group, counts)) in zip(groups, histograms).enumerated() {
            let top = Self.plotTop + Double(index) * (Self.stripHeight + Self.stripGap)
            let baseline = top + Self.stripHeight
            svg.beginGroup([("data-label", group.label)])
            svg.text(group.label, at: SVGPoint(10, top + 22), weight: "bold")
            svg.rect(x: 10, y: top + 28, width: 10, height: 10, fill: group.colour)
            var countText = "n = \(group.scores.count)"
            if group.unscored > 0 { countText += " (+\(group.unscored) unscored)" }
            svg.text(countText, at: SVGPoint(25, top + 37), size: 11, fill: "#555555")
            svg.line(
                from: SVGPoint(Self.plotLeft, top), to: SVGPoint(Self.plotLeft + Self.plotWidth, top),
                stroke: "#dddddd",
                dash: "2 3")
            svg.text(
                "\(SVGNumber.format(scaleTop * 100, decimals: 0))%", at: SVGPoint(Self.plotLeft - 6, top + 9),
                anchor: .end, size: 10, fill: "#666666")
            svg.text("0", at: SVGPoint(Self.plotLeft - 6, baseline), anchor: .end, size: 10, fill: "#666666")
            if !group.scores.isEmpty {
                for (bin, count) in counts.enumerated() where count > 0 {
                    let share = Double(count) / Double(group.scores.count)
                    let h = Self.stripHeight * min(1, share / scaleTop)
                    svg.rect(
                        x: Self.plotLeft + Double(bin) * binWidth + 0.5, y: baseline - h, width: binWidth - 1,
                        height: h,
                        fill: group.colour, opacity: 0.85, attributes: [("data-count", String(count))])
                }
            } else {
                svg.text(
                    "no scored sample", at: SVGPoint(Self.plotLeft + Self.plotWidth / 2, baseline - 24),
                    anchor: .middle,
                    size: 11, fill: "#777777")
            }
            svg.line(
                from: SVGPoint(Self.plotLeft, baseline), to: SVGPoint(Self.plotLeft + Self.plotWidth, baseline),
                stroke: "#555555")
            svg.endGroup()
        }
        for marker in markers where marker.value.isFinite {
            let x = frame.px(min(1, max(0, marker.value)))
            svg.line(
                from: SVGPoint(x, Self.plotTop), to: SVGPoint(x, frame.bottom), stroke: marker.colour, width: 1.2,
                dash: marker.dash)
            svg.text(
                marker.label, at: SVGPoint(x - 3, marker.labelAtTop ? Self.plotTop + 4 : frame.bottom - 4),
                anchor: marker.labelAtTop ? .end : .start, size: 9, fill: marker.colour, rotation: -90)
        }
        for (index, line) in legendLines.enumerated() {
            svg.text(line, at: SVGPoint(10, frame.bottom + 56 + Double(index) * 15), size: 11, fill: "#555555")
        }
        if threshold.isFinite {
            let x = frame.px(min(1, max(0, threshold)))
            svg.line(
                from: SVGPoint(x, Self.plotTop - 8), to: SVGPoint(x, frame.bottom), stroke: "#111111", width: 1.5,
                dash: "6 3")
            svg.text(
                "threshold \(SVGNumber.format(threshold, decimals: 2, trimZeros: false))",
                at: SVGPoint(x, Self.plotTop - 12), anchor: .middle, size: 11, weight: "bold")
        }
        return svg
    }
}
