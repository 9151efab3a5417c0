import Foundation
import RialCodecs
import RialMedia

/// Makes every file a manifest references available in its cache folder, verifying
/// every SHA-256 the manifest gives.
///
/// The cache folder is `<manifest folder>/<cache>`, where `cache` is the manifest's
/// top-level key `"cache"` (default `files`); it is meant to be git-ignored. Only
/// references inside it are managed: `files/promptda/image.jpg` is looked up in the
/// mirror as `promptda/image.jpg`.
///
/// For each referenced file (see `DatasetSample.fileReferences`), in manifest order,
/// each path once:
/// 1. Present with the right SHA-256 (or none given): `alreadyPresent`. Present with a
///    wrong one, or a broken symbolic link, inside the cache: removed and fetched again.
/// 2. In the mirror with the right SHA-256: a symbolic link to the mirror file
///    (absolute path) is created — mirror files are never copied, for licence reasons.
/// 3. Else, when a folder of local clones is given (`LocalClones`) and the file's source
///    is `github:OWNER/NAME@COMMIT:PATH`: the blob at that commit is written to
///    `<path>.part`, verified, renamed into place (`extracted`). No clone, no such
///    commit, no such path and an absent blob each give their own reason.
/// 4. Else, when the file has a download URL (`FileReference.downloadURL`) and
///    downloads are enabled: downloaded to `<path>.part`, verified, renamed into place.
/// 5. Else `failed`, with every reason (not in the mirror, not in the clones, hash
///    mismatch, why there is no download).
///
/// Fetch never writes through a symbolic link out of the dataset folder (the manifest's
/// folder): before removing, creating or downloading anything it resolves the links of
/// the file's folder, and when that folder is (or lies inside) a link to a place outside
/// the dataset folder, the file fails with that reason. A link at the file itself, or at
/// its `.part` file, is removed and replaced, never written through; reading through
/// links (a file already present, such as a link into the mirror) is allowed.
public struct DatasetFetcher: Sendable {
    /// What happened to one file.
    public enum Outcome: Sendable, Equatable {
        /// A symbolic link to this mirror file was created.
        case linked(mirrorFile: String)
        /// Read from the git directory of a local clone at the source's commit.
        case extracted(clone: String)
        /// Downloaded from this URL.
        case downloaded(url: String)
        /// Already there; `verified` is false when the manifest gives no SHA-256.
        case alreadyPresent(verified: Bool)
        /// Not available, with every reason.
        case failed(reason: String)

        /// `linked`, `downloaded`, `already present` or `failed`.
        public var name: String {
            switch self {
            case .linked: "linked"
            case .extracted: "extracted"
            case .downloaded: "downloaded"
            case .alreadyPresent: "already present"
            case .failed: "failed"
            }
        }
    }

    /// The outcome for one referenced file.
    public struct FileReport: Sendable, Equatable {
        /// The manifest as named by the caller.
        public var manifest: String
        public var sampleID: String
        /// Where the path is written, e.g. `samples[3].depth.path`.
        public var jsonPath: String
        /// The path as written in the manifest.
        public var path: String
        public var absolutePath: String
        public var outcome: Outcome
        /// Extra information: a replaced stale file, a file without a SHA-256.
        public var note: String?

        /// One line naming the manifest, sample and file: what `validate` messages look like;
        /// control characters escaped (`String.escapingControlCharacters()`).
        public var description: String {
            let detail: String
            switch outcome {
            case .linked(let target): detail = "linked to \(target)"
            case .extracted(let clone): detail = "extracted from the clone \(clone)"
            case .downloaded(let url): detail = "downloaded from \(url)"
            case .alreadyPresent(let verified):
                detail = verified ? "already present" : "already present (not verified: no sha256)"
            case .failed(let reason): detail = reason
            }
            return
                ("\(manifest): \(jsonPath) (id \"\(sampleID)\"): \(path): \(detail)" + (note.map { " (\($0))" } ?? ""))
                .escapingControlCharacters()
        }
    }

