/// Text made safe for HTML and XML (SVG) content and attribute values.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by `&amp;`, `&lt;`, `&gt;`, `&quot;`
    /// and `&#39;`, so it can stand in element content and in a double- or single-quoted
    /// attribute. Control characters that XML 1.0 forbids (U+0000...U+001F except tab,
    /// line feed and carriage return) and U+FFFE/U+FFFF become U+FFFD, so an SVG holding
    /// any sample id or failure reason stays well-formed.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
