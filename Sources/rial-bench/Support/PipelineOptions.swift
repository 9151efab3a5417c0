import ArgumentParser
import Foundation
import RialDetection
import RialEval
import RialMedia

extension AttestationMethod: ExpressibleByArgument {}

/// `--config`, `--profile` and `--method`: the options that choose the pipeline
/// configuration, and `--accept-jpeg-warnings`, shared by `analyze` and `run`.
struct PipelineOptions: ParsableArguments {
    @Option(
        help: "YAML configuration file (see `rial-bench config print`); default: the compiled-in configuration.",
        completion: .file(extensions: ["yaml", "yml", "json"]))
    var config: String?

    @Option(help: "Aggregation profile, e.g. ios_pro or android (default: the configuration's `profile`).")
    var profile: String?

    @Option(
        name: .customLong("method"),
        help:
            "Select an algorithm version, NAME/VERSION (e.g. depth/1); repeatable. Other families keep the configured versions."
    )
    var methods: [String] = []

    @Flag(
        help:
            "Evaluate JPEGs that libjpeg decodes with warnings (\"Corrupt JPEG data: ...\") and flag them, instead of refusing them as damaged."
    )
    var acceptJPEGWarnings = false

    func validate() throws {
        for text in methods {
            do { _ = try MethodIdentifier(parsing: text) } catch {
                throw ValidationError("--method: \(error.description.escapingControlCharacters())")
            }
            guard MethodRegistry.standard.method(named: text) != nil else {
                throw ValidationError(
                    "--method \(text.escapingControlCharacters()): not implemented; known: "
                        + MethodRegistry.standard.identifiers.map(\.description).joined(separator: ", "))
            }
        }
    }

    /// The configuration file (or defaults) with `--method` and `--profile` applied and
    /// validated.
    ///
    /// - Throws: `CLIError.usage` (exit 64) when `--profile` names no profile of the
    ///   configuration (the file's `aggregation.profiles`, or the compiled-in ones), listing
    ///   the known ones; `CLIError.badInput` (exit 65) with `FILE: problem`, or
    ///   `FILE: key 'KEY': reason` for a value out of range.
    func resolvedConfiguration() throws(CLIError) -> PipelineConfiguration {
        var configuration = PipelineConfiguration.standard
        if let config {
            do { configuration = try ConfigurationFile.load(path: config) } catch { throw .badInput(error.description) }
        }
        configuration = configuration.selecting(
            methods.compactMap { MethodRegistry.standard.method(named: $0)?.identifier })
        if let profile {
            let known = configuration.aggregation.profiles.keys.sorted()
            guard known.contains(profile) else {
                throw .usage(
                    "--profile '\(profile)': no such profile in \(config ?? "the compiled-in configuration"); known: "
                        + known.joined(separator: ", "))
            }
            configuration.profile = profile
        }
        do { try configuration.validate() } catch {
            throw .badInput(CLIError.configurationMessage(error, file: config))
        }
        return configuration
    }
}