    /// Everything `fetch` did.
    public struct Report: Sendable, Equatable {
        public var manifest: String
        /// Absolute path of the cache folder.
        public var cacheDirectory: String
        /// Absolute path of the mirror used, if any.
        public var mirror: String?
        public var files: [FileReport]
        /// Header and sample problems; their files could not be fetched.
        public var manifestProblems: [DatasetProblem]

        public var linkedCount: Int { files.filter { if case .linked = $0.outcome { true } else { false } }.count }
        public var extractedCount: Int {
            files.filter { if case .extracted = $0.outcome { true } else { false } }.count
        }
        public var downloadedCount: Int {
            files.filter { if case .downloaded = $0.outcome { true } else { false } }.count
        }
        public var alreadyPresentCount: Int {
            files.filter { if case .alreadyPresent = $0.outcome { true } else { false } }.count
        }
        public var failedCount: Int { files.filter { if case .failed = $0.outcome { true } else { false } }.count }
        /// True when every file is available and the manifest had no problems.
        public var succeeded: Bool { failedCount == 0 && manifestProblems.isEmpty }
    }

    /// The top-level manifest key naming the cache folder.
    public static let cacheKey = "cache"
    /// The cache folder when the manifest names none.
    public static let defaultCacheFolder = "files"

    public let loader: DatasetLoader
    /// The mirror folder, or `nil` to download everything.
    public var mirror: URL?
    /// `nil` disables downloads.
    public var downloader: (any FileDownloading)?
    /// Local clones to read `github:` sources from, or `nil`.
    public var clones: LocalClones?

    public init(
        loader: DatasetLoader, mirror: URL?, downloader: (any FileDownloading)? = URLSessionDownloader(),
        clones: LocalClones? = nil
    ) {
        self.loader = loader
        self.mirror = mirror.map { $0.standardizedFileURL }
        self.downloader = downloader
        self.clones = clones
    }

    /// The cache folder name from the manifest, or a problem when it is not a plain
    /// relative folder.
    public var cacheFolder: Result<String, DatasetProblem> {
        guard let value = loader.extensions[Self.cacheKey] else { return .success(Self.defaultCacheFolder) }
        guard let folder = value.stringValue, !folder.isEmpty, !folder.hasPrefix("/"),
            !folder.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else {
            return .failure(
                DatasetProblem(
                    .invalidValue, manifest: loader.manifestPath, jsonPath: Self.cacheKey,
                    "must be a relative folder without '.' or '..', e.g. \"files\""))
        }
        return .success(folder)
    }

    /// Fetches every file; calls `onFile` after each one (for progress output).
    public func fetch(onFile: (FileReport) -> Void = { _ in }) -> Report {
        var report = Report(
            manifest: loader.manifestPath, cacheDirectory: "", mirror: mirror?.path, files: [],
            manifestProblems: loader.headerProblems)
        let cacheDirectory: String
        switch cacheFolder {
        case .success(let folder):
            cacheDirectory = loader.absolutePath(folder)
        case .failure(let problem):
            report.manifestProblems.append(problem)
            return report
        }
        report.cacheDirectory = cacheDirectory
        var seen = Set<String>()
        for entry in loader.entries {
            let sample: DatasetSample
            switch entry.result {
            case .success(let s): sample = s
            case .failure(let failure):
                report.manifestProblems += failure.problems
                continue
            }
            for file in sample.fileReferences {
                let absolute = loader.absolutePath(file.path)
                guard seen.insert(absolute).inserted else { continue }
                var fileReport = FileReport(
                    manifest: loader.manifestPath, sampleID: sample.id,
                    jsonPath: entry.jsonPath + "." + file.jsonPath, path: file.path,
                    absolutePath: absolute, outcome: .failed(reason: ""), note: nil)
                (fileReport.outcome, fileReport.note) = fetch(
                    file, absolutePath: absolute, cacheDirectory: cacheDirectory)
                report.files.append(fileReport)
                onFile(fileReport)
            }
        }
        return report
    }

