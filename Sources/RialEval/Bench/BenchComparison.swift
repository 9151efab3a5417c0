import Foundation

/// `rial-bench bench-compare`: two sets of `bench --json` reports, before and after a
/// change, compared item by item.
///
/// On a shared virtual machine the speed drifts between runs minutes apart by more than
/// the spread within one run (docs/end-to-end-latency.md: a decode's p50 from 23.6 to
/// 33.7 ms within an hour), so one report per side says little. Each report's p50 of an
/// item counts as one observation, as in Go's benchstat: a row shows the median over the
/// side's reports, their range, and the rank-sum test's two-sided p-value
/// (`RankSumTest`) of the two sides' p50s. A change counts only when `p < alpha`. Run the
/// two builds alternately (A B A B ...) so that drift falls on both sides alike.
///
/// Two derived rows follow the timed items: `end_to_end / decode` (the ratio of the two
/// p50s, the issue's 1.5 x goal) and `end_to_end / decode, paired` (`EndToEndUsage`), in
/// x rather than ms.
public struct BenchComparison: Sendable, Equatable, Codable {
    /// What one side's reports measured (each list distinct values in report order).
    public struct Side: Sendable, Equatable, Codable {
        public var reports: Int
        public var commits: [String]
        public var instructionSets: [String]
        public var configurations: [String]
        public var iterations: [Int]

        enum CodingKeys: String, CodingKey {
            case reports, commits, iterations
            case instructionSets = "instruction_sets"
            case configurations = "configuration_sha256"
        }

        init(_ reports: [Benchmark.Report]) {
            self.reports = reports.count
            commits = BenchComparison.distinct(reports.map { $0.tool?.gitCommit ?? "unrecorded" })
            instructionSets = BenchComparison.distinct(reports.map { $0.environment.instructionSet ?? "unrecorded" })
            configurations = BenchComparison.distinct(reports.map { $0.configurationSHA256 ?? "unrecorded" })
            iterations = BenchComparison.distinct(reports.map(\.iterations))
        }
    }

    /// One side's values of an item: one per report that has it.
    public struct Summary: Sendable, Equatable, Codable {
        public var count: Int
        /// Median over the reports of their p50s (mean of the middle two for an even count).
        public var median: Double
        public var lowest: Double
        public var highest: Double
        /// Median over the reports of their minimum times; nil for a ratio row.
        public var medianMinimum: Double?

        enum CodingKeys: String, CodingKey {
            case count, median, lowest, highest
            case medianMinimum = "median_minimum"
        }

        init(values: [Double], minimums: [Double]?) {
            count = values.count
            median = Median.of(values)
            lowest = values.min() ?? .nan
            highest = values.max() ?? .nan
            medianMinimum = minimums.map(Median.of)
        }
    }

    public struct Row: Sendable, Equatable, Codable {
        public var key: String
        /// `ms`, or `x` for the ratio rows.
        public var unit: String
        public var before: Summary
        public var after: Summary
        /// `after.median / before.median - 1`.
        public var change: Double
        public var pValue: Double
        public var test: RankSumTest.Method
        /// `pValue < alpha`.
        public var significant: Bool
        /// Significant and `change > failAbove` (only with a `failAbove`).
        public var regression: Bool

        enum CodingKeys: String, CodingKey {
            case key, unit, before, after, change, test, significant, regression
            case pValue = "p_value"
        }
    }

    public var schema = "rial-bench-bench-compare/1"
    public var before: Side
    public var after: Side
    public var alpha: Double
    /// The slow-down (0.10 = 10%) beyond which a significant change is a regression; nil:
    /// no gate.
    public var failAbove: Double?
    public var rows: [Row]
    /// Items that only one side measured (with a finite p50).
    public var onlyBefore: [String]
    public var onlyAfter: [String]
    /// The capture every report timed (`Benchmark.Report.capture`), or each distinct one.
    public var captures: [String]

    enum CodingKeys: String, CodingKey {
        case schema, before, after, alpha, rows, captures
        case failAbove = "fail_above"
        case onlyBefore = "only_before"
        case onlyAfter = "only_after"
    }

    /// The derived ratio rows' keys.
    public static let ratioKey = "end_to_end / decode"
    public static let pairedRatioKey = "end_to_end / decode, paired"

    public var regressions: [Row] { rows.filter(\.regression) }

