import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// Hostile inputs that used to cost unbounded time or memory, or were silently taken
/// for something else (issue 17, items 5 and 6): YAML alias bombs, FIFOs and devices
/// named as data, non-finite and null configuration values, overflowing weights, a
/// manifest given twice or of another format. Each case must end in a clear error.
@Suite struct ResourceFaultTests {
    // MARK: YAML aliases

    /// The "billion laughs" document: `depth` levels, each a list of `width` aliases of
    /// the level below (`width^depth` leaves once expanded); with `asKey`, the last level
    /// is also used as a mapping key, which the composer hashes node by node.
    static func aliasBomb(depth: Int, width: Int = 9, asKey: Bool = false) -> String {
        var lines = ["l0: &l0 [" + Array(repeating: "\"lol\"", count: width).joined(separator: ", ") + "]"]
        for level in 1..<max(depth, 2) {
            let items = Array(repeating: "*l\(level - 1)", count: width).joined(separator: ", ")
            lines.append("l\(level): &l\(level) [\(items)]")
        }
        if asKey { lines += ["? *l\(max(depth, 2) - 1)", ": 1"] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds `body` takes on the monotonic clock.
    static func seconds(_ body: () -> Void) -> Double {
        let duration = ContinuousClock().measure(body)
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// Bombs of 2 to 30 levels (9^9 leaves at level 9, before the fix 4 s and 381 MB
    /// at 398 bytes, memory exhausted at 10): every one is refused as an alias, in a
    /// configuration file and a gate policy, naming the first alias's line. The time
    /// bound is there only so a regression fails instead of hanging the suite.
    @Test(arguments: [2, 3, 6, 9, 10, 12, 30])
    func aliasBombsAreRefusedBeforeExpansion(depth: Int) throws {
        for asKey in [false, true] {
            let text = Self.aliasBomb(depth: depth, asKey: asKey)
            var message: String?
            let elapsed = Self.seconds {
                do {
                    _ = try ConfigurationFile.parse(text, path: "bomb.yaml")
                } catch { message = "\(error)" }
            }
            #expect(
                message == "bomb.yaml: YAML aliases are not supported (line 2, column 10: *l0); write the value out",
                "depth \(depth), key \(asKey): \(message ?? "accepted")")
            #expect(elapsed < 5, "depth \(depth): \(elapsed) s")

            let folder = try Fixtures.makeTemporaryFolder("rial-alias")
            defer { try? FileManager.default.removeItem(at: folder) }
            let policy = folder.appendingPathComponent("policy.yaml").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: policy))
            #expect(throws: RunError.self) { try GatePolicy.load(path: policy) }
            #expect(
                (try? GatePolicy.load(path: policy)) == nil
                    && Result { try GatePolicy.load(path: policy) }.errorDescription?.contains(
                        "aliases are not supported")
                        == true
            )
        }
    }

    /// A single alias of a scalar is refused too (the documented rule), and a document
    /// with an anchor but no alias, or `*` inside strings and comments, is not an alias.
    @Test func aliasesAreFoundByTheParserNotByText() {
        #expect(YAMLAliasCheck.firstAlias(in: "x: &a 1\nprofile: *a\n") == .init(line: 2, column: 10, anchor: "a"))
        #expect(YAMLAliasCheck.firstAlias(in: "profile: &a ios_pro\n") == nil)
        #expect(YAMLAliasCheck.firstAlias(in: "a: \"*b\"\nc: '*d' # *e\nf: |\n  *g\n") == nil)
        #expect(YAMLAliasCheck.firstAlias(in: "") == nil)
        #expect(YAMLAliasCheck.firstAlias(in: "a: [1, 2\n") == nil) // syntax error: left to the composer
        #expect((try? ConfigurationFile.parse("profile: &a ios_pro\n", path: "c.yaml")) != nil)
    }

    // MARK: Non-finite, null and overflowing configuration values

    /// `.nan`, `.inf`, `-.inf` and `~` at keys of every level and type (number, integer,
    /// list element, map entry, section): each is refused naming the key, never decoded
    /// as NaN or replaced by the default.
    @Test(arguments: [
        "decision.threshold", "depth/1.histogram_bins", "moire/1.band_high",
        "aggregation.agreement_boost", "aggregation.level_boundaries.high", "aggregation.ambiguity_band",
    ])
    func nonFiniteAndNullValuesAreRefusedByKey(key: String) throws {
        let parts = key.split(separator: ".").map(String.init)
        func document(_ value: String) -> String {
            var text = ""
            for (depth, part) in parts.enumerated() {
                text += String(repeating: "  ", count: depth) + part + ":"
                text += depth == parts.count - 1 ? " \(value)\n" : "\n"
            }
            return text
        }
        for (value, expected) in [
            (".nan", "expected a finite number, got .nan"), (".NaN", "expected a finite number, got .nan"),
            (".inf", "expected a finite number, got .inf"), ("-.inf", "expected a finite number, got -.inf"),
            ("~", "no value (null)"), ("null", "no value (null)"), ("", "no value (null)"),
        ] {
            var message: String?
            do { _ = try ConfigurationFile.parse(document(value), path: "c.yaml") } catch { message = "\(error)" }
            #expect(
                message?.hasPrefix("c.yaml: key '\(key)': \(expected)") == true,
                "\(key): \(value): \(message ?? "accepted")")
        }
    }

    /// Inside lists and maps, and a whole section written as `~`.
    @Test func nullAndNaNInListsMapsAndSectionsAreRefused() {
        func message(_ text: String) -> String? {
            do {
                _ = try ConfigurationFile.parse(text, path: "c.yaml")
                return nil
            } catch { return error.description }
        }
        #expect(message("methods: [~]\n")?.contains("key 'methods[0]': no value (null)") == true)
        #expect(message("decision:\n  method_thresholds:\n    depth/1: .nan\n")?.contains("got .nan") == true)
        #expect(message("decision: ~\n")?.contains("key 'decision': no value (null)") == true)
        #expect(
            message("aggregation:\n  profiles:\n    ios_pro:\n      weights:\n        moire: .inf\n")?
                .contains("aggregation.profiles.ios_pro.weights.moire") == true)
        // Still accepted: an empty file, and the printed defaults.
        #expect(message("") == nil)
        #expect(message("# nothing\n") == nil)
        #expect(message(ConfigurationPrinter.yaml(.standard)) == nil)
    }

    /// Two weights near `Double.greatestFiniteMagnitude` are each finite, but their sum
    /// is infinite and every share `w / sum` becomes 0: refused naming the weights.
    @Test func weightsWhoseSumOverflowsAreRefused() {
        let text = """
            aggregation:
              profiles:
                ios_pro:
                  weights:
                    lidar: 1.5e308
                    moire: 1.5e308
            """
        var message: String?
        do { _ = try ConfigurationFile.parse(text + "\n", path: "c.yaml") } catch { message = "\(error)" }
        #expect(
            message?.hasPrefix("c.yaml: key 'aggregation.profiles.ios_pro.weights': must add up to a finite number")
                == true, "\(message ?? "accepted")")
        var configuration = AggregationConfiguration()
        let profile = AggregationProfile.iosProName
        configuration.profiles[profile]?.weights = [.lidar: 1e308, .moire: 1e308, .texture: 1e308]
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.profiles[profile]?.weights = [.lidar: 8e307, .moire: 8e307]
        #expect(throws: Never.self) { try configuration.validate() }
    }

    // MARK: Files that are not regular files

    /// A FIFO (which blocks the reader until a writer comes) and `/dev/zero` (which never
    /// ends), as a manifest and as a sample's file: refused at once with what they are.
    @Test func fifosAndDevicesAreRefusedNotRead() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a named pipe (FIFO)"), ("/dev/zero", "a character device")] {
            var manifestMessage: String?
            let elapsed = Self.seconds {
                do { _ = try DatasetLoader(contentsOf: path) } catch { manifestMessage = "\(error)" }
            }
            #expect(manifestMessage == "\(path): is \(kind), not a manifest file")
            #expect(elapsed < 5)

            let manifest = """
                {"format": "rial-bench-dataset/1", "name": "x", "samples": [
                 {"id": "a", "label": "real_scene", "image": "\(path)",
                  "sha256": {"image": "\(String(repeating: "0", count: 64))"}}]}
                """
            let loader = try DatasetLoader(
                data: Data(manifest.utf8), manifestPath: "m.json", baseDirectory: folder)
            var report: DatasetValidationReport?
            let hashing = Self.seconds { report = loader.validate(checks: .all) }
            let problems = report?.problems.map(\.description) ?? []
            #expect(
                problems.contains { $0.contains("is \(kind), not a regular file") && !$0.contains("permission") },
                "\(problems)")
            #expect(hashing < 5)
        }
    }

    // MARK: Manifests given to `run`

    static func writeManifest(_ json: String, in folder: URL, name: String = "manifest.json") throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    static let oneSample = #"{"id": "a", "label": "real_scene", "image": "a.jpg"}"#

    /// The same manifest twice (also through another spelling of its path or a symbolic
    /// link) is refused: its samples would count twice in every metric.
    @Test func theSameManifestTwiceIsRefused() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-twice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeManifest(
            #"{"format": "rial-bench-dataset/1", "name": "x", "samples": [\#(Self.oneSample)]}"#, in: folder)
        let link = folder.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let other = folder.path + "/./manifest.json"
        for pair in [[path, path], [path, link], [other, path]] {
            let runner = try DatasetRunner(plan: RunPlan(manifests: pair, resamples: 0))
            #expect(throws: RunError.self, "\(pair)") { try runner.select() }
            let message = Result { try runner.select() }.errorDescription
            #expect(message?.contains("the same manifest is given twice") == true, "\(message ?? "accepted")")
        }
        let single = try DatasetRunner(plan: RunPlan(manifests: [path], resamples: 0))
        #expect(try single.select().items.count == 1)
    }

    /// A manifest without `format` or of another format is refused by `run` with the
    /// message `dataset validate` prints, not evaluated.
    @Test(arguments: [
        (#""format": "rial-bench-dataset/2", "#, "unsupported format 'rial-bench-dataset/2'"),
        ("", "missing key 'format'"),
        (#""format": 1, "#, "format"),
    ])
    func aManifestOfAnotherFormatIsNotRun(header: String, expected: String) throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-format")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeManifest(#"{\#(header)"name": "x", "samples": [\#(Self.oneSample)]}"#, in: folder)
        let validateProblems = try DatasetLoader(contentsOf: path).headerProblems.filter { $0.kind == .wrongFormat }
        #expect(validateProblems.count == 1)
        let runner = try DatasetRunner(plan: RunPlan(manifests: [path], resamples: 0))
        let message = Result { try runner.select() }.errorDescription
        #expect(message == validateProblems.first?.description)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
    }
}

extension Result {
    /// The error's description, nil on success.
    fileprivate var errorDescription: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}
