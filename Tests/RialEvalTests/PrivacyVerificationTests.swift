import Foundation
import RialDetection
import RialMedia
import RialProvenance
import Testing

@testable import RialEval

/// Issue 15 item 6: verifying a privacy-mode payload and the confidence it reaches. Depth
/// expectations are hand calculations of methods.md section 1's `depth/1` on small maps
/// (worked out in the comments); levels are PRD 1.1's tables, cited at each expectation.
@Suite struct PrivacyVerificationTests {
    /// 10 x 4, every row `1, 1, 2.96, 3.04, 3.04, 3.04, 3.12, 5, 5, 5` m. By hand
    /// (methods.md section 1): mean 3.22, population std sqrt(19.5368 / 10) = 1.397741;
    /// min 1, max 5, median sorted[20] = 3.04, coverage 1. Histogram over [1, 5] (0.08 m
    /// bins): 8 in bin 0, 4 in 24, 12 in 25, 4 in 26, 12 in 49; smoothed 16/3, 8/3, ...,
    /// 16/3, 20/3, 16/3, ..., 4, 8: peaks at bins 0, 25 and 49 = 3 layers. Interior pixels
    /// x 1...8 of rows 1...2: edges where |d[x+1] - d[x-1]| / 2 > 0.1, at x = 1, 2, 6, 7:
    /// ratio 8/16, coherence 1 - e^-15 = 0.9999997. Real: not a screen (range 4), std > 0.5,
    /// layers >= 3, coherence > 0.3.
    static let realMap: DepthMap = {
        let row: [Float] = [1, 1, 2.96, 3.04, 3.04, 3.04, 3.12, 5, 5, 5]
        return DepthMap(width: 10, height: 4, metres: Array([[Float]](repeating: row, count: 4).joined()))!
    }()

    /// The phone's analysis of `realMap`, as the hand calculation gives it.
    static let realAnalysis: JSONObject = [
        "depth_variance": 1.397741, "depth_layers": 3, "edge_coherence": 0.9999997, "min_depth": 1, "max_depth": 5,
        "median_depth": 3.04, "coverage": 1, "is_likely_real_scene": true,
    ]

    /// 8 x 6, columns 0...3 at 1 m and 4...7 at 3 m. By hand: std 1.0; histogram bins 0 and
    /// 49 hold 24 each, smoothed 16, 8, 0, ..., 8, 16: 2 layers; so not real (layers < 3).
    static let twoPlaneMap: DepthMap = {
        let row: [Float] = [1, 1, 1, 1, 3, 3, 3, 3]
        return DepthMap(width: 8, height: 6, metres: Array([[Float]](repeating: row, count: 6).joined()))!
    }()

    static let attested = AttestationEvidence(status: .pass, method: .secureEnclave)
    static let hashA = String(repeating: "ab", count: 32)

    static func payload(
        depth: JSONObject? = realAnalysis, metadata: JSONObject? = nil, edit: (inout JSONObject) -> Void = { _ in }
    ) throws -> PrivacyPayload {
        var o: JSONObject = [
            "capture_mode": "hash_only", "media_hash": .string(hashA), "media_type": "photo",
            "metadata": .object(
                metadata ?? [
                    "timestamp": "2025-12-01T10:00:00Z", "device_model": "iPhone 15 Pro",
                    "metadata_flags": ["location": "none", "timestamp": "exact", "device_info": "model_only"],
                ]),
            "captured_at": "2025-12-01T10:00:00Z", "assertion": "AAECAwQ=",
        ]
        if let depth { o["depth_analysis"] = .object(depth) }
        edit(&o)
        return try PrivacyPayload.parse(JSONValue.object(o).serializedData(), source: "p.json")
    }

    static func verify(
        _ p: PrivacyPayload, sha: String? = nil, depth: DepthMap? = nil, attestation: AttestationEvidence = attested,
        chain: HashChainRecord? = nil, temporal: JSONObject? = nil,
        configuration: PipelineConfiguration = .standard
    ) -> PrivacyVerification {
        PrivacyVerification.verify(
            p,
            evidence: .init(
                mediaSHA256: sha, depth: depth, chain: chain, temporalReference: temporal, attestation: attestation),
            configuration: configuration)
    }

    // MARK: - media hash

    @Test func hashMatchesOnlyTheSameBytes() throws {
        let p = try Self.payload()
        #expect(Self.verify(p, sha: Self.hashA.uppercased()).hash.status == .pass)
        #expect(Self.verify(p, sha: String(repeating: "cd", count: 32)).hash.status == .fail)
        // FR60: "media never touches server" -> without the media nothing is claimed.
        #expect(Self.verify(p).hash.status == .unavailable)
    }

    // MARK: - depth parity

