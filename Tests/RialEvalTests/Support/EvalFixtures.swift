import Foundation
import RialEval
import RialTestSupport

/// Locations of test inputs and scratch folders for the evaluation tests.
enum EvalFixtures {
    static let packageRoot = Fixtures.packageRoot
    static let realMirror = Fixtures.realMirror

    /// `datasets/real-public/manifest.json` of this package.
    static let realPublicManifest = packageRoot.appendingPathComponent("datasets/real-public/manifest.json")

    /// True when `python3` is on `PATH` (for running `scripts/make-real-manifest`).
    static let hasPython3: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/python3")
        }
    }()

    /// A fresh empty folder under the system temporary folder; remove it with `removeTemporary`.
    static func makeTemporaryFolder(_ label: String = "rial-eval") throws -> URL {
        try Fixtures.makeTemporaryFolder(label)
    }

    static func removeTemporary(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `folder/relative`, creating folders.
    static func write(_ bytes: Data, to relative: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
    }

    /// Parses the rows of the mirror's `SOURCES.csv` (RFC 4180 quoting) as dictionaries.
    static func sourcesCSV() throws -> [[String: String]] {
        let text = try String(contentsOf: realMirror.appendingPathComponent("SOURCES.csv"), encoding: .utf8)
        let chars = Array(text)
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if i + 1 < chars.count, chars[i + 1] == "\"" {
                        field.append("\"")
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\n" || c == "\r\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.append(c)
            }
            i += 1
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        guard let header = rows.first else { return [] }
        return rows.dropFirst().filter { $0.count == header.count }.map {
            Dictionary(uniqueKeysWithValues: zip(header, $0))
        }
    }
}

/// The shared seeded mutations, under the name the manifest fuzz tests use.
typealias ManifestMutations = Mutations
