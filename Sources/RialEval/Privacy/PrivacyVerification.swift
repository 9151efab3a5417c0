import Foundation
import RialDetection
import RialMedia
import RialProvenance

/// What can be verified of a privacy-mode (hash-only) payload (issue 15 item 6; specs/
/// methods.md section 6 "Privacy mode"; PRD 1.1 FR56-FR62), given whatever of the capture
/// is at hand, and the confidence it reaches (`PrivacyConfidence`).
///
/// **Media.** `media_hash` is compared with the SHA-256 of the media file's bytes, the whole
/// file as the phone stored it: for a photo the JPEG (or HEIC) file, the same bytes as the
/// full capture's `provenance.sha256` (methods.md section 8); for a video the recorded
/// movie file (MP4/MOV container). Neither is a hash of decoded pixels: the frame hash
/// chain covers the pixels of a video and is checked apart (`chain`). Without the media the
/// check is `unavailable` (the backend never has it: FR60 "media never touches server").
///
/// **Depth parity.** With the capture's depth map, `depth/1` (under the configuration's
/// `depth/1` section) is recomputed and compared field by field with the phone's
/// `depth_analysis` (`FieldParity`, tolerances `privacy.depth_tolerances`; the booleans
/// `is_likely_real_scene` and `is_screen_pattern` must be equal). Only fields the phone sent
/// are compared.
///
/// **The phone's numbers** (`depth_numbers`): `is_likely_real_scene` re-derived from the
/// phone's own `depth_variance`, `depth_layers`, `edge_coherence` and screen pattern under
/// `depth/1`'s configured thresholds (methods.md section 1: NOT screen-like AND std > 0.5
/// AND layers >= 3 AND coherence > 0.3); `fail` when the claim contradicts the numbers. The
/// screen pattern is `is_screen_pattern` when sent, else derived from `depth_range` (or
/// `max_depth - min_depth`), `uniformity` and `mean_depth` when all are sent; when it cannot
/// be known, numbers that pass the other criteria decide nothing.
///
/// **Metadata.** The flags against the values (`MetadataConsistency`).
///
/// **Video.** The payload's `hash_chain` summary against itself (checkpoint count =
/// min(3, chain_length / 150), |frame_count - chain_length| <= 5, methods.md section 6) and,
/// with the recording's chain record, against it (final hash, length, checkpoint count, and
/// the deployed structural check of the record); the phone's privacy-mode temporal numbers
/// (`temporal_numbers`: a claim of real needs `variance_stability >
/// privacy.min_variance_stability`); and, given a reference temporal result as JSON,
/// `temporal_parity` (`FieldParity`, tolerance `privacy.temporal_tolerance` for numbers).
public struct PrivacyVerification: Sendable, Equatable, Codable {
    public var mediaType: PrivacyPayload.MediaType
    /// Bytes of the payload as uploaded, and the configured target (`max_payload_bytes`).
    public var payloadBytes: Int
    public var payloadTargetBytes: Int
    public var hash: HashCheck
    /// nil when the phone sent no depth analysis (depth excluded).
    public var depthNumbers: ClaimCheck?
    /// nil when no depth map was given or the phone sent no depth analysis.
    public var depthParity: FieldParity?
    /// `is_likely_real_scene` of the recomputed `depth/1`, when it was recomputed and
    /// completed.
    public var depthReferenceRealScene: Bool?
    public var metadata: MetadataConsistency
    /// Video only.
    public var chain: ChainConsistency?
    public var temporalNumbers: ClaimCheck?
    public var temporalParity: FieldParity?
    /// The two rules' levels.
    public var confidence: PrivacyConfidence

    enum CodingKeys: String, CodingKey {
        case mediaType = "media_type"
        case payloadBytes = "payload_bytes"
        case payloadTargetBytes = "payload_target_bytes"
        case hash
        case depthNumbers = "depth_numbers"
        case depthParity = "depth_parity"
        case depthReferenceRealScene = "depth_reference_real_scene"
        case metadata, chain
        case temporalNumbers = "temporal_numbers"
        case temporalParity = "temporal_parity"
        case confidence
    }

