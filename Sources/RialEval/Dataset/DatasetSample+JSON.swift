import Foundation
import RialDetection
import RialMedia

extension DatasetSample {
    /// Keys the format defines for a sample; every other key is an extension.
    public static let knownKeys: Set<String> = Set(
        [
            "id", "kind", "image", "label", "depth", "stereo", "attestation", "platform", "device_model",
            "captured_at", "group", "split", "tags", "sha256", "source", "license",
        ] + VideoReference.sampleKeys)

    /// The sample as a manifest object: defined keys in the format's order, then the
    /// extensions in their order.
    ///
    /// `split` is always written; `attestation` only when it is not `none`, `tags` only
    /// when not empty; other optional keys only when set.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        o["id"] = .string(id)
        if video != nil { o["kind"] = .string(SampleKind.video.rawValue) }
        if video == nil || !image.isEmpty { o["image"] = .string(image) }
        o["label"] = .string(label.rawValue)
        if let depth { o["depth"] = depth.jsonValue }
        if let stereo { o["stereo"] = stereo.jsonValue }
        video?.write(into: &o)
        if attestation != .none { o["attestation"] = .string(attestation.rawValue) }
        if let platform { o["platform"] = .string(platform) }
        if let deviceModel { o["device_model"] = .string(deviceModel) }
        if let capturedAt { o["captured_at"] = .string(capturedAt) }
        if let group { o["group"] = .string(group) }
        o["split"] = .string(split.rawValue)
        if !tags.isEmpty { o["tags"] = .array(tags.map(JSONValue.string)) }
        if let sha256 { o["sha256"] = sha256.jsonValue }
        if let source { o["source"] = .string(source) }
        if let license { o["license"] = .string(license) }
        for (key, value) in extensions { o[key] = value }
        return .object(o)
    }

    /// Decodes one manifest sample, collecting every problem instead of stopping at the first.
    ///
    /// - Parameters:
    ///   - value: the element of `samples`.
    ///   - jsonPath: its location, e.g. `samples[3]`, used in every problem.
    ///   - manifest: the manifest's name for messages.
    /// - Returns: the sample, or `nil` when any problem was found; and the problems.
    public static func decode(_ value: JSONValue, jsonPath: String, manifest: String)
        -> (sample: DatasetSample?, problems: [DatasetProblem])
    {
        var reader = FieldReader(manifest: manifest)
        guard case .object(let o) = value else {
            reader.report(.wrongType, jsonPath, "expected a sample object, found \(value.typeDescription)")
            return (nil, reader.problems)
        }
        let id = reader.string(o, "id", in: jsonPath, required: true, nonEmpty: true)
        reader.sampleID = id
        let kind: SampleKind? = reader.enumeration(o, "kind", in: jsonPath, what: "sample kind")
        let image = reader.string(o, "image", in: jsonPath, required: kind != .video, nonEmpty: true)
        let label: SampleLabel? = reader.enumeration(o, "label", in: jsonPath, required: true, what: "label")
        let attestation: AttestationLevel? = reader.enumeration(o, "attestation", in: jsonPath, what: "attestation")
        let split: DatasetSplit? = reader.enumeration(o, "split", in: jsonPath, what: "split")
        let platform = reader.string(o, "platform", in: jsonPath)
        let deviceModel = reader.string(o, "device_model", in: jsonPath)
        let capturedAt = reader.string(o, "captured_at", in: jsonPath)
        if let capturedAt, !Self.isISO8601(capturedAt) {
            reader.report(
                .invalidValue, jsonPath + ".captured_at",
                "'\(capturedAt)' is not an ISO 8601 date or date-time (e.g. 2025-12-01T10:00:00Z)")
        }
        let group = reader.string(o, "group", in: jsonPath, nonEmpty: true)
        let source = reader.string(o, "source", in: jsonPath)
        let license = reader.string(o, "license", in: jsonPath)
        let tags = reader.stringArray(o, "tags", in: jsonPath)
        let depth = o["depth"].flatMap { reader.depth($0, at: jsonPath + ".depth") }
        let stereo = o["stereo"].flatMap { reader.stereo($0, at: jsonPath + ".stereo") }
        var video: VideoReference?
        if kind == .video {
            video = reader.video(o, in: jsonPath)
        } else {
            reader.rejectVideoKeys(o, in: jsonPath)
        }
        let hashes = o["sha256"].flatMap { reader.hashes($0, at: jsonPath + ".sha256") }
        if let hashes {
            for (key, hash, file) in [
                ("image", hashes.image, o["image"]), ("frames", hashes.frames, o["frames"]),
                ("video", hashes.video, o["video"]), ("depth_keyframes", hashes.depthKeyframes, o["depth_keyframes"]),
                ("hash_chain", hashes.hashChain, o["hash_chain"]),
            ] where hash != nil && file == nil {
                reader.report(
                    .invalidValue, jsonPath + ".sha256." + key, "a hash for '\(key)' is given but the sample has none")
            }
            if hashes.depth != nil, o["depth"] == nil {
                reader.report(
                    .invalidValue, jsonPath + ".sha256.depth", "a depth hash is given but the sample has no depth")
            }
            if hashes.right != nil, o["stereo"] == nil {
                reader.report(
                    .invalidValue, jsonPath + ".sha256.right", "a right-view hash is given but the sample has no stereo"
                )
            }
        }
        var extensions = JSONObject()
        for (key, value) in o where !knownKeys.contains(key) { extensions[key] = value }

        guard reader.problems.isEmpty, let id, let label, image != nil || video != nil else {
            return (nil, reader.problems)
        }
        let sample = DatasetSample(
            id: id, image: image ?? "", label: label, depth: depth, stereo: stereo,
            attestation: attestation ?? .none, platform: platform, deviceModel: deviceModel,
            capturedAt: capturedAt, group: group, split: split ?? .test, tags: tags ?? [],
            sha256: hashes, source: source, license: license, extensions: extensions, video: video)
        return (sample, [])
    }

    /// True for `YYYY-MM-DD` or an RFC 3339 date-time with a zone (fractional seconds allowed).
    static func isISO8601(_ text: String) -> Bool {
        let dateTime = ISO8601DateFormatter()
        if dateTime.date(from: text) != nil { return true }
        dateTime.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if dateTime.date(from: text) != nil { return true }
        dateTime.formatOptions = [.withFullDate]
        return text.count == 10 && dateTime.date(from: text) != nil
    }
}

