import ArgumentParser
import Foundation
import RialEval

/// `rial-bench dataset`: check, describe, split and fetch `rial-bench-dataset/1` manifests.
struct DatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataset",
        abstract: "Check, describe, split, fetch and look at dataset manifests (rial-bench-dataset/1).",
        subcommands: [Validate.self, Stats.self, Split.self, Fetch.self, Sheet.self, Default.self]
    )
}

/// Loading shared by the `dataset` subcommands.
enum DatasetCommandSupport {
    /// Reads and parses `path`; on failure prints each problem and throws exit 65.
    static func loader(_ path: String) throws -> DatasetLoader {
        do {
            return try DatasetLoader(contentsOf: path)
        } catch {
            for problem in error.problems { Terminal.error(problem.description) }
            throw ExitStatus.badInput
        }
    }

    /// Decodes the whole manifest strictly; on failure prints every problem, a hint, and
    /// throws exit 65.
    static func manifest(_ loader: DatasetLoader) throws -> DatasetManifest {
        do {
            return try loader.decodeManifest()
        } catch {
            for problem in error.problems { Terminal.error(problem.description) }
            Terminal.error("\(loader.manifestPath): \(error.problems.count) problem(s); fix them first (see `rial-bench dataset validate`)")
            throw ExitStatus.badInput
        }
    }
}