    @Test func parityWithTheHandCalculatedAnalysisPasses() throws {
        let v = Self.verify(try Self.payload(), depth: Self.realMap)
        let parity = try #require(v.depthParity)
        #expect(parity.status == .pass)
        #expect(parity.fields.count == 8)
        #expect(v.depthReferenceRealScene == true)
    }

    @Test func parityNamesTheLargestDifference() throws {
        var analysis = Self.realAnalysis
        analysis["depth_variance"] = .number(1.397741 + 0.0005) // within the 0.001 default
        #expect(Self.verify(try Self.payload(depth: analysis), depth: Self.realMap).depthParity?.status == .pass)
        analysis["depth_variance"] = .number(1.397741 + 0.01)
        analysis["min_depth"] = 1.002
        let parity = try #require(Self.verify(try Self.payload(depth: analysis), depth: Self.realMap).depthParity)
        #expect(parity.status == .fail)
        #expect(parity.mismatches == ["depth_variance", "min_depth"])
        #expect(parity.largestKey == "depth_variance")
        #expect(abs(parity.largestDifference! - 0.01) < 1e-5)
        #expect(
            parity.summary.hasPrefix(
                "fail (2 of 8 fields out of tolerance: depth_variance phone 1.408 vs reference 1.398"))
    }

    /// Tolerances are configuration: 0.02 m on the std accepts the 0.01 m difference.
    @Test func toleranceIsConfiguration() throws {
        var analysis = Self.realAnalysis
        analysis["depth_variance"] = .number(1.397741 + 0.01)
        var configuration = PipelineConfiguration.standard
        configuration.privacy.depthTolerances.depthVariance = 0.02
        let v = Self.verify(try Self.payload(depth: analysis), depth: Self.realMap, configuration: configuration)
        #expect(v.depthParity?.status == .pass)
    }

    @Test func invalidTolerancesNameTheKey() {
        var c = PipelineConfiguration.standard
        c.privacy.depthTolerances.coverage = -1
        #expect(
            throws: ConfigurationError(
                key: "privacy.depth_tolerances.coverage", "must be a finite number >= 0, got -1.0")
        ) {
            try c.validate()
        }
        c = .standard
        c.privacy.maxPayloadBytes = 0
        #expect(throws: ConfigurationError(key: "privacy.max_payload_bytes", "must be >= 1, got 0")) {
            try c.validate()
        }
    }

    // MARK: - the phone's numbers

    /// methods.md section 1: real needs std > 0.5; a claim of real with std 0.3 contradicts it.
    @Test func claimAgainstItsOwnNumbers() throws {
        var analysis = Self.realAnalysis
        analysis["depth_variance"] = 0.3
        let v = Self.verify(try Self.payload(depth: analysis))
        #expect(v.depthNumbers?.status == .fail)
        #expect(v.depthNumbers?.numbersSayReal == false)
        #expect(Self.verify(try Self.payload()).depthNumbers?.status == .pass)
        // Screen-like numbers (range 0.05 < 0.15, uniformity 0.95 > 0.85, mean 0.5 in 0.2...1.5) are not real.
        var screen = Self.realAnalysis
        screen["depth_range"] = 0.05
        screen["uniformity"] = 0.95
        screen["mean_depth"] = 0.5
        #expect(Self.verify(try Self.payload(depth: screen)).depthNumbers?.numbersSayReal == false)
    }

    // MARK: - confidence

    /// methods.md section 6: the deployed backend "trusts the phone's is_likely_real_scene
    /// without re-checking its numbers". On the two-plane map (not real by depth/1) a phone
    /// that claims real with invented numbers gets HIGH from it (PRD 1.1 MVP table:
    /// hardware pass + depth pass -> HIGH); the sound rule finds the parity broken
    /// (layers 4 vs 2) and says SUSPICIOUS (any failed check).
    @Test func deployedTrustsTheClaimSoundRecomputes() throws {
        let invented: JSONObject = [
            "depth_variance": 1.0, "depth_layers": 4, "edge_coherence": 0.99995, "is_likely_real_scene": true,
        ]
        let v = Self.verify(try Self.payload(depth: invented), depth: Self.twoPlaneMap)
        #expect(v.confidence.deployed.level == .high)
        #expect(v.depthParity?.mismatches == ["depth_layers", "is_likely_real_scene"])
        #expect(v.confidence.sound.checks["privacy.depth_parity"] == .fail)
        #expect(v.confidence.level == .suspicious)
    }

    /// PRD 1.1 "Privacy Mode Technical Details": "HIGH achievable when hardware attestation +
    /// depth analysis both pass" - with the depth map recomputed and the hash matching.
    @Test func verifiedPhotoReachesHigh() throws {
        let v = Self.verify(try Self.payload(), sha: Self.hashA, depth: Self.realMap)
        #expect(v.confidence.deployed.level == .high)
        #expect(v.confidence.sound.level == .high)
        #expect(v.confidence.level == .high)
        #expect(v.confidence.capsApplied.isEmpty)
    }

    /// Without the depth map the phone's numbers are unverified: the sound rule caps at
    /// `unverified_depth_cap` (MEDIUM by default; configuration).
    @Test func unverifiedDepthIsCapped() throws {
        let v = Self.verify(try Self.payload())
        #expect(v.confidence.sound.level == .high)
        #expect(v.confidence.level == .medium)
        #expect(v.confidence.capsApplied == ["privacy.unverified_depth_cap (MEDIUM)"])
        var c = PipelineConfiguration.standard
        c.privacy.unverifiedDepthCap = .high
        #expect(Self.verify(try Self.payload(), configuration: c).confidence.level == .high)
    }

    /// The deployed backend trusts "not real" as much as "real": depth fail -> SUSPICIOUS
    /// (PRD 1.1 MVP rule: any check failed).
    @Test func notRealIsSuspiciousUnderBothRules() throws {
        var analysis = Self.realAnalysis
        analysis["is_likely_real_scene"] = false
        analysis["depth_layers"] = 2
        let v = Self.verify(try Self.payload(depth: analysis))
        #expect(v.confidence.deployed.level == .suspicious)
        #expect(v.confidence.level == .suspicious)
    }

    /// PRD 1.1 "Granular Metadata Controls": an excluded depth map is "User opted out", never
    /// suspicious; hardware alone -> MEDIUM (MVP table, hardware only).
    @Test func excludedDepthIsAnOptOut() throws {
        let v = Self.verify(try Self.payload(depth: nil), sha: Self.hashA)
        #expect(v.confidence.deployed.depth == .unavailable)
        #expect(v.confidence.deployed.level == .medium)
        #expect(v.confidence.level == .medium)
        // Neither hardware nor depth -> LOW.
        #expect(Self.verify(try Self.payload(depth: nil), attestation: .missing).confidence.level == .low)
    }

    @Test func hashMismatchIsSuspiciousOnlyUnderTheSoundRule() throws {
        let v = Self.verify(try Self.payload(), sha: String(repeating: "00", count: 32), depth: Self.realMap)
        #expect(v.confidence.deployed.level == .high)
        #expect(v.confidence.level == .suspicious)
    }

    @Test func levelCapIsConfiguration() throws {
        var c = PipelineConfiguration.standard
        c.privacy.levelCap = .low
        let v = Self.verify(try Self.payload(), sha: Self.hashA, depth: Self.realMap, configuration: c)
        #expect(v.confidence.level == .low)
        #expect(v.confidence.capsApplied == ["privacy.level_cap (LOW)"])
    }

    // MARK: - metadata flags

    @Test func flagsAgainstTheMetadata() throws {
        // Location "none" with coordinates present.
        var v = Self.verify(
            try Self.payload(metadata: [
                "location": ["latitude": 48.85, "longitude": 2.35],
                "metadata_flags": ["location": "none", "timestamp": "none", "device_info": "none"],
            ]), sha: Self.hashA, depth: Self.realMap)
        #expect(v.metadata.problems == ["location is flagged none but metadata.location is present"])
        #expect(v.confidence.level == .medium)
        #expect(v.confidence.capsApplied == ["privacy.metadata_inconsistency_cap (MEDIUM)"])
        // captured_at is exact although the timestamp is flagged none: a disclosure, not a failure.
        #expect(v.metadata.disclosures.count == 1)

        // Coarse (city) with 4 decimal places (default at most 2).
        v = Self.verify(
            try Self.payload(metadata: [
                "location": ["latitude": 48.8566, "longitude": 2.35],
                "metadata_flags": ["location": "coarse", "timestamp": "none", "device_info": "none"],
            ]))
        #expect(
            v.metadata.problems == [
                "location is flagged coarse but metadata.location.latitude 48.8566 has 4 decimal places (at most 2)"
            ])

        // day_only with a date-time; model_only with full device info; exact flagged but absent.
        v = Self.verify(
            try Self.payload(metadata: [
                "timestamp": "2025-12-01T10:00:00Z", "device_model": ["model": "iPhone 15 Pro", "os": "18.1"],
                "metadata_flags": ["location": "precise", "timestamp": "day_only", "device_info": "model_only"],
            ]))
        #expect(v.metadata.problems.count == 3)
        #expect(v.metadata.problems[0].hasPrefix("location is flagged precise but metadata.location is absent"))
        #expect(v.metadata.problems[1].contains("is a date-time"))
        #expect(v.metadata.problems[2].contains("model_only but metadata.device_model is an object"))

        // Consistent: coarse with 2 places, day only with a date, model only with a model.
        v = Self.verify(
            try Self.payload(metadata: [
                "location": ["latitude": 48.85, "longitude": 2.35], "timestamp": "2025-12-01",
                "device_model": "iPhone 15 Pro",
                "metadata_flags": ["location": "coarse", "timestamp": "day_only", "device_info": "model_only"],
            ]))
        #expect(v.metadata.status == .pass)
    }

    @Test func decimalPlaces() {
        #expect(PrivacyVerification.decimalPlaces(48.85) == 2)
        #expect(PrivacyVerification.decimalPlaces(2.0) == 0)
        #expect(PrivacyVerification.decimalPlaces(1e-05) == 5)
        #expect(PrivacyVerification.decimalPlaces(-122.41941) == 5)
    }

    // MARK: - video

    static func videoPayload(
        finalHash: ChainHash, length: Int, checkpoints: Int, frames: Int, temporal: JSONObject? = nil
    ) throws -> PrivacyPayload {
        try payload { o in
            o["media_type"] = "video"
            o["hash_chain"] = [
                "final_hash": .string(finalHash.base64), "chain_length": .number(Double(length)), "version": 1,
                "checkpoint_count": .number(Double(checkpoints)),
            ]
            if let temporal { o["temporal_depth_analysis"] = .object(temporal) }
            o["frame_count"] = .number(Double(frames))
            o["duration_ms"] = .number(Double(frames) * 1000 / 30)
        }
    }

    /// A 300-frame chain (methods.md section 6: checkpoints at frames 150 and 300).
    static let record: HashChainRecord = HashChainRecord.chain(
        (0..<300).map { ChainFrame(pixels: [UInt8(truncatingIfNeeded: $0)], timestamp: Double($0) / 30) })

    @Test func chainSummaryAgainstTheRecord() throws {
        let final = try #require(Self.record.finalHash)
        var v = Self.verify(
            try Self.videoPayload(finalHash: final, length: 300, checkpoints: 2, frames: 300), chain: Self.record)
        #expect(v.chain == .init(status: .pass, problems: [], recordCompared: true))
        // 300 frames carry 2 checkpoints, not 3; a frame count 10 off the chain length
        // exceeds the deployed verifier's 5 (methods.md section 6).
        v = Self.verify(try Self.videoPayload(finalHash: final, length: 300, checkpoints: 3, frames: 310))
        #expect(v.chain?.problems.count == 2)
        #expect(v.chain?.recordCompared == false)
        // A different final hash and length than the recording's chain.
        let other = Self.record.frameHashes[148]
        v = Self.verify(
            try Self.videoPayload(finalHash: other, length: 149, checkpoints: 0, frames: 149), chain: Self.record)
        #expect(v.chain?.status == .fail)
        #expect(
            v.chain?.problems.first?.hasPrefix("final_hash \(other.hex) is not the chain record's final hash") == true)
        #expect(v.confidence.level == .suspicious)
        #expect(v.confidence.deployed.level != .suspicious)
    }

    /// methods.md section 6, the phone's privacy-mode variant: "real = every frame real AND
    /// variance_stability > 0.8".
    @Test func temporalClaimAgainstItsStability() throws {
        let final = try #require(Self.record.finalHash)
        let claim: JSONObject = ["mean_variance": 1.1, "variance_stability": 0.7, "is_likely_real_scene": true]
        let v = Self.verify(
            try Self.videoPayload(finalHash: final, length: 300, checkpoints: 2, frames: 300, temporal: claim))
        #expect(v.temporalNumbers?.status == .fail)
        #expect(v.confidence.deployed.level == .high)
        #expect(v.confidence.level == .suspicious)
    }

    /// The generic temporal parity: numbers within `privacy.temporal_tolerance` (0.001),
    /// booleans equal, bookkeeping fields skipped, keys the phone lacks listed.
    @Test func temporalParityAgainstAReferenceObject() {
        let phone: JSONObject = [
            "depth_consistency": 1.0, "motion_coherence": 0.5, "is_real": true, "status": "completed",
        ]
        let reference: JSONObject = [
            "depth_consistency": 0.9995, "motion_coherence": 0.6, "is_real": true, "status": "failed",
            "scene_stability": 1.0, "suspicious_frames": [3],
        ]
        let parity = PrivacyVerification.temporalParity(phone: phone, reference: reference, tolerance: 0.001)
        #expect(parity.status == .fail)
        #expect(parity.mismatches == ["motion_coherence"])
        #expect(parity.largestKey == "motion_coherence")
        #expect(abs(parity.largestDifference! - 0.1) < 1e-12)
        #expect(parity.missing == ["scene_stability", "suspicious_frames[0]"])
        #expect(parity.fields.count == 3)
    }
}
