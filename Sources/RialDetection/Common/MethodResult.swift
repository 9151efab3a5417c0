/// The fields every detection method's result carries (specs/methods.md, "every method
/// returns"), beside the method's own fields, at the top level of its JSON object:
///
/// | JSON key             | property            | meaning |
/// |----------------------|---------------------|---------|
/// | `status`             | `status`            | `completed`, `unavailable` or `failed` |
/// | `unavailable_reason` | `unavailableReason` | why not completed; absent when completed |
/// | `algorithm_version`  | `algorithmVersion`  | `NAME/VERSION`, e.g. `"depth/1"` |
/// | `analysis_time_ms`   | `analysisTimeMs`    | wall time of the analysis, monotonic clock, ms |
/// | `score`              | `score`             | 0...1, 1 = consistent with a real scene |
///
/// Conventions every conforming type keeps:
/// - `status == .completed` exactly when `score` is non-nil and `unavailableReason` is
///   nil. A method that cannot score its input reports `.unavailable` (bad input) or
///   `.failed` (its own fault) with a reason and NO score: a missing signal is not
///   evidence either way, and aggregation renormalises over the methods that scored
///   (methods.md section 7). Optional fields are left out of the JSON when nil (decoders
///   accept both an absent key and `null`).
/// - `score` is finite and in 0...1, higher = more authentic.
/// - `analysisTimeMs` is >= 0 and is measured for unavailable results too.
public protocol MethodResult: Sendable, Codable, Equatable {
    var status: MethodStatus { get }
    var unavailableReason: String? { get }
    var algorithmVersion: MethodIdentifier { get }
    var analysisTimeMs: Double { get set }
    var score: Double? { get }
}

extension MethodResult {
    /// The common fields alone.
    public var summary: MethodResultSummary { MethodResultSummary(self) }
}

/// The common fields of any method's result, without the method's own fields.
///
/// Decoding a full result object of any method (for example one exported by the phone
/// app) keeps the common fields and ignores the rest, so evaluation can read scores it
/// did not compute.
public struct MethodResultSummary: MethodResult {
    public var status: MethodStatus
    public var unavailableReason: String?
    public var algorithmVersion: MethodIdentifier
    public var analysisTimeMs: Double
    public var score: Double?

    enum CodingKeys: String, CodingKey {
        case status
        case unavailableReason = "unavailable_reason"
        case algorithmVersion = "algorithm_version"
        case analysisTimeMs = "analysis_time_ms"
        case score
    }

    public init(
        status: MethodStatus, unavailableReason: String?, algorithmVersion: MethodIdentifier,
        analysisTimeMs: Double, score: Double?
    ) {
        self.status = status
        self.unavailableReason = unavailableReason
        self.algorithmVersion = algorithmVersion
        self.analysisTimeMs = analysisTimeMs
        self.score = score
    }

    /// Copies the common fields of `result`.
    public init(_ result: some MethodResult) {
        self.init(
            status: result.status, unavailableReason: result.unavailableReason,
            algorithmVersion: result.algorithmVersion, analysisTimeMs: result.analysisTimeMs,
            score: result.score)
    }
}