    /// Whether the payload is within the size target (strictly below it: "< 10KB").
    public var payloadWithinTarget: Bool { payloadBytes < payloadTargetBytes }

    /// `media_hash` against the media's SHA-256.
    public struct HashCheck: Sendable, Equatable, Codable {
        /// `pass` equal, `fail` different, `unavailable` without the media.
        public var status: EvidenceCheckStatus
        public var expected: String
        /// SHA-256 (lower-case hex) of the media file, when it was given.
        public var actual: String?
    }

    /// A claim (`is_likely_real_scene`) against the numbers sent beside it.
    public struct ClaimCheck: Sendable, Equatable, Codable {
        /// `fail` when the numbers contradict the claim, `pass` when they agree or decide
        /// nothing, `unavailable` when the claim or the numbers are missing.
        public var status: EvidenceCheckStatus
        /// The phone's claim.
        public var claimed: Bool?
        /// What the numbers say under the configured thresholds; nil when they decide nothing.
        public var numbersSayReal: Bool?
        /// Why, in one line.
        public var detail: String

        enum CodingKeys: String, CodingKey {
            case status, claimed
            case numbersSayReal = "numbers_say_real"
            case detail
        }
    }

    /// The flags against the metadata they describe.
    public struct MetadataConsistency: Sendable, Equatable, Codable {
        /// `fail` when `problems` is not empty.
        public var status: EvidenceCheckStatus
        /// Each a flag the values contradict (`location is flagged none but ...`).
        public var problems: [String]
        /// Values elsewhere in the payload that reveal more than the flags allow (an exact
        /// `captured_at` under a timestamp flag of none or day_only). Reported, never a
        /// failure: methods.md section 6 lists `captured_at` in every payload.
        public var disclosures: [String]
    }

    /// A video's hash chain summary against itself and the recording's chain.
    public struct ChainConsistency: Sendable, Equatable, Codable {
        public var status: EvidenceCheckStatus
        public var problems: [String]
        /// Whether a chain record was compared (else only the summary's own consistency).
        public var recordCompared: Bool

        enum CodingKeys: String, CodingKey {
            case status, problems
            case recordCompared = "record_compared"
        }
    }

    /// The inputs beside the payload; each optional.
    public struct Evidence: Sendable {
        /// SHA-256 (hex) of the media file (`SHA256Digest.hash(fileAt:)`).
        public var mediaSHA256: String?
        /// The capture's depth map (a photo's; a video's depth is checked through
        /// `temporalReference`).
        public var depth: DepthMap?
        /// A video's recorded hash chain.
        public var chain: HashChainRecord?
        /// A reference temporal result (a temporal method's result on the same recording, as JSON).
        public var temporalReference: JSONObject?
        /// Hardware attestation as checked elsewhere (the payload's assertion cannot be
        /// verified without the device's registered key).
        public var attestation: AttestationEvidence

        public init(
            mediaSHA256: String? = nil, depth: DepthMap? = nil, chain: HashChainRecord? = nil,
            temporalReference: JSONObject? = nil, attestation: AttestationEvidence = .missing
        ) {
            self.mediaSHA256 = mediaSHA256
            self.depth = depth
            self.chain = chain
            self.temporalReference = temporalReference
            self.attestation = attestation
        }
    }

