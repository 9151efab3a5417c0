import RialDetection
import RialMedia

/// One sample of a `rial-bench-dataset/1` manifest (specs/dataset-format.md).
///
/// Paths are as written in the manifest: relative to the manifest's folder, or
/// absolute. `DatasetLoader.resolve` turns them into checked absolute paths.
/// Keys the format does not define are kept in `extensions`, in order, and written
/// back unchanged.
public struct DatasetSample: Sendable, Equatable {
    /// Unique within the manifest.
    public var id: String
    /// The image file (JPEG or PNG). A video sample (`video` set) may have none: then
    /// this is empty and the manifest omits the key.
    public var image: String
    public var label: SampleLabel
    public var depth: DepthReference?
    public var stereo: StereoReference?
    /// `none` when the manifest omits it.
    public var attestation: AttestationLevel
    /// Free text, e.g. `ios`.
    public var platform: String?
    /// Free text, e.g. `iPhone 15 Pro`.
    public var deviceModel: String?
    /// ISO 8601 date or date-time, as written.
    public var capturedAt: String?
    /// Samples sharing a session, device or scene; resampling keeps a group together.
    public var group: String?
    /// `test` when the manifest omits it.
    public var split: DatasetSplit
    public var tags: [String]
    /// Expected SHA-256 (hex) of the image, depth and right-stereo files.
    public var sha256: FileHashes?
    /// Where the image comes from, e.g. `github:OWNER/REPO@COMMIT:PATH` (see `UpstreamSource`).
    public var source: String?
    public var license: String?
    /// Keys not defined by the format, e.g. `"synth": {...}`, in manifest order.
    public var extensions: JSONObject
    /// The video keys of a `kind: video` sample (docs/dataset-format-video.md); nil for a photo.
    public var video: VideoReference?

    /// `video` for a sample with `video` set, else `photo`.
    public var kind: SampleKind { video == nil ? .photo : .video }

    public init(
        id: String, image: String, label: SampleLabel, depth: DepthReference? = nil,
        stereo: StereoReference? = nil, attestation: AttestationLevel = .none,
        platform: String? = nil, deviceModel: String? = nil, capturedAt: String? = nil,
        group: String? = nil, split: DatasetSplit = .test, tags: [String] = [],
        sha256: FileHashes? = nil, source: String? = nil, license: String? = nil,
        extensions: JSONObject = [:], video: VideoReference? = nil
    ) {
        self.id = id
        self.image = image
        self.label = label
        self.depth = depth
        self.stereo = stereo
        self.attestation = attestation
        self.platform = platform
        self.deviceModel = deviceModel
        self.capturedAt = capturedAt
        self.group = group
        self.split = split
        self.tags = tags
        self.sha256 = sha256
        self.source = source
        self.license = license
        self.extensions = extensions
        self.video = video
    }

    /// The resampling unit: the named `group`, or the sample alone when it has none.
    public var groupKey: DatasetGroupKey {
        group.map(DatasetGroupKey.named) ?? .single(sampleID: id)
    }
}

/// The unit that splits and cluster bootstraps keep together.
///
/// Ordered: named groups by name first, then single samples by id.
public enum DatasetGroupKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Samples with this `group` value.
    case named(String)
    /// A sample without a `group`: its own group.
    case single(sampleID: String)

    public var description: String {
        switch self {
        case .named(let name): name
        case .single(let id): "(sample \(id))"
        }
    }

    public static func < (lhs: DatasetGroupKey, rhs: DatasetGroupKey) -> Bool {
        switch (lhs, rhs) {
        case (.named(let a), .named(let b)): Array(a.utf8).lexicographicallyPrecedes(b.utf8)
        case (.single(let a), .single(let b)): Array(a.utf8).lexicographicallyPrecedes(b.utf8)
        case (.named, .single): true
        case (.single, .named): false
        }
    }
}

/// The `depth` object of a sample: a depth map aligned with the image's stored pixel grid.
public struct DepthReference: Sendable, Equatable {
    /// The depth file.
    public var path: String
    public var format: DepthFormat
    /// Declared width in pixels; float formats default to `DepthFormat.defaultWidth` (256).
    public var width: Int?
    /// Declared height in pixels; float formats default to `DepthFormat.defaultHeight` (192).
    public var height: Int?
    /// Metres per stored unit: required for `u16_png_scaled` (e.g. 1/256), optional for
    /// NumPy formats.
    public var scale: Double?
    /// Keys the format does not define.
    public var extensions: JSONObject

    public init(
        path: String, format: DepthFormat, width: Int? = nil, height: Int? = nil,
        scale: Double? = nil, extensions: JSONObject = [:]
    ) {
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.scale = scale
        self.extensions = extensions
    }

    /// The size a reader should expect: the declared size, or 256x192 for the headerless
    /// float formats; `nil` when the file carries its own size and the manifest declares none.
    public var expectedSize: (width: Int, height: Int)? {
        if let width, let height { return (width, height) }
        if format.needsDimensions { return (width ?? DepthFormat.defaultWidth, height ?? DepthFormat.defaultHeight) }
        return nil
    }
}

/// The `stereo` object of a sample: the image is the left view of a rectified pair.
public struct StereoReference: Sendable, Equatable {
    /// The right view.
    public var right: String
    /// Focal length in pixels of the stored images.
    public var focalPx: Double?
    /// Distance between the two camera centres in millimetres.
    public var baselineMm: Double?
    /// Keys the format does not define.
    public var extensions: JSONObject

    public init(
        right: String, focalPx: Double? = nil, baselineMm: Double? = nil,
        extensions: JSONObject = [:]
    ) {
        self.right = right
        self.focalPx = focalPx
        self.baselineMm = baselineMm
        self.extensions = extensions
    }
}

/// The `sha256` object of a sample: lower- or upper-case hex digests, 64 characters.
public struct FileHashes: Sendable, Equatable {
    public var image: String?
    public var depth: String?
    public var right: String?
    /// Video samples: the frame sequence, the MP4, the depth keyframe blob, the chain JSON.
    public var frames: String?
    public var video: String?
    public var depthKeyframes: String?
    public var hashChain: String?
    /// Keys the format does not define.
    public var extensions: JSONObject

    public init(
        image: String? = nil, depth: String? = nil, right: String? = nil, frames: String? = nil,
        video: String? = nil, depthKeyframes: String? = nil, hashChain: String? = nil,
        extensions: JSONObject = [:]
    ) {
        self.image = image
        self.depth = depth
        self.right = right
        self.frames = frames
        self.video = video
        self.depthKeyframes = depthKeyframes
        self.hashChain = hashChain
        self.extensions = extensions
    }
}
