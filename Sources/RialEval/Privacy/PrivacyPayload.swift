import Foundation
import RialMedia
import RialProvenance

/// A privacy-mode (hash-only) payload: what the phone uploads instead of the capture when
/// the user turns Privacy Mode on (PRD 1.1 / 2.0 FR56-FR62, "Privacy Mode Technical
/// Details"; specs/methods.md section 6 "Privacy mode"): the media's hash, the phone's own
/// depth analysis, the metadata the user chose to share and the device's assertion over
/// them. The media itself never reaches the server (FR60).
///
/// Keys (snake_case; unknown keys are kept in `extra` and ignored):
/// ```json
/// {"capture_mode": "hash_only",
///  "media_hash": "<64 hex: SHA-256 of the media file's bytes>",
///  "media_type": "photo" | "video",
///  "depth_analysis": {"depth_variance": 1.2, "depth_layers": 4, "edge_coherence": 0.6,
///                     "min_depth": 0.8, "max_depth": 4.1, "is_likely_real_scene": true, ...},
///  "metadata": {"location": {"latitude": 48.85, "longitude": 2.35}, "timestamp": "2025-12-01",
///               "device_model": "iPhone 15 Pro",
///               "metadata_flags": {"location": "coarse", "timestamp": "day_only", "device_info": "model_only"}},
///  "captured_at": "2025-12-01T10:00:00Z",
///  "assertion": "<base64 DCAppAttest assertion>",
///  // video only:
///  "hash_chain": {"final_hash": "<base64 or hex of 32 bytes>", "chain_length": 450, "version": 1,
///                 "checkpoint_count": 3},
///  "temporal_depth_analysis": {"mean_variance": 1.1, "variance_stability": 0.93,
///                              "temporal_coherence": 0.5, "is_likely_real_scene": true, ...},
///  "frame_count": 450, "duration_ms": 15000}
/// ```
/// - `metadata_flags` may sit inside `metadata` (as methods.md draws it) or beside it; given
///   in both places they must be equal. Levels: location `none|coarse|precise`, timestamp
///   `none|day_only|exact` (FR62's `day` accepted), device info `none|model_only|full`
///   (FR62's `model` accepted): the PRD 1.1 "Granular Metadata Controls" table.
/// - `depth_analysis` may be absent or null: the user excluded depth ("Depth Map: Exclude",
///   same table), which is an opt-out, not a fault. When present it is the single-frame
///   result (`depth/1`'s keys: PRD 1.1 "Depth Analysis Algorithm").
/// - Video only: `hash_chain`, `frame_count`, `duration_ms` are required;
///   `temporal_depth_analysis` is optional like `depth_analysis`. A photo carrying any of
///   them is refused.
///
/// Parsing checks form only (types, ranges, the vocabulary); whether the payload agrees with
/// the media, the depth map, its own numbers and the metadata it carries is
/// `PrivacyVerification`'s job. Every problem is reported, each naming the key.
public struct PrivacyPayload: Sendable, Equatable {
    /// What was captured: the media `media_hash` covers.
    public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
        case photo, video
    }

    /// Location level (PRD 1.1 "Granular Metadata Controls": None / Coarse (city) / Precise).
    public enum LocationLevel: String, Sendable, Hashable, Codable, CaseIterable {
        case none, coarse, precise
    }

    /// Timestamp level (None / Day only / Exact).
    public enum TimestampLevel: String, Sendable, Hashable, Codable, CaseIterable {
        case none
        case dayOnly = "day_only"
        case exact
    }

    /// Device info level (None / Model only / Full).
    public enum DeviceInfoLevel: String, Sendable, Hashable, Codable, CaseIterable {
        case none
        case modelOnly = "model_only"
        case full
    }

    /// What the user chose to include, and at which level (FR62).
    public struct MetadataFlags: Sendable, Hashable, Codable {
        public var location: LocationLevel
        public var timestamp: TimestampLevel
        public var deviceInfo: DeviceInfoLevel

        public init(location: LocationLevel, timestamp: TimestampLevel, deviceInfo: DeviceInfoLevel) {
            self.location = location
            self.timestamp = timestamp
            self.deviceInfo = deviceInfo
        }

        enum CodingKeys: String, CodingKey {
            case location, timestamp
            case deviceInfo = "device_info"
        }
    }

    /// The `metadata` object: its values as sent (checked against the flags by
    /// `PrivacyVerification`), and the flags.
    public struct Metadata: Sendable, Equatable {
        /// `location`, when sent: an object with `latitude`/`longitude`, or a place name.
        public var location: JSONValue?
        /// `timestamp`, when sent (ISO 8601 date or date-time).
        public var timestamp: String?
        /// `device_model`, when sent (a string, or an object for `full`).
        public var deviceModel: JSONValue?
        public var flags: MetadataFlags
        /// Every key of `metadata` as sent, flags excluded.
        public var fields: JSONObject
    }

    /// The video payload's summary of the frame hash chain (methods.md section 6).
    public struct HashChainSummary: Sendable, Equatable {
        /// The chain's last hash, Hn.
        public var finalHash: ChainHash
        /// Frames chained (1...450).
        public var chainLength: Int
        /// The chain layout's version, as sent (a number or a string).
        public var version: JSONValue
        /// Checkpoints taken (0...3).
        public var checkpointCount: Int
    }

    /// Lower-case hex of the 32-byte SHA-256 the phone computed over the media file.
    public var mediaHash: String
    public var mediaType: MediaType
    /// The phone's single-frame depth analysis; nil when depth was excluded.
    public var depthAnalysis: JSONObject?
    public var metadata: Metadata
    /// `captured_at` as written, and read.
    public var capturedAt: String
    public var capturedAtDate: Date
    /// The device's assertion over the payload (base64), as sent; its signature cannot be
    /// checked without the device's registered key, which no payload carries.
    public var assertion: String
    /// Video only.
    public var hashChain: HashChainSummary?
    public var temporalDepthAnalysis: JSONObject?
    public var frameCount: Int?
    public var durationMs: Double?
    /// Size of the payload as uploaded (the bytes parsed), for the < 10 KB target.
    public var byteCount: Int
    /// Top-level keys this reader does not define, kept as sent.
    public var extra: JSONObject

    /// The keys of `depth_analysis` (depth/1's result) that are numbers >= 0.
    static let depthNonNegativeKeys = [
        "depth_variance", "min_depth", "max_depth", "mean_depth", "median_depth", "depth_range", "edge_ratio",
        "analysis_time_ms",
    ]
    /// The keys of `depth_analysis` that are numbers in 0...1.
    static let depthUnitKeys = ["edge_coherence", "coverage", "uniformity", "score", "margin"]
    /// The keys of `depth_analysis` that are booleans.
    static let depthFlagKeys = ["is_likely_real_scene", "is_screen_pattern"]
    /// The keys of `temporal_depth_analysis` that are numbers in 0...1: temporal/1's and
    /// the phone's privacy-mode variant's (methods.md section 6).
    static let temporalUnitKeys = ["depth_consistency", "motion_coherence", "scene_stability", "temporal_coherence"]
    /// The keys of `temporal_depth_analysis` that are numbers >= 0.
    static let temporalNonNegativeKeys = ["mean_variance", "analysis_time_ms"]
    /// Method statuses (specs/methods.md, "Every method returns a result with `status`").
    static let statuses = ["completed", "unavailable", "failed"]

    /// Reads and checks a payload.
    ///
    /// - Parameters:
    ///   - data: the payload file's bytes.
    ///   - source: the file's name, for messages.
    /// - Throws: `PrivacyPayloadError` listing every problem found, each naming the key.
    public static func parse(_ data: Data, source: String) throws(PrivacyPayloadError) -> PrivacyPayload {
        var problems = ProblemList(source: source)
        let value: JSONValue
        do { value = try JSONValue.parse(data) } catch {
            throw PrivacyPayloadError(source: source, [.init(key: nil, "not valid JSON: \(error.description)")])
        }
        guard let object = value.objectValue else {
            throw PrivacyPayloadError(
                source: source, [.init(key: nil, "the top level must be an object, got \(value.typeDescription)")])
        }
        let known: Set<String> = [
            "capture_mode", "media_hash", "media_type", "depth_analysis", "metadata", "metadata_flags", "captured_at",
            "assertion", "hash_chain", "temporal_depth_analysis", "frame_count", "duration_ms",
        ]

        switch object["capture_mode"] {
        case .string("hash_only")?: break
        case .string(let other)?: problems.add("capture_mode", "must be 'hash_only', got '\(other)'")
        case let other?: problems.add("capture_mode", "must be the string 'hash_only', got \(other.typeDescription)")
        case nil: problems.add("capture_mode", "is missing (a privacy payload has \"capture_mode\": \"hash_only\")")
        }

        var mediaHash = ""
        switch object["media_hash"] {
        case .string(let text)?:
            if text.utf8.count == 64, text.utf8.allSatisfy(Self.isHexDigit) {
                mediaHash = text.lowercased()
            } else {
                problems.add(
                    "media_hash",
                    "must be 64 hexadecimal characters (SHA-256), got \(text.utf8.count) characters"
                        + (text.utf8.allSatisfy(Self.isHexDigit) ? "" : " including non-hex ones"))
            }
        case let other?:
            problems.add("media_hash", "must be a string of 64 hex characters, got \(other.typeDescription)")
        case nil: problems.add("media_hash", "is missing")
        }

        var mediaType = MediaType.photo
        switch object["media_type"] {
        case .string(let text)?:
            if let type = MediaType(rawValue: text) {
                mediaType = type
            } else {
                problems.add("media_type", "must be 'photo' or 'video', got '\(text)'")
            }
        case let other?: problems.add("media_type", "must be 'photo' or 'video', got \(other.typeDescription)")
        case nil: problems.add("media_type", "is missing")
        }

        let depthAnalysis = analysisObject(object, key: "depth_analysis", problems: &problems)
        if let depthAnalysis { checkDepthAnalysis(depthAnalysis, problems: &problems) }

        let metadata = readMetadata(object, problems: &problems)

        var capturedAt = "", capturedAtDate = Date(timeIntervalSince1970: 0)
        switch object["captured_at"] {
        case .string(let text)?:
            capturedAt = text
            if let date = DatasetRunner.parseDate(text, allowDate: false) {
                capturedAtDate = date
            } else {
                problems.add("captured_at", "'\(text)' is not an ISO 8601 date-time (e.g. 2025-12-01T10:00:00Z)")
            }
        case let other?:
            problems.add("captured_at", "must be an ISO 8601 date-time string, got \(other.typeDescription)")
        case nil: problems.add("captured_at", "is missing")
        }

        var assertion = ""
        switch object["assertion"] {
        case .string(let text)?:
            assertion = text
            if text.isEmpty {
                problems.add("assertion", "is empty (the device's signature over hash and analysis, FR58)")
            } else if Data(base64Encoded: text) == nil {
                problems.add("assertion", "is not base64")
            }
        case let other?: problems.add("assertion", "must be a base64 string, got \(other.typeDescription)")
        case nil: problems.add("assertion", "is missing (FR58: hash + depth analysis + attestation signature)")
        }

        var hashChain: HashChainSummary?
        var temporal: JSONObject?
        var frameCount: Int?
        var durationMs: Double?
        let videoKeys = ["hash_chain", "temporal_depth_analysis", "frame_count", "duration_ms"]
        if mediaType == .video {
            hashChain = readHashChain(object["hash_chain"], problems: &problems)
            temporal = analysisObject(object, key: "temporal_depth_analysis", problems: &problems)
            if let temporal { checkTemporal(temporal, problems: &problems) }
            frameCount = integer(object["frame_count"], key: "frame_count", range: 1...Int.max, problems: &problems)
            switch object["duration_ms"] {
            case .number(let n)? where n.isFinite && n >= 0: durationMs = n
            case .number(let n)?: problems.add("duration_ms", "must be a number >= 0, got \(n)")
            case let other?:
                problems.add("duration_ms", "must be a number of milliseconds, got \(other.typeDescription)")
            case nil: problems.add("duration_ms", "is missing (required for a video)")
            }
        } else if object["media_type"]?.stringValue == MediaType.photo.rawValue {
            for key in videoKeys where object[key] != nil && object[key] != .null {
                problems.add(key, "is a video key, but media_type is 'photo'")
            }
        }

        if !problems.items.isEmpty { throw PrivacyPayloadError(source: source, problems.items) }
        var extra = JSONObject()
        for (key, value) in object where !known.contains(key) { extra[key] = value }
        return PrivacyPayload(
            mediaHash: mediaHash, mediaType: mediaType, depthAnalysis: depthAnalysis, metadata: metadata,
            capturedAt: capturedAt, capturedAtDate: capturedAtDate, assertion: assertion, hashChain: hashChain,
            temporalDepthAnalysis: temporal, frameCount: frameCount, durationMs: durationMs, byteCount: data.count,
            extra: extra)
    }

    /// Reads the payload file at `path` and parses it.
    ///
    /// - Throws: `PrivacyPayloadError` when the file cannot be read or does not parse.
    public static func read(_ path: String) throws(PrivacyPayloadError) -> PrivacyPayload {
        let data: Data
        do { data = try MediaFile.read(path) } catch {
            let detail = (error as? MediaError)?.detail ?? "\(error)"
            throw PrivacyPayloadError(source: path, [.init(key: nil, detail)])
        }
        return try parse(data, source: path)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// An analysis object at `key`: nil when absent or null (an opt-out), the object, or a problem.
    static func analysisObject(_ object: JSONObject, key: String, problems: inout ProblemList) -> JSONObject? {
        guard let value = object[key], value != .null else { return nil }
        guard let fields = value.objectValue else {
            problems.add(key, "must be an object (or null when depth was excluded), got \(value.typeDescription)")
            return nil
        }
        return fields
    }

    /// The range and type checks of `depth_analysis` (depth/1's keys).
    static func checkDepthAnalysis(_ fields: JSONObject, problems: inout ProblemList) {
        let prefix = "depth_analysis"
        checkCommon(fields, prefix: prefix, problems: &problems)
        for key in depthNonNegativeKeys {
            number(fields[key], key: "\(prefix).\(key)", range: 0...Double.infinity, problems: &problems)
        }
        for key in depthUnitKeys { number(fields[key], key: "\(prefix).\(key)", range: 0...1, problems: &problems) }
        for key in depthFlagKeys { flag(fields[key], key: "\(prefix).\(key)", problems: &problems) }
        if let layers = fields["depth_layers"], layers != .null {
            _ = integer(layers, key: "\(prefix).depth_layers", range: 0...Int.max, problems: &problems)
        }
        if let low = fields["min_depth"]?.numberValue, let high = fields["max_depth"]?.numberValue, low > high {
            problems.add("\(prefix).min_depth", "(\(low)) is greater than '\(prefix).max_depth' (\(high))")
        }
    }

    /// The range and type checks of `temporal_depth_analysis`.
    static func checkTemporal(_ fields: JSONObject, problems: inout ProblemList) {
        let prefix = "temporal_depth_analysis"
        checkCommon(fields, prefix: prefix, problems: &problems)
        for key in temporalUnitKeys { number(fields[key], key: "\(prefix).\(key)", range: 0...1, problems: &problems) }
        for key in temporalNonNegativeKeys {
            number(fields[key], key: "\(prefix).\(key)", range: 0...Double.infinity, problems: &problems)
        }
        // 1 - std/mean: at most 1, negative when the stds vary more than their mean.
        number(
            fields["variance_stability"], key: "\(prefix).variance_stability", range: -Double.infinity...1,
            problems: &problems)
        for key in ["is_likely_real_scene", "is_real"] {
            flag(fields[key], key: "\(prefix).\(key)", problems: &problems)
        }
    }

    /// `status` (one of the method statuses) and `algorithm_version` (a string), when present.
    static func checkCommon(_ fields: JSONObject, prefix: String, problems: inout ProblemList) {
        if let status = fields["status"], status != .null {
            if let text = status.stringValue {
                if !statuses.contains(text) {
                    problems.add(
                        "\(prefix).status", "must be one of \(statuses.joined(separator: ", ")), got '\(text)'")
                }
            } else {
                problems.add("\(prefix).status", "must be a string, got \(status.typeDescription)")
            }
        }
        if let version = fields["algorithm_version"], version != .null, version.stringValue == nil {
            problems.add("\(prefix).algorithm_version", "must be a string, got \(version.typeDescription)")
        }
    }

    static func number(_ value: JSONValue?, key: String, range: ClosedRange<Double>, problems: inout ProblemList) {
        guard let value, value != .null else { return }
        guard let n = value.numberValue else {
            problems.add(key, "must be a number, got \(value.typeDescription)")
            return
        }
        if !n.isFinite || !range.contains(n) {
            let bounds =
                range.upperBound == .infinity
                ? ">= \(Self.text(range.lowerBound))"
                : range.lowerBound == -.infinity
                    ? "<= \(Self.text(range.upperBound))"
                    : "in \(Self.text(range.lowerBound))...\(Self.text(range.upperBound))"
            problems.add(key, "must be a number \(bounds), got \(n)")
        }
    }

    static func flag(_ value: JSONValue?, key: String, problems: inout ProblemList) {
        guard let value, value != .null else { return }
        guard case .bool = value else {
            problems.add(key, "must be true or false, got \(value.typeDescription)")
            return
        }
    }

    /// An integer in `range` at `key` (required: a missing value is a problem).
    static func integer(_ value: JSONValue?, key: String, range: ClosedRange<Int>, problems: inout ProblemList) -> Int?
    {
        guard let value, value != .null else {
            problems.add(key, "is missing")
            return nil
        }
        guard let n = value.numberValue else {
            problems.add(key, "must be an integer, got \(value.typeDescription)")
            return nil
        }
        guard n.isFinite, n == n.rounded(), abs(n) < 9.0e15, range.contains(Int(n)) else {
            let bound =
                range.upperBound == Int.max ? ">= \(range.lowerBound)" : "in \(range.lowerBound)...\(range.upperBound)"
            problems.add(key, "must be an integer \(bound), got \(n)")
            return nil
        }
        return Int(n)
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `metadata` with its flags (inside it, or at the top level).
    static func readMetadata(_ object: JSONObject, problems: inout ProblemList) -> Metadata {
        var fields = JSONObject()
        switch object["metadata"] {
        case .object(let o)?: fields = o
        case nil, .null?: break
        case let other?: problems.add("metadata", "must be an object, got \(other.typeDescription)")
        }
        let inner = fields["metadata_flags"].flatMap { $0 == .null ? nil : $0 }
        let outer = object["metadata_flags"].flatMap { $0 == .null ? nil : $0 }
        if let inner, let outer, inner != outer {
            problems.add("metadata_flags", "is given both inside 'metadata' and at the top level, and they differ")
        }
        let flagsKey = inner != nil ? "metadata.metadata_flags" : "metadata_flags"
        var flags = MetadataFlags(location: .none, timestamp: .none, deviceInfo: .none)
        if let given = inner ?? outer {
            if let o = given.objectValue {
                flags.location = level(o["location"], key: "\(flagsKey).location", problems: &problems) ?? .none
                flags.timestamp =
                    level(o["timestamp"], key: "\(flagsKey).timestamp", aliases: ["day": .dayOnly], problems: &problems)
                    ?? .none
                flags.deviceInfo =
                    level(
                        o["device_info"], key: "\(flagsKey).device_info", aliases: ["model": .modelOnly],
                        problems: &problems) ?? .none
            } else {
                problems.add(flagsKey, "must be an object, got \(given.typeDescription)")
            }
        } else {
            problems.add(
                "metadata.metadata_flags",
                "is missing (what was included, at which level: location, timestamp, device_info; FR62)")
        }
        var values = fields
        values["metadata_flags"] = nil
        var timestamp: String?
        if let t = fields["timestamp"], t != .null {
            if let s = t.stringValue {
                timestamp = s
            } else {
                problems.add("metadata.timestamp", "must be an ISO 8601 string, got \(t.typeDescription)")
            }
        }
        if let d = fields["device_model"], d != .null, d.stringValue == nil, d.objectValue == nil {
            problems.add(
                "metadata.device_model",
                "must be a string (or an object for full device info), got \(d.typeDescription)")
        }
        if let l = fields["location"], l != .null, l.stringValue == nil {
            if let o = l.objectValue {
                for (key, range) in [("latitude", -90.0...90.0), ("longitude", -180.0...180.0)] {
                    if let v = o[key] {
                        number(v, key: "metadata.location.\(key)", range: range, problems: &problems)
                    } else {
                        problems.add("metadata.location.\(key)", "is missing")
                    }
                }
            } else {
                problems.add(
                    "metadata.location",
                    "must be an object with latitude and longitude, or a place name, got \(l.typeDescription)")
            }
        }
        return Metadata(
            location: fields["location"].flatMap { $0 == .null ? nil : $0 }, timestamp: timestamp,
            deviceModel: fields["device_model"].flatMap { $0 == .null ? nil : $0 }, flags: flags, fields: values)
    }

    /// A level of `Level`'s vocabulary at `key` (absent = `none`), or a problem.
    static func level<Level: RawRepresentable & CaseIterable>(
        _ value: JSONValue?, key: String, aliases: [String: Level] = [:], problems: inout ProblemList
    ) -> Level? where Level.RawValue == String {
        guard let value, value != .null else { return nil }
        let allowed = Level.allCases.map(\.rawValue) + aliases.keys.sorted()
        guard let text = value.stringValue else {
            problems.add(key, "must be one of \(allowed.joined(separator: ", ")), got \(value.typeDescription)")
            return nil
        }
        if let level = Level(rawValue: text) ?? aliases[text] { return level }
        problems.add(key, "must be one of \(allowed.joined(separator: ", ")), got '\(text)'")
        return nil
    }

    /// `hash_chain` of a video payload.
    static func readHashChain(_ value: JSONValue?, problems: inout ProblemList) -> HashChainSummary? {
        guard let value, value != .null else {
            problems.add("hash_chain", "is missing (required for a video)")
            return nil
        }
        guard let o = value.objectValue else {
            problems.add("hash_chain", "must be an object, got \(value.typeDescription)")
            return nil
        }
        var hash: ChainHash?
        switch o["final_hash"] {
        case .string(let text)?:
            hash = chainHash(text)
            if hash == nil {
                problems.add("hash_chain.final_hash", "must be base64 or hex of 32 bytes (a SHA-256)")
            }
        case let other?: problems.add("hash_chain.final_hash", "must be a string, got \(other.typeDescription)")
        case nil: problems.add("hash_chain.final_hash", "is missing")
        }
        let length = integer(
            o["chain_length"], key: "hash_chain.chain_length", range: 1...FrameHashLayout.maximumFrames,
            problems: &problems)
        let checkpoints = integer(
            o["checkpoint_count"], key: "hash_chain.checkpoint_count", range: 0...FrameHashLayout.maximumCheckpoints,
            problems: &problems)
        var version = JSONValue.null
        switch o["version"] {
        case .string(let s)? where !s.isEmpty: version = .string(s)
        case .number(let n)? where n.isFinite && n >= 1 && n == n.rounded(): version = .number(n)
        case let other?:
            problems.add(
                "hash_chain.version", "must be a positive integer or a non-empty string, got \(other.typeDescription)")
        case nil: problems.add("hash_chain.version", "is missing")
        }
        guard let hash, let length, let checkpoints, version != .null else { return nil }
        return HashChainSummary(finalHash: hash, chainLength: length, version: version, checkpointCount: checkpoints)
    }

    /// 64 hex characters or base64 of 32 bytes.
    static func chainHash(_ text: String) -> ChainHash? {
        if text.utf8.count == 64, text.utf8.allSatisfy(isHexDigit) {
            var bytes: [UInt8] = []
            var iterator = Array(text.utf8).makeIterator()
            while let high = iterator.next(), let low = iterator.next() {
                bytes.append(UInt8(nibble(high) << 4 | nibble(low)))
            }
            return ChainHash(bytes: bytes)
        }
        return ChainHash(base64: text)
    }

    static func nibble(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: byte - UInt8(ascii: "A") + 10
        }
    }
}

/// Collects the problems of one payload.
struct ProblemList {
    let source: String
    var items: [PrivacyPayloadError.Problem] = []

    mutating func add(_ key: String, _ message: String) { items.append(.init(key: key, message)) }
}

/// Why a privacy payload was refused: every problem, each naming the file and the key.
public struct PrivacyPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable {
        /// The dotted key (`depth_analysis.edge_coherence`); nil for the file as a whole.
        public var key: String?
        public var message: String

        public init(key: String?, _ message: String) {
            self.key = key
            self.message = message
        }
    }

    /// The payload file.
    public var source: String
    /// At least one.
    public var problems: [Problem]

    public init(source: String, _ problems: [Problem]) {
        self.source = source
        self.problems = problems
    }

    /// One line per problem: `FILE: privacy payload: 'KEY' MESSAGE`.
    public var lines: [String] {
        problems.map { p in
            "\(source): privacy payload: " + (p.key.map { "'\($0)' \(p.message)" } ?? p.message)
        }
    }

    public var description: String { lines.joined(separator: "\n") }
}
