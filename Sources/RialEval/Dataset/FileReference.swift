import Foundation

/// One file a sample references, with what is known about it: expected SHA-256 and
/// where it comes from. `validate` checks each one; `fetch` makes each one available.
///
/// A sample references its `image`, its `depth.path`, its `stereo.right`, and every
/// extension object with a string `"path"` (e.g. `"ground_truth_disparity": {"path",
/// "format", "sha256", "source", "url"}`).
///
/// Upstream details of the defined files live in the extension `"upstream"`:
/// `{"image": {"url", "note"}, "depth": {"source", "url", "note"}, "right": {...}}`.
/// The image's source defaults to the sample's `source`.
public struct FileReference: Sendable, Hashable {
    public enum Role: Sendable, Hashable, CustomStringConvertible {
        case image
        case depth
        case right
        /// Video samples: the raw frame sequence, the MP4, the depth keyframe blob, the chain JSON.
        case frames
        case video
        case depthKeyframes
        case hashChain
        /// An extension object with a `path`, named by its key.
        case extensionFile(String)

        public var description: String {
            switch self {
            case .image: "image"
            case .depth: "depth"
            case .right: "right"
            case .frames: "frames"
            case .video: "video"
            case .depthKeyframes: "depth_keyframes"
            case .hashChain: "hash_chain"
            case .extensionFile(let key): key
            }
        }
    }

    public var role: Role
    /// The path as written in the manifest.
    public var path: String
    /// Where the path is written, relative to the sample: `image`, `depth.path`,
    /// `stereo.right`, `<key>.path`.
    public var jsonPath: String
    /// Expected SHA-256 (hex), when the manifest gives one.
    public var sha256: String?
    /// Upstream source string (see `UpstreamSource`).
    public var source: String?
    /// An explicit download URL.
    public var url: String?
    /// Why there is no direct download, when the manifest says so.
    public var note: String?

    public init(
        role: Role, path: String, jsonPath: String, sha256: String? = nil,
        source: String? = nil, url: String? = nil, note: String? = nil
    ) {
        self.role = role
        self.path = path
        self.jsonPath = jsonPath
        self.sha256 = sha256
        self.source = source
        self.url = url
        self.note = note
    }

    /// The URL to download from: the explicit `url`; else, when the manifest gives no
    /// `note`, the URL of a `github:` source; else `nil`.
    public var downloadURL: URL? {
        if let url { return URL(string: url) }
        guard note == nil, let source else { return nil }
        return UpstreamSource(parsing: source).downloadURL
    }

    /// Why the file cannot be downloaded, or `nil` when `downloadURL` exists.
    public var whyNotDownloadable: String? {
        if downloadURL != nil { return nil }
        if let url { return "url '\(url)' is not a valid URL" }
        if let note { return note + "; a mirror is needed" }
        guard let source else { return "the manifest gives no source or url; a mirror is needed" }
        return UpstreamSource(parsing: source).whyNotDownloadable ?? "no download URL; a mirror is needed"
    }
}

extension DatasetSample {
    /// The extension key holding upstream details of `image`, `depth` and `right`.
    public static let upstreamKey = "upstream"

    /// Every file this sample references, in order: image (unless a video sample has
    /// none), depth, right, the video files (frames, video, depth keyframes, hash chain),
    /// then extension files in key order.
    public var fileReferences: [FileReference] {
        let upstream = extensions[Self.upstreamKey]?.objectValue
        func reference(
            _ role: FileReference.Role, _ path: String, _ jsonPath: String, _ hash: String?,
            defaultSource: String? = nil
        ) -> FileReference {
            let entry = upstream?[role.description]?.objectValue
            return FileReference(
                role: role, path: path, jsonPath: jsonPath, sha256: hash,
                source: entry?["source"]?.stringValue ?? defaultSource,
                url: entry?["url"]?.stringValue, note: entry?["note"]?.stringValue)
        }
        var files: [FileReference] = []
        if video == nil || !image.isEmpty {
            files.append(reference(.image, image, "image", sha256?.image, defaultSource: source))
        }
        if let depth { files.append(reference(.depth, depth.path, "depth.path", sha256?.depth)) }
        if let stereo { files.append(reference(.right, stereo.right, "stereo.right", sha256?.right)) }
        if let video {
            if let path = video.frames { files.append(reference(.frames, path, "frames", sha256?.frames)) }
            if let path = video.video { files.append(reference(.video, path, "video", sha256?.video)) }
            if let keyframes = video.depthKeyframes {
                files.append(
                    reference(.depthKeyframes, keyframes.path, "depth_keyframes.path", sha256?.depthKeyframes))
            }
            if let path = video.hashChain { files.append(reference(.hashChain, path, "hash_chain", sha256?.hashChain)) }
        }
        for (key, value) in extensions where key != Self.upstreamKey {
            guard let object = value.objectValue, let path = object["path"]?.stringValue else { continue }
            files.append(
                FileReference(
                    role: .extensionFile(key), path: path, jsonPath: key + ".path",
                    sha256: object["sha256"]?.stringValue, source: object["source"]?.stringValue,
                    url: object["url"]?.stringValue, note: object["note"]?.stringValue))
        }
        return files
    }
}
