import Foundation
import RialMedia

/// The domain-gap report: a reference set (real photos) against a compared set
/// (simulated captures) on the `GapStatistic` image statistics, for bona fide photos
/// and, separately, for screen and print attacks where both sets have them.
///
/// Per statistic and section: each set's distribution (median, quartiles, n) and Cliff's
/// delta δ = P(reference > compared) - P(reference < compared) (in [-1, 1]; 0 = the same
/// distribution; |δ| > 0.47 is a large effect by Romano et al. 2006). Per section the
/// domain-gap figure `DomainGapClassifier` on the pixel statistics.
public struct DomainGapReport: Sendable, Equatable, Codable {
    public static let format = "rial-bench-gap/1"

    /// One manifest's part in the report.
    public struct SetSummary: Sendable, Equatable, Codable {
        public var manifest: String
        public var name: String?
        /// Samples measured, by section name.
        public var measured: [String: Int]
        public var failed: Int
    }

    /// Median, quartiles (type 7) and count of the finite values.
    public struct Distribution: Sendable, Equatable, Codable {
        public var n: Int
        public var median: Double?
        public var q1: Double?
        public var q3: Double?

        public init(_ values: [Double]) {
            let s = values.filter(\.isFinite).sorted()
            n = s.count
            median = Self.quantile(s, 0.5)
            q1 = Self.quantile(s, 0.25)
            q3 = Self.quantile(s, 0.75)
        }

        /// Linear-interpolation quantile (type 7) of sorted values; nil when empty.
        static func quantile(_ s: [Double], _ p: Double) -> Double? {
            guard !s.isEmpty else { return nil }
            let h = Double(s.count - 1) * p
            let lo = Int(h.rounded(.down)), hi = min(lo + 1, s.count - 1)
            return s[lo] + (h - Double(lo)) * (s[hi] - s[lo])
        }
    }

    public struct Comparison: Sendable, Equatable, Codable {
        public var statistic: GapStatistic
        public var summary: String
        public var reference: Distribution
        public var compared: Distribution
        /// Cliff's delta, reference against compared; nil when either is empty.
        public var cliffsDelta: Double?

        enum CodingKeys: String, CodingKey {
            case statistic, summary, reference, compared
            case cliffsDelta = "cliffs_delta"
        }
    }

    public struct Section: Sendable, Equatable, Codable {
        /// `bona_fide`, `screen` or `print`.
        public var name: String
        public var comparisons: [Comparison]
        public var classifier: DomainGapClassifier?
    }

    /// A sample that could not be measured.
    public struct Failure: Sendable, Equatable, Codable {
        public var set: String
        public var sample: String
        public var reason: String
    }

    public var reportFormat: String = format
    public var reference: SetSummary
    public var compared: SetSummary
    public var analysisShortSide: Int
    public var sections: [Section]
    public var failures: [Failure]

    enum CodingKeys: String, CodingKey {
        case reference, compared, sections, failures
        case reportFormat = "format"
        case analysisShortSide = "analysis_short_side"
    }

    /// Section of a label: `bona_fide`, `screen` (any display) or `print`.
    static func section(of label: SampleLabel) -> String {
        switch label {
        case .realScene: "bona_fide"
        case .lcdScreen, .oledScreen, .screen: "screen"
        case .printedPaper: "print"
        }
    }

    static let sectionNames = ["bona_fide", "screen", "print"]

    /// One measured sample.
    struct Measured: Sendable {
        var section: String
        var group: String
        var values: [GapStatistic: Double]
    }

