import Foundation
import Testing

@testable import RialDetection

@Suite struct MethodStatusTests {
    @Test func encodesAsTheSpecWords() throws {
        let encoded = try JSONEncoder().encode([MethodStatus.completed, .unavailable, .failed])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["completed","unavailable","failed"]"#)
    }
}