    /// Verifies `payload` with `evidence` under `configuration` (its `privacy` and `depth/1`
    /// sections). Never throws: whatever is missing makes its check `unavailable`.
    public static func verify(
        _ payload: PrivacyPayload, evidence: Evidence, configuration: PipelineConfiguration = .standard
    ) -> PrivacyVerification {
        let settings = configuration.privacy
        let depthConfiguration = configuration[DepthAnalyzerV1.self]
        let hash = HashCheck(
            status: evidence.mediaSHA256.map { $0.lowercased() == payload.mediaHash ? .pass : .fail } ?? .unavailable,
            expected: payload.mediaHash, actual: evidence.mediaSHA256?.lowercased())
        let depthNumbers = payload.depthAnalysis.map { depthClaim($0, configuration: depthConfiguration) }
        var depthParity: FieldParity?
        var referenceReal: Bool?
        if let phone = payload.depthAnalysis, let map = evidence.depth {
            (depthParity, referenceReal) = self.depthParity(phone: phone, map: map, configuration: configuration)
        }
        var chain: ChainConsistency?
        var temporalNumbers: ClaimCheck?
        var temporalParity: FieldParity?
        if payload.mediaType == .video {
            chain = chainConsistency(payload, record: evidence.chain)
            temporalNumbers = payload.temporalDepthAnalysis.map {
                temporalClaim($0, minStability: settings.minVarianceStability)
            }
            if let phone = payload.temporalDepthAnalysis, let reference = evidence.temporalReference {
                temporalParity = self.temporalParity(
                    phone: phone, reference: reference, tolerance: settings.temporalTolerance)
            }
        }
        var verification = PrivacyVerification(
            mediaType: payload.mediaType, payloadBytes: payload.byteCount, payloadTargetBytes: settings.maxPayloadBytes,
            hash: hash, depthNumbers: depthNumbers, depthParity: depthParity, depthReferenceRealScene: referenceReal,
            metadata: metadataConsistency(payload, coarseDecimals: settings.coarseLocationMaxDecimals), chain: chain,
            temporalNumbers: temporalNumbers, temporalParity: temporalParity,
            confidence: PrivacyConfidence(
                deployed: .init(hardware: .unavailable, depth: .unavailable),
                sound: .init(hardware: .unavailable, depth: .unavailable),
                level: .low, capsApplied: []))
        verification.confidence = PrivacyConfidence(
            payload, verification: verification, evidence: evidence, settings: settings)
        return verification
    }

    // MARK: - depth

    /// Keys of `depth/1`'s result compared exactly.
    static let depthExactKeys = ["is_likely_real_scene", "is_screen_pattern"]

    /// `depth/1` on `map` against the phone's `depth_analysis`, and the recomputed
    /// `is_likely_real_scene` (nil when `depth/1` was unavailable on the map).
    public static func depthParity(phone: JSONObject, map: DepthMap, configuration: PipelineConfiguration)
        -> (parity: FieldParity, referenceRealScene: Bool?)
    {
        let analyzer = (try? DepthAnalyzerV1(configuration: configuration[DepthAnalyzerV1.self])) ?? DepthAnalyzerV1()
        let result = analyzer.evaluate(map)
        let reference = (try? JSONValue.encoded(result))?.objectValue ?? JSONObject()
        let tolerances = Dictionary(
            configuration.privacy.depthTolerances.byKey.map { ($0.key, $0.tolerance) }, uniquingKeysWith: { a, _ in a })
        let parity = FieldParity.compare(phone: phone, reference: reference) { key in
            if depthExactKeys.contains(key) { return 0 }
            return tolerances[key]
        }
        return (parity, result.status == .completed ? result.isLikelyRealScene : nil)
    }

    /// The phone's `is_likely_real_scene` against its own numbers under `c`'s thresholds.
    static func depthClaim(_ fields: JSONObject, configuration c: DepthAnalyzerV1.Configuration) -> ClaimCheck {
        let claimed: Bool? = if case .bool(let b)? = fields["is_likely_real_scene"] { b } else { nil }
        guard let std = fields["depth_variance"]?.numberValue, let layers = fields["depth_layers"]?.numberValue,
            let coherence = fields["edge_coherence"]?.numberValue
        else {
            return ClaimCheck(
                status: .unavailable, claimed: claimed, numbersSayReal: nil,
                detail: "depth_variance, depth_layers and edge_coherence are needed to re-check the claim")
        }
        var screen: Bool?
        if case .bool(let b)? = fields["is_screen_pattern"] {
            screen = b
        } else if let range = fields["depth_range"]?.numberValue
            ?? fields["max_depth"]?.numberValue.flatMap({ high in fields["min_depth"]?.numberValue.map { high - $0 } }),
            let uniformity = fields["uniformity"]?.numberValue, let mean = fields["mean_depth"]?.numberValue
        {
            screen =
                range < c.screenMaxRange && uniformity > c.screenMinUniformity
                && (c.screenMinMean...c.screenMaxMean).contains(mean)
        }
        let criteria = std > c.stdThreshold && layers >= Double(c.minLayers) && coherence > c.coherenceThreshold
        let numbers: Bool? = !criteria ? false : screen.map { !$0 }
        let rule =
            "real needs std \(FieldParity.format(std)) > \(FieldParity.format(c.stdThreshold)), layers \(Int(layers)) >= "
            + "\(c.minLayers), coherence \(FieldParity.format(coherence)) > \(FieldParity.format(c.coherenceThreshold))"
            + (screen.map { ", screen pattern \($0)" } ?? ", screen pattern unknown")
        guard let claimed else {
            return ClaimCheck(
                status: .unavailable, claimed: nil, numbersSayReal: numbers,
                detail: "no is_likely_real_scene claim; \(rule)")
        }
        if let numbers, numbers != claimed {
            return ClaimCheck(
                status: .fail, claimed: claimed, numbersSayReal: numbers,
                detail:
                    "claims \(claimed ? "real" : "not real") but its numbers say \(numbers ? "real" : "not real") (\(rule))"
            )
        }
        return ClaimCheck(status: .pass, claimed: claimed, numbersSayReal: numbers, detail: rule)
    }

