import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialEval

/// Issue 15 item 6: reading a privacy-mode (hash-only) payload. The keys, vocabularies and
/// limits are those of specs/methods.md section 6 "Privacy mode" and PRD 1.1 FR56-FR62 /
/// "Granular Metadata Controls"; each expectation cites where it comes from.
@Suite struct PrivacyPayloadTests {
    /// A photo payload with every key methods.md section 6 lists.
    static let photo: JSONObject = [
        "capture_mode": "hash_only",
        "media_hash": .string(String(repeating: "ab", count: 32)),
        "media_type": "photo",
        "depth_analysis": [
            "depth_variance": 1.2, "depth_layers": 4, "edge_coherence": 0.6, "min_depth": 0.8, "max_depth": 4.1,
            "is_likely_real_scene": true,
        ],
        "metadata": [
            "location": ["latitude": 48.85, "longitude": 2.35], "timestamp": "2025-12-01",
            "device_model": "iPhone 15 Pro",
            "metadata_flags": ["location": "coarse", "timestamp": "day_only", "device_info": "model_only"],
        ],
        "captured_at": "2025-12-01T10:00:00Z",
        "assertion": "AAECAwQ=",
    ]

    /// The photo payload as a video: methods.md section 6 "for video also `hash_chain`
    /// {final_hash, chain_length, version, checkpoint_count}, `temporal_depth_analysis`,
    /// `frame_count`, `duration_ms`".
    static let video: JSONObject = {
        var o = photo
        o["media_type"] = "video"
        o["hash_chain"] = [
            "final_hash": .string(Data(repeating: 7, count: 32).base64EncodedString()), "chain_length": 450,
            "version": 1, "checkpoint_count": 3,
        ]
        o["temporal_depth_analysis"] = [
            "mean_variance": 1.1, "variance_stability": 0.93, "temporal_coherence": 0.5, "is_likely_real_scene": true,
        ]
        o["frame_count"] = 450
        o["duration_ms"] = 15000
        return o
    }()

    static func data(_ object: JSONObject) -> Data { JSONValue.object(object).serializedData() }

    /// The problems of `object`, or [] when it parses.
    static func problems(_ object: JSONObject) -> [PrivacyPayloadError.Problem] {
        do {
            _ = try PrivacyPayload.parse(data(object), source: "p.json")
            return []
        } catch { return error.problems }
    }

    static func keys(_ object: JSONObject) -> [String?] { problems(object).map(\.key) }

    @Test func photoPayloadReadsEveryKey() throws {
        let p = try PrivacyPayload.parse(Self.data(Self.photo), source: "p.json")
        #expect(p.mediaType == .photo)
        #expect(p.mediaHash == String(repeating: "ab", count: 32))
        #expect(p.depthAnalysis?["depth_layers"] == .number(4))
        // PRD 1.1 "Granular Metadata Controls": Location Coarse, Timestamp Day only, Device Info Model only.
        #expect(p.metadata.flags == .init(location: .coarse, timestamp: .dayOnly, deviceInfo: .modelOnly))
        #expect(p.metadata.timestamp == "2025-12-01")
        #expect(p.hashChain == nil && p.frameCount == nil)
        #expect(p.byteCount == Self.data(Self.photo).count)
    }