extension DepthReference {
    /// Keys the format defines for `depth`.
    public static let knownKeys: Set<String> = ["path", "format", "width", "height", "scale"]

    /// The `depth` object as written to a manifest.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        o["path"] = .string(path)
        o["format"] = .string(format.rawValue)
        if let width { o["width"] = .number(Double(width)) }
        if let height { o["height"] = .number(Double(height)) }
        if let scale { o["scale"] = .number(scale) }
        for (key, value) in extensions { o[key] = value }
        return .object(o)
    }
}

extension StereoReference {
    /// Keys the format defines for `stereo`.
    public static let knownKeys: Set<String> = ["right", "focal_px", "baseline_mm"]

    /// The `stereo` object as written to a manifest.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        o["right"] = .string(right)
        if let focalPx { o["focal_px"] = .number(focalPx) }
        if let baselineMm { o["baseline_mm"] = .number(baselineMm) }
        for (key, value) in extensions { o[key] = value }
        return .object(o)
    }
}

extension FileHashes {
    /// Keys the format defines for `sha256`.
    public static let knownKeys: Set<String> = [
        "image", "depth", "right", "frames", "video", "depth_keyframes", "hash_chain",
    ]

    /// The `sha256` object as written to a manifest.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        if let image { o["image"] = .string(image) }
        if let depth { o["depth"] = .string(depth) }
        if let right { o["right"] = .string(right) }
        if let frames { o["frames"] = .string(frames) }
        if let video { o["video"] = .string(video) }
        if let depthKeyframes { o["depth_keyframes"] = .string(depthKeyframes) }
        if let hashChain { o["hash_chain"] = .string(hashChain) }
        for (key, value) in extensions { o[key] = value }
        return .object(o)
    }

    /// True when `text` is 64 hexadecimal digits (either case).
    public static func isValidDigest(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            }
    }
}

/// Reads typed fields from manifest objects, recording a problem for each bad one.
struct FieldReader {
    let manifest: String
    var sampleID: String?
    var problems: [DatasetProblem] = []

    init(manifest: String) { self.manifest = manifest }

    mutating func report(_ kind: DatasetProblem.Kind, _ jsonPath: String, file: String? = nil, _ message: String) {
        problems.append(
            DatasetProblem(
                kind, manifest: manifest, jsonPath: jsonPath, sampleID: sampleID,
                file: file, message))
    }

    /// The string at `key`; `nil` (and a problem) when required and absent, or not a string.
    mutating func string(
        _ o: JSONObject, _ key: String, in parent: String, required: Bool = false,
        nonEmpty: Bool = false
    ) -> String? {
        let path = Self.join(parent, key)
        guard let value = o[key] else {
            if required { report(.missingKey, parent, "missing required key '\(key)'") }
            return nil
        }
        guard case .string(let s) = value else {
            report(.wrongType, path, "expected a string, found \(value.typeDescription)")
            return nil
        }
        if nonEmpty, s.isEmpty {
            report(.invalidValue, path, "must not be empty")
            return nil
        }
        return s
    }

    /// A finite number greater than zero at `key`, or `nil`.
    mutating func positiveNumber(_ o: JSONObject, _ key: String, in parent: String, required: Bool = false) -> Double? {
        let path = Self.join(parent, key)
        guard let value = o[key] else {
            if required { report(.missingKey, parent, "missing required key '\(key)'") }
            return nil
        }
        guard case .number(let n) = value else {
            report(.wrongType, path, "expected a number, found \(value.typeDescription)")
            return nil
        }
        guard n > 0, n.isFinite else {
            report(.invalidValue, path, "must be a positive number, found \(JSONValue.numberText(n))")
            return nil
        }
        return n
    }

