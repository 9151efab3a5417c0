import Foundation
import RialMedia
import Testing

/// Issue 17, item 7 through the built binary: `--profile` names, empty manifests and
/// control characters in messages.
@Suite struct SmallInputCLITests {
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control }
    }

    @Test(arguments: ["bogus", "", "IOS_PRO", "ios_pro ", "esc\u{1B}[2J"])
    func unknownProfileIsAUsageErrorNamingTheKnownOnes(_ profile: String) throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-profile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try CLIRunner.run([
            "run", "--profile", profile, "--dataset", folder.appendingPathComponent("missing.json").path,
            "--out", folder.appendingPathComponent("out").path,
        ])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--profile"))
        #expect(outcome.stderr.contains("ios_pro") && outcome.stderr.contains("android"), "\(outcome.stderr)")
        #expect(!Self.hasControl(outcome.stderr), "\(outcome.stderr.debugDescription)")
    }

    @Test func profilesComeFromTheConfigurationFile() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-profile-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let printed = try CLIRunner.run(["config", "print"])
        #expect(printed.status == 0)
        // A copy of the ios_pro profile under another name.
        let config = folder.appendingPathComponent("config.yaml")
        var yaml = printed.stdout
        let start = try #require(yaml.range(of: "\n    ios_pro:\n"))
        yaml.insert(
            contentsOf: "\n    lab_rig:" + Self.profileBody(yaml, after: start.upperBound), at: start.lowerBound)
        try Data(yaml.utf8).write(to: config)
        let missing = folder.appendingPathComponent("missing.json").path
        let known = try CLIRunner.run(["run", "--config", config.path, "--profile", "lab_rig", "--dataset", missing])
        #expect(known.status == 65, "the profile is accepted; the missing manifest is the error: \(known.stderr)")
        let unknown = try CLIRunner.run(["run", "--config", config.path, "--profile", "bogus", "--dataset", missing])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("lab_rig"), "\(unknown.stderr)")
    }

    /// The indented lines of a profile that start at `index` in the printed configuration.
    static func profileBody(_ yaml: String, after index: String.Index) -> String {
        var body = "\n"
        for line in yaml[index...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("      ") else { break }
            body += line + "\n"
        }
        return String(body.dropLast())
    }

    @Test func emptyManifestIsAnErrorInRunAndValidate() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-empty-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(#"{"format": "rial-bench-dataset/1", "name": "empty", "samples": []}"#.utf8).write(to: manifest)
        let validate = try CLIRunner.run(["dataset", "validate", manifest.path])
        #expect(validate.status == 65)
        #expect(validate.stderr.contains("\(manifest.path): samples"), "\(validate.stderr)")
        let run = try CLIRunner.run([
            "run", "--dataset", manifest.path, "--out", folder.appendingPathComponent("out").path, "--resamples", "0",
        ])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains(manifest.path) && run.stderr.contains("no samples"), "\(run.stderr)")
    }

    @Test func controlCharactersInIdsAndPathsAreEscapedInMessages() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-ctl-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let hostile = ["esc\u{1B}]0;title\u{7}", "nul\u{0}x", "new\nrial-bench: error: forged", "cr\rid", "c1\u{9B}2J"]
        let samples = hostile.map { text in
            let id = JSONValue.string(text).serialized()
            let path = JSONValue.string("files/\(text).jpg").serialized()
            return #"{"id": \#(id), "image": \#(path), "label": "real_scene"}"#
        }
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(#"{"format": "rial-bench-dataset/1", "samples": [\#(samples.joined(separator: ","))]}"#.utf8)
            .write(to: manifest)
        let validate = try CLIRunner.run(["dataset", "validate", manifest.path])
        #expect(validate.status == 65)
        let run = try CLIRunner.run([
            "run", "--dataset", manifest.path, "--out", folder.appendingPathComponent("out").path, "--resamples", "0",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        for stderr in [validate.stderr, run.stderr] {
            #expect(!Self.hasControl(stderr), "\(stderr.debugDescription)")
            // Every line is a message or a progress line; none is forged by an id.
            let lines = stderr.split(separator: "\n").filter { !$0.hasPrefix("samples: ") }
            #expect(lines.count >= hostile.count, "\(stderr.debugDescription)")
            for line in lines {
                #expect(line.hasPrefix("rial-bench: "), "\(line.debugDescription)")
                #expect(!line.hasPrefix("rial-bench: error: forged"))
            }
        }
    }
}
