import RialMedia

/// The result of `CaptureAnalyzer.analyze`: every method's outcome, the aggregation and
/// the evidence package built from them.
public struct CaptureAnalysis: Sendable, Equatable {
    /// Every method that ran (configuration order), then payload results.
    public var outcomes: [MethodOutcome]
    /// Breakdown keys of the outcomes that fed aggregation.
    public var aggregated: [String]
    public var aggregation: AggregationResult
    public var evidence: EvidencePackage
    /// Wall time of the whole analysis, milliseconds.
    public var totalMs: Double

    /// The outcome with breakdown key `key` (`depth/2`, `payload.moire`).
    public func outcome(_ key: String) -> MethodOutcome? {
        outcomes.first { $0.key == key }
    }
}

extension CaptureAnalyzer {
    static func evidence(
        input: CaptureInput, outcomes: [MethodOutcome], aggregated: [MethodOutcome],
        aggregation: AggregationResult, metadata: MetadataChecks, families: [FamilyEvidence], profileName: String,
        profile: AggregationProfile,
        configuration: PipelineConfiguration, totalMs: Double
    ) -> EvidencePackage {
        var breakdown = JSONObject()
        var latency: [String: Double] = [:]
        for outcome in outcomes {
            let isAggregated = aggregated.contains { $0.key == outcome.key }
            var entry = JSONObject()
            entry["available"] = .bool(outcome.summary.status == .completed)
            entry["score"] = outcome.summary.score.map { .number($0) } ?? .null
            if let calibration = configuration.calibration[outcome.key], let score = outcome.summary.score {
                entry["calibrated_score"] = .number(calibration.apply(score))
            }
            entry["weight"] = .number(isAggregated ? aggregation.weightsUsed[outcome.family.role] ?? 0 : 0)
            entry["role"] = .string(outcome.family.role.rawValue)
            entry["aggregated"] = .bool(isAggregated)
            entry["source"] = .string(outcome.source.rawValue)
            entry["screen_detected"] = .bool(outcome.screenDetected)
            entry["print_detected"] = .bool(outcome.printDetected)
            for (key, value) in outcome.fields where entry[key] == nil { entry[key] = value }
            breakdown[outcome.key] = .object(entry)
            latency[outcome.key] = outcome.summary.analysisTimeMs
        }
        latency["aggregation"] = aggregation.analysisTimeMs
        latency["total"] = totalMs
        for check in families {
            let entry = familyEntry(
                check, outcome: outcomes.first { $0.key == check.method }, breakdown: breakdown,
                weight: aggregation.weightsUsed[check.family.role] ?? 0,
                aggregated: aggregated.contains { $0.key == check.method })
            breakdown[FamilyEvidence.key(check.family)] = .object(entry)
            if check.family == .artifacts { breakdown[FamilyEvidence.supportingKey] = .object(entry) }
        }

        let scored = aggregated.filter { $0.summary.status == .completed }.count
        let completeness = scored == 0 ? "unavailable" : scored == aggregated.count ? "completed" : "partial"
        let primaryKey = aggregated.first { $0.family.role == profile.primary }?.key
        let threshold = configuration.decision.threshold(for: nil)
        let isReal = aggregation.rankingScore >= threshold
        let status: EvidenceCheckStatus = scored == 0 ? .unavailable : isReal ? .pass : .fail

        var payload: JSONObject?
        if let p = input.payload {
            var object = JSONObject()
            if let a = p.aggregatedConfidence { object["aggregated"] = a }
            if let c = p.crossValidation { object["cross_validation"] = c }
            payload = object
        }
        return EvidencePackage(
            platform: input.platform,
            confidenceLevel: aggregation.confidenceLevel,
            confidenceScore: aggregation.confidenceScore,
            hardwareAttestation: .init(
                status: input.attestation.status, method: input.attestation.method,
                deviceModel: input.deviceModel),
            sceneAnalysis: .init(
                status: status, completeness: completeness, isLikelyRealScene: isReal,
                primaryMethod: primaryKey, breakdown: breakdown,
                crossValidation: .init(
                    methodsAgree: aggregation.methodsAgree,
                    disagreementScore: aggregation.disagreementScore,
                    flagged: !aggregation.flags.isEmpty, flags: aggregation.flags,
                    analysis: aggregation.crossValidation),
                finalScore: aggregation.confidenceScore),
            metadata: metadata,
            provenance: .init(sha256: input.imageSHA256),
            profile: profileName, aggregation: aggregation, latencyMs: latency, payload: payload)
    }
}

extension CaptureAnalyzer {
    /// The breakdown entry under a family key (PRD 2.0 "Evidence Model (Unified)"):
    /// `available`, `status` (pass / fail / unavailable), `reason` when unavailable,
    /// `score` (as compared), `weight`, `threshold`, `decided_by`, the `method` it came
    /// from with its `algorithm_version` (and `phone_algorithm_version`, `source`), then
    /// the PRD's example fields that the result has (`depth_variance`, `depth_layers`,
    /// `edge_coherence`; `screen_detected`, `frequency_peaks`; `classification`,
    /// `material_confidence`; `pwm_detected`, `specular_uniformity`, `halftone_detected`).
    static func familyEntry(
        _ check: FamilyEvidence, outcome: MethodOutcome?, breakdown: JSONObject, weight: Double, aggregated: Bool
    ) -> JSONObject {
        var entry = JSONObject()
        entry["available"] = .bool(check.status != .unavailable)
        entry["status"] = .string(check.status.rawValue)
        if check.status == .unavailable {
            entry["reason"] = .string(outcome?.summary.unavailableReason ?? check.decidedBy)
        }
        entry["score"] = check.score.map { .number($0) } ?? .null
        entry["weight"] = .number(aggregated ? weight : 0)
        entry["threshold"] = .number(check.threshold)
        entry["decided_by"] = .string(check.decidedBy)
        entry["method"] = check.method.map { .string($0) } ?? .null
        guard let outcome else { return entry }
        entry["algorithm_version"] = .string(outcome.summary.algorithmVersion.description)
        if let phone = outcome.fields["phone_algorithm_version"] { entry["phone_algorithm_version"] = phone }
        entry["source"] = .string(outcome.source.rawValue)
        let fields = outcome.fields
        let copied: [(String, JSONValue?)]
        switch check.family {
        case .depth:
            copied = [
                ("depth_variance", fields["depth_variance"]), ("depth_layers", fields["depth_layers"]),
                ("edge_coherence", fields["edge_coherence"]),
            ]
        case .parallax: copied = []
        case .moire:
            copied = [
                ("screen_detected", .bool(outcome.screenDetected)),
                ("frequency_peaks", fields["frequency_peaks"] ?? fields["peaks"]),
            ]
        case .texture:
            copied = [
                ("classification", fields["classification"]),
                ("material_confidence", fields["material_confidence"] ?? fields["confidence"]),
            ]
        case .artifacts:
            copied = [
                ("pwm_detected", fields["pwm_detected"] ?? fields["pwm_flicker_detected"]),
                ("specular_uniformity", fields["specular_uniformity"] ?? fields["specular_confidence"]),
                ("halftone_detected", fields["halftone_detected"]),
            ]
        case .temporal:
            copied = [
                ("depth_consistency", fields["depth_consistency"]), ("scene_stability", fields["scene_stability"]),
                ("motion_coherence", fields["motion_coherence"]),
            ]
        }
        for (key, value) in copied { if let value { entry[key] = value } }
        return entry
    }
}