    private func fetch(_ file: FileReference, absolutePath: String, cacheDirectory: String) -> (Outcome, String?) {
        let fm = FileManager.default
        let inCache = absolutePath.hasPrefix(cacheDirectory + "/")
        let expected = file.sha256?.lowercased()
        if let expected, !FileHashes.isValidDigest(expected) {
            return (.failed(reason: "sha256 '\(expected)' is not a SHA-256 digest (64 hex digits)"), nil)
        }
        var note: String?

        // 1. Already there?
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: absolutePath, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return (.failed(reason: "is a directory, expected a file"), nil) }
            guard let expected else { return (.alreadyPresent(verified: false), nil) }
            switch hash(absolutePath) {
            case .success(let actual) where actual == expected:
                return (.alreadyPresent(verified: true), nil)
            case .success(let actual):
                guard inCache else {
                    return (
                        .failed(
                            reason:
                                "SHA-256 is \(actual), the manifest expects \(expected); the file is outside the cache folder, so fetch leaves it alone"
                        ), nil
                    )
                }
                note = "replaced a file whose SHA-256 was \(actual)"
            case .failure(let failure):
                guard inCache else { return (.failed(reason: failure.reason), nil) }
                note = "replaced an unreadable file (\(failure.reason))"
            }
            if let escape = linkEscape(absolutePath) { return (.failed(reason: escape), nil) }
            do {
                try fm.removeItem(atPath: absolutePath)
            } catch {
                return (.failed(reason: "cannot remove the stale file: \(error.localizedDescription)"), note)
            }
        } else if (try? fm.destinationOfSymbolicLink(atPath: absolutePath)) != nil {
            guard inCache else { return (.failed(reason: "broken symbolic link outside the cache folder"), nil) }
            if let escape = linkEscape(absolutePath) { return (.failed(reason: escape), nil) }
            try? fm.removeItem(atPath: absolutePath)
            note = "replaced a broken symbolic link"
        }
        guard inCache else {
            return (
                .failed(reason: "no such file, and it is outside the cache folder \(cacheDirectory) that fetch fills"),
                nil
            )
        }
        let relative = String(absolutePath.dropFirst(cacheDirectory.count + 1))
        if let escape = linkEscape(absolutePath) { return (.failed(reason: escape), note) }
        do {
            try fm.createDirectory(
                atPath: (absolutePath as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
        } catch {
            return (.failed(reason: "cannot create its folder: \(error.localizedDescription)"), note)
        }

        // 2. Mirror.
        var reasons: [String] = []
        if let mirror {
            let candidate = mirror.appendingPathComponent(relative).standardizedFileURL.path
            var candidateIsDirectory: ObjCBool = false
            if fm.fileExists(atPath: candidate, isDirectory: &candidateIsDirectory), !candidateIsDirectory.boolValue {
                let verdict: String? =
                    switch expected.map({ e in (e, hash(candidate)) }) {
                    case .none: nil
                    case .some((let e, .success(let actual))):
                        actual == e ? nil : "the mirror's \(candidate) has SHA-256 \(actual), expected \(e)"
                    case .some((_, .failure(let failure))): "the mirror's file is unreadable: \(failure.reason)"
                    }
                if let verdict {
                    reasons.append(verdict)
                } else {
                    do {
                        try fm.createSymbolicLink(atPath: absolutePath, withDestinationPath: candidate)
                        if expected == nil {
                            note = [note, "not verified: no sha256"].compactMap { $0 }.joined(separator: "; ")
                        }
                        return (.linked(mirrorFile: candidate), note)
                    } catch {
                        reasons.append("cannot create a symbolic link to \(candidate): \(error.localizedDescription)")
                    }
                }
            } else {
                reasons.append("not in the mirror (looked at \(candidate))")
            }
        } else if clones == nil {
            reasons.append("no mirror (give --mirror DIR or set RIAL_DATA_MIRROR)")
        }

        // 3. Local clones.
        if let clones {
            switch extract(file, from: clones, to: absolutePath, expected: expected) {
            case .success(let clone):
                if expected == nil {
                    note = [note, "not verified: no sha256"].compactMap { $0 }.joined(separator: "; ")
                }
                return (.extracted(clone: clone), note)
            case .failure(let failure):
                reasons.append(failure.reason)
            }
        }

        // 4. Download.
        guard let url = file.downloadURL else {
            reasons.append(file.whyNotDownloadable ?? "no download URL")
            return (.failed(reason: reasons.joined(separator: "; ")), note)
        }
        guard let downloader else {
            reasons.append("downloads are disabled")
            return (.failed(reason: reasons.joined(separator: "; ")), note)
        }
        let partial = absolutePath + ".part"
        // A leftover `.part` (a file, or a link that a download would write through) goes first.
        try? fm.removeItem(atPath: partial)
        defer { try? fm.removeItem(atPath: partial) }
        do {
            try downloader.download(url, to: partial)
        } catch {
            reasons.append("\(error)")
            return (.failed(reason: reasons.joined(separator: "; ")), note)
        }
        if let expected {
            switch hash(partial) {
            case .success(let actual) where actual != expected:
                reasons.append("the download from \(url.absoluteString) has SHA-256 \(actual), expected \(expected)")
                return (.failed(reason: reasons.joined(separator: "; ")), note)
            case .failure(let failure):
                reasons.append("the download is unreadable: \(failure.reason)")
                return (.failed(reason: reasons.joined(separator: "; ")), note)
            case .success:
                break
            }
        } else {
            note = [note, "not verified: no sha256"].compactMap { $0 }.joined(separator: "; ")
        }
        do {
            try fm.moveItem(atPath: partial, toPath: absolutePath)
        } catch {
            reasons.append("cannot move the download into place: \(error.localizedDescription)")
            return (.failed(reason: reasons.joined(separator: "; ")), note)
        }
        return (.downloaded(url: url.absoluteString), note)
    }

    /// Reads `file` from the clones into `<absolutePath>.part`, verifies it and renames it
    /// into place; the git directory on success, else why not (prefixed "clones: ").
    private func extract(
        _ file: FileReference, from clones: LocalClones, to absolutePath: String, expected: String?
    ) -> Result<String, HashFailure> {
        func failure(_ reason: String) -> Result<String, HashFailure> {
            .failure(HashFailure(reason: "clones: " + reason))
        }
        guard let source = file.source else { return failure("the manifest gives no source") }
        guard case .github(let owner, let repository, let commit, let path) = UpstreamSource(parsing: source) else {
            return failure("source '\(source)' is not of the form github:OWNER/REPO@COMMIT:PATH")
        }
        let partial = absolutePath + ".part"
        let fm = FileManager.default
        // A leftover `.part` (a file, or a link that writing would follow) goes first.
        try? fm.removeItem(atPath: partial)
        defer { try? fm.removeItem(atPath: partial) }
        let clone: URL
        do {
            clone = try clones.extract(owner: owner, repository: repository, commit: commit, path: path, to: partial)
        } catch {
            return failure(error.description)
        }
        if let expected {
            switch hash(partial) {
            case .success(let actual) where actual != expected:
                return failure("\(path) at \(commit) in \(clone.path) has SHA-256 \(actual), expected \(expected)")
            case .failure(let unreadable):
                return failure("the extracted file is unreadable: \(unreadable.reason)")
            case .success:
                break
            }
        }
        do {
            try fm.moveItem(atPath: partial, toPath: absolutePath)
        } catch {
            return failure("cannot move the extracted file into place: \(error.localizedDescription)")
        }
        return .success(clone.path)
    }

    /// Nil when writing at `path` stays inside the dataset folder; else why fetch refuses.
    ///
    /// The nearest existing folder above `path` is resolved (every symbolic link on the way
    /// followed) and must be the dataset folder (resolved the same way) or inside it.
    private func linkEscape(_ path: String) -> String? {
        let fm = FileManager.default
        let root = loader.baseDirectory.resolvingSymlinksInPath().path
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        while folder.path != "/",
            !(fm.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            folder.deleteLastPathComponent()
        }
        let real = folder.resolvingSymlinksInPath().path
        if real == root || real.hasPrefix(root == "/" ? "/" : root + "/") { return nil }
        return "\(folder.path) leads through a symbolic link to \(real), outside the dataset folder \(root); "
            + "fetch does not write there (replace the link with a folder)"
    }

    private func hash(_ path: String) -> Result<String, HashFailure> {
        do {
            return .success(try SHA256Digest.hash(fileAt: path))
        } catch {
            return .failure(HashFailure(reason: (error as? MediaError)?.detail ?? "\(error)"))
        }
    }

    private struct HashFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }
}

