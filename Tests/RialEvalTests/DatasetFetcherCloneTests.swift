import Foundation
import Testing

@testable import RialEval

/// `dataset fetch --clones`: files read from a tiny git repository that each test creates.
@Suite struct DatasetFetcherCloneTests {
    /// The committed file's bytes and their SHA-256 (from coreutils:
    /// `printf 'hello clone\n' | sha256sum`).
    static let content = Data("hello clone\n".utf8)
    static let contentSHA = "99f5de978a53d81415ff608571811fe3ebcade008b54237a8df08f4a168b80fb"
    /// `printf 'other bytes\n' | sha256sum`: a hash the committed file does not have.
    static let otherSHA = "671bf4eed8c3b3a2f75a9c40ccbfe5f2e078e894fb85d63bfd98dc5ab232933c"
    static let path = "photos/a b.jpg"

    /// Runs git in `folder`; returns its standard output, trimmed.
    @discardableResult
    static func git(_ arguments: [String], in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main"]
            + arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "git \(arguments) failed"])
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A clone with a work tree at `clones/o+r/repo` holding one commit with `path`;
    /// returns the commit hash.
    @discardableResult
    static func makeClone(in clones: URL) throws -> String {
        let repo = clones.appendingPathComponent("o+r/repo")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        try git(["init", "-q"], in: repo)
        try EvalFixtures.write(content, to: path, in: repo)
        try git(["add", "."], in: repo)
        try git(["commit", "-q", "-m", "one file"], in: repo)
        return try git(["rev-parse", "HEAD"], in: repo)
    }

    /// A dataset folder whose manifest has one sample with `source` and `sha`.
    static func loader(in root: URL, source: String, sha: String?) throws -> DatasetLoader {
        let hash = sha.map { #", "sha256": {"image": "\#($0)"}"# } ?? ""
        let manifest = #"""
            {"format": "rial-bench-dataset/1", "samples": [
              {"id": "a", "image": "files/o+r/a.jpg", "label": "real_scene", "source": "\#(source)"\#(hash)}]}
            """#
        let dataset = root.appendingPathComponent("dataset")
        try EvalFixtures.write(Data(manifest.utf8), to: "manifest.json", in: dataset)
        return try DatasetLoader(contentsOf: dataset.appendingPathComponent("manifest.json").path)
    }

    static func fetch(_ loader: DatasetLoader, clones: URL) -> DatasetFetcher.Report {
        DatasetFetcher(
            loader: loader, mirror: nil, downloader: FakeDownloader([:]), clones: LocalClones(folder: clones)
        ).fetch()
    }

    static func reason(_ report: DatasetFetcher.Report) -> String {
        if case .failed(let reason) = report.files.first?.outcome { reason } else { "" }
    }

    @Test func extractsTheBlobAtTheCommitAndVerifiesIt() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let clones = root.appendingPathComponent("clones")
        let commit = try Self.makeClone(in: clones)
        // The work tree changes after the commit: the blob at the commit is what counts.
        try EvalFixtures.write(Data("edited".utf8), to: Self.path, in: clones.appendingPathComponent("o+r/repo"))
        let loader = try Self.loader(in: root, source: "github:o/r@\(commit):\(Self.path)", sha: Self.contentSHA)
        let report = Self.fetch(loader, clones: clones)

        let gitDirectory = clones.appendingPathComponent("o+r/repo/.git").path
        #expect(report.files.map(\.outcome) == [.extracted(clone: gitDirectory)])
        #expect(report.extractedCount == 1 && report.succeeded)
        let file = root.appendingPathComponent("dataset/files/o+r/a.jpg").path
        #expect(FileManager.default.contents(atPath: file) == Self.content)
        #expect(!FileManager.default.fileExists(atPath: file + ".part"))

        // A second fetch finds it in the cache.
        #expect(Self.fetch(loader, clones: clones).files.map(\.outcome) == [.alreadyPresent(verified: true)])
    }

    @Test func aWrongHashIsRefusedAndNothingIsLeft() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let clones = root.appendingPathComponent("clones")
        let commit = try Self.makeClone(in: clones)
        let loader = try Self.loader(in: root, source: "github:o/r@\(commit):\(Self.path)", sha: Self.otherSHA)
        let report = Self.fetch(loader, clones: clones)

        #expect(report.failedCount == 1)
        #expect(Self.reason(report).contains("has SHA-256 \(Self.contentSHA), expected \(Self.otherSHA)"))
        let file = root.appendingPathComponent("dataset/files/o+r/a.jpg").path
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: file + ".part"))
    }

    @Test func anAbsentCommitIsNamed() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let clones = root.appendingPathComponent("clones")
        try Self.makeClone(in: clones)
        let absent = "0123456789abcdef0123456789abcdef01234567"
        let loader = try Self.loader(in: root, source: "github:o/r@\(absent):\(Self.path)", sha: Self.contentSHA)
        let reason = Self.reason(Self.fetch(loader, clones: clones))

        let gitDirectory = clones.appendingPathComponent("o+r/repo/.git").path
        #expect(reason.hasPrefix("clones: the clone \(gitDirectory) has no commit \(absent)"))
        // The download is still tried after the clones, and its failure is named too.
        #expect(reason.contains("HTTP status 404"))
    }

    @Test func anAbsentCloneNamesEveryPlaceLookedAt() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let clones = root.appendingPathComponent("clones")
        let commit = try Self.makeClone(in: clones)
        let loader = try Self.loader(in: root, source: "github:o/missing@\(commit):\(Self.path)", sha: nil)
        let reason = Self.reason(Self.fetch(loader, clones: clones))

        let c = clones.path
        #expect(
            reason.hasPrefix(
                "clones: no local clone of o/missing (looked at \(c)/o+missing/repo, \(c)/o+missing, \(c)/missing)"))
    }

    @Test func anAbsentPathAndAnAbsentBlobAreNamed() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let clones = root.appendingPathComponent("clones")
        let commit = try Self.makeClone(in: clones)
        let repo = clones.appendingPathComponent("o+r/repo")

        let noPath = try Self.loader(in: root, source: "github:o/r@\(commit):photos/none.jpg", sha: nil)
        #expect(Self.reason(Self.fetch(noPath, clones: clones)).contains("has no file photos/none.jpg"))
        let folder = try Self.loader(in: root, source: "github:o/r@\(commit):photos", sha: nil)
        #expect(Self.reason(Self.fetch(folder, clones: clones)).contains("photos at commit \(commit) is a folder"))

        // Remove the blob's loose object: the tree still lists it.
        let blob = try Self.git(["rev-parse", "\(commit):\(Self.path)"], in: repo)
        let object = repo.appendingPathComponent(".git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))")
        try FileManager.default.removeItem(at: object)
        let loader = try Self.loader(in: root, source: "github:o/r@\(commit):\(Self.path)", sha: Self.contentSHA)
        let reason = Self.reason(Self.fetch(loader, clones: clones))
        #expect(reason.contains("the blob \(blob) of \(Self.path) at commit \(commit) is absent from"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("dataset/files/o+r/a.jpg").path))
    }

    @Test func aBareCloneNamedAfterTheRepositoryIsFound() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let work = root.appendingPathComponent("work")
        let commit = try Self.makeClone(in: work)
        let clones = root.appendingPathComponent("clones")
        try FileManager.default.createDirectory(at: clones, withIntermediateDirectories: true)
        try Self.git(["clone", "-q", "--bare", work.appendingPathComponent("o+r/repo").path, "r"], in: clones)
        let loader = try Self.loader(in: root, source: "github:o/r@\(commit):\(Self.path)", sha: Self.contentSHA)
        let report = Self.fetch(loader, clones: clones)

        #expect(report.files.map(\.outcome) == [.extracted(clone: clones.appendingPathComponent("r").path)])
        #expect(
            FileManager.default.contents(atPath: root.appendingPathComponent("dataset/files/o+r/a.jpg").path)
                == Self.content)
    }

    @Test func theMirrorComesBeforeTheClones() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let clones = root.appendingPathComponent("clones")
        let commit = try Self.makeClone(in: clones)
        let mirror = root.appendingPathComponent("mirror")
        try EvalFixtures.write(Self.content, to: "o+r/a.jpg", in: mirror)
        let loader = try Self.loader(in: root, source: "github:o/r@\(commit):\(Self.path)", sha: Self.contentSHA)
        let report = DatasetFetcher(
            loader: loader, mirror: mirror, downloader: nil, clones: LocalClones(folder: clones)
        ).fetch()
        #expect(report.files.map(\.outcome.name) == ["linked"])
    }

    @Test func aCacheFolderThatLinksOutsideTheDatasetIsNotWrittenThrough() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let clones = root.appendingPathComponent("clones")
        let commit = try Self.makeClone(in: clones)
        let loader = try Self.loader(in: root, source: "github:o/r@\(commit):\(Self.path)", sha: Self.contentSHA)
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("dataset/files").path, withDestinationPath: outside.path)
        let report = Self.fetch(loader, clones: clones)

        #expect(report.failedCount == 1)
        #expect(Self.reason(report).contains("outside the dataset folder"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }
}
