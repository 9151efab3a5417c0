/// The flags vocabulary of methods.md section 7, plus `metadata_check_failed`,
/// `required_detection_missing`, `attestation_rejected` and `high_uncertainty`. Encodes as the
/// snake_case raw value; `<` is alphabetical so flag lists sort stably.
public enum AggregationFlag: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The profile's primary method (lidar on `ios_pro`, parallax on `android`) is
    /// missing, unavailable, failed or has no finite score.
    case primarySignalFailed = "primary_signal_failed"
    /// An available method reported `screen_detected`.
    case screenDetected = "screen_detected"
    /// An available method reported `print_detected`.
    case printDetected = "print_detected"
    /// The available methods' verdicts (score >= `real_threshold`) are not all equal.
    case methodsDisagree = "methods_disagree"
    /// The primary's verdict differs from the verdict of the weighted mean of the other
    /// available methods.
    case primarySupportingDisagree = "primary_supporting_disagree"
    /// At least one method with a positive profile weight did not score.
    case partialAnalysis = "partial_analysis"
    /// The final score is within `ambiguity_band` of the MEDIUM boundary.
    case ambiguousResults = "ambiguous_results"
    /// A metadata check ran and failed (`MetadataChecks`: timestamp, device has LiDAR,
    /// resolution). Not in methods.md section 7's list: the product documents' evidence
    /// status table (PRD 1.1 and 2.0, "Evidence Status Values") reads FAIL as "Red
    /// flag—possible manipulation", so a failed check is raised as a flag of its own.
    case metadataCheckFailed = "metadata_check_failed"
    /// A passed hardware attestation lacked the detection its row of PRD 2.0 "Evidence
    /// Impact by Attestation Level" requires (StrongBox: parallax OR moire; TEE: parallax
    /// AND moire AND texture); `AggregationResult.missingRequired` names the methods.
    case requiredDetectionMissing = "required_detection_missing"
    /// Software-only or failed attestation: rejected (PRD 2.0 "Reject software-only
    /// attestation", FR72; table "Max Confidence: REJECTED"), as
    /// `AggregationResult.attestationRejected`.
    case attestationRejected = "attestation_rejected"
    /// The aggregated confidence interval of cross-validation is wider than
    /// `cross_validation.high_uncertainty_width` (`CrossValidationResult.highUncertainty`).
    case highUncertainty = "high_uncertainty"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
