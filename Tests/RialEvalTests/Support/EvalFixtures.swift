import Foundation
import RialEval

/// Locations of test inputs and scratch folders for the evaluation tests.
enum EvalFixtures {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The real public data mirror: `$RIAL_DATA_MIRROR`, else `../shared/datasets/real`
    /// beside the package. CI always has it; tests that read it fail loudly without it.
    static let realMirror: URL = {
        if let env = ProcessInfo.processInfo.environment["RIAL_DATA_MIRROR"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets/real")
    }()

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
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
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
        return rows.dropFirst().filter { $0.count == header.count }.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }
}

/// Mutations for the manifest fuzz tests, driven by `SplitMix64` so failures reproduce.
enum ManifestMutations {
    /// Prefixes of `data` at `count` evenly spaced lengths (always 0, 1 and n-1).
    static func truncations(of data: Data, count: Int) -> [Data] {
        guard data.count > 1 else { return [Data()] }
        var lengths = Set<Int>([0, 1, data.count - 1])
        for i in 0..<count { lengths.insert(i * (data.count - 1) / max(count - 1, 1)) }
        return lengths.sorted().map { data.prefix($0) }
    }

    /// `count` copies of `data`, each with 1...maxFlips bits flipped or bytes replaced.
    static func corruptions(of data: Data, count: Int, maxFlips: Int = 8, seed: UInt64) -> [Data] {
        guard !data.isEmpty else { return [] }
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var copy = data
            for _ in 0..<Int.random(in: 1...maxFlips, using: &rng) {
                let i = copy.startIndex + Int.random(in: 0..<copy.count, using: &rng)
                if Bool.random(using: &rng) {
                    copy[i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                } else {
                    copy[i] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            return copy
        }
    }

    /// Random byte strings of the given lengths.
    static func garbage(lengths: [Int], seed: UInt64) -> [Data] {
        var rng = SplitMix64(seed: seed)
        return lengths.map { n in Data((0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
    }
}
