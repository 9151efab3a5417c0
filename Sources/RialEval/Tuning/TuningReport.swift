import Foundation
import RialDetection
import RialMedia

/// Everything `rial-bench tune` found, written as `tune.json` (schema `rial-bench-tune/1`):
/// the options, the per-fold fits and held-out metrics before (the base configuration)
/// and after (the fold's tuned configuration), the pooled held-out metrics, and the final
/// fit on all data (what `tuned.yaml` holds; its quality is the held-out numbers).
public struct TuningReport: Sendable, Equatable, Codable {
    public static let schemaName = "rial-bench-tune/1"

    /// One input run.
    public struct InputRun: Sendable, Equatable, Codable {
        public var folder: String
        public var samplesSHA256: String
        public var samples: Int
        public var seeds: [String: UInt64]
        /// The run's `aggregate_with` (family -> the version that fed its aggregate), so
        /// that a study names the method versions its numbers rest on. Absent from
        /// `tune.json` files written before it was recorded.
        public var aggregateWith: [MethodFamily: MethodIdentifier]?

        enum CodingKeys: String, CodingKey {
            case folder
            case samplesSHA256 = "samples_sha256"
            case samples, seeds
            case aggregateWith = "aggregate_with"
        }

        public init(
            folder: String, samplesSHA256: String, samples: Int, seeds: [String: UInt64],
            aggregateWith: [MethodFamily: MethodIdentifier]? = nil
        ) {
            self.folder = folder
            self.samplesSHA256 = samplesSHA256
            self.samples = samples
            self.seeds = seeds
            self.aggregateWith = aggregateWith
        }

        /// `aggregateWith`'s versions ordered by family; nil when not recorded.
        public var aggregatedVersions: [MethodIdentifier]? {
            aggregateWith.map { versions in versions.keys.sorted().map { versions[$0]! } }
        }
    }

    /// The versions that fed the aggregate, ordered by family, when every input run
    /// recorded the same `aggregate_with`; nil when none recorded it or they differ.
    public var aggregatedVersions: [MethodIdentifier]? {
        guard let first = inputs.first?.aggregateWith, inputs.allSatisfy({ $0.aggregateWith == first }) else {
            return nil
        }
        return inputs[0].aggregatedVersions
    }

    /// One outer fold: fitted on the other folds, measured on this one.
    public struct Fold: Sendable, Equatable, Codable {
        public var name: String
        public var trainingSamples: Int
        public var fit: TunedFit
        public var before: HeldOutMetrics
        public var after: HeldOutMetrics

        enum CodingKeys: String, CodingKey {
            case name
            case trainingSamples = "training_samples"
            case fit, before, after
        }
    }

    public var schema = Self.schemaName
    /// ISO 8601 UTC; the only field that differs between two runs with the same inputs and seed.
    public var created: String
    public var inputs: [InputRun]
    public var profile: String
    public var objective: TuningObjective
    public var target: String
    public var foldScheme: FoldScheme
    public var folds: Int
    public var innerFolds: Int
    public var seed: UInt64
    public var partialAUCMaxAPCER: Double
    /// `TuningOptions.minimumWeightShare`, `.dropUninformative` and
    /// `.uninformativeStandardErrors`; nil in reports written
    /// before they existed.
    public var minimumWeightShare: Double? = nil
    public var dropUninformative: Bool? = nil
    public var uninformativeStandardErrors: Double? = nil
    public var bootstrap: BootstrapSettings
    public var samples: Int
    public var samplesPerSpecies: [String: Int]
    /// Samples left out because nothing fed their aggregate under the base configuration
    /// (they are kept for fitting calibrations).
    public var perFold: [Fold]
    /// Every held-out sample pooled (each scored by its own fold's fit).
    public var heldOutBefore: HeldOutMetrics
    public var heldOutAfter: HeldOutMetrics
    /// The fit on all data: `tuned.yaml`.
    public var final: TunedFit
    /// The final threshold's rates on the data it was fitted on (in-sample, for reference only).
    public var finalInSample: HeldOutMetrics.OperatingPoint
    /// `det.svg` (not part of `tune.json`).
    public var detSVG: String = ""
    /// Every method version's own score on the same records, pooled and per held-out part
    /// (`MethodHeldOut`); nil in reports written before it existed.
    public var methods: [String: MethodHeldOut]? = nil

