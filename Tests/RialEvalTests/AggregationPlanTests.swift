import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// `AggregationPlan` (the compiled aggregation of a rescore) against the reference path,
/// `Rescorer.rescore` (`PipelineAggregator` on each record): every number metrics read of
/// an aggregate equal bit for bit, on thousands of random samples under random
/// configurations, and on the records the runner writes.
@Suite struct AggregationPlanTests {
    /// Asserts that the plan's outputs for `records` under `configuration` equal the
    /// records rescored by `Rescorer`; returns how many samples had a scored aggregate.
    @discardableResult
    static func expectEqual(_ records: [SampleRecord], _ configuration: PipelineConfiguration, jobs: Int = 2)
        throws -> Int
    {
        let rescorer = try Rescorer(configuration: configuration)
        let columns = AggregationColumns(records: records)
        let plan = try AggregationPlan(configuration: configuration, columns: columns)
        let out = plan.run(columns, jobs: jobs)
        #expect(out.count == records.count)
        var scored = 0
        for (i, record) in records.enumerated() {
            let expected = rescorer.rescore(record)
            guard let a = expected.aggregate, record.status == .evaluated, record.aggregationInputs != nil else {
                #expect(out.present[i] == 0, "sample \(i): no aggregate expected")
                continue
            }
            let context = "sample \(i) under \(configuration.profile)"
            #expect(out.present[i] == (a.weights.isEmpty ? 1 : 2), "\(context): present")
            if !a.weights.isEmpty { scored += 1 }
            #expect(out.score[i].bitPattern == a.score.bitPattern, "\(context): score \(out.score[i]) vs \(a.score)")
            #expect(
                out.rankingScore[i].bitPattern == a.rankingScore?.bitPattern,
                "\(context): ranking \(out.rankingScore[i]) vs \(String(describing: a.rankingScore))")
            #expect(out.uncappedScore[i].bitPattern == a.uncappedScore.bitPattern, "\(context): uncapped")
            #expect(AggregateOutputs.level(out.level[i]) == a.level, "\(context): level")
            #expect(AggregateOutputs.level(out.weightedLevel[i]) == a.weightedLevel, "\(context): weighted level")
            #expect(AggregateOutputs.level(out.mvpLevel[i]) == a.mvpLevel, "\(context): mvp level")
            #expect((out.methodsAgree[i] == 1) == a.methodsAgree, "\(context): agree")
            #expect((out.boosted[i] == 1) == ((a.agreementBoost ?? 0) > 0), "\(context): boost")
            #expect(out.flagList(i) == a.flags, "\(context): flags \(out.flagList(i)) vs \(a.flags)")
            #expect((out.bonaFideDecision[i] == 1) == (expected.decision == .bonaFide), "\(context): decision")
        }
        return scored
    }

    /// The runner's own records (the shared synthetic fixture) under the compiled-in
    /// configuration and the benchmark's.
    @Test func equalsTheRescorerOnTheRunnersRecords() throws {
        let records = RescorerTests.records
        #expect(records.count == 8)
        try Self.expectEqual(records, .standard)
        try Self.expectEqual(records, RescoreBenchmark.configuration)
    }

    /// Thousands of random samples (payload results, missing and non-finite scores,
    /// detections, attestations, failed checks) under random configurations: weights,
    /// primary, max level, calibrations, cross-validation mode and constants, rule,
    /// `medium_high`, attestation requirements and caps, level caps, decision threshold.
    @Test func equalsTheRescorerOnRandomSamplesAndConfigurations() throws {
        var random = SplitMix64(seed: 20_261_126)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let templates = (0..<40).map { RescoreBenchmark.template($0, fieldsPerMethod: 0, random: &random) }
        let keys = MethodRegistry.standard.identifiers.map(\.description)
        let families = MethodFamily.allCases
        let statuses: [EvidenceCheckStatus] = EvidenceCheckStatus.allCases
        let methods = AttestationMethod.allCases
        let levels = ConfidenceLevel.allCases
        let roles = AggregationMethod.allCases
        var total = 0, scored = 0
        for round in 0..<40 {
            var records: [SampleRecord] = []
            for i in 0..<100 {
                var record = templates[(round * 7 + i) % templates.count]
                record.id = "r\(round)-\(i)"
                var inputs: [String: AggregationCandidate] = [:]
                for key in keys where uniform() < 0.85 {
                    let family = MethodFamily(try MethodIdentifier(parsing: key)) ?? .depth
                    var score: Double? = uniform()
                    let u = uniform()
                    if u < 0.05 { score = nil } else if u < 0.08 { score = pick([.nan, .infinity, -0.2, 1.3]) }
                    inputs[key] = AggregationCandidate(
                        family: family, source: .computed, available: uniform() < 0.9, score: score,
                        screenDetected: uniform() < 0.15, printDetected: uniform() < 0.1)
                }
                if uniform() < 0.2 {
                    // A phone payload's result for a random family (sometimes out of 0...1).
                    inputs["payload.\(pick(["a", "b", "c"]))"] = AggregationCandidate(
                        family: pick(families), source: .payload, available: uniform() < 0.9,
                        score: uniform() < 0.9 ? uniform() * 1.1 : nil, screenDetected: uniform() < 0.2,
                        printDetected: uniform() < 0.2)
                }
                record.aggregationInputs = uniform() < 0.03 ? nil : inputs
                record.attestationEvidence =
                    uniform() < 0.1 ? nil : AttestationEvidence(status: pick(statuses), method: pick(methods))
                if uniform() < 0.3 {
                    var checks: [String: EvidenceCheckStatus] = [:]
                    for name in ["metadata.timestamp", "metadata.model", "metadata.gps"] where uniform() < 0.6 {
                        checks[name] = pick(statuses)
                    }
                    record.metadataChecks = checks
                } else {
                    record.metadataChecks = nil
                }
                if uniform() < 0.03 {
                    record.status = .failed
                    record.aggregationInputs = nil
                }
                records.append(record)
            }

            var c = PipelineConfiguration.standard
            c.profile = pick([
                AggregationProfile.iosProName, AggregationProfile.iosStandardName, AggregationProfile.androidName,
            ])
            var profile = c.aggregation.profiles[c.profile]!
            if round % 2 == 1 {
                var weights: [AggregationMethod: Double] = [:]
                for role in roles where uniform() < 0.7 { weights[role] = uniform() < 0.15 ? 0 : uniform() }
                if weights.values.allSatisfy({ $0 == 0 }) { weights[.lidar] = 1 }
                profile.weights = weights
                profile.primary = uniform() < 0.15 ? nil : pick(roles)
                profile.maxLevel = uniform() < 0.3 ? pick(levels) : nil
            }
            c.aggregation.profiles[c.profile] = profile
            for key in keys where uniform() < 0.25 {
                c.calibration[key] =
                    uniform() < 0.6
                    ? .platt(a: -10 * uniform(), b: 5 * uniform())
                    : .isotonic(x: [0, 0.3, 0.6, 1], y: [0, 0.2 * uniform(), 0.5, 0.9])
            }
            c.aggregation.crossValidation.mode = pick([.simple, .full])
            c.aggregation.crossValidation.independentMethods = roles.filter { _ in uniform() < 0.2 }
            c.aggregation.crossValidation.highUncertaintyWidth = 0.1 + 0.3 * uniform()
            c.aggregation.crossValidation.highUncertaintyCap = pick(levels)
            c.aggregation.crossValidation.maxImpact = 0.05 + 0.2 * uniform()
            c.aggregation.rule = pick([.weighted, .mvp])
            c.aggregation.mediumHigh = pick(AggregationConfiguration.MediumHigh.allCases)
            c.aggregation.attestationRequirements.satisfiedBy = pick(
                AggregationConfiguration.AttestationRequirements.Satisfaction.allCases)
            c.aggregation.attestationRequirements.secureEnclave = .init(
                methods: roles.filter { _ in uniform() < 0.3 }, match: pick([.any, .all]), unmetCap: pick(levels))
            c.aggregation.attestationRequirements.tee.match = pick([.any, .all])
            c.aggregation.attestationCaps.none = pick(levels)
            c.aggregation.attestationCaps.strongbox = pick(levels)
            c.aggregation.levelCaps.disagreement = pick(levels)
            c.aggregation.levelCaps.screen = pick(levels)
            c.aggregation.levelCaps.metadataFail = pick(levels)
            c.aggregation.agreementBoost = 0.1 * uniform()
            c.aggregation.ranking = pick(AggregationConfiguration.Ranking.allCases)
            c.aggregation.rankingPenalty = uniform()
            c.aggregation.realThreshold = 0.3 + 0.4 * uniform()
            c.decision.threshold = uniform()
            guard (try? PipelineAggregator(configuration: c)) != nil else { continue }
            total += records.count
            scored += try Self.expectEqual(records, c, jobs: 1 + round % 3)
        }
        // The rounds really ran (most configurations are valid) and most samples scored.
        #expect(total >= 2000)
        #expect(scored * 2 >= total)
    }

    /// Run folders named in `RIAL_BENCH_PLAN_RUNS` (colon-separated; e.g. the default run's
    /// `reports/latest`, which the README's `run` writes and git does not hold): every
    /// record under the folder's own configuration (from its results.json).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RIAL_BENCH_PLAN_RUNS"] != nil))
    func equalsTheRescorerOnTheRunFoldersNamed() throws {
        let folders = (ProcessInfo.processInfo.environment["RIAL_BENCH_PLAN_RUNS"] ?? "").split(separator: ":")
        #expect(!folders.isEmpty)
        for folder in folders.map(String.init) {
            let records = try SampleRecord.readLines(path: folder + "/samples.jsonl")
            let results = try RunResults.read(path: folder + "/results.json")
            #expect(!records.isEmpty, "\(folder): no records")
            let scored = try Self.expectEqual(records, results.configuration)
            #expect(scored > 0, "\(folder): nothing scored")
            try Self.expectEqual(records, RescoreBenchmark.configuration)
        }
    }
}
