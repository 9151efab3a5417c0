import Foundation
import Testing

@Suite struct VersionAndHelpTests {
    @Test func versionPrintsSemanticVersion() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        let version = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3, "got \(version)")
    }

    @Test func unknownOptionIsAUsageError() throws {
        let result = try CLIRunner.run(["--no-such-option"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--no-such-option"))
    }
}