    enum CodingKeys: String, CodingKey {
        case schema, created, inputs, profile, objective, target
        case foldScheme = "by"
        case folds
        case innerFolds = "inner_folds"
        case seed
        case partialAUCMaxAPCER = "pauc_max_apcer"
        case minimumWeightShare = "min_weight_share"
        case dropUninformative = "drop_uninformative"
        case uninformativeStandardErrors = "uninformative_standard_errors"
        case bootstrap, samples
        case samplesPerSpecies = "samples_per_species"
        case perFold = "per_fold"
        case heldOutBefore = "held_out_before"
        case heldOutAfter = "held_out_after"
        case final
        case finalInSample = "final_in_sample"
        case methods
    }

    /// Runs the nested cross-validation and the final fit. `progress(done, total)` is
    /// called after each fit (outer folds, then the final one).
    public static func run(
        tuner: Tuner, inputs: [InputRun], bootstrap: BootstrapSettings, created: String,
        progress: (Int, Int) -> Void = { _, _ in }
    ) -> TuningReport {
        let problem = tuner.problem, options = tuner.options
        let folds =
            options.scheme == .source
            ? GroupFolds.leaveOneSourceOut(sources: problem.sources)
            : GroupFolds.groupKFold(groups: problem.groups, k: options.folds, seed: options.seed)
        let speciesNames = problem.species.indices.map {
            problem.bonaFide[$0] ? "real_scene" : problem.speciesNames[Int(problem.species[$0])]
        }
        let targetBPCER: Double
        switch options.target {
        case .bpcer(let x): targetBPCER = x
        case .apcer: targetBPCER = 0.05
        }
        let base = tuner.baseRankingScores()
        let baseThreshold = problem.base.decision.threshold
        var after = [Double](repeating: .nan, count: problem.count)
        var acceptedAfter = [Bool](repeating: false, count: problem.count)
        var perFold: [Fold] = []
        func metrics(_ scores: [Double], _ accepted: [Bool], _ rows: [Int], intervals: Bool = true) -> HeldOutMetrics {
            HeldOutMetrics(
                scores: rows.map { scores[$0] }, accepted: rows.map { accepted[$0] },
                bonaFide: rows.map { problem.bonaFide[$0] }, species: rows.map { speciesNames[$0] },
                groups: rows.map { problem.groups[$0] }, targetBPCER: targetBPCER,
                settings: intervals ? bootstrap : BootstrapSettings(resamples: 0, seed: bootstrap.seed))
        }
        let acceptedBefore = base.map { $0 >= baseThreshold }
        for f in 0..<folds.count {
            let (training, heldOut) = folds.split(f)
            let fit = tuner.fit(rows: training)
            let scores = tuner.rankingScores(fit, rows: heldOut)
            for (k, i) in heldOut.enumerated() {
                after[i] = scores[k]
                acceptedAfter[i] = scores[k] >= fit.threshold
            }
            perFold.append(
                Fold(
                    name: folds.names[f], trainingSamples: training.count, fit: fit,
                    before: metrics(base, acceptedBefore, heldOut), after: metrics(after, acceptedAfter, heldOut)))
            progress(f + 1, folds.count + 1)
        }
        let all = Array(0..<problem.count)
        let final = tuner.fit(rows: all)
        let finalScores = tuner.rankingScores(final, rows: all)
        let inSample = metrics(finalScores, finalScores.map { $0 >= final.threshold }, all, intervals: false)
        progress(folds.count + 1, folds.count + 1)
        var perSpecies: [String: Int] = [:]
        for name in speciesNames { perSpecies[name, default: 0] += 1 }
        var report = TuningReport(
            created: created, inputs: inputs, profile: problem.profileName, objective: options.objective,
            target: options.target.description, foldScheme: options.scheme, folds: folds.count,
            innerFolds: options.innerFolds, seed: options.seed, partialAUCMaxAPCER: options.partialAUCMaxAPCER,
            bootstrap: bootstrap, samples: problem.count, samplesPerSpecies: perSpecies, perFold: perFold,
            heldOutBefore: metrics(base, acceptedBefore, all), heldOutAfter: metrics(after, acceptedAfter, all),
            final: final, finalInSample: inSample.operatingPoint)
        report.minimumWeightShare = options.minimumWeightShare
        report.dropUninformative = options.dropUninformative
        report.uninformativeStandardErrors = options.uninformativeStandardErrors
        report.detSVG = detPlot(before: problem.summary(base), after: problem.summary(after), report: report)
        return report
    }