    // MARK: - video

    /// The phone's privacy-mode temporal claim (`is_likely_real_scene`, or `is_real`)
    /// against its `variance_stability` (methods.md section 6: "real = every frame real AND
    /// variance_stability > 0.8").
    static func temporalClaim(_ fields: JSONObject, minStability: Double) -> ClaimCheck {
        var claimed: Bool?
        for key in ["is_likely_real_scene", "is_real"] {
            if case .bool(let b)? = fields[key] {
                claimed = b
                break
            }
        }
        guard let stability = fields["variance_stability"]?.numberValue else {
            return ClaimCheck(
                status: .unavailable, claimed: claimed, numbersSayReal: nil,
                detail: "variance_stability is needed to re-check the claim")
        }
        // Stable variance is necessary, not sufficient (every frame must also be real).
        let numbers: Bool? = stability > minStability ? nil : false
        let rule =
            "real needs variance_stability \(FieldParity.format(stability)) > \(FieldParity.format(minStability))"
        guard let claimed else {
            return ClaimCheck(
                status: .unavailable, claimed: nil, numbersSayReal: numbers, detail: "no real-scene claim; \(rule)")
        }
        if claimed, numbers == false {
            return ClaimCheck(
                status: .fail, claimed: true, numbersSayReal: false, detail: "claims real, but \(rule)")
        }
        return ClaimCheck(status: .pass, claimed: claimed, numbersSayReal: numbers, detail: rule)
    }

    /// The phone's `temporal_depth_analysis` against a reference result given as JSON:
    /// every number within `tolerance`, every boolean and string equal; bookkeeping fields
    /// (`status`, `algorithm_version`, `analysis_time_ms`, `unavailable_reason`) left out.
    public static func temporalParity(phone: JSONObject, reference: JSONObject, tolerance: Double) -> FieldParity {
        let skipped: Set<String> = ["status", "algorithm_version", "analysis_time_ms", "unavailable_reason"]
        return FieldParity.compare(phone: phone, reference: reference) { key in
            skipped.contains(key) ? nil : tolerance
        }
    }

    /// The chain summary against itself and, when given, the recording's chain record.
    static func chainConsistency(_ payload: PrivacyPayload, record: HashChainRecord?) -> ChainConsistency? {
        guard let summary = payload.hashChain else { return nil }
        var problems: [String] = []
        let expectedCheckpoints = min(
            FrameHashLayout.maximumCheckpoints, summary.chainLength / FrameHashLayout.checkpointInterval)
        if summary.checkpointCount != expectedCheckpoints {
            problems.append(
                "checkpoint_count \(summary.checkpointCount) but a chain of \(summary.chainLength) frames has "
                    + "\(expectedCheckpoints) (one every \(FrameHashLayout.checkpointInterval) frames, at most \(FrameHashLayout.maximumCheckpoints))"
            )
        }
        if let frames = payload.frameCount, abs(frames - summary.chainLength) > DeployedChainCheck.frameCountTolerance {
            problems.append(
                "frame_count \(frames) and chain_length \(summary.chainLength) differ by more than \(DeployedChainCheck.frameCountTolerance)"
            )
        }
        if let record {
            if record.finalHash != summary.finalHash {
                problems.append(
                    "final_hash \(summary.finalHash.hex) is not the chain record's final hash \(record.finalHash?.hex ?? "(none)")"
                )
            }
            if record.frameHashes.count != summary.chainLength {
                problems.append(
                    "chain_length \(summary.chainLength) but the chain record has \(record.frameHashes.count) frames")
            }
            if record.checkpoints.count != summary.checkpointCount {
                problems.append(
                    "checkpoint_count \(summary.checkpointCount) but the chain record has \(record.checkpoints.count) checkpoints"
                )
            }
            problems += DeployedChainCheck.failures(record).map { "chain record: \($0)" }
        }
        return ChainConsistency(
            status: problems.isEmpty ? .pass : .fail, problems: problems, recordCompared: record != nil)
    }

