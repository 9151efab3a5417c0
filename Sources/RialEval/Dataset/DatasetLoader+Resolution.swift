import Foundation
import RialCodecs
import RialMedia

/// Which file checks `DatasetLoader.resolve` performs beyond existence.
public struct FileChecks: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Compare each file's SHA-256 with the manifest's (streamed, any file size).
    public static let hashes = FileChecks(rawValue: 1 << 0)
    /// Check each depth file's size against its declared width and height (decodes
    /// compressed and PNG depth) and its shape against the image's (header only).
    public static let depthSize = FileChecks(rawValue: 1 << 1)
    /// Every check.
    public static let all: FileChecks = [.hashes, .depthSize]
}

/// A sample whose files exist (and passed the requested checks), with absolute paths.
public struct ResolvedSample: Sendable, Equatable {
    /// Position in the manifest's `samples`.
    public var index: Int
    public var sample: DatasetSample
    /// Absolute path of the image.
    public var imagePath: String
    /// Absolute path of the depth file, when the sample has depth.
    public var depthPath: String?
    /// Absolute path of the right stereo view, when the sample has stereo.
    public var rightPath: String?
    /// Absolute paths of extension files, by extension key (e.g. `ground_truth_disparity`).
    public var extensionFiles: [String: String]
    /// Video samples: absolute paths of the frame sequence, MP4, depth keyframe blob and chain JSON.
    public var framesPath: String? = nil
    public var videoPath: String? = nil
    public var depthKeyframesPath: String? = nil
    public var hashChainPath: String? = nil
}

/// Everything `validate` found.
public struct DatasetValidationReport: Sendable, Equatable, Codable {
    /// The manifest as named by the caller.
    public var manifest: String
    /// Elements of `samples`.
    public var sampleCount: Int
    /// Samples without any problem.
    public var validSampleCount: Int
    /// Every problem, header problems first, then by sample in manifest order.
    public var problems: [DatasetProblem]

    public init(manifest: String, sampleCount: Int, validSampleCount: Int, problems: [DatasetProblem]) {
        self.manifest = manifest
        self.sampleCount = sampleCount
        self.validSampleCount = validSampleCount
        self.problems = problems
    }

    /// True when nothing is wrong.
    public var isValid: Bool { problems.isEmpty }
    /// Samples with at least one problem.
    public var failedSampleCount: Int { sampleCount - validSampleCount }

    private enum CodingKeys: String, CodingKey {
        case manifest, problems
        case sampleCount = "sample_count"
        case validSampleCount = "valid_sample_count"
    }
}

extension DatasetLoader {
    /// Makes a sample's paths absolute and checks its files.
    ///
    /// Every referenced file (see `DatasetSample.fileReferences`) must exist and be a
    /// regular file (symlinks are followed). With `.hashes`, a file whose manifest gives
    /// a SHA-256 is hashed and compared (case-insensitive). With `.depthSize`, the depth
    /// file is checked against its declared size: `f32le` by byte length
    /// (`width * height * 4`), other formats by decoding.
    ///
    /// - Returns: the resolved sample, or a failure listing every problem of this sample;
    ///   never throws, so one bad sample cannot stop a run.
    public func resolve(_ sample: DatasetSample, index: Int, checks: FileChecks = .all)
        -> Result<ResolvedSample, SampleFailure>
    {
        let jsonPath = "samples[\(index)]"
        var problems: [DatasetProblem] = []
        var resolved = ResolvedSample(
            index: index, sample: sample, imagePath: sample.image.isEmpty ? "" : absolutePath(sample.image),
            depthPath: nil, rightPath: nil, extensionFiles: [:])
        for file in sample.fileReferences {
            let absolute = absolutePath(file.path)
            let fileProblems = check(file, absolutePath: absolute, sample: sample, jsonPath: jsonPath, checks: checks)
            problems += fileProblems
            switch file.role {
            case .image: resolved.imagePath = absolute
            case .depth: resolved.depthPath = absolute
            case .right: resolved.rightPath = absolute
            case .frames: resolved.framesPath = absolute
            case .video: resolved.videoPath = absolute
            case .depthKeyframes: resolved.depthKeyframesPath = absolute
            case .hashChain: resolved.hashChainPath = absolute
            case .extensionFile(let key): resolved.extensionFiles[key] = absolute
            }
        }
        if problems.isEmpty { return .success(resolved) }
        return .failure(SampleFailure(index: index, sampleID: sample.id, problems: problems))
    }