    /// `tune.json`: sorted keys, non-finite numbers as strings (`"nan"`, `"inf"`).
    public func jsonData() throws -> Data {
        try RunResults.encoder.encode(self)
    }

    /// The file `tune` writes in its output folder.
    public static let fileName = "tune.json"

    /// Decodes a `tune.json` written by `jsonData()` (non-finite numbers as strings, as in
    /// `results.json`: `RunResults.decoder`).
    public static func decode(_ data: Data) throws -> TuningReport {
        try RunResults.decoder.decode(TuningReport.self, from: data)
    }

    /// Reads `FOLDER/tune.json`.
    ///
    /// - Throws: `RunError` naming the file when it is missing, unreadable or not a tune report.
    public static func read(folder: String) throws(RunError) -> TuningReport {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(fileName).path
        let data = try RunResults.contents(of: path)
        do { return try decode(data) } catch {
            throw RunError("\(path): not a rial-bench \(fileName) (\(error))")
        }
    }
}

extension TuningReport {
    /// What `tuned.yaml` records under `provenance`: where it came from and how good it is
    /// on held-out data (free-form strings; the analysis ignores them).
    public var provenance: [String: String] {
        func f(_ v: Double) -> String { v.isFinite ? String(format: "%.4f", v) : "n/a" }
        func ci(_ c: ConfidenceInterval?) -> String {
            guard let c, c.lower.isFinite, c.upper.isFinite else { return "" }
            return " [\(f(c.lower)), \(f(c.upper))]"
        }
        var p: [String: String] = [
            "tool": "rial-bench tune",
            "created": created,
            "profile": profile,
            "objective": objective == .pauc ? "pauc (APCER 0-\(partialAUCMaxAPCER))" : objective.rawValue,
            "target": target,
            "folds": foldScheme == .source ? "leave-one-source-out (\(folds) sources)" : "group \(folds)-fold",
            "seed": "\(seed)",
            "samples": "\(samples)",
            "held_out_auc":
                "before \(f(heldOutBefore.auc))\(ci(heldOutBefore.aucCI)), after \(f(heldOutAfter.auc))\(ci(heldOutAfter.aucCI))",
            "held_out_apcer_at_bpcer":
                "BPCER \(heldOutAfter.apcerAtBPCER.targetBPCER): before \(f(heldOutBefore.apcerAtBPCER.apcerMax))"
                + "\(ci(heldOutBefore.apcerAtBPCER.apcerMaxCI)), after \(f(heldOutAfter.apcerAtBPCER.apcerMax))"
                + ci(heldOutAfter.apcerAtBPCER.apcerMaxCI),
        ]
        for (k, input) in inputs.enumerated() {
            let seeds = input.seeds.keys.sorted().map { "\($0)=\(input.seeds[$0]!)" }.joined(separator: " ")
            p["input_\(k + 1)"] =
                "\(input.folder): samples_sha256 \(input.samplesSHA256), \(input.samples) samples, seeds \(seeds)"
                + (input.aggregatedVersions.map { ", aggregate_with " + $0.map(\.description).joined(separator: " ") }
                    ?? "")
        }
        return p
    }
}