    @Test func videoPayloadReadsTheChainSummary() throws {
        let p = try PrivacyPayload.parse(Self.data(Self.video), source: "v.json")
        #expect(p.mediaType == .video)
        #expect(p.hashChain?.chainLength == 450)
        #expect(p.hashChain?.checkpointCount == 3)
        #expect(p.hashChain?.finalHash.bytes == [UInt8](repeating: 7, count: 32))
        #expect(p.frameCount == 450 && p.durationMs == 15000)
        #expect(p.temporalDepthAnalysis?["variance_stability"] == .number(0.93))
        // The same hash as 64 hex characters reads the same.
        var hex = Self.video
        hex["hash_chain"] = [
            "final_hash": .string(String(repeating: "07", count: 32)), "chain_length": 450, "version": "1",
            "checkpoint_count": 3,
        ]
        #expect(
            try PrivacyPayload.parse(Self.data(hex), source: "v.json").hashChain?.finalHash == p.hashChain?.finalHash)
    }

    /// FR62 writes the levels "none/day/exact" and "none/model/full"; methods.md
    /// "day_only" and "model_only": both read the same.
    @Test func fr62SpellingsOfTheLevels() throws {
        var o = Self.photo
        o["metadata"] = [
            "timestamp": "2025-12-01", "device_model": "iPhone 15 Pro",
            "metadata_flags": ["location": "none", "timestamp": "day", "device_info": "model"],
        ]
        let p = try PrivacyPayload.parse(Self.data(o), source: "p.json")
        #expect(p.metadata.flags == .init(location: .none, timestamp: .dayOnly, deviceInfo: .modelOnly))
    }

    /// methods.md draws `metadata_flags` inside `metadata`; beside it reads the same, and
    /// two different copies are refused.
    @Test func flagsBesideMetadata() throws {
        var o = Self.photo
        var metadata = o["metadata"]!.objectValue!
        let flags = metadata["metadata_flags"]!
        metadata["metadata_flags"] = nil
        o["metadata"] = .object(metadata)
        o["metadata_flags"] = flags
        #expect(try PrivacyPayload.parse(Self.data(o), source: "p.json").metadata.flags.location == .coarse)
        metadata["metadata_flags"] = ["location": "precise", "timestamp": "exact", "device_info": "full"]
        o["metadata"] = .object(metadata)
        #expect(Self.keys(o) == ["metadata_flags"])
    }

    /// "Depth Map: Exclude / Include (Privacy Mode: analysis only)" (PRD 1.1 table): a
    /// payload without depth analysis is an opt-out and reads.
    @Test func depthMayBeExcluded() throws {
        var o = Self.photo
        o["depth_analysis"] = nil
        #expect(try PrivacyPayload.parse(Self.data(o), source: "p.json").depthAnalysis == nil)
        o["depth_analysis"] = .null
        #expect(try PrivacyPayload.parse(Self.data(o), source: "p.json").depthAnalysis == nil)
    }

    @Test(arguments: [
        // methods.md section 6: `capture_mode: "hash_only"`.
        ("capture_mode", JSONValue.string("full"), "must be 'hash_only'"),
        // `media_hash` (64 hex).
        ("media_hash", .string(String(repeating: "a", count: 63)), "64 hexadecimal"),
        ("media_hash", .string(String(repeating: "g", count: 64)), "non-hex"),
        // `media_type` photo|video.
        ("media_type", .string("audio"), "'photo' or 'video'"),
        ("captured_at", .string("yesterday"), "ISO 8601"),
        // FR58: hash + depth analysis + attestation signature.
        ("assertion", .string(""), "is empty"),
        ("assertion", .string("***"), "not base64"),
        ("depth_analysis", .string("real"), "must be an object"),
    ])
    func eachBadValueNamesItsKey(key: String, value: JSONValue, message: String) {
        var o = Self.photo
        o[key] = value
        let found = Self.problems(o)
        #expect(found.count == 1)
        #expect(found.first?.key == key)
        #expect(found.first?.message.contains(message) == true)
    }

    @Test func missingKeysAreEachNamed() {
        var o = Self.photo
        for key in ["capture_mode", "media_hash", "media_type", "captured_at", "assertion"] { o[key] = nil }
        #expect(Self.keys(o) == ["capture_mode", "media_hash", "media_type", "captured_at", "assertion"])
        var noFlags = Self.photo
        noFlags["metadata"] = ["device_model": "iPhone 15 Pro"]
        #expect(Self.keys(noFlags) == ["metadata.metadata_flags"])
    }

    @Test func depthAnalysisRangesAndTypes() {
        var o = Self.photo
        o["depth_analysis"] = [
            "edge_coherence": 1.5, "depth_layers": 2.5, "depth_variance": -1, "is_likely_real_scene": "yes",
            "min_depth": 3, "max_depth": 1, "status": "ok",
        ]
        let keys = Set(Self.keys(o).compactMap { $0 })
        #expect(
            keys == [
                "depth_analysis.edge_coherence", "depth_analysis.depth_layers", "depth_analysis.depth_variance",
                "depth_analysis.is_likely_real_scene", "depth_analysis.min_depth", "depth_analysis.status",
            ])
    }

    /// PRD 1.1 "Granular Metadata Controls" lists the only levels.
    @Test func unknownLevelsAreRefused() {
        var o = Self.photo
        o["metadata"] = ["metadata_flags": ["location": "city", "timestamp": "hour", "device_info": 3]]
        #expect(
            Self.keys(o) == [
                "metadata.metadata_flags.location", "metadata.metadata_flags.timestamp",
                "metadata.metadata_flags.device_info",
            ])
    }

    @Test func videoKeysAreCheckedAndRefusedOnPhotos() {
        var v = Self.video
        // methods.md section 6: chain of at most 450 frames, checkpoints every 150 up to 3.
        v["hash_chain"] = ["final_hash": "xyz", "chain_length": 451, "version": 0, "checkpoint_count": 4]
        v["frame_count"] = 0
        v["duration_ms"] = -1
        #expect(
            Self.keys(v) == [
                "hash_chain.final_hash", "hash_chain.chain_length", "hash_chain.checkpoint_count",
                "hash_chain.version", "frame_count", "duration_ms",
            ])
        var p = Self.video
        p["media_type"] = "photo"
        #expect(
            Set(Self.keys(p).compactMap { $0 }) == [
                "hash_chain", "temporal_depth_analysis", "frame_count", "duration_ms",
            ])
        var missing = Self.video
        for key in ["hash_chain", "frame_count", "duration_ms"] { missing[key] = nil }
        #expect(Self.keys(missing) == ["hash_chain", "frame_count", "duration_ms"])
    }

    @Test func errorLinesNameTheFileAndTheKey() {
        var o = Self.photo
        o["media_type"] = "audio"
        o["assertion"] = nil
        #expect(throws: PrivacyPayloadError.self) { try PrivacyPayload.parse(Self.data(o), source: "dir/p.json") }
        do { _ = try PrivacyPayload.parse(Self.data(o), source: "dir/p.json") } catch {
            #expect(error.lines.count == 2)
            #expect(error.lines[0].hasPrefix("dir/p.json: privacy payload: 'media_type' must be"))
            #expect(error.lines[1].hasPrefix("dir/p.json: privacy payload: 'assertion' is missing"))
        }
    }

    /// "Upload size: < 10KB (vs ~5MB for full capture)" (PRD 1.1 "Privacy Mode Technical
    /// Details"): a complete video payload as methods.md lists it is far under it.
    @Test func typicalPayloadsAreUnderTenKilobytes() throws {
        #expect(try PrivacyPayload.parse(Self.data(Self.video), source: "v.json").byteCount < 10 * 1024)
    }

    // MARK: - fuzz (as the project's other parsers)

    /// Parses or throws `PrivacyPayloadError` whose every line names the file; nothing else.
    static func exercise(_ data: Data) {
        do { _ = try PrivacyPayload.parse(data, source: "fuzz.json") } catch {
            #expect(!error.problems.isEmpty)
            #expect(error.lines.allSatisfy { $0.hasPrefix("fuzz.json: privacy payload: ") })
        }
    }

    @Test func truncations() {
        for data in Mutations.truncations(of: Self.data(Self.video), count: 300) { Self.exercise(data) }
    }

    @Test func byteFlips() {
        for data in Mutations.corruptions(of: Self.data(Self.video), count: 400, seed: 0x9A1D) { Self.exercise(data) }
        for data in Mutations.corruptions(of: Self.data(Self.photo), count: 400, seed: 0x9A1E) { Self.exercise(data) }
    }

    @Test func garbage() {
        for data in Mutations.garbage(lengths: [0, 1, 2, 3, 16, 100, 4096], seed: 15) { Self.exercise(data) }
        for text in ["{", "[]", "null", "{\"capture_mode\":", "{\"media_type\":\"video\"}", "1e999", "\"hash_only\""] {
            Self.exercise(Data(text.utf8))
        }
    }
}
