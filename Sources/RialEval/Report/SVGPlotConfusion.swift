/// A confusion matrix as a heatmap: rows = truth, columns = prediction, each cell
/// showing its count and its share of the row (the row-normalised matrix, sklearn's
/// `normalize='true'`), shaded by that share from white to dark blue. A row without
/// samples shows "—" on grey.
struct SVGConfusionHeatmap: Sendable {
    static let cellWidth = 150.0
    static let cellHeight = 72.0
    static let gridLeft = 150.0
    static let gridTop = 86.0

    var title: String
    /// Caption above the columns, e.g. "prediction at threshold 0.50".
    var columnCaption: String
    var rowLabels: [String]
    var columnLabels: [String]
    /// `counts[row][column]`; missing entries count 0.
    var counts: [[Int]]

    func render() -> SVGDocument {
        let width = Self.gridLeft + Double(columnLabels.count) * Self.cellWidth + 20
        let height = Self.gridTop + Double(rowLabels.count) * Self.cellHeight + 20
        var svg = SVGDocument(width: width, height: height, title: title)
        svg.text(title, at: SVGPoint(10, 22), size: 15, weight: "bold")
        let gridWidth = Double(columnLabels.count) * Self.cellWidth
        svg.text(
            columnCaption, at: SVGPoint(Self.gridLeft + gridWidth / 2, Self.gridTop - 36), anchor: .middle, size: 12,
            fill: "#444444")
        for (column, label) in columnLabels.enumerated() {
            svg.text(
                label, at: SVGPoint(Self.gridLeft + (Double(column) + 0.5) * Self.cellWidth, Self.gridTop - 10),
                anchor: .middle, weight: "bold")
        }
        let gridHeight = Double(rowLabels.count) * Self.cellHeight
        svg.text(
            "truth", at: SVGPoint(22, Self.gridTop + gridHeight / 2), anchor: .middle, size: 12, fill: "#444444",
            rotation: -90)
        for (row, label) in rowLabels.enumerated() {
            let values = (0..<columnLabels.count).map { column in
                row < counts.count && column < counts[row].count ? counts[row][column] : 0
            }
            let total = values.reduce(0, +)
            let y = Self.gridTop + Double(row) * Self.cellHeight
            svg.text(label, at: SVGPoint(Self.gridLeft - 10, y + Self.cellHeight / 2 - 2), anchor: .end, weight: "bold")
            svg.text(
                "n = \(total)", at: SVGPoint(Self.gridLeft - 10, y + Self.cellHeight / 2 + 14), anchor: .end, size: 11,
                fill: "#555555")
            for (column, count) in values.enumerated() {
                let x = Self.gridLeft + Double(column) * Self.cellWidth
                let share = total > 0 ? Double(count) / Double(total) : .nan
                svg.rect(
                    x: x, y: y, width: Self.cellWidth, height: Self.cellHeight, fill: SVGPalette.heat(share),
                    stroke: "#ffffff", strokeWidth: 2,
                    attributes: [("data-count", String(count))])
                let ink = share.isFinite && share > 0.55 ? "#ffffff" : "#111111"
                let centre = x + Self.cellWidth / 2
                if share.isFinite {
                    svg.text(
                        String(count), at: SVGPoint(centre, y + Self.cellHeight / 2 - 2), anchor: .middle, size: 20,
                        weight: "bold", fill: ink)
                    svg.text(
                        "\(SVGNumber.format(share * 100, decimals: 1, trimZeros: false))% of row",
                        at: SVGPoint(centre, y + Self.cellHeight / 2 + 18), anchor: .middle, size: 11, fill: ink)
                } else {
                    svg.text(
                        "—", at: SVGPoint(centre, y + Self.cellHeight / 2 + 6), anchor: .middle, size: 18,
                        fill: "#777777")
                }
            }
        }
        return svg
    }
}
