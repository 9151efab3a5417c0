/// Table cells of the HTML report: fixed-format numbers (`SVGNumber`, locale-free),
/// "—" for undefined values, intervals on a second line.
enum HTMLFormat {
    /// The mark of an undefined (NaN) or unavailable value; `why` becomes its tooltip.
    static func undefined(_ why: String = "undefined") -> String {
        "<span class=\"undef\" title=\"\(HTMLText.escape(why))\">—</span>"
    }

    /// A rate 0...1 as a percentage with one decimal, without the `%` sign (the column
    /// header carries the unit): 0.0833 -> `8.3`.
    static func percent(_ rate: Double, why: String = "undefined") -> String {
        rate.isFinite ? SVGNumber.format(rate * 100, decimals: 1, trimZeros: false) : undefined(why)
    }

    /// A number with `decimals` fixed places (AUC, AP, thresholds): 0.75 -> `0.750`.
    static func fixed(_ value: Double, decimals: Int = 3, why: String = "undefined") -> String {
        value.isFinite ? SVGNumber.format(value, decimals: decimals, trimZeros: false) : undefined(why)
    }

    /// Milliseconds with 3 significant digits or more (no exponent): 0.0123 -> `0.0123`,
    /// 4.56 -> `4.56`, 123.4 -> `123`; exactly 0 -> `0`.
    static func milliseconds(_ value: Double) -> String {
        guard value.isFinite else { return undefined() }
        guard value != 0 else { return "0" }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : magnitude >= 0.1 ? 3 : 4
        return SVGNumber.format(value, decimals: decimals, trimZeros: false)
    }

    /// The interval as `[lower, upper]` on its own line under the value, in percent when
    /// `percent`; nothing without an interval, `[—]` when its bounds are undefined.
    static func interval(_ ci: ConfidenceInterval?, percent: Bool) -> String {
        guard let ci else { return "" }
        guard ci.lower.isFinite, ci.upper.isFinite else {
            return "<span class=\"ci\" title=\"interval undefined\">[—]</span>"
        }
        let scale = percent ? 100.0 : 1.0, decimals = percent ? 1 : 3
        let lower = SVGNumber.format(ci.lower * scale, decimals: decimals, trimZeros: false)
        let upper = SVGNumber.format(ci.upper * scale, decimals: decimals, trimZeros: false)
        return "<span class=\"ci\">[\(lower), \(upper)]</span>"
    }

    /// An integer with thin grouping (`12 345`), for counts.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "\u{2009}" }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }
}
