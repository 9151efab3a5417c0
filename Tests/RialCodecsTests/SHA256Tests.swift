import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// Published SHA-256 examples: FIPS 180-2 Appendix B (B.1 "abc", B.2 the 448-bit
/// message, B.3 one million "a"), and the empty message (NIST CSRC example values;
/// also `printf '' | sha256sum`).
let sha256Vectors: [(message: String, digest: String)] = [
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
        String(repeating: "a", count: 1_000_000),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    ),
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
]

/// One row of the mirror's SOURCES.csv.
struct SHA256MirrorRow: Sendable, CustomTestStringConvertible {
    var path: String
    var sha256: String
    var bytes: Int
    var testDescription: String { path }
}

/// Parses RFC 4180 CSV: fields separated by commas, optionally in double quotes, `""`
/// inside quotes for a quote, quoted fields may hold commas and newlines.
func sha256TestParseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = ""
    var inQuotes = false
    var chars = Array(text.unicodeScalars)[...]
    while let c = chars.popFirst() {
        if inQuotes {
            if c == "\"" {
                if chars.first == "\"" {
                    field.unicodeScalars.append("\"")
                    chars.removeFirst()
                } else {
                    inQuotes = false
                }
            } else {
                field.unicodeScalars.append(c)
            }
        } else if c == "\"" {
            inQuotes = true
        } else if c == "," {
            row.append(field)
            field = ""
        } else if c == "\n" || c == "\r" {
            if c == "\r" && chars.first == "\n" { chars.removeFirst() }
            row.append(field)
            field = ""
            rows.append(row)
            row = []
        } else {
            field.unicodeScalars.append(c)
        }
    }
    if !field.isEmpty || !row.isEmpty {
        row.append(field)
        rows.append(row)
    }
    return rows
}

/// Rows of SOURCES.csv, read at test time (columns found by header name).
func sha256MirrorRows() throws -> [SHA256MirrorRow] {
    let csv = Fixtures.realMirror.appendingPathComponent("SOURCES.csv").path
    let rows = sha256TestParseCSV(String(decoding: try MediaFile.read(csv), as: UTF8.self))
    guard let header = rows.first,
        let pathColumn = header.firstIndex(of: "path"),
        let shaColumn = header.firstIndex(of: "sha256"),
        let bytesColumn = header.firstIndex(of: "bytes")
    else { return [] }
    return rows.dropFirst().filter { $0.count == header.count }.map {
        SHA256MirrorRow(path: $0[pathColumn], sha256: $0[shaColumn], bytes: Int($0[bytesColumn]) ?? -1)
    }
}

@Suite("SHA-256")
struct SHA256Tests {
    @Test(arguments: sha256Vectors.indices)
    func publishedVectors(_ i: Int) {
        let (message, digest) = sha256Vectors[i]
        #expect(SHA256Digest.hash(Data(message.utf8)) == digest)
        let bytes = SHA256Digest.digest(Data(message.utf8))
        #expect(bytes.count == 32)
        #expect(SHA256Digest.hex(bytes) == digest)
    }

    @Test func streamingInOddChunksEqualsOneShot() {
        var rng = SeededGenerator(seed: 256)
        let data = Data((0..<100_003).map { _ in UInt8.random(in: 0...255, using: &rng) })
        let expected = SHA256Digest.hash(data)
        for chunk in [1, 3, 7, 63, 64, 65, 1_000, 65_537, 200_000] {
            var hasher = SHA256Hasher()
            var start = data.startIndex
            while start < data.endIndex {
                let end = min(start + chunk, data.endIndex)
                hasher.update(data[start..<end])
                start = end
            }
            #expect(hasher.finalizeHex() == expected, "chunk \(chunk)")
        }
        // The million-"a" vector fed as 1,000 x 1,000 bytes, and empty updates change nothing.
        var hasher = SHA256Hasher()
        let thousand = [UInt8](repeating: 0x61, count: 1_000)
        for _ in 0..<1_000 {
            hasher.update(thousand)
            hasher.update(Data())
        }
        #expect(hasher.finalizeHex() == sha256Vectors[2].digest)
    }

    @Test func fileLargerThanOneChunkStreams() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("rial-sha256-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SeededGenerator(seed: 1)
        // 2.5 MiB + 1 byte: two full chunks, a partial one.
        let data = Data(
            (0..<(5 * SHA256Digest.fileChunkSize / 2 + 1)).map { _ in
                UInt8.random(in: 0...255, using: &rng)
            })
        let path = dir.appendingPathComponent("blob.bin").path
        try MediaFile.write(data, to: path)
        #expect(try SHA256Digest.hash(fileAt: path) == SHA256Digest.hash(data))
        let empty = dir.appendingPathComponent("empty.bin").path
        try MediaFile.write(Data(), to: empty)
        #expect(try SHA256Digest.hash(fileAt: empty) == sha256Vectors[3].digest)
        #expect(throws: MediaError(.unreadable, source: dir.path, "is a directory, expected a file")) {
            try SHA256Digest.hash(fileAt: dir.path)
        }
    }

    @Test func missingFileIsNamed() {
        let path = "/nonexistent/rial/file.bin"
        #expect(throws: MediaError(.notFound, source: path, "no such file")) {
            try SHA256Digest.hash(fileAt: path)
        }
    }

    @Test func everyMirrorFileMatchesSOURCEScsv() throws {
        let sources = try sha256MirrorRows()
        #expect(sources.count >= 32) // 32 rows when this test was written
        for source in sources {
            let path = Fixtures.real(source.path)
            #expect(try SHA256Digest.hash(fileAt: path) == source.sha256, "\(source.path)")
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(size == source.bytes, "\(source.path)")
        }
    }

    @Test func csvParserHandlesQuotes() {
        let rows = sha256TestParseCSV("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\r\n1,2,\"multi\nline\"\n")
        #expect(rows == [["a", "b", "c"], ["x, y", "say \"hi\"", ""], ["1", "2", "multi\nline"]])
    }
}
