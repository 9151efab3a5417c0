/// A small well-formedness checker for the report's SVG and HTML (Foundation's
/// `XMLDocument` is not available on Linux): balanced and properly nested tags, quoted
/// attributes without `<` and without duplicates, and `&` only as the start of an entity.
///
/// Understands comments, `<?...?>`, `<!DOCTYPE ...>`, self-closing tags, HTML void
/// elements (when given) and `<style>` raw text. Not a validator: it does not know which
/// elements or attributes exist.
enum SVGPlotMarkup {
    /// The XML entities; HTML mode accepts any named entity.
    static let xmlEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]
    static let htmlVoidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr",
    ]

    /// nil when `text` is well-formed, else what is wrong and where (character offset).
    /// `html` allows void elements and any named entity; XML mode requires one root element.
    static func problem(in text: String, html: Bool = false) -> String? {
        let s = Array(text.unicodeScalars)
        var i = 0, stack: [String] = [], roots = 0

        func starts(_ prefix: String, at position: Int) -> Bool {
            let p = Array(prefix.unicodeScalars)
            guard position + p.count <= s.count else { return false }
            return (0..<p.count).allSatisfy { s[position + $0] == p[$0] }
        }
        func find(_ needle: String, from position: Int) -> Int? {
            var j = position
            while j < s.count {
                if starts(needle, at: j) { return j }
                j += 1
            }
            return nil
        }
        func isNameScalar(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == ":" || c == "."
        }
        func entityProblem(at position: Int) -> String? {
            guard let end = find(";", from: position), end - position <= 12 else { return "bare & at \(position)" }
            let name = String(String.UnicodeScalarView(s[(position + 1)..<end]))
            if name.hasPrefix("#x") {
                return name.count > 2 && name.dropFirst(2).allSatisfy(\.isHexDigit)
                    ? nil : "bad entity &\(name); at \(position)"
            }
            if name.hasPrefix("#") {
                return name.count > 1 && name.dropFirst().allSatisfy(\.isNumber)
                    ? nil : "bad entity &\(name); at \(position)"
            }
            if html {
                return !name.isEmpty && name.allSatisfy(\.isLetter) ? nil : "bad entity &\(name); at \(position)"
            }
            return xmlEntities.contains(name) ? nil : "unknown XML entity &\(name); at \(position)"
        }

        while i < s.count {
            let c = s[i]
            if c == "&" {
                if let problem = entityProblem(at: i) { return problem }
                i += 1
                continue
            }
            guard c == "<" else {
                if stack.isEmpty, !html, !c.properties.isWhitespace {
                    return "text outside the root element at \(i)"
                }
                i += 1
                continue
            }
            if starts("<!--", at: i) {
                guard let end = find("-->", from: i + 4) else { return "unterminated comment at \(i)" }
                i = end + 3
            } else if starts("<?", at: i) {
                guard let end = find("?>", from: i + 2) else { return "unterminated processing instruction at \(i)" }
                i = end + 2
            } else if starts("<!", at: i) {
                guard let end = find(">", from: i + 2) else { return "unterminated declaration at \(i)" }
                i = end + 1
            } else if starts("</", at: i) {
                var j = i + 2
                while j < s.count, isNameScalar(s[j]) { j += 1 }
                let name = String(String.UnicodeScalarView(s[(i + 2)..<j]))
                while j < s.count, s[j].properties.isWhitespace { j += 1 }
                guard j < s.count, s[j] == ">" else { return "malformed end tag </\(name) at \(i)" }
                guard let open = stack.popLast() else { return "end tag </\(name)> without start tag at \(i)" }
                guard open == name else { return "end tag </\(name)> closes <\(open)> at \(i)" }
                i = j + 1
            } else {
                var j = i + 1
                while j < s.count, isNameScalar(s[j]) { j += 1 }
                let name = String(String.UnicodeScalarView(s[(i + 1)..<j]))
                guard !name.isEmpty else { return "bare < at \(i)" }
                var attributes = Set<String>(), selfClosing = false, closed = false
                while j < s.count {
                    while j < s.count, s[j].properties.isWhitespace { j += 1 }
                    guard j < s.count else { break }
                    if s[j] == ">" {
                        closed = true
                        j += 1
                        break
                    }
                    if starts("/>", at: j) {
                        closed = true
                        selfClosing = true
                        j += 2
                        break
                    }
                    let nameStart = j
                    while j < s.count, isNameScalar(s[j]) { j += 1 }
                    let attribute = String(String.UnicodeScalarView(s[nameStart..<j]))
                    guard !attribute.isEmpty else { return "bad character in <\(name)> at \(j)" }
                    guard attributes.insert(attribute).inserted else {
                        return "duplicate attribute \(attribute) in <\(name)> at \(j)"
                    }
                    guard j < s.count, s[j] == "=" else {
                        return "attribute \(attribute) of <\(name)> without value at \(j)"
                    }
                    j += 1
                    guard j < s.count, s[j] == "\"" || s[j] == "'" else {
                        return "unquoted attribute \(attribute) at \(j)"
                    }
                    let quote = s[j]
                    j += 1
                    while j < s.count, s[j] != quote {
                        if s[j] == "<" { return "< inside attribute \(attribute) at \(j)" }
                        if s[j] == "&", let problem = entityProblem(at: j) { return problem }
                        j += 1
                    }
                    guard j < s.count else { return "unterminated attribute \(attribute) at \(nameStart)" }
                    j += 1
                }
                guard closed else { return "unterminated start tag <\(name) at \(i)" }
                if stack.isEmpty {
                    roots += 1
                    if !html, roots > 1 { return "second root element <\(name)> at \(i)" }
                }
                if !selfClosing, !(html && htmlVoidElements.contains(name.lowercased())) {
                    if html, name.lowercased() == "style" || name.lowercased() == "script" {
                        guard let end = find("</\(name)", from: j) else { return "unterminated <\(name)> at \(i)" }
                        j = end
                    }
                    stack.append(name)
                }
                i = j
            }
        }
        if let open = stack.last { return "<\(open)> never closed (\(stack.count) open)" }
        if roots == 0 { return "no element" }
        return nil
    }
}
