import Foundation
import RialMedia

/// Line-oriented output to standard output and standard error.
enum Terminal {
    /// Writes `line` and `terminator` (a newline by default) to standard output.
    static func out(_ line: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((line + terminator).utf8))
    }

    /// Writes `rial-bench: error: <message>` to standard error, on one line: control
    /// characters from quoted ids and paths are escaped (`String.escapingControlCharacters()`).
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("rial-bench: error: \(message.escapingControlCharacters())\n".utf8))
    }

    /// Writes `rial-bench: warning: <message>` to standard error, on one line, escaped as `error(_:)`.
    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("rial-bench: warning: \(message.escapingControlCharacters())\n".utf8))
    }

    /// True when standard output is a terminal (progress bars, colour).
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    /// True when standard error is a terminal.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

/// A plain text table with left-aligned columns separated by two spaces.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    init(_ header: [String]) { self.header = header }

    mutating func append(_ row: [String]) { rows.append(row) }

    func render() -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }
        return ([line(header), line(rule)] + rows.map(line)).joined(separator: "\n")
    }
}
