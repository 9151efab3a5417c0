import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialEval

/// A downloader that serves fixed bytes per URL and records requests.
struct FakeDownloader: FileDownloading {
    private let bodies: [String: Data]
    private let log = Locked<[String]>([])

    init(_ bodies: [String: Data]) { self.bodies = bodies }

    /// The URLs asked for so far, in order.
    var requested: [String] { log.withLock { $0 } }

    func download(_ url: URL, to destination: String) throws {
        log.withLock { $0.append(url.absoluteString) }
        guard let body = bodies[url.absoluteString] else {
            throw DownloadError(url: url, reason: "HTTP status 404")
        }
        try body.write(to: URL(fileURLWithPath: destination))
    }
}

@Suite struct DatasetFetcherTests {
    static func manifest(_ samples: String) -> Data {
        Data(#"{"format": "rial-bench-dataset/1", "samples": [\#(samples)]}"#.utf8)
    }

    @Test func linksFromMirrorDownloadsTheRestAndReportsEach() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let mirror = root.appendingPathComponent("mirror")
        let a = Data("mirror file a".utf8), b = Data("upstream file b".utf8), c = Data("nowhere".utf8)
        try EvalFixtures.write(a, to: "x/a.jpg", in: mirror)
        try EvalFixtures.write(Data("tampered".utf8), to: "x/bad.jpg", in: mirror)
        let dataset = root.appendingPathComponent("dataset")
        let samples = """
            {"id": "a", "image": "files/x/a.jpg", "label": "real_scene", "sha256": {"image": "\(SHA256Digest.hash(a))"}},
            {"id": "b", "image": "files/x/b.jpg", "label": "screen", "sha256": {"image": "\(SHA256Digest.hash(b))"},
             "source": "github:o/r@c0ffee:data/b.jpg"},
            {"id": "bad", "image": "files/x/bad.jpg", "label": "screen", "sha256": {"image": "\(SHA256Digest.hash(c))"},
             "source": "pypi:pkg==1.0:data/bad.jpg"},
            {"id": "wrongdl", "image": "files/x/w.jpg", "label": "screen", "sha256": {"image": "\(SHA256Digest.hash(c))"},
             "source": "github:o/r@c0ffee:data/b.jpg"}
            """
        try EvalFixtures.write(Self.manifest(samples), to: "manifest.json", in: dataset)
        let loader = try DatasetLoader(contentsOf: dataset.appendingPathComponent("manifest.json").path)
        let downloader = FakeDownloader(["https://raw.githubusercontent.com/o/r/c0ffee/data/b.jpg": b])
        let report = DatasetFetcher(loader: loader, mirror: mirror, downloader: downloader).fetch()

        #expect(report.files.map(\.outcome.name) == ["linked", "downloaded", "failed", "failed"])
        let linked = dataset.appendingPathComponent("files/x/a.jpg").path
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: linked)
                == mirror.appendingPathComponent("x/a.jpg").standardizedFileURL.path)
        #expect(
            try SHA256Digest.hash(fileAt: dataset.appendingPathComponent("files/x/b.jpg").path) == SHA256Digest.hash(b))
        guard case .failed(let badReason) = report.files[2].outcome,
            case .failed(let wrongReason) = report.files[3].outcome
        else {
            Issue.record("expected failures")
            return
        }
        #expect(
            badReason.contains("the mirror's")
                && badReason.contains("has SHA-256 \(SHA256Digest.hash(Data("tampered".utf8)))"))
        #expect(badReason.contains("PyPI package pkg==1.0") && badReason.contains("a mirror is needed"))
        #expect(
            wrongReason.contains("not in the mirror")
                && wrongReason.contains(
                    "the download from https://raw.githubusercontent.com/o/r/c0ffee/data/b.jpg has SHA-256")
        )
        #expect(report.files[3].description.contains("samples[3].image (id \"wrongdl\"): files/x/w.jpg: "))
        // Failed downloads leave nothing behind, not even the partial file.
        #expect(!FileManager.default.fileExists(atPath: dataset.appendingPathComponent("files/x/w.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: dataset.appendingPathComponent("files/x/w.jpg.part").path))
        #expect(!report.succeeded)

        // A second run finds the good files present and touches nothing.
        let again = DatasetFetcher(loader: loader, mirror: mirror, downloader: FakeDownloader([:])).fetch()
        #expect(again.files.map(\.outcome.name) == ["already present", "already present", "failed", "failed"])
    }

    @Test func staleFilesInTheCacheAreReplaced() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let mirror = root.appendingPathComponent("mirror")
        let good = Data("good".utf8)
        try EvalFixtures.write(good, to: "a.png", in: mirror)
        try EvalFixtures.write(Data("stale".utf8), to: "files/a.png", in: root)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("files/gone.png").path,
            withDestinationPath: "/nonexistent/gone.png")
        try EvalFixtures.write(good, to: "gone.png", in: mirror)
        let samples = """
            {"id": "a", "image": "files/a.png", "label": "real_scene", "sha256": {"image": "\(SHA256Digest.hash(good))"}},
            {"id": "g", "image": "files/gone.png", "label": "real_scene"}
            """
        try EvalFixtures.write(Self.manifest(samples), to: "manifest.json", in: root)
        let loader = try DatasetLoader(contentsOf: root.appendingPathComponent("manifest.json").path)
        let report = DatasetFetcher(loader: loader, mirror: mirror, downloader: nil).fetch()
        #expect(report.files.map(\.outcome.name) == ["linked", "linked"])
        #expect(report.files[0].note?.contains("replaced a file whose SHA-256 was") == true)
        #expect(report.files[1].note?.contains("replaced a broken symbolic link") == true)
        #expect(report.files[1].note?.contains("not verified: no sha256") == true)
        #expect(report.succeeded)
    }

    @Test func filesOutsideTheCacheAreNeverWritten() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        try EvalFixtures.write(
            Self.manifest(
                #"{"id": "a", "image": "elsewhere/a.png", "label": "real_scene", "source": "github:o/r@c:a.png"}"#),
            to: "manifest.json", in: root)
        let loader = try DatasetLoader(contentsOf: root.appendingPathComponent("manifest.json").path)
        let downloader = FakeDownloader([:])
        let report = DatasetFetcher(loader: loader, mirror: nil, downloader: downloader).fetch()
        #expect(report.failedCount == 1)
        #expect(downloader.requested.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("elsewhere").path))
    }

    @Test func noMirrorAndNoURLSaysAMirrorIsNeeded() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let samples = """
            {"id": "d", "image": "files/a.jpg", "label": "real_scene", "source": "debian:opencv-doc=4.6.0+dfsg-12:/usr/share/a.jpg"},
            {"id": "n", "image": "files/b.jpg", "label": "real_scene", "source": "github:o/r@c:jpg/(see README)",
             "upstream": {"image": {"note": "the upstream file name differs"}}}
            """
        try EvalFixtures.write(Self.manifest(samples), to: "manifest.json", in: root)
        let loader = try DatasetLoader(contentsOf: root.appendingPathComponent("manifest.json").path)
        let downloader = FakeDownloader([:])
        let report = DatasetFetcher(loader: loader, mirror: nil, downloader: downloader).fetch()
        let reasons = report.files.compactMap { if case .failed(let r) = $0.outcome { r } else { nil } }
        #expect(reasons.count == 2)
        #expect(
            reasons[0]
                == "no mirror (give --mirror DIR or set RIAL_DATA_MIRROR); comes from the Debian package opencv-doc=4.6.0+dfsg-12, which fetch does not unpack; a mirror is needed"
        )
        #expect(reasons[1].hasSuffix("the upstream file name differs; a mirror is needed"))
        #expect(downloader.requested.isEmpty)
    }

    @Test func mirrorLocationOrder() throws {
        let root = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(root) }
        let repo = root.appendingPathComponent("main"), shared = root.appendingPathComponent("shared/datasets/real")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try EvalFixtures.write(Data(), to: "Package.swift", in: repo)
        try FileManager.default.createDirectory(
            at: repo.appendingPathComponent("datasets/x"), withIntermediateDirectories: true)
        let other = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(other) }

        let explicit = try DatasetFetcher.locateMirror(
            explicit: other.path, environment: ["RIAL_DATA_MIRROR": shared.path],
            currentDirectory: other, manifestDirectory: repo)
        #expect(explicit.mirror?.origin == "--mirror")
        let env = try DatasetFetcher.locateMirror(
            explicit: nil, environment: ["RIAL_DATA_MIRROR": shared.path],
            currentDirectory: other, manifestDirectory: repo)
        #expect(env.mirror?.origin == "RIAL_DATA_MIRROR")
        let fromCurrent = try DatasetFetcher.locateMirror(
            explicit: nil, environment: [:], currentDirectory: repo,
            manifestDirectory: other)
        #expect(fromCurrent.mirror?.url.path == shared.standardizedFileURL.path)
        let fromRepo = try DatasetFetcher.locateMirror(
            explicit: nil, environment: ["RIAL_DATA_MIRROR": "/nonexistent"],
            currentDirectory: other,
            manifestDirectory: repo.appendingPathComponent("datasets/x"))
        #expect(fromRepo.mirror?.url.path == shared.standardizedFileURL.path)
        #expect(fromRepo.warnings == ["RIAL_DATA_MIRROR=/nonexistent is not a folder; ignoring it"])
        #expect(throws: DatasetFetcher.MirrorError.self) {
            try DatasetFetcher.locateMirror(
                explicit: "/nonexistent", environment: [:], currentDirectory: other,
                manifestDirectory: other)
        }
    }
}
