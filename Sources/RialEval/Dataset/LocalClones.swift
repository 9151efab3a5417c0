import Foundation
import RialMedia

/// A folder of local git clones of GitHub repositories, read at a commit.
///
/// `DatasetFetcher` resolves `github:OWNER/NAME@COMMIT:PATH` sources from it on a machine
/// without network access. A repository's clone is looked up, in this order, at
/// `FOLDER/OWNER+NAME/repo`, `FOLDER/OWNER+NAME` and `FOLDER/NAME`; each may be bare (a
/// folder with `HEAD` and `objects/`) or have a work tree (its `.git` folder is used).
/// Only the object store is read (the work tree, if any, is ignored), so a file is
/// exactly the blob at that commit.
///
/// Git is run as a separate `git` process: the package has no git library (and takes no
/// new dependency), and packed objects need git's own pack and delta decoding. The
/// environment sets `GIT_NO_LAZY_FETCH=1` so a partial clone reports an absent blob instead
/// of fetching it from the network (git 2.44 and later honour it; older ones have no lazy
/// fetch without a configured promisor remote).
public struct LocalClones: Sendable, Equatable {
    /// The folder holding the clones.
    public var folder: URL

    public init(folder: URL) {
        self.folder = folder.standardizedFileURL
    }

    /// Why a file could not be read from the clones: one line each, naming the
    /// repository, commit and path.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No clone of the repository under the folder; the places looked at.
        case noClone(repository: String, lookedAt: [String])
        /// The commit is not in the clone.
        case noCommit(commit: String, gitDirectory: String)
        /// The commit is not written as a hexadecimal object name.
        case notACommitName(commit: String)
        /// The commit has no file at the path.
        case noSuchPath(path: String, commit: String, gitDirectory: String)
        /// The path names a folder or a submodule, not a file.
        case notAFile(path: String, commit: String, kind: String)
        /// The commit lists the file, but its blob is not in the object store (an
        /// incomplete or partial snapshot).
        case blobAbsent(path: String, commit: String, blob: String, gitDirectory: String)
        /// `git` could not be started.
        case gitUnavailable(reason: String)
        /// A git command failed in an unexpected way.
        case gitFailed(command: String, status: Int32, message: String)
        /// The destination could not be written.
        case cannotWrite(path: String, reason: String)

