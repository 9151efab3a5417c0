import Foundation
import RialDetection
import RialMedia

/// The confidence a privacy-mode (hash-only) capture reaches, under two rules.
///
/// Both are the MVP evidence rule (`MVPEvidenceRule`, PRD 1.1 / 2.0 "Confidence Calculation
/// (MVP)": any failed check -> SUSPICIOUS; hardware and depth pass -> HIGH; exactly one ->
/// MEDIUM; neither -> LOW), the only rule the product documents give privacy mode
/// ("Confidence: HIGH achievable when hardware attestation + depth analysis both pass",
/// PRD 1.1 "Privacy Mode Technical Details"). Hardware is `MVPEvidenceRule.hardware` of the
/// attestation as checked elsewhere. They differ in what "depth" means and what can fail:
///
/// **Deployed** (`deployed`): the backend "trusts the phone's `is_likely_real_scene` without
/// re-checking its numbers" (methods.md section 6; FR59 "Backend accepts pre-computed depth
/// analysis signed by attested device"): depth `pass` when the phone says real, `fail` when
/// it says not real, `unavailable` when it sent no analysis (depth excluded: an opt-out,
/// "User opted out", never suspicious: PRD 1.1 "Granular Metadata Controls", "Evidence
/// Impact"). For a video the temporal analysis's claim stands in for the depth claim when
/// sent. No other check: the media never reaches the server (FR60) and the backend has no
/// depth map to recompute.
///
/// **Sound** (`sound`, then `level` after the caps): depth is what can be verified:
/// `depth/1` recomputed on the depth map when it is available and the parity holds; else
/// the phone's own numbers re-checked against `depth/1`'s configured thresholds. Failed
/// checks (-> SUSPICIOUS): `privacy.media_hash` (the media does not hash to `media_hash`),
/// `privacy.depth_parity` (the phone's analysis differs from the recomputation beyond
/// tolerance), `privacy.depth_numbers` (the claim contradicts the phone's own numbers) and
/// for a video `privacy.hash_chain`, `privacy.temporal_numbers`, `privacy.temporal_parity`.
/// Opt-outs stay `unavailable`. Caps (configuration `privacy`): `level_cap` always (HIGH);
/// `unverified_depth_cap` (MEDIUM) when depth passed on numbers nothing recomputed;
/// `metadata_inconsistency_cap` (MEDIUM) when the flags misstate the metadata.
public struct PrivacyConfidence: Sendable, Equatable, Codable {
    /// The deployed backend's rule.
    public var deployed: MVPEvidenceRule.Evaluation
    /// The sound rule before its caps.
    public var sound: MVPEvidenceRule.Evaluation
    /// The sound rule's level after its caps.
    public var level: ConfidenceLevel
    /// The caps that lowered `level`, each `KEY (LEVEL)`.
    public var capsApplied: [String]

    enum CodingKeys: String, CodingKey {
        case deployed, sound, level
        case capsApplied = "caps_applied"
    }

    public init(
        deployed: MVPEvidenceRule.Evaluation, sound: MVPEvidenceRule.Evaluation, level: ConfidenceLevel,
        capsApplied: [String]
    ) {
        self.deployed = deployed
        self.sound = sound
        self.level = level
        self.capsApplied = capsApplied
    }

    /// Both rules for `payload`, from the checks of `verification`.
    init(
        _ payload: PrivacyPayload, verification v: PrivacyVerification, evidence: PrivacyVerification.Evidence,
        settings: PrivacyConfiguration
    ) {
        let hardware = MVPEvidenceRule.hardware(evidence.attestation)
        let depthClaim = Self.claim(payload.depthAnalysis, keys: ["is_likely_real_scene"])
        let temporalClaim = Self.claim(payload.temporalDepthAnalysis, keys: ["is_likely_real_scene", "is_real"])
        deployed = MVPEvidenceRule.Evaluation(
            hardware: hardware,
            depth: Self.status(payload.mediaType == .video ? temporalClaim ?? depthClaim : depthClaim))

        var checks: [String: EvidenceCheckStatus] = ["privacy.media_hash": v.hash.status]
        if let numbers = v.depthNumbers { checks["privacy.depth_numbers"] = numbers.status }
        if let parity = v.depthParity { checks["privacy.depth_parity"] = parity.status }
        if let chain = v.chain { checks["privacy.hash_chain"] = chain.status }
        if let numbers = v.temporalNumbers { checks["privacy.temporal_numbers"] = numbers.status }
        if let parity = v.temporalParity { checks["privacy.temporal_parity"] = parity.status }

        // Each depth component: (status, verified by a recomputation).
        var components: [(status: EvidenceCheckStatus, verified: Bool)] = []
        if payload.depthAnalysis != nil {
            if let parity = v.depthParity, parity.status != .unavailable {
                components.append((Self.status(v.depthReferenceRealScene), true))
            } else {
                components.append((Self.status(v.depthNumbers?.numbersSayReal ?? depthClaim), false))
            }
        }
        if payload.mediaType == .video, let temporal = payload.temporalDepthAnalysis {
            if let parity = v.temporalParity, parity.status != .unavailable, let reference = evidence.temporalReference
            {
                components.append(
                    (Self.status(Self.claim(reference, keys: ["is_likely_real_scene", "is_real"])), true))
            } else {
                let numbers = v.temporalNumbers?.numbersSayReal
                components.append(
                    (Self.status(numbers ?? Self.claim(temporal, keys: ["is_likely_real_scene", "is_real"])), false))
            }
        }
        let depth: EvidenceCheckStatus =
            components.isEmpty
            ? .unavailable
            : components.contains { $0.status == .fail }
                ? .fail : components.allSatisfy { $0.status == .pass } ? .pass : .unavailable
        sound = MVPEvidenceRule.Evaluation(hardware: hardware, depth: depth, checks: checks)

        var level = sound.level
        var caps: [String] = []
        func cap(_ limit: ConfidenceLevel, _ key: PrivacyConfiguration.CodingKeys) {
            guard level > limit else { return }
            level = limit
            caps.append("privacy.\(key.stringValue) (\(limit.rawValue))")
        }
        cap(settings.levelCap, .levelCap)
        if depth == .pass, components.contains(where: { !$0.verified }) {
            cap(settings.unverifiedDepthCap, .unverifiedDepthCap)
        }
        if v.metadata.status == .fail { cap(settings.metadataInconsistencyCap, .metadataInconsistencyCap) }
        self.level = level
        capsApplied = caps
    }

    /// The first of `keys` that holds a boolean in `fields`.
    static func claim(_ fields: JSONObject?, keys: [String]) -> Bool? {
        guard let fields else { return nil }
        for key in keys {
            if case .bool(let b)? = fields[key] { return b }
        }
        return nil
    }

    /// true -> pass, false -> fail, nil -> unavailable.
    static func status(_ real: Bool?) -> EvidenceCheckStatus {
        real.map { $0 ? .pass : .fail } ?? .unavailable
    }
}
