import Foundation
import Testing

@testable import RialDetection

/// The product documents' evidence rules reach the level under both aggregations.
///
/// Sources of every expectation (../shared/product):
/// - PRD 1.1 / 2.0 "Evidence Status Values" table: PASS "Positive signal"; FAIL "Red
///   flag—possible manipulation"; UNAVAILABLE "Reduces confidence ceiling, not suspicious".
/// - PRD 1.1 / 2.0 "Confidence Calculation (MVP)": `if any_check_failed: return
///   SUSPICIOUS`; (hardware, depth) pass/pass HIGH, one of them MEDIUM, neither LOW.
/// - PRD 1.1 "Granular Metadata Controls": excluded fields are noted as "User opted out"
///   (not marked suspicious).
@Suite struct EvidenceRulesTests {
    static let secureEnclave = AttestationEvidence(status: .pass, method: .secureEnclave)

    /// Every `ios_pro` family scoring 0.95: the weighted aggregator gives VERY_HIGH with
    /// Secure Enclave (0.95 + boost 0.05 = 1.0 >= 0.90, all present, agreeing).
    static let strong: [String: AggregationCandidate] = [
        "depth/2": AggregationCandidate(family: .depth, source: .computed, available: true, score: 0.95),
        "moire/2": AggregationCandidate(family: .moire, source: .computed, available: true, score: 0.95),
        "texture/4": AggregationCandidate(family: .texture, source: .computed, available: true, score: 0.95),
        "artifacts/2": AggregationCandidate(family: .artifacts, source: .computed, available: true, score: 0.95),
    ]

    static let lidarFailed: [String: EvidenceCheckStatus] = [
        "metadata.timestamp": .unavailable, "metadata.device_has_lidar": .fail, "metadata.resolution": .pass,
    ]
    static let noneFailed: [String: EvidenceCheckStatus] = [
        "metadata.timestamp": .unavailable, "metadata.device_has_lidar": .unavailable, "metadata.resolution": .pass,
    ]

    func aggregate(
        _ configuration: PipelineConfiguration = .standard, _ candidates: [String: AggregationCandidate] = strong,
        attestation: AttestationEvidence = secureEnclave, checks: [String: EvidenceCheckStatus]
    ) throws -> AggregationResult {
        try PipelineAggregator(configuration: configuration)
            .aggregate(candidates, attestation: attestation, profile: .iosPro, checks: checks).result
    }

    /// Weighted aggregator: a failed check is a flag and caps the level at the default
    /// `level_caps.metadata_fail` SUSPICIOUS ("FAIL: Red flag—possible manipulation"),
    /// however strong the detection scores are.
    @Test func weightedFailedCheckIsFlaggedAndSuspicious() throws {
        let clean = try aggregate(checks: Self.noneFailed)
        #expect(clean.confidenceLevel == .veryHigh)
        #expect(!clean.flags.contains(.metadataCheckFailed))
        #expect(clean.failedChecks == [])

        let failed = try aggregate(checks: Self.lidarFailed)
        #expect(failed.confidenceLevel == .suspicious)
        #expect(failed.flags.contains(.metadataCheckFailed))
        #expect(failed.failedChecks == ["metadata.device_has_lidar"])
        #expect(failed.capsApplied.contains("metadata.device_has_lidar: level capped at SUSPICIOUS"))
        // The score agrees with the level: below the LOW boundary 0.25. The ranking score
        // follows the evidence under the default `aggregation.ranking: evidence`
        // (RankingModeTests covers `capped` and `bounded`): the cap does not move it.
        #expect(failed.confidenceScore < 0.25)
        #expect(failed.rankingScore == clean.rankingScore)
        // The MVP level beside it is SUSPICIOUS too (`any_check_failed`).
        #expect(failed.mvp?.level == .suspicious)
    }

    /// UNAVAILABLE "reduces confidence ceiling, not suspicious": checks that could not
    /// run change neither the flags nor the weighted level.
    @Test func unavailableChecksAreNeverSuspicious() throws {
        let all: [String: EvidenceCheckStatus] = [
            "metadata.timestamp": .unavailable, "metadata.device_has_lidar": .unavailable,
            "metadata.resolution": .unavailable,
        ]
        let r = try aggregate(checks: all)
        #expect(r.confidenceLevel == .veryHigh)
        #expect(!r.flags.contains(.metadataCheckFailed))
        #expect(r.mvp?.level == .high)
    }

    /// The cap is a configuration key: `aggregation.level_caps.metadata_fail: MEDIUM`
    /// keeps the flag and stops at MEDIUM.
    @Test func theCapIsConfigurable() throws {
        var configuration = PipelineConfiguration.standard
        configuration.aggregation.levelCaps.metadataFail = .medium
        let r = try aggregate(configuration, checks: Self.lidarFailed)
        #expect(r.confidenceLevel == .medium)
        #expect(r.flags.contains(.metadataCheckFailed))
    }

