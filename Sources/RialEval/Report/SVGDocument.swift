/// A point in SVG user units (pixels): x to the right, y downwards.
struct SVGPoint: Sendable, Equatable {
    var x: Double
    var y: Double

    init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// An SVG 1.1 image assembled element by element (no plotting library exists for Swift
/// on Linux). Every number is written by `SVGNumber` (2 decimals at most) and every
/// text and attribute value escaped by `HTMLText`, so the same input gives the same
/// bytes and the output is well-formed XML.
///
/// Fonts are generic families installed everywhere (no web fonts, no external
/// resources); `render(standalone:)` gives a file (`<?xml ...?>` first) or markup to
/// inline in HTML.
struct SVGDocument: Sendable {
    /// Fonts of every text: local families only.
    static let fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"

    let width: Double
    let height: Double
    /// Accessible name (`<title>`), shown as a tooltip by browsers.
    var title: String
    private(set) var elements: [String] = []

    init(width: Double, height: Double, title: String) {
        self.width = width
        self.height = height
        self.title = title
    }

    /// The markup. `standalone` adds the XML declaration for a `.svg` file.
    func render(standalone: Bool) -> String {
        var out = standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : ""
        let w = SVGNumber.format(width), h = SVGNumber.format(height)
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\""
        out += " font-family=\"\(HTMLText.escape(Self.fontFamily))\" font-size=\"12\" role=\"img\">\n"
        out += "<title>\(HTMLText.escape(title))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" fill=\"#ffffff\"/>\n"
        for element in elements { out += element + "\n" }
        out += "</svg>\n"
        return out
    }

    /// ` name="value"` pairs, values escaped; nil values are left out.
    private static func attributes(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { name, value in value.map { " \(name)=\"\(HTMLText.escape($0))\"" } }.joined()
    }

    private static func n(_ value: Double) -> String { SVGNumber.format(value) }

    /// Opens `<g>` with `attributes` (e.g. `data-series`); close it with `endGroup()`.
    mutating func beginGroup(_ attributes: [(String, String?)] = []) {
        elements.append("<g\(Self.attributes(attributes))>")
    }

    mutating func endGroup() {
        elements.append("</g>")
    }

    /// A straight line; `dash` is an SVG `stroke-dasharray` such as `"6 3"`.
    mutating func line(
        from a: SVGPoint, to b: SVGPoint, stroke: String, width: Double = 1, dash: String? = nil,
        opacity: Double? = nil
    ) {
        elements.append(
            "<line"
                + Self.attributes([
                    ("x1", Self.n(a.x)), ("y1", Self.n(a.y)), ("x2", Self.n(b.x)), ("y2", Self.n(b.y)),
                    ("stroke", stroke), ("stroke-width", Self.n(width)), ("stroke-dasharray", dash),
                    ("stroke-opacity", opacity.map(Self.n)),
                ]) + "/>")
    }

    /// A rectangle from its top-left corner; negative sizes are drawn as zero.
    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil,
        strokeWidth: Double? = nil, opacity: Double? = nil, attributes extra: [(String, String?)] = []
    ) {
        elements.append(
            "<rect"
                + Self.attributes(
                    [
                        ("x", Self.n(x)), ("y", Self.n(y)), ("width", Self.n(max(0, width))),
                        ("height", Self.n(max(0, height))),
                        ("fill", fill), ("fill-opacity", opacity.map(Self.n)), ("stroke", stroke),
                        ("stroke-width", strokeWidth.map(Self.n)),
                    ] + extra) + "/>")
    }

    /// An open polyline through `points` (`x,y` pairs separated by spaces); nothing
    /// for fewer than 2 points.
    mutating func polyline(
        _ points: [SVGPoint], stroke: String, width: Double = 1.5, dash: String? = nil,
        attributes extra: [(String, String?)] = []
    ) {
        guard points.count >= 2 else { return }
        let list = points.map { "\(Self.n($0.x)),\(Self.n($0.y))" }.joined(separator: " ")
        elements.append(
            "<polyline"
                + Self.attributes(
                    [
                        ("points", list), ("fill", "none"), ("stroke", stroke), ("stroke-width", Self.n(width)),
                        ("stroke-dasharray", dash), ("stroke-linejoin", "round"),
                    ] + extra) + "/>")
    }

    /// A circle of radius `r` at `centre`.
    mutating func circle(
        at centre: SVGPoint, r: Double, fill: String, stroke: String? = nil, strokeWidth: Double? = nil
    ) {
        elements.append(
            "<circle"
                + Self.attributes([
                    ("cx", Self.n(centre.x)), ("cy", Self.n(centre.y)), ("r", Self.n(r)), ("fill", fill),
                    ("stroke", stroke), ("stroke-width", strokeWidth.map(Self.n)),
                ]) + "/>")
    }

    /// Where a text's `x` lies: its start, middle or end.
    enum Anchor: String {
        case start, middle, end
    }

    /// One line of text with its baseline at `at.y`; `rotation` in degrees about `at`
    /// (-90 for a y axis label).
    mutating func text(
        _ content: String, at: SVGPoint, anchor: Anchor = .start, size: Double = 12,
        weight: String? = nil, fill: String = "#222222", rotation: Double? = nil
    ) {
        let transform = rotation.map { "rotate(\(Self.n($0)) \(Self.n(at.x)) \(Self.n(at.y)))" }
        elements.append(
            "<text"
                + Self.attributes([
                    ("x", Self.n(at.x)), ("y", Self.n(at.y)), ("text-anchor", anchor == .start ? nil : anchor.rawValue),
                    ("font-size", size == 12 ? nil : Self.n(size)), ("font-weight", weight), ("fill", fill),
                    ("transform", transform),
                ]) + ">\(HTMLText.escape(content))</text>")
    }
}