    // MARK: - metadata

    /// The flags (PRD 1.1 "Granular Metadata Controls") against what `metadata` carries.
    static func metadataConsistency(_ payload: PrivacyPayload, coarseDecimals: Int) -> MetadataConsistency {
        let m = payload.metadata
        var problems: [String] = [], disclosures: [String] = []
        switch (m.flags.location, m.location) {
        case (.none, .some): problems.append("location is flagged none but metadata.location is present")
        case (.coarse, nil), (.precise, nil):
            problems.append("location is flagged \(m.flags.location.rawValue) but metadata.location is absent")
        case (.coarse, .object(let o)?):
            for key in ["latitude", "longitude"] {
                guard let value = o[key]?.numberValue else { continue }
                let places = decimalPlaces(value)
                if places > coarseDecimals {
                    problems.append(
                        "location is flagged coarse but metadata.location.\(key) \(value) has \(places) decimal places "
                            + "(at most \(coarseDecimals))")
                }
            }
        default: break
        }
        let dayOnly = m.timestamp.map {
            DatasetRunner.parseDate($0, allowDate: true) != nil && DatasetRunner.parseDate($0, allowDate: false) == nil
        }
        let exact = m.timestamp.map { DatasetRunner.parseDate($0, allowDate: false) != nil }
        switch (m.flags.timestamp, m.timestamp) {
        case (.none, .some): problems.append("timestamp is flagged none but metadata.timestamp is present")
        case (.dayOnly, nil), (.exact, nil):
            problems.append("timestamp is flagged \(m.flags.timestamp.rawValue) but metadata.timestamp is absent")
        case (.dayOnly, let t?) where dayOnly != true:
            problems.append(
                "timestamp is flagged day_only but metadata.timestamp '\(t)' is "
                    + (exact == true ? "a date-time" : "not an ISO 8601 date"))
        case (.exact, let t?) where exact != true:
            problems.append("timestamp is flagged exact but metadata.timestamp '\(t)' is not an ISO 8601 date-time")
        default: break
        }
        if m.flags.timestamp != .exact {
            disclosures.append(
                "captured_at '\(payload.capturedAt)' gives the exact time although the timestamp is flagged "
                    + m.flags.timestamp.rawValue)
        }
        switch (m.flags.deviceInfo, m.deviceModel) {
        case (.none, .some): problems.append("device_info is flagged none but metadata.device_model is present")
        case (.modelOnly, nil), (.full, nil):
            problems.append("device_info is flagged \(m.flags.deviceInfo.rawValue) but metadata.device_model is absent")
        case (.modelOnly, .object?):
            problems.append(
                "device_info is flagged model_only but metadata.device_model is an object (full device info)")
        default: break
        }
        return MetadataConsistency(
            status: problems.isEmpty ? .pass : .fail, problems: problems, disclosures: disclosures)
    }

    /// Digits after the decimal point of the shortest text that reads back as `value`
    /// (Swift's `description`: 48.85 -> 2, 1e-05 -> 5, 3.0 -> 0).
    static func decimalPlaces(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        let text = abs(value).description
        var mantissa = Substring(text), exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var fraction =
            mantissa.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return max(0, fraction.count - exponent)
    }
}
