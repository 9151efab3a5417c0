import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

@Suite struct ConfigurationFileTests {
    func message(_ text: String) -> String? {
        do {
            _ = try ConfigurationFile.parse(text, path: "c.yaml")
            return nil
        } catch { return error.description }
    }

    @Test func printedDefaultsParseBackToTheDefaults() throws {
        let yaml = ConfigurationPrinter.yaml(.standard)
        #expect(try ConfigurationFile.parse(yaml, path: "printed.yaml") == .standard)
        #expect(yaml.contains("# "))
    }

    @Test func everyDefaultKeyHasAComment() {
        #expect(ConfigurationDocs.undocumentedKeys() == [])
    }

    @Test func partialFileChangesOnlyItsKeys() throws {
        let c = try ConfigurationFile.parse(
            """
            profile: android
            depth/1:
              coherence_threshold: 0.7
            aggregation:
              profiles:
                android: {weights: {texture: 0.25}}
            """, path: "c.yaml")
        #expect(c.profile == "android")
        #expect(c[DepthAnalyzerV1.self] == .prd)
        #expect(c.aggregation.profiles["android"]?.weights[.texture] == 0.25)
        #expect(c.aggregation.profiles["android"]?.weights[.parallax] == 0.30)
    }

    /// Optional keys that are absent from the defaults (nil) are still known keys
    /// (`MethodConfiguration.exemplar`): parallax/1's `max_depth_m` was refused as unknown.
    @Test func optionalKeysAbsentFromTheDefaultsAreAccepted() throws {
        let c = try ConfigurationFile.parse(
            """
            parallax/1: {max_depth_m: 4.5}
            depth/2:
              intrinsics: {fx: 200, fy: 200, cx: 128, cy: 96}
            """, path: "c.yaml")
        #expect(c[ParallaxAnalyzer.self].maxDepthM == 4.5)
        #expect(c[DepthAnalyzerV2.self].intrinsics?.fx == 200)
        #expect(message("parallax/1: {max_depth_mm: 4.5}")?.contains("unknown key 'parallax/1.max_depth_mm'") == true)
    }

    @Test func emptyFileIsTheDefaults() throws {
        #expect(try ConfigurationFile.parse("", path: "c.yaml") == .standard)
        #expect(try ConfigurationFile.parse("# only a comment\n", path: "c.yaml") == .standard)
    }

    @Test func unknownKeysAreNamedWithAHint() {
        #expect(
            message("depth/2:\n  sample_strid: 3\n")
                == "c.yaml: unknown key 'depth/2.sample_strid'; did you mean 'sample_stride'?")
        #expect(message("colour: red\n")?.hasPrefix("c.yaml: unknown key 'colour'") == true)
        #expect(
            message("aggregation:\n  profiles:\n    mine:\n      weights: {lidar: 1, sonar: 1}\n")?
                .hasPrefix("c.yaml: unknown key 'aggregation.profiles.mine.weights.sonar'") == true)
        #expect(message("aggregate_with: {lidar: depth/1}\n")?.contains("'aggregate_with.lidar'") == true)
    }

    @Test func wrongTypesAndRangesAreNamed() {
        #expect(message("decision:\n  threshold: high\n") == "c.yaml: key 'decision.threshold': expected a number")
        #expect(
            message("decision:\n  threshold: 1.5\n")
                == "c.yaml: key 'decision.threshold': must be a number in 0...1, got 1.5")
        #expect(message("depth/1:\n  histogram_bins: 1\n")?.hasPrefix("c.yaml: key 'depth/1.histogram_bins':") == true)
        #expect(message("methods: [depth/9]\n")?.contains("methods[0]") == true)
        #expect(message("format: rial-bench-config/2\n")?.contains("key 'format'") == true)
        #expect(message("- a\n- b\n")?.contains("the top level must be a mapping") == true)
    }

    @Test func yamlProblemsAreRefused() {
        #expect(message("a: [1, 2\n")?.hasPrefix("c.yaml: is not valid YAML") == true)
        let duplicate = message("profile: ios_pro\nprofile: android\n")
        #expect(
            duplicate?.contains("appears twice") == true || duplicate?.contains("duplicate") == true,
            "\(duplicate ?? "accepted")")
        #expect(message("x: &a 1\nprofile: *a\n") != nil)
    }

    @Test func missingFileIsNamed() {
        #expect(throws: ConfigurationFileError(path: "/nonexistent/c.yaml", "no such file")) {
            try ConfigurationFile.load(path: "/nonexistent/c.yaml")
        }
    }

    /// Truncated, corrupted and garbage files: each is either refused with a message that
    /// names the file, or accepted as a configuration the printer writes back to an equal
    /// one (an accepted file has no value the printed YAML cannot carry).
    @Test func fuzzedFilesAreRefusedByNameOrRoundTrip() throws {
        let yaml = Data(ConfigurationPrinter.yaml(.standard).utf8)
        var inputs = Mutations.truncations(of: yaml, count: 40)
        inputs += Mutations.corruptions(of: yaml, count: 60, seed: 11)
        inputs += Mutations.garbage(lengths: [0, 1, 7, 100, 4096], seed: 12)
        var accepted = 0, refused = 0
        for (k, data) in inputs.enumerated() {
            let text = String(decoding: data, as: UTF8.self)
            switch Result(catching: { () throws(ConfigurationFileError) in
                try ConfigurationFile.parse(text, path: "f.yaml")
            }) {
            case .success(let configuration):
                accepted += 1
                let printed = ConfigurationPrinter.yaml(configuration)
                #expect(try ConfigurationFile.parse(printed, path: "printed.yaml") == configuration, "input \(k)")
            case .failure(let error):
                refused += 1
                #expect(error.path == "f.yaml", "input \(k): \(error)")
                #expect(error.description.hasPrefix("f.yaml: ") && !error.message.isEmpty, "input \(k): \(error)")
            }
        }
        // The empty file (all defaults) is accepted; garbage is not.
        #expect(accepted > 0 && refused > 0, "accepted \(accepted), refused \(refused)")
    }
}