    /// Measures every sample of both manifests (`jobs` threads) and builds the report.
    /// Samples the manifest cannot describe or whose image cannot be read are recorded
    /// in `failures`, never fatal.
    ///
    /// - Parameter progress: called with the number of images measured so far.
    public static func build(
        reference: DatasetLoader, compared: DatasetLoader, jobs: Int, bootstrap: BootstrapSettings = .standard,
        progress: @Sendable (Int) -> Void = { _ in }
    ) -> DomainGapReport {
        var failures: [Failure] = []
        var tasks: [(set: String, id: String, path: String, section: String, group: String)] = []
        for (setName, loader) in [("reference", reference), ("compared", compared)] {
            for entry in loader.entries {
                switch entry.result {
                case .success(let sample):
                    tasks.append(
                        (
                            setName, sample.id, loader.absolutePath(sample.image), section(of: sample.label),
                            "\(setName):\(sample.group ?? sample.id)"
                        ))
                case .failure(let failure):
                    failures.append(
                        Failure(set: setName, sample: failure.sampleID ?? entry.jsonPath, reason: failure.reason))
                }
            }
        }
        let done = Locked(0)
        let paths = tasks.map(\.path)
        let results: [Result<[GapStatistic: Double], MeasureFailure>] = (0..<tasks.count).concurrentMap(workers: jobs) {
            i in
            defer {
                progress(
                    done.withLock {
                        $0 += 1
                        return $0
                    })
            }
            do { return .success(try ImageGapMeasurement.measure(path: paths[i])) } catch {
                return .failure(MeasureFailure(reason: "\(error)"))
            }
        }
        var measured: [String: [Measured]] = ["reference": [], "compared": []]
        for (task, result) in zip(tasks, results) {
            switch result {
            case .success(let values):
                measured[task.set, default: []].append(
                    Measured(section: task.section, group: task.group, values: values))
            case .failure(let failure):
                failures.append(Failure(set: task.set, sample: task.id, reason: failure.reason))
            }
        }
        return assemble(
            reference: measured["reference"] ?? [], compared: measured["compared"] ?? [],
            referenceSummary: (reference.manifestPath, reference.name),
            comparedSummary: (compared.manifestPath, compared.name), failures: failures, bootstrap: bootstrap)
    }

    struct MeasureFailure: Error {
        var reason: String
    }

    /// Builds the report from measured samples (separated from `build` so that tests can
    /// feed known values).
    static func assemble(
        reference: [Measured], compared: [Measured], referenceSummary: (String, String?),
        comparedSummary: (String, String?), failures: [Failure], bootstrap: BootstrapSettings
    ) -> DomainGapReport {
        func counts(_ set: [Measured]) -> [String: Int] {
            Dictionary(
                sectionNames.map { name in (name, set.filter { $0.section == name }.count) }, uniquingKeysWith: +)
        }
        var sections: [Section] = []
        for name in sectionNames {
            let a = reference.filter { $0.section == name }, b = compared.filter { $0.section == name }
            guard !a.isEmpty, !b.isEmpty else { continue }
            let comparisons = GapStatistic.allCases.map { statistic -> Comparison in
                let x = a.compactMap { $0.values[statistic] }, y = b.compactMap { $0.values[statistic] }
                return Comparison(
                    statistic: statistic, summary: statistic.summary, reference: Distribution(x),
                    compared: Distribution(y), cliffsDelta: cliffsDelta(x, y))
            }
            let both = a + b
            let classifier = DomainGapClassifier.evaluate(
                features: both.map { m in GapStatistic.pixelStatistics.map { m.values[$0] ?? .nan } },
                names: GapStatistic.pixelStatistics.map(\.rawValue),
                isReference: a.map { _ in true } + b.map { _ in false }, groups: both.map(\.group),
                bootstrap: bootstrap)
            sections.append(Section(name: name, comparisons: comparisons, classifier: classifier))
        }
        return DomainGapReport(
            reference: SetSummary(
                manifest: referenceSummary.0, name: referenceSummary.1, measured: counts(reference),
                failed: failures.filter { $0.set == "reference" }.count),
            compared: SetSummary(
                manifest: comparedSummary.0, name: comparedSummary.1, measured: counts(compared),
                failed: failures.filter { $0.set == "compared" }.count),
            analysisShortSide: ImageGapMeasurement.analysisShortSide, sections: sections, failures: failures)
    }

    /// Cliff's delta of finite `x` against finite `y`: (#{x > y} - #{x < y}) / (|x| |y|)
    /// over all pairs; nil when either is empty.
    /// - Complexity: O((|x| + |y|) log |y|).
    public static func cliffsDelta(_ x: [Double], _ y: [Double]) -> Double? {
        let a = x.filter(\.isFinite), b = y.filter(\.isFinite).sorted()
        guard !a.isEmpty, !b.isEmpty else { return nil }
        func countBelow(_ v: Double, strictly: Bool) -> Int {
            var lo = 0, hi = b.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if strictly ? b[mid] < v : b[mid] <= v { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var total = 0
        for v in a {
            let less = countBelow(v, strictly: true)
            let greater = b.count - countBelow(v, strictly: false)
            total += less - greater
        }
        return Double(total) / Double(a.count * b.count)
    }
}
