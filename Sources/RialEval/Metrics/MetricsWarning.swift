/// Why a metric is undefined (NaN) or was computed on fewer samples than given.
///
/// Metric functions never throw or trap on data: they return NaN where a quantity is
/// undefined and list the reason here, so a report can print it next to the number.
/// Encodes as its snake_case raw value.
public enum MetricsWarning: String, Sendable, Codable, Hashable, CaseIterable, CustomStringConvertible {
    /// No samples (after excluding non-finite scores): every rate is NaN.
    case empty = "empty"
    /// No bona fide sample: TPR, BPCER, AUC, EER and the BPCERs at fixed APCER are NaN.
    case noBonaFide = "no_bona_fide"
    /// No attack sample: FPR, APCER, AUC, EER and the BPCERs at fixed APCER are NaN.
    case noAttack = "no_attack"
    /// Samples with a NaN or infinite score were left out (counted in `excluded`).
    case nonFiniteScoresExcluded = "non_finite_scores_excluded"
    /// Parallel input arrays had different lengths; only the common prefix was used.
    case lengthMismatch = "length_mismatch"
    /// Some bootstrap resamples lacked a class, so the statistic was undefined there;
    /// the interval uses the defined resamples only (count in `undefined_resamples`).
    case undefinedBootstrapResamples = "undefined_bootstrap_resamples"
    /// A paired comparison found samples present in only one set or with different truth;
    /// they were left out.
    case unpairedSamplesExcluded = "unpaired_samples_excluded"

    public var description: String {
        switch self {
        case .empty: "no samples with a finite score: every metric is undefined"
        case .noBonaFide: "no bona fide (real_scene) sample: TPR, BPCER, AUC and EER are undefined"
        case .noAttack: "no attack sample: FPR, APCER, AUC and EER are undefined"
        case .nonFiniteScoresExcluded: "samples with a NaN or infinite score were excluded"
        case .lengthMismatch: "scores and labels have different lengths; only the common prefix was used"
        case .undefinedBootstrapResamples:
            "some bootstrap resamples lacked a class; the interval uses the defined resamples only"
        case .unpairedSamplesExcluded:
            "samples present in only one score set, or with different truth, were excluded from the paired comparison"
        }
    }
}
