/// How one series is drawn: colour, line width and dash pattern.
struct SVGSeriesStyle: Sendable, Equatable {
    var colour: String
    var width: Double
    /// SVG `stroke-dasharray`, nil for a solid line.
    var dash: String?
}

/// The colours of the report's plots.
///
/// Methods take the Okabe–Ito colour-blind-safe colours in order (yellow left out: too
/// light on white), each with its own dash pattern so curves stay apart in greyscale
/// print; the aggregate is a thicker solid black line. Labels keep the colours of the
/// contact sheets (`SampleLabel.sheetColor`).
enum SVGPalette {
    static let methodColours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#882255", "#999933"]
    static let methodDashes: [String?] = [nil, "7 3", "2 2", "9 3 2 3", "4 4", "12 4"]

    /// The style of the `index`-th method (0-based, in `RunResults.methods` order);
    /// `aggregate` is always black and 3 px wide.
    static func style(method key: String, index: Int) -> SVGSeriesStyle {
        if key == "aggregate" { return SVGSeriesStyle(colour: "#000000", width: 3, dash: nil) }
        return SVGSeriesStyle(
            colour: methodColours[index % methodColours.count], width: 2,
            dash: methodDashes[index % methodDashes.count])
    }

    /// `#rrggbb` of label `label`'s contact-sheet colour; grey for an unknown label.
    static func colour(label: String) -> String {
        guard let known = SampleLabel(rawValue: label) else { return "#7f7f7f" }
        let c = known.sheetColor
        return "#"
            + [c.r, c.g, c.b].map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }

    /// Labels in display order: `real_scene` first, then the attack species in
    /// `SampleLabel` order, then unknown labels alphabetically.
    static func orderedLabels<S: Sequence>(_ labels: S) -> [String] where S.Element == String {
        let all = Set(labels)
        let known = SampleLabel.allCases.map(\.rawValue).filter(all.contains)
        return known + all.subtracting(known).sorted()
    }

    /// Fill of a heatmap cell for a share `fraction` in 0...1: white to dark blue
    /// (#08519c), linear in RGB; NaN gives light grey.
    static func heat(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "#eeeeee" }
        let t = min(1, max(0, fraction))
        let (r, g, b) = (255 + (8 - 255) * t, 255 + (81 - 255) * t, 255 + (156 - 255) * t)
        return "#"
            + [r, g, b].map { value in
                let hex = String(Int(value.rounded()), radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }
}
