import Foundation
import Testing

@testable import RialDetection

@Suite struct MethodIdentifierTests {
    @Test(arguments: [
        ("depth/1", "depth", 1), ("parallax/1", "parallax", 1), ("moire/12", "moire", 12),
        ("depth-lite_2/3", "depth-lite_2", 3),
    ])
    func parsesAndPrintsBack(text: String, name: String, version: Int) throws {
        let id = try MethodIdentifier(parsing: text)
        #expect(id.name == name && id.version == version)
        #expect(id.description == text)
        #expect(try MethodIdentifier(name: name, version: version) == id)
    }

    @Test(arguments: [
        ("depth", MethodIdentifierError.missingSeparator("depth")),
        ("", .missingSeparator("")),
        ("depth/1/2", .missingSeparator("depth/1/2")),
        ("/1", .invalidName("")),
        ("Depth/1", .invalidName("Depth")),
        ("1depth/1", .invalidName("1depth")),
        (" depth/1", .invalidName(" depth")),
        ("dépth/1", .invalidName("dépth")),
        ("depth/", .invalidVersion("", identifier: "depth/")),
        ("depth/0", .invalidVersion("0", identifier: "depth/0")),
        ("depth/01", .invalidVersion("01", identifier: "depth/01")),
        ("depth/-1", .invalidVersion("-1", identifier: "depth/-1")),
        ("depth/+1", .invalidVersion("+1", identifier: "depth/+1")),
        ("depth/1.0", .invalidVersion("1.0", identifier: "depth/1.0")),
        ("depth/1 ", .invalidVersion("1 ", identifier: "depth/1 ")),
        (
            "depth/99999999999999999999",
            .invalidVersion("99999999999999999999", identifier: "depth/99999999999999999999")
        ),
    ])
    func refusesWithAClearError(text: String, expected: MethodIdentifierError) {
        #expect(throws: expected) { try MethodIdentifier(parsing: text) }
    }

    @Test func errorMessagesShowTheExpectedForm() {
        #expect(
            MethodIdentifierError.missingSeparator("depth").description
                == "method identifier 'depth' is not NAME/VERSION with exactly one '/' (e.g. depth/1)")
        #expect(throws: MethodIdentifierError.invalidVersion("0", identifier: "depth/0")) {
            try MethodIdentifier(name: "depth", version: 0)
        }
    }

    @Test func codesAsOneString() throws {
        let data = try JSONEncoder().encode([MethodIdentifier.depthV1])
        #expect(
            String(decoding: data, as: UTF8.self) == #"["depth\/1"]"#
                || String(decoding: data, as: UTF8.self) == #"["depth/1"]"#)
        #expect(try JSONDecoder().decode([MethodIdentifier].self, from: data) == [.depthV1])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([MethodIdentifier].self, from: Data(#"["depth"]"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([MethodIdentifier].self, from: Data("[1]".utf8))
        }
    }
}
