import RialCodecs
import RialMedia
import RialProvenance

/// What a manifest sample holds: a photo (the default) or a video recording
/// (docs/dataset-format-video.md).
public enum SampleKind: String, Sendable, Equatable, CaseIterable, Codable {
    case photo
    case video
}

/// The video keys of a `kind: video` sample (docs/dataset-format-video.md): where the
/// frames, depth keyframes and hash chain are, the recording's rate and size, and for a
/// tamper-suite sample what was done to it.
///
/// Paths as written in the manifest (relative to its folder, or absolute).
public struct VideoReference: Sendable, Equatable {
    /// `frames`: the raw frame sequence (`RawFrameSequence`, `.rlfs`), the bytes the hash
    /// chain covers.
    public var frames: String?
    /// `video`: an MP4 (H.264 or HEVC) of the same recording, for decoding; its decoded
    /// pixels are not the bytes the chain covers.
    public var video: String?
    /// `depth_keyframes`: the deployed depth keyframe blob.
    public var depthKeyframes: DepthKeyframesReference?
    /// `hash_chain`: the recorded chain as JSON (`HashChainRecord`).
    public var hashChain: String?
    /// `fps`: frames per second (the product records 30).
    public var framesPerSecond: Double?
    /// `frame_width`, `frame_height`: the frames' pixel grid (even, NV12).
    public var frameWidth: Int?
    public var frameHeight: Int?
    /// `tamper`: for a tamper-suite sample, what was done; nil when the key is absent
    /// (same as intact).
    public var tamper: TamperLabel?

    public init(
        frames: String? = nil, video: String? = nil, depthKeyframes: DepthKeyframesReference? = nil,
        hashChain: String? = nil, framesPerSecond: Double? = nil, frameWidth: Int? = nil, frameHeight: Int? = nil,
        tamper: TamperLabel? = nil
    ) {
        self.frames = frames
        self.video = video
        self.depthKeyframes = depthKeyframes
        self.hashChain = hashChain
        self.framesPerSecond = framesPerSecond
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.tamper = tamper
    }

    /// The sample keys a video sample adds, in the order they are written.
    public static let sampleKeys: [String] = [
        "frames", "video", "depth_keyframes", "hash_chain", "fps", "frame_width", "frame_height", "tamper",
    ]
}

/// The `depth_keyframes` object of a video sample.
public struct DepthKeyframesReference: Sendable, Equatable {
    /// The blob file.
    public var path: String
    /// `variant`: `rldp` or `headerless`; nil to tell from the blob's first bytes.
    public var variant: DepthKeyframeBlob.Variant?
    /// Depth width and height in pixels: required for a headerless blob (it does not
    /// store them), checked against the header of an `RLDP` one.
    public var width: Int?
    public var height: Int?
    /// `frames`: the 0-based video frame of each keyframe, null for a keyframe no frame
    /// carries; absent to match keyframes to frames by timestamp (`KeyframeAssignment`).
    public var frames: [Int?]?
    /// Keys the format does not define.
    public var extensions: JSONObject

    public init(
        path: String, variant: DepthKeyframeBlob.Variant? = nil, width: Int? = nil, height: Int? = nil,
        frames: [Int?]? = nil, extensions: JSONObject = [:]
    ) {
        self.path = path
        self.variant = variant
        self.width = width
        self.height = height
        self.frames = frames
        self.extensions = extensions
    }

    public static let knownKeys: Set<String> = ["path", "variant", "width", "height", "frames"]

    public var jsonValue: JSONValue {
        var o = JSONObject()
        o["path"] = .string(path)
        if let variant { o["variant"] = .string(variant.rawValue) }
        if let width { o["width"] = .number(Double(width)) }
        if let height { o["height"] = .number(Double(height)) }
        if let frames { o["frames"] = .array(frames.map { $0.map { .number(Double($0)) } ?? .null }) }
        for (key, value) in extensions { o[key] = value }
        return .object(o)
    }
}

/// The `tamper` object of a tamper-suite sample: `{"kind": "intact"}` or
/// `{"kind": "dropped", "frame": 90}`.
public struct TamperLabel: Sendable, Equatable {
    /// What was done (`HashChainVerification.Tamper`); nil for `intact`.
    public var kind: HashChainVerification.Tamper?
    /// The first frame (1-based) the tamper affects, as `HashChainVerification.firstBadFrame`
    /// reports it; nil for intact and for tampers not placed on a frame.
    public var frame: Int?

    public init(kind: HashChainVerification.Tamper?, frame: Int? = nil) {
        self.kind = kind
        self.frame = frame
    }

    /// The `kind` text for an intact recording.
    public static let intact = "intact"

    public var jsonValue: JSONValue {
        var o = JSONObject()
        o["kind"] = .string(kind?.rawValue ?? Self.intact)
        if let frame { o["frame"] = .number(Double(frame)) }
        return .object(o)
    }
}

extension VideoReference {
    /// Writes the video keys into a sample object.
    func write(into o: inout JSONObject) {
        if let frames { o["frames"] = .string(frames) }
        if let video { o["video"] = .string(video) }
        if let depthKeyframes { o["depth_keyframes"] = depthKeyframes.jsonValue }
        if let hashChain { o["hash_chain"] = .string(hashChain) }
        if let framesPerSecond { o["fps"] = .number(framesPerSecond) }
        if let frameWidth { o["frame_width"] = .number(Double(frameWidth)) }
        if let frameHeight { o["frame_height"] = .number(Double(frameHeight)) }
        if let tamper { o["tamper"] = tamper.jsonValue }
    }
}

