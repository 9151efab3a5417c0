import Foundation
import Testing

@testable import RialMedia

/// `JSONValue.overlaid(with:rules:)` and `decode(_:overlaying:rules:)`; every expected
/// tree is written out by hand.
@Suite struct JSONOverlayTests {
    static let defaults: JSONValue = [
        "a": 1, "b": ["c": 2, "d": [3, 4]], "e": "x",
        "profiles": ["p": ["primary": "q", "weights": ["q": 0.5, "r": 0.5]]],
        "map": ["k": 1, "l": 2],
    ]

    @Test func emptyAndNullOverlaysKeepTheDefaults() {
        #expect(Self.defaults.overlaid(with: [:]) == Self.defaults)
        #expect(Self.defaults.overlaid(with: nil) == Self.defaults)
        #expect(Self.defaults.overlaid(with: ["a": nil, "b": ["c": nil]]) == Self.defaults)
    }

    @Test func objectsMergeKeyByKeyAtEveryDepth() {
        let merged = Self.defaults.overlaid(with: ["b": ["c": 7], "profiles": ["p": ["weights": ["r": 0.25]]]])
        #expect(
            merged == [
                "a": 1, "b": ["c": 7, "d": [3, 4]], "e": "x",
                "profiles": ["p": ["primary": "q", "weights": ["q": 0.5, "r": 0.25]]],
                "map": ["k": 1, "l": 2],
            ])
    }

    @Test func arraysScalarsAndOtherTypesReplace() {
        let merged = Self.defaults.overlaid(with: ["b": ["d": [9]], "e": ["y": 1], "a": "one", "map": 5])
        #expect(
            merged == [
                "a": "one", "b": ["c": 2, "d": [9]], "e": ["y": 1],
                "profiles": ["p": ["primary": "q", "weights": ["q": 0.5, "r": 0.5]]],
                "map": 5,
            ])
        #expect(JSONValue(3).overlaid(with: ["z": 1]) == ["z": 1])
        #expect(JSONValue(3).overlaid(with: false) == false)
    }

    @Test func newKeysAreAddedAfterTheDefaultsInOrder() {
        let defaults: JSONValue = ["m": 1, "a": 2]
        let merged = defaults.overlaid(with: ["z": 3, "a": 4, "b": nil])
        #expect(merged.objectValue?.keys == ["m", "a", "z", "b"])
        #expect(merged == ["m": 1, "a": 4, "z": 3, "b": nil])
    }

    @Test func replacedWholePathsTakeTheOverlayAsWritten() {
        let rules = JSONOverlayRules(replacedWhole: ["map"])
        #expect(Self.defaults.overlaid(with: ["map": ["k": 5]], rules: rules)["map"] == ["k": 5])
        #expect(Self.defaults.overlaid(with: ["map": ["k": nil]], rules: rules)["map"] == ["k": nil])
        // null still keeps the default there.
        #expect(Self.defaults.overlaid(with: ["map": nil], rules: rules)["map"] == ["k": 1, "l": 2])
        // Without the rule the map merges.
        #expect(Self.defaults.overlaid(with: ["map": ["k": 5]])["map"] == ["k": 5, "l": 2])
    }

    @Test func nullablePathsTakeNull() {
        let rules = JSONOverlayRules(nullable: ["b.c", "profiles.*.weights.*"])
        let merged = Self.defaults.overlaid(
            with: ["b": ["c": nil], "profiles": ["p": ["weights": ["q": nil]]]], rules: rules)
        #expect(merged["b"] == ["c": nil, "d": [3, 4]])
        #expect(merged["profiles"] == ["p": ["primary": "q", "weights": ["q": nil, "r": 0.5]]])
        // A null with no default under it is kept as written, rule or not.
        #expect(
            Self.defaults.overlaid(with: ["n": nil]) == Self.defaults.overlaid(with: [:]).overlaid(with: ["n": nil]))
        #expect(Self.defaults.overlaid(with: ["n": nil])["n"] == .null)
    }

    @Test func newEntriesAreLaidOverTheirTemplate() {
        let rules = JSONOverlayRules(entryTemplates: ["profiles.*": ["weights": [:]], "list.*": ["w": 0]])
        let merged = Self.defaults.overlaid(
            with: [
                "profiles": ["new": ["primary": "s"], "p": ["primary": "r"]], "list": [["v": 1], ["w": 2, "v": 3]],
            ],
            rules: rules)
        #expect(
            merged["profiles"] == [
                "p": ["primary": "r", "weights": ["q": 0.5, "r": 0.5]],
                "new": ["weights": [:], "primary": "s"],
            ])
        #expect(merged["list"] == [["w": 0, "v": 1], ["w": 2, "v": 3]])
        // A template applies only where the defaults hold nothing.
        #expect(Self.defaults.overlaid(with: ["profiles": ["p": [:]]], rules: rules) == Self.defaults)
    }

    @Test func patternsMatchWholePathsOnly() {
        let rules = JSONOverlayRules(replacedWhole: ["b"])
        // `b` is replaced, but a key `b` deeper down is not.
        #expect(Self.defaults.overlaid(with: ["b": ["c": 1]], rules: rules)["b"] == ["c": 1])
        let nested: JSONValue = ["x": ["b": ["c": 1, "d": 2]]]
        #expect(nested.overlaid(with: ["x": ["b": ["c": 5]]], rules: rules) == ["x": ["b": ["c": 5, "d": 2]]])
    }

    @Test func rulesMoveUnderAPrefixAndMerge() {
        let inner = JSONOverlayRules(replacedWhole: ["m"], nullable: ["n"], entryTemplates: ["t.*": [:]])
        let moved = inner.prefixed(by: "a.b")
        #expect(
            moved == JSONOverlayRules(replacedWhole: ["a.b.m"], nullable: ["a.b.n"], entryTemplates: ["a.b.t.*": [:]]))
        let merged = moved.merging(JSONOverlayRules(replacedWhole: ["z"], entryTemplates: ["a.b.t.*": [1]]))
        #expect(
            merged
                == JSONOverlayRules(
                    replacedWhole: ["a.b.m", "z"], nullable: ["a.b.n"], entryTemplates: ["a.b.t.*": [1]]))
    }

    struct Settings: Codable, Equatable {
        var count: Int = 3
        var name: String = "n"
        var limit: Double? = nil
        var inner = Inner()
        struct Inner: Codable, Equatable {
            var scale: Double = 0.1
            var tags: [String] = ["a", "b"]
        }
    }

    @Test func decodesAPartialTreeWithTheSynthesizedDecodable() throws {
        let defaults = Settings()
        #expect(try JSONValue.object([:]).decode(Settings.self, overlaying: defaults) == defaults)
        var expected = defaults
        expected.count = 5
        expected.inner.tags = ["z"]
        expected.limit = 2
        let tree = try JSONValue.parse(#"{"count": 5, "inner": {"tags": ["z"]}, "limit": 2, "name": null}"#)
        #expect(try tree.decode(Settings.self, overlaying: defaults) == expected)
        // The numbers of the defaults survive the round trip through JSON text exactly.
        var odd = defaults
        odd.inner.scale = 4.0 / 3.0
        #expect(try JSONValue.object([:]).decode(Settings.self, overlaying: odd) == odd)
    }

    @Test func decodingErrorsNameThePathInTheTree() throws {
        let tree = try JSONValue.parse(#"{"inner": {"scale": "big"}}"#)
        do {
            _ = try tree.decode(Settings.self, overlaying: Settings())
            Issue.record("decoded a string as a number")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["inner", "scale"])
        }
        #expect(throws: DecodingError.self) { try JSONValue.array([]).decode(Settings.self, overlaying: Settings()) }
        #expect(throws: DecodingError.self) { try JSONValue.string("x").decode(Settings.self, overlaying: Settings()) }
    }

    @Test func encodedIsTheEncodersTree() throws {
        #expect(
            try JSONValue.encoded(Settings()) == [
                "count": 3, "name": "n", "inner": ["scale": 0.1, "tags": ["a", "b"]],
            ])
        #expect(throws: EncodingError.self) { try JSONValue.encoded(Double.infinity) }
    }
}
