import Foundation
import Testing

@testable import RialMedia

@Suite struct JSONValueTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue.parse(
            #"{"a": [1, -2.5e3, true, false, null], "b": "x\u00e9\n\ud83d\ude00", "c": {}}"#)
        #expect(value["a"] == [1, -2500, true, false, nil])
        #expect(value["b"] == .string("xé\n😀"))
        #expect(value["c"] == .object([:]))
    }

    @Test func objectsKeepKeyOrderAndCompareUnordered() throws {
        let value = try JSONValue.parse(#"{"z": 1, "a": 2, "m": 3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value == ["a": 2, "m": 3, "z": 1])
        #expect(value.serialized(pretty: false) == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func serializationRoundTrips() throws {
        let text = #"{"n": [0, 1, -3, 994.978, 1e-05, 1.5e+300], "s": "a\"b\\c\u0001/é", "o": {"k": [{"x": null}]}}"#
        let value = try JSONValue.parse(text)
        for pretty in [true, false] {
            #expect(try JSONValue.parse(value.serialized(pretty: pretty)) == value)
        }
        #expect(JSONValue.number(256).serialized() == "256")
        #expect(JSONValue.number(994.978).serialized() == "994.978")
        #expect(JSONValue.number(.nan).serialized() == "null")
    }

    @Test(arguments: [
        ("", 1, 1, "empty input"),
        ("   ", 1, 4, "only whitespace"),
        ("{\"a\": 1,}", 1, 9, "expected a key"),
        ("[1, 2", 1, 6, "unexpected end of input"),
        ("{\"a\": 1}\n{\"b\": 2}", 2, 1, "after the end"),
        ("{\"a\": 01}", 1, 7, "leading zeros"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key"),
        ("{\"a\": \"x\ny\"}", 1, 9, "control character"),
        ("[NaN]", 1, 2, "expected a value"),
        ("[1e999]", 1, 2, "out of range"),
        ("\"\\ud800\"", 1, 2, "unpaired surrogate"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("[tru]", 1, 2, "invalid literal"),
    ])
    func syntaxErrorsNameLineAndColumn(text: String, line: Int, column: Int, fragment: String) {
        #expect {
            _ = try JSONValue.parse(text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == line && error.column == column && error.message.contains(fragment)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deep) }
        let ok = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
    }

    @Test func invalidUTF8IsAnError() {
        let bytes = Data([0x22, 0xC3, 0x28, 0x22]) // "\xC3(" is not UTF-8
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(bytes) }
    }

    @Test func codableThroughFoundation() throws {
        let value: JSONValue = ["a": [1, "two", nil, true], "b": ["c": 2.5]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    @Test func deferredArrayKeepsRangesThatParseToTheElements() throws {
        let text =
            "\u{FEFF}{\"name\": \"n\", \"samples\": [ {\"id\": \"a\", \"x\": [1, 2]},\n  \"s\" , 3.5,{\"samples\": [9]} ], \"z\": null}"
        let bytes = Array(text.utf8)
        let document = try JSONValue.parse(bytes, deferringTopLevelArray: "samples")
        let full = try JSONValue.parse(Data(bytes))
        guard case .array(let elements) = full["samples"] else {
            Issue.record("no samples")
            return
        }
        let ranges = try #require(document.elementRanges)
        #expect(try ranges.map { try JSONValue.parse(bytes[$0]) } == elements)
        // The ranges are the elements' exact text, without surrounding whitespace or commas.
        #expect(
            ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
                == ["{\"id\": \"a\", \"x\": [1, 2]}", "\"s\"", "3.5", "{\"samples\": [9]}"])
        // Everything else is kept; the deferred key holds an empty array (nested keys are not deferred).
        #expect(document.root["samples"] == .array([]))
        #expect(document.root["name"] == "n" && document.root["z"] == .null)
    }

    @Test(arguments: ["[1, 2]", "{\"samples\": 3}", "{\"other\": [1]}", "{\"a\": {\"samples\": [1]}}"])
    func deferredArrayIsNilWhenThereIsNoTopLevelArray(text: String) throws {
        let document = try JSONValue.parse(Array(text.utf8), deferringTopLevelArray: "samples")
        #expect(document.elementRanges == nil)
        #expect(document.root == (try JSONValue.parse(text)))
    }

    @Test(arguments: [
        "{\"samples\": [{\"a\": 1}, {\"a\" 2}]}",
        "{\"samples\": [1, 2,]}",
        "{\"samples\": [1], \"samples\": []}",
        "{\"samples\": [1, \"\\q\"]}",
        "{\"samples\": [1, 2",
    ])
    func deferredParseReportsTheSameErrorsAsAFullParse(text: String) {
        var full: JSONSyntaxError?
        do { _ = try JSONValue.parse(text) } catch { full = error }
        var deferred: JSONSyntaxError?
        do { _ = try JSONValue.parse(Array(text.utf8), deferringTopLevelArray: "samples") } catch { deferred = error }
        #expect(full != nil)
        #expect(deferred == full)
    }
}