extension DatasetFetcher {
    /// A mirror folder and how it was found.
    public struct MirrorLocation: Sendable, Equatable {
        public var url: URL
        /// `--mirror`, `RIAL_DATA_MIRROR`, or which default matched.
        public var origin: String
    }

    /// The folder holding the real public data mirror, relative to the package root.
    public static let defaultMirrorRelativeToParent = "shared/datasets/real"

    /// Finds the mirror folder.
    ///
    /// Order: `explicit` (the `--mirror` option; must exist); the environment variable
    /// `RIAL_DATA_MIRROR` (ignored with a warning when it is not a folder);
    /// `../shared/datasets/real` from `currentDirectory`; the same beside the manifest's
    /// repository root (the nearest ancestor of the manifest's folder holding
    /// `Package.swift` or `.git`). Relative paths are made absolute from `currentDirectory`.
    ///
    /// - Returns: the mirror (or `nil` when none exists) and warnings for the user.
    /// - Throws: `MirrorError` when `explicit` is not a folder.
    public static func locateMirror(
        explicit: String?, environment: [String: String], currentDirectory: URL,
        manifestDirectory: URL
    ) throws(MirrorError) -> (mirror: MirrorLocation?, warnings: [String]) {
        func absolute(_ path: String) -> URL {
            path.hasPrefix("/")
                ? URL(fileURLWithPath: path).standardizedFileURL
                : currentDirectory.appendingPathComponent(path).standardizedFileURL
        }
        func isFolder(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if let explicit {
            let url = absolute(explicit)
            guard isFolder(url) else { throw MirrorError(path: explicit) }
            return (MirrorLocation(url: url, origin: "--mirror"), [])
        }
        var warnings: [String] = []
        if let env = environment["RIAL_DATA_MIRROR"], !env.isEmpty {
            let url = absolute(env)
            if isFolder(url) { return (MirrorLocation(url: url, origin: "RIAL_DATA_MIRROR"), []) }
            warnings.append("RIAL_DATA_MIRROR=\(env) is not a folder; ignoring it")
        }
        let fromCurrent = currentDirectory.deletingLastPathComponent()
            .appendingPathComponent(defaultMirrorRelativeToParent).standardizedFileURL
        if isFolder(fromCurrent) {
            return (
                MirrorLocation(
                    url: fromCurrent, origin: "../\(defaultMirrorRelativeToParent) from the current directory"),
                warnings
            )
        }
        var folder = manifestDirectory.standardizedFileURL
        while folder.path != "/" {
            let fm = FileManager.default
            if fm.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
                || fm.fileExists(atPath: folder.appendingPathComponent(".git").path)
            {
                let candidate = folder.deletingLastPathComponent()
                    .appendingPathComponent(defaultMirrorRelativeToParent).standardizedFileURL
                if isFolder(candidate) {
                    return (
                        MirrorLocation(
                            url: candidate,
                            origin: "../\(defaultMirrorRelativeToParent) from the repository root \(folder.path)"),
                        warnings
                    )
                }
                break
            }
            folder.deleteLastPathComponent()
        }
        return (nil, warnings)
    }

    /// `--mirror` names something that is not a folder.
    public struct MirrorError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var description: String { "mirror folder \(path) does not exist or is not a folder" }
    }
}
