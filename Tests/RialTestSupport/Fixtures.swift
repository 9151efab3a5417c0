import Foundation
import RialMedia

/// Locations of test inputs and scratch folders, shared by every test target.
public enum Fixtures {
    /// The package root (this file is `Tests/RialTestSupport/Fixtures.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The real public data mirror: `$RIAL_DATA_MIRROR`, else `../shared/datasets/real`
    /// beside the package. CI always has it; tests that read it fail loudly without it.
    public static let realMirror: URL = {
        if let env = ProcessInfo.processInfo.environment["RIAL_DATA_MIRROR"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/datasets/real")
    }()

    /// A fresh empty folder, `label-UUID`, inside `processScratch`: removed with it when
    /// the test process exits, whether or not the test removes it first.
    public static func makeTemporaryFolder(_ label: String = "rial-bench-test") throws -> URL {
        let url = processScratch.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// One folder under the system temporary folder for every scratch folder this test
    /// process makes (`makeTemporaryFolder`), removed when the process exits normally.
    /// Most tests did not remove theirs, and a full test run left a few hundred folders,
    /// about half a gigabyte, in /tmp each time (2.5 GB after five runs in a day).
    static let processScratch: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("rial-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Fixtures.processScratch) }
        return url
    }()

    /// Path of a mirror file given its path relative to the mirror root, e.g. `promptda/image.jpg`.
    public static func real(_ relative: String) -> String {
        realMirror.appendingPathComponent(relative).path
    }
}

/// The seeded generator of the fuzz tests (RialMedia's SplitMix64), so failures reproduce exactly.
public typealias SeededGenerator = SplitMix64

/// Mutations used by the parser fuzz tests: every prefix length on a coarse grid, plus
/// seeded random bit flips and byte overwrites.
public enum Mutations {
    /// Prefixes of `data` at `count` evenly spaced lengths (always includes 0 and n-1).
    public static func truncations(of data: Data, count: Int) -> [Data] {
        guard data.count > 1 else { return [Data()] }
        var lengths = Set<Int>([0, 1, data.count - 1])
        for i in 0..<count { lengths.insert(i * (data.count - 1) / max(count - 1, 1)) }
        return lengths.sorted().map { data.prefix($0) }
    }

    /// `count` copies of `data`, each with 1...maxFlips random bits flipped or bytes replaced.
    public static func corruptions(of data: Data, count: Int, maxFlips: Int = 8, seed: UInt64) -> [Data] {
        guard !data.isEmpty else { return [] }
        var rng = SeededGenerator(seed: seed)
        var result: [Data] = []
        result.reserveCapacity(count)
        for _ in 0..<count {
            var copy = data
            for _ in 0..<Int.random(in: 1...maxFlips, using: &rng) {
                let i = Int.random(in: 0..<copy.count, using: &rng)
                if Bool.random(using: &rng) {
                    copy[copy.startIndex + i] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                } else {
                    copy[copy.startIndex + i] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            result.append(copy)
        }
        return result
    }

    /// Random byte strings of the given lengths.
    public static func garbage(lengths: [Int], seed: UInt64) -> [Data] {
        var rng = SeededGenerator(seed: seed)
        return lengths.map { n in Data((0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
    }
}
