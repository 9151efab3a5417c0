import Foundation
import Testing

@testable import RialEval

/// Truncated, corrupted and garbage manifests: each parses or gives the loader's error.
@Suite struct ManifestFuzzTests {
    static let valid: Data = {
        (try? Data(contentsOf: EvalFixtures.realPublicManifest)) ?? Data()
    }()

    /// Parses and decodes; returns normally or throws `DatasetError`, nothing else.
    static func exercise(_ data: Data) {
        do {
            let loader = try DatasetLoader(
                data: data, manifestPath: "fuzz.json", baseDirectory: URL(fileURLWithPath: "/nonexistent"))
            _ = try? loader.decodeManifest()
            for entry in loader.entries { _ = entry.result }
            _ = loader.validate(checks: [])
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.description.hasPrefix("fuzz.json: "))
        }
    }

    @Test func truncations() throws {
        try #require(!Self.valid.isEmpty)
        for data in ManifestMutations.truncations(of: Self.valid, count: 400) { Self.exercise(data) }
    }

    @Test func byteFlips() throws {
        try #require(!Self.valid.isEmpty)
        for data in ManifestMutations.corruptions(of: Self.valid, count: 400, seed: 0x5EED) { Self.exercise(data) }
    }

    @Test func garbage() {
        for data in ManifestMutations.garbage(lengths: [0, 1, 2, 3, 16, 100, 4096], seed: 11) { Self.exercise(data) }
        for text in ["{", "}", "[", "\"", "{\"format\":", "nul", "-", "1e", "{\"samples\": [{}]}", "{\"a\":1,\"a\":2}"]
        {
            Self.exercise(Data(text.utf8))
        }
    }

    @Test func truncatedManifestNamesTheProblemOnce() {
        #expect {
            _ = try DatasetLoader(
                data: Self.valid.prefix(Self.valid.count / 2), manifestPath: "m.json",
                baseDirectory: URL(fileURLWithPath: "/"))
        } throws: { error in
            guard let error = error as? DatasetError else { return false }
            return error.problems.count == 1 && error.problems[0].kind == .invalidJSON
                && (error.description.contains("unexpected end of input")
                    || error.description.contains("unterminated string"))
        }
    }
}