    /// Compares `before` with `after`.
    ///
    /// - Throws: `RunError` when a side is empty, `alpha` is not in (0, 1), `failAbove` is
    ///   negative or not finite, or the reports timed different captures and
    ///   `allowDifferentCaptures` is false (their times then measure different inputs).
    public init(
        before: [Benchmark.Report], after: [Benchmark.Report], alpha: Double = 0.05, failAbove: Double? = nil,
        allowDifferentCaptures: Bool = false
    ) throws(RunError) {
        guard !before.isEmpty, !after.isEmpty else { throw RunError("bench-compare needs reports on both sides") }
        guard alpha > 0, alpha < 1 else { throw RunError("alpha \(alpha) is not between 0 and 1") }
        if let failAbove, !(failAbove.isFinite && failAbove >= 0) {
            throw RunError("the regression limit \(failAbove) is not a finite, non-negative fraction")
        }
        let captures = Self.distinct((before + after).map(\.capture))
        if captures.count > 1, !allowDifferentCaptures {
            throw RunError(
                "the reports timed different captures (\(captures.map { "'\($0)'" }.joined(separator: ", "))): their times are not comparable"
            )
        }
        self.captures = captures
        self.before = Side(before)
        self.after = Side(after)
        self.alpha = alpha
        self.failAbove = failAbove

        let keys = Self.distinct((before + after).flatMap { $0.entries.map(\.key) })
        // A report's item counts when its p50 is finite (a "nan" p50 would sort anywhere).
        func entries(_ reports: [Benchmark.Report], _ key: String) -> [Benchmark.Entry] {
            reports.compactMap { report in report.entries.first { $0.key == key && $0.statistics.p50.isFinite } }
        }
        var rows: [Row] = []
        var onlyBefore: [String] = [], onlyAfter: [String] = []
        for key in keys {
            let old = entries(before, key), new = entries(after, key)
            if new.isEmpty { onlyBefore.append(key) }
            if old.isEmpty { onlyAfter.append(key) }
            guard !old.isEmpty, !new.isEmpty else { continue }
            rows.append(
                Self.row(
                    key: key, unit: "ms", before: old.map(\.statistics.p50), after: new.map(\.statistics.p50),
                    beforeMinimums: old.map(\.statistics.min), afterMinimums: new.map(\.statistics.min),
                    alpha: alpha, failAbove: failAbove))
        }
        let ratios: [(String, (Benchmark.Report) -> Double?)] = [
            (Self.ratioKey, { $0.endToEndOverDecode }), (Self.pairedRatioKey, { $0.endToEndUsage?.overDecode }),
        ]
        for (key, value) in ratios {
            let old = before.compactMap(value).filter(\.isFinite), new = after.compactMap(value).filter(\.isFinite)
            guard !old.isEmpty, !new.isEmpty else { continue }
            rows.append(
                Self.row(
                    key: key, unit: "x", before: old, after: new, beforeMinimums: nil, afterMinimums: nil,
                    alpha: alpha, failAbove: failAbove))
        }
        self.rows = rows
        self.onlyBefore = onlyBefore
        self.onlyAfter = onlyAfter
    }

    static func row(
        key: String, unit: String, before: [Double], after: [Double], beforeMinimums: [Double]?,
        afterMinimums: [Double]?, alpha: Double, failAbove: Double?
    ) -> Row {
        let old = Summary(values: before, minimums: beforeMinimums)
        let new = Summary(values: after, minimums: afterMinimums)
        let test = RankSumTest(first: before, second: after)
        let change = new.median / old.median - 1
        let significant = test.pValue < alpha
        return Row(
            key: key, unit: unit, before: old, after: new, change: change, pValue: test.pValue, test: test.method,
            significant: significant, regression: significant && failAbove.map { change > $0 } == true)
    }

    /// `values` without repeats, in the order each first appears.
    static func distinct<T: Hashable>(_ values: [T]) -> [T] {
        var seen = Set<T>()
        return values.filter { seen.insert($0).inserted }
    }

    /// The smallest p-value these sides' report counts allow (`RankSumTest.smallestPValue`).
    public var smallestPValue: Double {
        RankSumTest.smallestPValue(firstCount: before.reports, secondCount: after.reports)
    }

    public func jsonData() throws -> Data { try RunResults.encoder.encode(self) }
}
