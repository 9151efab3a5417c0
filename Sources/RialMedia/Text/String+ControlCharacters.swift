extension String {
    /// This text with every character that could change how a terminal, log or report
    /// shows it written as a visible escape, so user text (an id, a path) quoted in a
    /// message stays on its line and cannot move the cursor, recolour, retitle, hide or
    /// reorder what follows.
    ///
    /// Escaped, one Unicode scalar at a time: tab, line feed and carriage return as `\t`,
    /// `\n`, `\r`; every other control character (C0 U+0000...U+001F, DEL U+007F, C1
    /// U+0080...U+009F), the line and paragraph separators U+2028 and U+2029 and the
    /// bidirectional embedding, override and isolate controls U+202A...U+202E and
    /// U+2066...U+2069 as `\u{XX}` (hexadecimal, as in a Swift string literal).
    /// Everything else, backslashes included, is kept as it is, so ordinary text is
    /// unchanged and escaping twice gives the same result as escaping once.
    ///
    /// - Complexity: O(n) in the number of scalars; no copy when nothing needs escaping.
    public func escapingControlCharacters() -> String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case _ where Self.needsEscape(scalar):
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
