import Foundation
import Testing

/// The `--help` text of every command and subcommand, pinned.
///
/// Each command's help, printed by the built binary at a fixed width (`COLUMNS=80`), must
/// equal `Help/<name>.txt` beside this file: `rial-bench.txt` for the root command, the
/// command path joined by `-` otherwise (`dataset-validate.txt` for
/// `rial-bench dataset validate`). The commands are read from
/// `rial-bench --experimental-dump-help`, so a new command fails until its text is
/// committed, and a text without a command fails too.
///
/// After changing a command's options or help strings, regenerate and review the diff:
///
///     RIAL_BENCH_UPDATE_HELP=1 swift test --filter HelpTextTests
///
/// That run rewrites the texts that differ, deletes those without a command, and fails
/// listing them (so it is never mistaken for a passing check); the next run passes.
@Suite struct HelpTextTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")
    static let updating = ProcessInfo.processInfo.environment["RIAL_BENCH_UPDATE_HELP"] == "1"

    /// Every command path below the root (`[]` is the root itself), depth first in
    /// declaration order, without ArgumentParser's own `help` subcommand.
    static func commandPaths() throws -> [[String]] {
        let dump = try CLIRunner.run(["--experimental-dump-help"])
        try #require(dump.status == 0, "\(dump.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(json["command"] as? [String: Any])
        var paths: [[String]] = []
        func walk(_ command: [String: Any], path: [String]) {
            paths.append(path)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path: path + [name])
            }
        }
        walk(root, path: [])
        return paths
    }

    static func fileName(_ path: [String]) -> String {
        (path.isEmpty ? "rial-bench" : path.joined(separator: "-")) + ".txt"
    }

    @Test func everyCommandsHelpMatchesItsCommittedText() throws {
        let paths = try Self.commandPaths()
        #expect(paths.count > 20, "\(paths)")
        var rewritten: [String] = []
        for path in paths {
            let command = "rial-bench \(path.joined(separator: " "))"
            let help = try CLIRunner.run(path + ["--help"], environment: ["COLUMNS": "80"])
            #expect(help.status == 0, "\(path): \(help.stderr)")
            #expect(help.stderr.isEmpty, "\(path): \(help.stderr)")
            let file = Self.folder.appendingPathComponent(Self.fileName(path))
            let expected = try? String(contentsOf: file, encoding: .utf8)
            if help.stdout == expected { continue }
            if Self.updating {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try Data(help.stdout.utf8).write(to: file)
                rewritten.append(file.lastPathComponent)
            } else if expected == nil {
                Issue.record(
                    "no committed help for `\(command)`: \(file.path) (regenerate with RIAL_BENCH_UPDATE_HELP=1)")
            } else {
                #expect(
                    help.stdout == expected,
                    "`\(command) --help` differs from \(file.lastPathComponent) (regenerate with RIAL_BENCH_UPDATE_HELP=1)"
                )
            }
        }
        let known = Set(paths.map(Self.fileName))
        let committed = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? []
        for name in committed.sorted() where name.hasSuffix(".txt") && !known.contains(name) {
            if Self.updating {
                try FileManager.default.removeItem(at: Self.folder.appendingPathComponent(name))
                rewritten.append(name + " (deleted)")
            } else {
                Issue.record("Help/\(name) belongs to no command (regenerate with RIAL_BENCH_UPDATE_HELP=1)")
            }
        }
        if !rewritten.isEmpty {
            Issue.record(
                "RIAL_BENCH_UPDATE_HELP=1: rewrote \(rewritten.joined(separator: ", ")); review and commit them")
        }
    }
}