    /// Resolves an entry: its decode failure, or `resolve(_:index:checks:)` of its sample.
    public func resolve(_ entry: DatasetEntry, checks: FileChecks = .all) -> Result<ResolvedSample, SampleFailure> {
        switch entry.result {
        case .success(let sample): resolve(sample, index: entry.index, checks: checks)
        case .failure(let failure): .failure(failure)
        }
    }

    /// Every sample, decoded and resolved one at a time (for a streaming run).
    public func resolvedSamples(checks: FileChecks = .all)
        -> LazyMapSequence<DatasetEntries, Result<ResolvedSample, SampleFailure>>
    {
        entries.lazy.map { resolve($0, checks: checks) }
    }

    /// Checks the whole manifest and returns every problem: header, each sample's
    /// fields, duplicate ids, and each referenced file; with `.depthSize`, a video
    /// sample's files are also read (`loadVideo`).
    public func validate(checks: FileChecks = .all) -> DatasetValidationReport {
        var problems = headerProblems
        var valid = 0
        for entry in entries {
            switch resolve(entry, checks: checks) {
            case .success(let resolved) where resolved.sample.video != nil && checks.contains(.depthSize):
                // A video sample's files are read as the loader reads them (blob, chain, frame header).
                switch loadVideo(resolved) {
                case .success: valid += 1
                case .failure(let failure): problems += failure.problems
                }
            case .success: valid += 1
            case .failure(let failure): problems += failure.problems
            }
        }
        return DatasetValidationReport(
            manifest: manifestPath, sampleCount: sampleCount,
            validSampleCount: valid, problems: problems)
    }

    /// What the file at `path` is when it is not a regular file ("a named pipe (FIFO)",
    /// "a character device", ...), following symbolic links; nil for a regular file, a
    /// directory (reported apart) or a path `stat` cannot describe (the read reports it). Reading a FIFO blocks until
    /// a writer comes and `/dev/zero` never ends, so neither is opened.
    static func nonRegularKind(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    /// Problems with one referenced file (empty when it is fine).
    func check(
        _ file: FileReference, absolutePath: String, sample: DatasetSample, jsonPath: String,
        checks: FileChecks
    ) -> [DatasetProblem] {
        let where_ = jsonPath + "." + file.jsonPath
        func problem(_ kind: DatasetProblem.Kind, _ message: String) -> DatasetProblem {
            DatasetProblem(
                kind, manifest: manifestPath, jsonPath: where_, sampleID: sample.id,
                file: file.path, message)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolutePath, isDirectory: &isDirectory) else {
            let dangling = (try? FileManager.default.destinationOfSymbolicLink(atPath: absolutePath)) != nil
            return [
                problem(
                    .missingFile,
                    dangling
                        ? "broken symbolic link at \(absolutePath)"
                        : "no such file (looked at \(absolutePath))")
            ]
        }
        if isDirectory.boolValue {
            return [problem(.unreadableFile, "is a directory, expected a file (\(absolutePath))")]
        }
        if let kind = Self.nonRegularKind(atPath: absolutePath) {
            return [problem(.unreadableFile, "is \(kind), not a regular file (\(absolutePath))")]
        }
        var problems: [DatasetProblem] = []
        if checks.contains(.hashes), let expected = file.sha256 {
            if !FileHashes.isValidDigest(expected) {
                problems.append(problem(.invalidValue, "sha256 '\(expected)' is not a SHA-256 digest (64 hex digits)"))
            } else {
                do {
                    let actual = try SHA256Digest.hash(fileAt: absolutePath)
                    if actual.lowercased() != expected.lowercased() {
                        problems.append(
                            problem(
                                .hashMismatch, "SHA-256 is \(actual), the manifest expects \(expected.lowercased())"))
                    }
                } catch {
                    let reason = (error as? MediaError)?.detail ?? "\(error)"
                    problems.append(problem(.unreadableFile, "cannot read to hash: \(reason)"))
                }
            }
        }
        if checks.contains(.depthSize), file.role == .depth, let depth = sample.depth,
            let message = DepthSizeCheck.problem(
                depth, absolutePath: absolutePath, imagePath: self.absolutePath(sample.image))
        {
            problems.append(problem(message.kind, message.text))
        }
        return problems
    }
}
