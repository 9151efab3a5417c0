import RialMedia

/// User text (dataset names, sample ids, reasons, profile names) made safe to put inside
/// a line of `report.md`, for CommonMark and GitHub-flavoured Markdown alike.
enum MarkdownText {
    /// Characters with an inline meaning: escape (`\`), code span, emphasis (`*`, `_`),
    /// strikethrough (`~`), link or image (`[`, `]`), raw HTML and autolinks (`<`, `>`),
    /// entity (`&`), table cell (`|`) and GitHub math (`$`).
    static let active: Set<Character> = ["\\", "`", "*", "_", "~", "[", "]", "<", ">", "&", "|", "$"]

    /// `text` shown literally inside a line of Markdown (a table cell, or after other text
    /// in a paragraph; not at the start of a line, where block syntax would need more).
    ///
    /// 1. Control characters become visible escapes (`String.escapingControlCharacters()`),
    ///    so a newline cannot end a table row or a paragraph.
    /// 2. Every character of `active` gets a backslash (CommonMark lets any ASCII
    ///    punctuation be escaped this way, and GFM tables read `\|` as a literal pipe), so
    ///    no emphasis, code, link, HTML, entity or table cell can start.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text.escapingControlCharacters() {
            if active.contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `text` as a code span when that shows it literally, else `escape(text)`.
    ///
    /// A code span is kept for ordinary names (`aggregate`, `depth/2`, a file path), so
    /// such output looks as before; text holding a backtick, a pipe (which splits a table
    /// cell even inside a code span), a backslash or a control character is escaped
    /// instead, since no escape works inside a code span.
    static func code(_ text: String) -> String {
        let plain =
            !text.isEmpty && text.escapingControlCharacters() == text
            && !text.contains(where: { $0 == "`" || $0 == "|" || $0 == "\\" })
        return plain ? "`" + text + "`" : escape(text)
    }
}
