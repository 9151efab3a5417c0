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
        aggregation: AggregationResult, metadata: MetadataChecks, profileName: String, profile: AggregationProfile,
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

        let scored = aggregated.filter { $0.summary.status == .completed }.count
        let status = scored == 0 ? "unavailable" : scored == aggregated.count ? "completed" : "partial"
        let primaryKey = aggregated.first { $0.family.role == profile.primary }?.key
        let threshold = configuration.decision.threshold(for: nil)

        var payload: JSONObject?
        if let p = input.payload {
            var object = JSONObject()
            if let a = p.aggregatedConfidence { object["aggregated_confidence"] = a }
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
                status: status, isLikelyRealScene: aggregation.rankingScore >= threshold,
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