        public var description: String {
            switch self {
            case .noClone(let repository, let lookedAt):
                "no local clone of \(repository) (looked at \(lookedAt.joined(separator: ", ")))"
            case .noCommit(let commit, let gitDirectory):
                "the clone \(gitDirectory) has no commit \(commit) (fetch it there, or give another clone)"
            case .notACommitName(let commit):
                "'\(commit)' is not a commit hash (4 to 64 hexadecimal digits)"
            case .noSuchPath(let path, let commit, let gitDirectory):
                "commit \(commit) in \(gitDirectory) has no file \(path)"
            case .notAFile(let path, let commit, let kind):
                "\(path) at commit \(commit) is a \(kind), not a file"
            case .blobAbsent(let path, let commit, let blob, let gitDirectory):
                "the blob \(blob) of \(path) at commit \(commit) is absent from \(gitDirectory) "
                    + "(an incomplete snapshot; large files are often left out)"
            case .gitUnavailable(let reason): "cannot run git: \(reason)"
            case .gitFailed(let command, let status, let message):
                "\(command) failed with status \(status)" + (message.isEmpty ? "" : ": \(message)")
            case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
            }
        }
    }

    /// The places a clone of `owner/repository` is looked for, in order.
    public func candidateFolders(owner: String, repository: String) -> [URL] {
        let joined = folder.appendingPathComponent(owner + "+" + repository)
        return [joined.appendingPathComponent("repo"), joined, folder.appendingPathComponent(repository)]
    }

    /// The git directory of the first clone found: `X/.git` for a clone with a work tree,
    /// `X` for a bare one.
    public func gitDirectory(owner: String, repository: String) throws(Failure) -> URL {
        let candidates = candidateFolders(owner: owner, repository: repository)
        for candidate in candidates {
            for gitDirectory in [candidate.appendingPathComponent(".git"), candidate]
            where Self.isGitDirectory(gitDirectory) {
                return gitDirectory
            }
        }
        throw .noClone(repository: owner + "/" + repository, lookedAt: candidates.map(\.path))
    }

    /// Writes the file `path` of `owner/repository` at `commit` to `destination`
    /// (created or truncated; never followed if it is a symbolic link: the caller removes
    /// one first).
    ///
    /// Steps: find the clone (`gitDirectory`); look the path up in the commit's tree
    /// (`git ls-tree`, literal path); stream its blob into `destination` (`git cat-file
    /// blob`). Two git processes per file; only when one fails is its reason looked for:
    /// whether `commit` names a commit there (`git cat-file -t COMMIT^{commit}`), whether
    /// the blob is in the object store (`git cat-file -e`).
    ///
    /// - Returns: the git directory read from.
    /// - Throws: `Failure`, one reason each: no clone, no commit, no such path, not a
    ///   file, blob absent, git unavailable or failing, destination not writable.
    @discardableResult
    public func extract(
        owner: String, repository: String, commit: String, path: String, to destination: String
    ) throws(Failure) -> URL {
        let gitDirectory = try gitDirectory(owner: owner, repository: repository)
        let hexDigits = Set("0123456789abcdefABCDEF")
        guard (4...64).contains(commit.count), commit.allSatisfy({ hexDigits.contains($0) }) else {
            throw .notACommitName(commit: commit)
        }
        let git = GitDirectory(url: gitDirectory)
        let listing = try git.run(["--literal-pathspecs", "ls-tree", "-z", "--full-tree", commit, "--", path])
        guard listing.status == 0 else {
            guard try git.run(["cat-file", "-t", commit + "^{commit}"]).status == 0 else {
                throw .noCommit(commit: commit, gitDirectory: gitDirectory.path)
            }
            throw .gitFailed(
                command: "git ls-tree \(commit) -- \(path)", status: listing.status, message: listing.error)
        }
        // "<mode> SP <type> SP <object> TAB <path>" NUL; only the exact path counts.
        let entry = listing.output.split(separator: 0).lazy.compactMap { record -> (kind: String, object: String)? in
            guard let tab = record.firstIndex(of: 0x09) else { return nil }
            let name = String(decoding: record[record.index(after: tab)...], as: UTF8.self)
            let fields = String(decoding: record[..<tab], as: UTF8.self).split(separator: " ")
            guard name == path, fields.count == 3 else { return nil }
            return (String(fields[1]), String(fields[2]))
        }.first
        guard let entry else {
            throw .noSuchPath(path: path, commit: commit, gitDirectory: gitDirectory.path)
        }
        guard entry.kind == "blob" else {
            throw .notAFile(path: path, commit: commit, kind: entry.kind == "tree" ? "folder" : entry.kind)
        }
        guard FileManager.default.createFile(atPath: destination, contents: nil),
            let handle = FileHandle(forWritingAtPath: destination)
        else {
            throw .cannotWrite(path: destination, reason: "cannot create the file")
        }
        defer { try? handle.close() }
        let blob = try git.run(["cat-file", "blob", entry.object], output: handle)
        guard blob.status == 0 else {
            guard try git.run(["cat-file", "-e", entry.object]).status == 0 else {
                throw .blobAbsent(path: path, commit: commit, blob: entry.object, gitDirectory: gitDirectory.path)
            }
            throw .gitFailed(command: "git cat-file blob \(entry.object)", status: blob.status, message: blob.error)
        }
        return gitDirectory
    }

    /// True when `url` holds `HEAD` and an `objects` folder.
    static func isGitDirectory(_ url: URL) -> Bool {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        return fm.fileExists(atPath: url.appendingPathComponent("HEAD").path)
            && fm.fileExists(atPath: url.appendingPathComponent("objects").path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }
}

/// Runs `git --git-dir DIR ...` and collects its result.
private struct GitDirectory {
    var url: URL

    struct Result {
        var status: Int32
        /// Standard output, unless it went to a file.
        var output: [UInt8]
        /// Standard error, trimmed, on one line.
        var error: String
    }

    /// Runs git with `arguments`; standard output goes to `output` when given, else it
    /// is collected. Standard error is read on another thread so neither pipe can fill
    /// and block git.
    func run(_ arguments: [String], output: FileHandle? = nil) throws(LocalClones.Failure) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "--git-dir", url.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_NO_LAZY_FETCH"] = "1"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let outPipe = output == nil ? Pipe() : nil
        process.standardOutput = output ?? outPipe
        let errPipe = Pipe()
        process.standardError = errPipe
        do {
            try process.run()
        } catch {
            throw .gitUnavailable(reason: error.localizedDescription)
        }
        let errorData = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = errPipe.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            group.leave()
        }
        let data = outPipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        group.wait()
        process.waitUntilExit()
        let message = String(decoding: errorData.withLock { $0 }, as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        if process.terminationStatus == 127 {
            throw .gitUnavailable(reason: message.isEmpty ? "git is not on PATH" : message)
        }
        return Result(status: process.terminationStatus, output: [UInt8](data), error: message)
    }
}
