import ArgumentParser
import Foundation
import RialDetection
import RialEval

/// `rial-bench config`: print and check pipeline configurations.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the compiled-in pipeline configuration, or check a configuration file.",
        subcommands: [Print.self, Check.self])

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the configuration (compiled-in defaults, or FILE resolved over them) as commented YAML.",
            discussion:
                "Every weight, threshold, level boundary and method version, each with its meaning, default and range. Save it, edit it, and pass it with --config."
        )

        @Argument(help: "A configuration file to resolve over the defaults (optional).", completion: .file())
        var file: String?

        @Flag(help: "Write JSON (no comments) instead of YAML.")
        var json = false

        func run() throws {
            var configuration = PipelineConfiguration.standard
            if let file {
                do { configuration = try ConfigurationFile.load(path: file) } catch {
                    throw CLIError.badInput(error.description)
                }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
                Terminal.out(String(decoding: try encoder.encode(configuration), as: UTF8.self))
            } else {
                Terminal.out(ConfigurationPrinter.yaml(configuration), terminator: "")
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check configuration files: unknown keys, wrong types and out-of-range values are named.")

        @Argument(help: "Configuration files.", completion: .file())
        var files: [String]

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one configuration file") }
        }

        func run() throws {
            var failed = false
            for file in files {
                do {
                    let configuration = try ConfigurationFile.load(path: file)
                    Terminal.out(
                        "\(file): ok (profile \(configuration.profile); methods \(configuration.methods.map(\.description).joined(separator: ", ")))"
                    )
                } catch {
                    failed = true
                    Terminal.error(error.description)
                }
            }
            if failed { throw ExitStatus.badInput }
        }
    }
}