    /// `aggregation.rule: mvp` gives the MVP table's level; the weighted level is kept
    /// beside it and the score is the weighted aggregator's.
    /// Rows of "Confidence Calculation (MVP)": (true, true) => HIGH, (false, true) =>
    /// MEDIUM, (true, false) => MEDIUM, (false, false) => LOW, any failed => SUSPICIOUS.
    @Test func mvpRuleGivesTheTableLevel() throws {
        var mvp = PipelineConfiguration.standard
        mvp.aggregation.rule = .mvp
        var depthMissing = Self.strong
        depthMissing["depth/2"] = AggregationCandidate(family: .depth, source: .computed, available: false, score: nil)
        var depthFlat = Self.strong
        depthFlat["depth/2"] = AggregationCandidate(family: .depth, source: .computed, available: true, score: 0.1)

        let cases:
            [([String: AggregationCandidate], AttestationEvidence, [String: EvidenceCheckStatus], ConfidenceLevel)] = [
                (Self.strong, Self.secureEnclave, Self.noneFailed, .high),
                (Self.strong, .missing, Self.noneFailed, .medium),
                (depthMissing, Self.secureEnclave, Self.noneFailed, .medium),
                (depthMissing, .missing, Self.noneFailed, .low),
                (Self.strong, Self.secureEnclave, Self.lidarFailed, .suspicious),
                (depthFlat, Self.secureEnclave, Self.noneFailed, .suspicious),
                (Self.strong, AttestationEvidence(status: .fail, method: .secureEnclave), Self.noneFailed, .suspicious),
            ]
        for (candidates, attestation, checks, level) in cases {
            let r = try aggregate(mvp, candidates, attestation: attestation, checks: checks)
            #expect(r.confidenceLevel == level)
            #expect(r.mvp?.level == level)
            #expect(r.rule == .mvp)
            let weighted = try aggregate(.standard, candidates, attestation: attestation, checks: checks)
            #expect(r.weightedLevel == weighted.confidenceLevel)
            #expect(r.rankingScore == weighted.rankingScore)
        }
    }

    /// The MVP's hardware check: passed hardware attestation only; a software key proves
    /// no hardware (PRD 2.0: software-only attestation is rejected) and is not a pass.
    @Test func mvpHardwareCheck() {
        #expect(MVPEvidenceRule.hardware(Self.secureEnclave) == .pass)
        #expect(MVPEvidenceRule.hardware(AttestationEvidence(status: .pass, method: .strongbox)) == .pass)
        #expect(MVPEvidenceRule.hardware(AttestationEvidence(status: .pass, method: .software)) == .unavailable)
        #expect(MVPEvidenceRule.hardware(.missing) == .unavailable)
        #expect(MVPEvidenceRule.hardware(AttestationEvidence(status: .fail, method: .tee)) == .fail)
    }

    /// A user opt-out is noted ("User opted out") and is not suspicious: "Pixel 3" fails
    /// the LiDAR check, but with device info withheld the check is unavailable and the
    /// level stays where the detection puts it. Timestamp withheld: the same.
    @Test func optOutIsNotedAndNotSuspicious() throws {
        let configuration = MetadataChecks.Configuration()
        let reference = Date(timeIntervalSince1970: 1_764_000_000)
        let input = MetadataChecks.Input(
            captureTime: reference.addingTimeInterval(-86_400), referenceTime: reference, deviceModel: "Pixel 3",
            width: 4032, height: 3024)
        let shared = MetadataChecks(input, configuration: configuration)
        #expect(shared.deviceHasLidar.status == .fail)
        #expect(shared.timestamp.status == .fail) // a day apart, limit 900 s
        #expect(shared.optedOut == nil)

        var withheld = input
        withheld.optedOut = [.deviceInfo, .timestamp, .location]
        let checks = MetadataChecks(withheld, configuration: configuration)
        #expect(checks.deviceHasLidar == .init(.unavailable, "User opted out"))
        #expect(checks.timestamp == .init(.unavailable, "User opted out"))
        #expect(checks.optedOut == [.deviceInfo, .location, .timestamp])
        // "Resolution matches device capability": with the device withheld there is no
        // capability to match, so the check cannot run.
        #expect(checks.resolution.status == .unavailable)

        let r = try aggregate(checks: checks.statuses)
        #expect(r.confidenceLevel == .veryHigh)
        #expect(!r.flags.contains(.metadataCheckFailed))
        #expect(try aggregate(checks: shared.statuses).confidenceLevel == .suspicious)
    }

    /// Configurations recorded before `rule` and `level_caps.metadata_fail` existed still
    /// decode, with the defaults (weighted, SUSPICIOUS).
    @Test func olderConfigurationsDecodeWithTheDefaults() throws {
        var tree = try JSONDecoder().decode(
            [String: AnyJSON].self, from: JSONEncoder().encode(AggregationConfiguration.reference))
        tree["rule"] = nil
        if case .object(var caps)? = tree["level_caps"] {
            caps["metadata_fail"] = nil
            tree["level_caps"] = .object(caps)
        }
        let decoded = try JSONDecoder().decode(AggregationConfiguration.self, from: JSONEncoder().encode(tree))
        #expect(decoded == .reference)
        #expect(decoded.rule == .weighted && decoded.levelCaps.metadataFail == .suspicious)
    }
}

/// A JSON value, to edit an encoded configuration in a test.
private indirect enum AnyJSON: Codable, Equatable {
    case object([String: AnyJSON]), array([AnyJSON]), string(String), number(Double), bool(Bool), null

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([AnyJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: AnyJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .object(let o): try c.encode(o)
        case .array(let a): try c.encode(a)
        case .string(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        }
    }
}