extension FieldReader {
    /// The video keys of a `kind: video` sample; nil (with problems) when any is bad.
    mutating func video(_ o: JSONObject, in path: String) -> VideoReference? {
        let before = problems.count
        let frames = string(o, "frames", in: path, nonEmpty: true)
        let video = string(o, "video", in: path, nonEmpty: true)
        if o["frames"] == nil, o["video"] == nil {
            report(
                .missingKey, path,
                "a video sample needs 'frames' (the raw frame sequence) or 'video' (an MP4), or both")
        }
        let keyframes = o["depth_keyframes"].flatMap { depthKeyframes($0, at: Self.join(path, "depth_keyframes")) }
        let chain = string(o, "hash_chain", in: path, nonEmpty: true)
        let fps = positiveNumber(o, "fps", in: path)
        let width = positiveInt(o, "frame_width", in: path, maximum: RawFrameSequence.maximumSide)
        let height = positiveInt(o, "frame_height", in: path, maximum: RawFrameSequence.maximumSide)
        for (key, value) in [("frame_width", width), ("frame_height", height)] {
            if let value, value % 2 != 0 {
                report(.invalidValue, Self.join(path, key), "must be even (4:2:0 frames), found \(value)")
            }
        }
        if (o["frame_width"] == nil) != (o["frame_height"] == nil) {
            report(.missingKey, path, "give both 'frame_width' and 'frame_height' or neither")
        }
        let tamper = o["tamper"].flatMap { tamperLabel($0, at: Self.join(path, "tamper")) }
        for key in ["depth", "stereo"] where o[key] != nil {
            report(
                .invalidValue, Self.join(path, key),
                key == "depth"
                    ? "a video sample has no 'depth'; its depth is 'depth_keyframes'"
                    : "a video sample has no 'stereo'")
        }
        guard problems.count == before else { return nil }
        return VideoReference(
            frames: frames, video: video, depthKeyframes: keyframes, hashChain: chain, framesPerSecond: fps,
            frameWidth: width, frameHeight: height, tamper: tamper)
    }

    /// Reports every video key on a photo sample.
    mutating func rejectVideoKeys(_ o: JSONObject, in path: String) {
        for key in VideoReference.sampleKeys where o[key] != nil {
            report(.invalidValue, Self.join(path, key), "only a video sample (\"kind\": \"video\") has '\(key)'")
        }
    }

    mutating func depthKeyframes(_ value: JSONValue, at path: String) -> DepthKeyframesReference? {
        guard let o = object(value, at: path) else { return nil }
        let before = problems.count
        let file = string(o, "path", in: path, required: true, nonEmpty: true)
        let variant: DepthKeyframeBlob.Variant? = enumeration(o, "variant", in: path, what: "depth keyframe variant")
        let width = positiveInt(o, "width", in: path, maximum: Int(UInt16.max))
        let height = positiveInt(o, "height", in: path, maximum: Int(UInt16.max))
        if (o["width"] == nil) != (o["height"] == nil) {
            report(.missingKey, path, "give both 'width' and 'height' or neither")
        }
        if variant == .headerless, o["width"] == nil || o["height"] == nil {
            report(
                .missingKey, path,
                "a headerless depth keyframe blob does not store its size: give 'width' and 'height'")
        }
        var frames: [Int?]?
        if let value = o["frames"] {
            let key = Self.join(path, "frames")
            if case .array(let elements) = value {
                var list: [Int?] = []
                for (i, element) in elements.enumerated() {
                    switch element {
                    case .null:
                        list.append(nil)
                    case .number(let n) where n == n.rounded() && n >= 0 && n < Double(RawFrameSequence.maximumFrames):
                        list.append(Int(n))
                    default:
                        report(
                            .invalidValue, "\(key)[\(i)]",
                            "expected a 0-based frame index below \(RawFrameSequence.maximumFrames) or null, found "
                                + element.typeDescription)
                    }
                }
                frames = list
            } else {
                report(.wrongType, key, "expected an array of frame indices, found \(value.typeDescription)")
            }
        }
        var extensions = JSONObject()
        for (key, value) in o where !DepthKeyframesReference.knownKeys.contains(key) { extensions[key] = value }
        guard problems.count == before, let file else { return nil }
        return DepthKeyframesReference(
            path: file, variant: variant, width: width, height: height, frames: frames, extensions: extensions)
    }

    mutating func tamperLabel(_ value: JSONValue, at path: String) -> TamperLabel? {
        guard let o = object(value, at: path) else { return nil }
        let before = problems.count
        let text = string(o, "kind", in: path, required: true)
        var kind: HashChainVerification.Tamper?
        if let text, text != TamperLabel.intact {
            kind = HashChainVerification.Tamper(rawValue: text)
            if kind == nil {
                let allowed = ([TamperLabel.intact] + HashChainVerification.Tamper.allCases.map(\.rawValue))
                    .joined(separator: ", ")
                report(
                    .unknownValue, Self.join(path, "kind"), "unknown tamper kind '\(text)' (expected one of \(allowed))"
                )
            }
        }
        let frame = positiveInt(o, "frame", in: path, maximum: RawFrameSequence.maximumFrames)
        if text == TamperLabel.intact, o["frame"] != nil {
            report(.invalidValue, Self.join(path, "frame"), "an intact recording has no tampered frame")
        }
        for key in o.keys where key != "kind" && key != "frame" {
            report(.invalidValue, Self.join(path, key), "unknown key '\(key)' (tamper has 'kind' and 'frame')")
        }
        guard problems.count == before, text != nil else { return nil }
        return TamperLabel(kind: kind, frame: frame)
    }
}
