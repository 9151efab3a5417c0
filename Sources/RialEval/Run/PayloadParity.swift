import Foundation
import RialDetection
import RialMedia

/// How a phone's detection payloads (story 9-6) compare with rial-bench's reference
/// re-computation on the same captures (issue 14 item 6). Counted over the evaluated
/// samples that carry a payload:
/// - per family the phone computes (`moire`, `texture`, `artifacts`): the phone's score
///   (`payload.FAMILY`, completed) minus the reference score, the run's own result of
///   the version `aggregate_with` names for that family (computed on every sample, also
///   where a payload supplies the family: `CaptureAnalyzer.localMethods`), on samples
///   where both scored: n, mean and median of the signed difference, p95 (nearest rank,
///   as the latency tables) and maximum of the absolute difference;
/// - the phone's level (`aggregated.confidence_level`) against the level this run gave
///   the sample (`aggregate.level`: the phone's usable scores re-aggregated with the
///   sample's own depth and attestation under the run's configuration): a confusion
///   table, phone level -> re-aggregated level -> samples, and the share that agree.
///
/// JSON: `{"samples", "methods": {FAMILY: {"phone_key", "reference_key", "n", "mean",
/// "median", "p95_abs", "max_abs"}}, "levels": {PHONE: {RUN: n}}, "level_samples",
/// "level_agreement"}`; levels by their upper-case names.
public struct PayloadParity: Sendable, Equatable, Codable {
    /// Evaluated samples with a payload (a `payload.*` result or a phone aggregate).
    public var samples: Int
    public var methods: [String: Difference]
    public var levels: [String: [String: Int]]
    /// Samples with both a phone level and a re-aggregated level.
    public var levelSamples: Int
    /// Share of `levelSamples` where the two levels are equal; nil when none.
    public var levelAgreement: Double?

    enum CodingKeys: String, CodingKey {
        case samples, methods, levels
        case levelSamples = "level_samples"
        case levelAgreement = "level_agreement"
    }

    /// The distribution of phone score minus reference score of one family.
    public struct Difference: Sendable, Equatable, Codable {
        public var phoneKey: String
        public var referenceKey: String
        public var n: Int
        public var mean: Double
        public var median: Double
        public var p95Abs: Double
        public var maxAbs: Double

        enum CodingKeys: String, CodingKey {
            case phoneKey = "phone_key"
            case referenceKey = "reference_key"
            case n, mean, median
            case p95Abs = "p95_abs"
            case maxAbs = "max_abs"
        }

        /// The statistics of `differences` (not empty): mean; median (the middle value,
        /// or the mean of the two middle values); p95 of `|d|` by nearest rank
        /// (`ceil(0.95 n)`-th smallest); maximum of `|d|`.
        init(phoneKey: String, referenceKey: String, differences: [Double]) {
            let sorted = differences.sorted()
            let n = sorted.count
            let absolute = differences.map(abs).sorted()
            self.phoneKey = phoneKey
            self.referenceKey = referenceKey
            self.n = n
            mean = sorted.reduce(0, +) / Double(n)
            median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
            p95Abs = absolute[max(0, Int((0.95 * Double(n)).rounded(.up)) - 1)]
            maxAbs = absolute[n - 1]
        }
    }

    /// The parity of `records` under `configuration` (for `aggregate_with`); nil when no
    /// evaluated record carries a payload.
    public init?(_ records: [SampleRecord], configuration: PipelineConfiguration) {
        var samples = 0
        var differences: [String: (phone: String, reference: String, values: [Double])] = [:]
        var levels: [String: [String: Int]] = [:]
        var levelSamples = 0, agree = 0
        for record in records where record.status == .evaluated {
            let payloadKeys = record.methods.keys.filter { $0.hasPrefix("payload.") }
            guard !payloadKeys.isEmpty || record.phoneAggregate != nil else { continue }
            samples += 1
            for family in DetectionPayload.families {
                let phoneKey = "payload.\(family.rawValue)"
                guard let reference = configuration.aggregateWith[family]?.description,
                    let phone = record.score(phoneKey), let local = record.score(reference)
                else { continue }
                differences[family.rawValue, default: (phoneKey, reference, [])].values.append(phone - local)
            }
            if let phone = record.phoneAggregate?.level, let run = record.aggregate?.level {
                levels[phone.rawValue, default: [:]][run.rawValue, default: 0] += 1
                levelSamples += 1
                if phone == run { agree += 1 }
            }
        }
        guard samples > 0 else { return nil }
        self.samples = samples
        methods = differences.mapValues {
            Difference(phoneKey: $0.phone, referenceKey: $0.reference, differences: $0.values)
        }
        self.levels = levels
        self.levelSamples = levelSamples
        levelAgreement = levelSamples > 0 ? Double(agree) / Double(levelSamples) : nil
    }

    /// Markdown: the differences per family, then the level confusion table.
    public func markdown() -> [String] {
        var out: [String] = []
        out.append(
            "\(samples) samples carry a phone payload (story 9-6). Difference = phone score - reference "
                + "re-computation (the run's own result of the `aggregate_with` version); p95 by nearest rank.")
        out.append("")
        out.append("| family | phone | reference | n | mean | median | p95 abs | max abs |")
        out.append("|---|---|---|---:|---:|---:|---:|---:|")
        for family in methods.keys.sorted() {
            let d = methods[family]!
            out.append(
                "| \(family) | \(d.phoneKey) | \(d.referenceKey) | \(d.n) | \(Self.format(d.mean)) | "
                    + "\(Self.format(d.median)) | \(Self.format(d.p95Abs)) | \(Self.format(d.maxAbs)) |")
        }
        out.append("")
        let names = ConfidenceLevel.allCases.map(\.rawValue)
        out.append(
            "Phone level (`aggregated.confidence_level`) against the level this run gave the sample: "
                + "\(levelSamples) samples, "
                + (levelAgreement.map { "\(Self.format($0 * 100))% equal." } ?? "none with a phone level."))
        out.append("")
        if !levels.isEmpty {
            out.append("| phone \\ run | " + names.joined(separator: " | ") + " |")
            out.append("|---|" + names.map { _ in "---:|" }.joined())
            for phone in names.reversed() where levels[phone] != nil {
                out.append(
                    "| \(phone) | " + names.map { String(levels[phone]?[$0] ?? 0) }.joined(separator: " | ") + " |")
            }
            out.append("")
        }
        return out
    }

    static func format(_ value: Double) -> String { String(format: "%.4g", value) }
}
