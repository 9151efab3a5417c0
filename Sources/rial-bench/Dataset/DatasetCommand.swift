import ArgumentParser
import Foundation
import RialEval

/// `rial-bench dataset`: check, describe, split and fetch `rial-bench-dataset/1` manifests.
struct DatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataset",
        abstract: "Check, describe, split, fetch and look at dataset manifests (rial-bench-dataset/1).",
        subcommands: [Validate.self, Stats.self, Split.self, Fetch.self, Sheet.self, Default.self, Gap.self]
    )
}

/// Loading shared by the `dataset` subcommands.
enum DatasetCommandSupport {
    /// Reads and parses `path`.
    ///
    /// - Throws: `CLIError.badInput` (exit 65) with one line per problem.
    static func loader(_ path: String) throws(CLIError) -> DatasetLoader {
        do {
            return try DatasetLoader(contentsOf: path)
        } catch {
            throw .badInput(lines: error.problems.map(\.description))
        }
    }

    /// Decodes the whole manifest strictly.
    ///
    /// - Throws: `CLIError.badInput` (exit 65) with one line per problem and a hint.
    static func manifest(_ loader: DatasetLoader) throws(CLIError) -> DatasetManifest {
        do {
            return try loader.decodeManifest()
        } catch {
            throw .badInput(
                lines: error.problems.map(\.description)
                    + [
                        "\(loader.manifestPath): \(error.problems.count) problem(s); fix them first (see `rial-bench dataset validate`)"
                    ])
        }
    }
}
