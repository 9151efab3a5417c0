import ArgumentParser
import Foundation
import RialEval
import RialMedia

extension DatasetCommand {
    /// `rial-bench dataset validate MANIFEST`: every problem of a manifest and its files.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a manifest and every file it references; print all problems.",
            discussion: """
                Checks the format, every sample's fields (required keys, labels, attestation, \
                split, depth format and size), duplicate ids, that every referenced file exists, \
                and every SHA-256 the manifest gives. Problems go to standard error, one per line, \
                then a summary line to standard output. Exit status 65 when there is any problem.
                """
        )

        @Argument(help: "The manifest.json to check.")
        var manifest: String

        @Flag(help: "Print the report as JSON on standard output instead of text.")
        var json = false

        @Flag(help: "Do not hash files (existence and depth size are still checked).")
        var skipHashes = false

        func run() throws {
            let report: DatasetValidationReport
            var readable = true
            do {
                let loader = try DatasetLoader(contentsOf: manifest)
                report = loader.validate(checks: skipHashes ? [.depthSize] : .all)
            } catch {
                readable = false
                report = DatasetValidationReport(
                    manifest: manifest, sampleCount: 0, validSampleCount: 0,
                    problems: error.problems)
            }
            if json {
                Terminal.out(Self.jsonValue(report).serialized())
            } else {
                for problem in report.problems { Terminal.error(problem.description) }
                Terminal.out(
                    readable
                        ? Self.summary(report, hashed: !skipHashes)
                        : "\(manifest): invalid: the manifest cannot be read")
            }
            if !report.isValid { throw ExitStatus.badInput }
        }

        static func summary(_ report: DatasetValidationReport, hashed: Bool) -> String {
            let samples = "\(report.sampleCount) sample\(report.sampleCount == 1 ? "" : "s")"
            if report.isValid {
                return
                    "\(report.manifest): valid: \(samples)\(hashed ? ", every SHA-256 checked" : ", hashes not checked")"
            }
            let count = report.problems.count
            return
                "\(report.manifest): \(count) problem\(count == 1 ? "" : "s"); \(samples), \(report.validSampleCount) valid, \(report.failedSampleCount) with problems"
        }

        static func jsonValue(_ report: DatasetValidationReport) -> JSONValue {
            var problems: [JSONValue] = []
            for problem in report.problems {
                var o = JSONObject()
                o["kind"] = .string(problem.kind.rawValue)
                o["json_path"] = .string(problem.jsonPath)
                o["sample_id"] = problem.sampleID.map(JSONValue.string) ?? .null
                o["file"] = problem.file.map(JSONValue.string) ?? .null
                o["message"] = .string(problem.message)
                o["description"] = .string(problem.description)
                problems.append(.object(o))
            }
            return [
                "manifest": .string(report.manifest),
                "valid": .bool(report.isValid),
                "samples": .number(Double(report.sampleCount)),
                "valid_samples": .number(Double(report.validSampleCount)),
                "failed_samples": .number(Double(report.failedSampleCount)),
                "problems": .array(problems),
            ]
        }
    }
}