    /// A whole number in `1...maximum` at `key`, or `nil`.
    mutating func positiveInt(_ o: JSONObject, _ key: String, in parent: String, maximum: Int) -> Int? {
        let path = Self.join(parent, key)
        guard let value = o[key] else { return nil }
        guard case .number(let n) = value else {
            report(.wrongType, path, "expected a whole number, found \(value.typeDescription)")
            return nil
        }
        guard n == n.rounded(), n >= 1, n <= Double(maximum) else {
            report(.invalidValue, path, "must be a whole number in 1...\(maximum), found \(JSONValue.numberText(n))")
            return nil
        }
        return Int(n)
    }

    /// A case of `E` named by the string at `key`; unknown names list the allowed ones.
    mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _ o: JSONObject, _ key: String, in parent: String, required: Bool = false, what: String
    ) -> E? where E.RawValue == String {
        guard let raw = string(o, key, in: parent, required: required) else { return nil }
        guard let value = E(rawValue: raw) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            report(.unknownValue, Self.join(parent, key), "unknown \(what) '\(raw)' (expected one of \(allowed))")
            return nil
        }
        return value
    }

    /// An array of strings at `key`, or `nil`.
    mutating func stringArray(_ o: JSONObject, _ key: String, in parent: String) -> [String]? {
        guard let value = o[key] else { return nil }
        guard case .array(let elements) = value else {
            report(.wrongType, Self.join(parent, key), "expected an array of strings, found \(value.typeDescription)")
            return nil
        }
        var strings: [String] = []
        for (i, element) in elements.enumerated() {
            guard case .string(let s) = element else {
                report(
                    .wrongType, "\(Self.join(parent, key))[\(i)]", "expected a string, found \(element.typeDescription)"
                )
                continue
            }
            strings.append(s)
        }
        return strings
    }

    mutating func object(_ value: JSONValue, at path: String) -> JSONObject? {
        guard case .object(let o) = value else {
            report(.wrongType, path, "expected an object, found \(value.typeDescription)")
            return nil
        }
        return o
    }

    mutating func depth(_ value: JSONValue, at path: String) -> DepthReference? {
        guard let o = object(value, at: path) else { return nil }
        let before = problems.count
        let file = string(o, "path", in: path, required: true, nonEmpty: true)
        let format: DepthFormat? = enumeration(o, "format", in: path, required: true, what: "depth format")
        let width = positiveInt(o, "width", in: path, maximum: 65536)
        let height = positiveInt(o, "height", in: path, maximum: 65536)
        let scale = positiveNumber(o, "scale", in: path, required: format?.needsScale ?? false)
        if let format, o["scale"] != nil, !format.needsScale, format != .npy, format != .npz {
            report(
                .invalidValue, Self.join(path, "scale"),
                "format \(format.rawValue) takes no scale; scale applies to u16_png_scaled, npy and npz")
        }
        if let width, let height, width.multipliedReportingOverflow(by: height).partialValue > DepthFormat.maxPixels {
            report(
                .invalidValue, path,
                "depth size \(width)x\(height) exceeds the limit of \(DepthFormat.maxPixels) pixels")
        }
        if (o["width"] == nil) != (o["height"] == nil) {
            report(.missingKey, path, "give both 'width' and 'height' or neither")
        }
        var extensions = JSONObject()
        for (key, value) in o where !DepthReference.knownKeys.contains(key) { extensions[key] = value }
        guard problems.count == before, let file, let format else { return nil }
        return DepthReference(
            path: file, format: format, width: width, height: height, scale: scale,
            extensions: extensions)
    }

    mutating func stereo(_ value: JSONValue, at path: String) -> StereoReference? {
        guard let o = object(value, at: path) else { return nil }
        let before = problems.count
        let right = string(o, "right", in: path, required: true, nonEmpty: true)
        let focal = positiveNumber(o, "focal_px", in: path)
        let baseline = positiveNumber(o, "baseline_mm", in: path)
        var extensions = JSONObject()
        for (key, value) in o where !StereoReference.knownKeys.contains(key) { extensions[key] = value }
        guard problems.count == before, let right else { return nil }
        return StereoReference(right: right, focalPx: focal, baselineMm: baseline, extensions: extensions)
    }

    mutating func hashes(_ value: JSONValue, at path: String) -> FileHashes? {
        guard let o = object(value, at: path) else { return nil }
        let before = problems.count
        func digest(_ key: String) -> String? {
            guard let text = string(o, key, in: path) else { return nil }
            guard FileHashes.isValidDigest(text) else {
                report(.invalidValue, Self.join(path, key), "'\(text)' is not a SHA-256 digest (64 hex digits)")
                return nil
            }
            return text
        }
        let image = digest("image"), depth = digest("depth"), right = digest("right")
        let frames = digest("frames"), video = digest("video")
        let keyframes = digest("depth_keyframes"), chain = digest("hash_chain")
        var extensions = JSONObject()
        for (key, value) in o where !FileHashes.knownKeys.contains(key) { extensions[key] = value }
        guard problems.count == before else { return nil }
        return FileHashes(
            image: image, depth: depth, right: right, frames: frames, video: video, depthKeyframes: keyframes,
            hashChain: chain, extensions: extensions)
    }

    static func join(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : parent + "." + key
    }
}
