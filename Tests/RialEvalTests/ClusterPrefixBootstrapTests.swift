import Foundation
import RialMedia
import Testing

@testable import RialEval

/// The bootstrap's per-cluster shortcuts (`BlockPrefixCounts`, `WeightedCurve.ClusterSummary`,
/// `WeightedThresholdSweep.Prefix`) give every resample the same numbers, to the bit, as the
/// pass over every sample they replace (itself checked against scikit-learn and hand
/// calculations elsewhere): compared resample by resample on random data with ties, few
/// and many clusters, several species and weights of every cluster.
@Suite struct ClusterPrefixBootstrapTests {
    /// A hand-worked table: entries (column, count) = (0, 1) | (1, 2), (0, 1) | (2, 1) in
    /// three blocks; rows before blocks 0, 2 and 3.
    @Test func prefixRowsByHand() {
        let prefix = BlockPrefixCounts(
            column: [0, 1, 0, 2], count: [1, 2, 1, 1], blockEnds: [1, 3, 4], width: 3, at: [0, 2, 3])
        #expect(prefix.rows == 3)
        #expect(prefix.entries == [0, 3, 4])
        #expect(prefix.counts == [0, 0, 0, 2, 2, 0, 2, 2, 1])
        #expect(prefix.weighted(row: 1, columns: 0..<3, weight: { [3, 5, 7][$0] }) == 2 * 3 + 2 * 5)
        // Rows every 2 entries: block 0, then the first boundary at or after entry 2 (block 2,
        // entry 3), then none (entry 5 is past the end).
        #expect(BlockPrefixCounts.blocks(every: 2, blockEnds: [1, 3, 4]) == [0, 2])
    }

    /// Random samples: `n` of them in `clusters` groups, `species` attack species, scores
    /// rounded to `1/levels` (ties) or continuous (`levels` 0).
    static func samples(n: Int, clusters: Int, species: Int, levels: Int, seed: UInt64, bonaFideShare: Double = 0.3)
        -> [ScoredSample]
    {
        var rng = SplitMix64(seed: seed)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        return (0..<n).map { i in
            let bonaFide = uniform() < bonaFideShare
            let g = Int(rng.next() % UInt64(clusters))
            // Clusters shift scores, so a cluster's weight moves the curve.
            var score = (bonaFide ? 0.6 : 0.4) + 0.25 * (uniform() - 0.5) + 0.1 * Double(g % 5) / 5
            if levels > 0 { score = (score * Double(levels)).rounded() / Double(levels) }
            return ScoredSample(
                id: "s\(i)", score: score, bonaFide: bonaFide,
                species: bonaFide ? "real_scene" : "attack\(Int(rng.next() % UInt64(species)))", group: "g\(g)")
        }
    }

    /// The bona fide share alternates (0.3, 0.7): the summary is built from the smaller class.
    static let cases: [(n: Int, clusters: Int, species: Int, levels: Int)] = [
        (6_000, 7, 3, 0), (8_000, 12, 2, 400), (5_000, 3, 4, 7), (9_000, 30, 1, 0), (4_000, 60, 2, 0),
    ]

    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    @Test func aucAndEERFromClusterSums() throws {
        for (c, item) in Self.cases.enumerated() {
            let prepared = RankedSamples(
                samples: Self.samples(
                    n: item.n, clusters: item.clusters, species: item.species, levels: item.levels,
                    seed: UInt64(c + 1), bonaFideShare: c % 2 == 0 ? 0.3 : 0.7))
            let curve = WeightedCurve(
                ranked: prepared.ranked, clusterOfSorted: prepared.clusterOfSorted,
                clusterCount: prepared.clusterCount)
            // (Heavy ties or many clusters for the entries: the bootstrap keeps the pass; compared all the same.)
            if c == 0 { #expect(curve.summaryPays) }
            #expect(
                (2 * prepared.ranked.positive.count { $0 == 1 } <= prepared.ranked.count) == (c % 2 == 0),
                "case \(c): the class the summary is built from")
            let summary = curve.clusterSummary()
            var weights = [UInt8](repeating: 0, count: prepared.clusterCount)
            for seed in 0..<60 as Range<UInt64> {
                weights.withUnsafeMutableBufferPointer { _ = ClusterResampler.draw(into: $0, seed: seed &+ 99) }
                if seed == 0 { weights = weights.map { _ in 1 } } // the original sample
                weights.withUnsafeBufferPointer { w in
                    let totals = curve.totals(weights: w)
                    let pass = curve.aucAndEER(weights: w, totals: totals)
                    let fast = curve.aucAndEER(weights: w, totals: totals, summary: summary)
                    #expect(Self.same(pass.auc, fast.auc), "case \(c) resample \(seed): AUC \(pass.auc) vs \(fast.auc)")
                    #expect(Self.same(pass.eer, fast.eer), "case \(c) resample \(seed): EER \(pass.eer) vs \(fast.eer)")
                    if seed == 0 {
                        // Unit weights give the point AUC (scikit-learn's, checked elsewhere).
                        #expect(abs(fast.auc - prepared.ranked.auc) < 1e-12)
                    }
                }
            }
        }
    }

    @Test func operatingPointsFromPrefixRows() {
        let targets = [0.01, 0.05, 0.10, 0.5, 1.0]
        for (c, item) in Self.cases.enumerated() {
            let prepared = RankedSamples(
                samples: Self.samples(
                    n: item.n, clusters: item.clusters, species: item.species, levels: item.levels,
                    seed: UInt64(c + 11)))
            let sweep = WeightedThresholdSweep(prepared: prepared, eligible: prepared.speciesCounts.map { $0 >= 1 })
            if c == 0 { #expect(sweep.prefixPays) }
            let prefix = sweep.prefix()
            let thresholds = [0.9, 0.55, 0.5, 0.45, 0.3, -1, 2, prepared.ranked.scores[prepared.ranked.count / 2]]
            let tablePrefix = sweep.prefix(atThresholds: thresholds)
            var weights = [UInt8](repeating: 0, count: prepared.clusterCount)
            for seed in 0..<60 as Range<UInt64> {
                weights.withUnsafeMutableBufferPointer { _ = ClusterResampler.draw(into: $0, seed: seed &+ 7) }
                if seed == 0 { weights = weights.map { _ in 1 } }
                weights.withUnsafeBufferPointer { w in
                    let pass = sweep.points(targets: targets, weights: w)
                    let fast = sweep.points(targets: targets, weights: w, prefix: prefix)
                    for (a, b) in zip(pass, fast) {
                        #expect(
                            Self.same(a.threshold, b.threshold) && Self.same(a.bpcer, b.bpcer)
                                && Self.same(a.apcerPooled, b.apcerPooled) && Self.same(a.apcerMax, b.apcerMax)
                                && a.apcerMaxSpecies == b.apcerMaxSpecies,
                            "case \(c) resample \(seed): \(a) vs \(b)")
                    }
                    let passRates = sweep.rates(at: thresholds, weights: w)
                    let fastRates = sweep.rates(at: thresholds, weights: w, prefix: tablePrefix)
                    for (a, b) in zip(passRates, fastRates) {
                        #expect(
                            Self.same(a.apcerPooled, b.apcerPooled) && Self.same(a.apcerMax, b.apcerMax)
                                && Self.same(a.bpcer, b.bpcer), "case \(c) resample \(seed): \(a) vs \(b)")
                    }
                }
            }
        }
    }

    /// The metrics with their intervals, shortcut or not: the same JSON.
    @Test func intervalsUnchanged() throws {
        let samples = Self.samples(n: 7_000, clusters: 12, species: 3, levels: 0, seed: 5)
        let prepared = RankedSamples(samples: samples)
        let settings = BootstrapSettings(resamples: 200, seed: 9)
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        encoder.outputFormatting = .sortedKeys
        let targets = APCERAtBPCER.standardTargets
        let fast = APCERAtBPCER.compute(prepared: prepared, targets: targets, minimumAttacks: 1, bootstrap: settings)
        let pass = APCERAtBPCER.compute(
            prepared: prepared, targets: targets, minimumAttacks: 1, bootstrap: settings, useClusterPrefix: false)
        #expect(try encoder.encode(fast) == encoder.encode(pass))
        let thresholds = [("a", 0.5), ("b", 0.62), ("c", 0.41)]
        let rowsFast = ThresholdRow.rows(
            prepared: prepared, thresholds: thresholds, minimumAttacks: 1, settings: settings)
        let rowsPass = ThresholdRow.rows(
            prepared: prepared, thresholds: thresholds, minimumAttacks: 1, settings: settings,
            useClusterPrefix: false)
        #expect(try encoder.encode(rowsFast) == encoder.encode(rowsPass))
        let bootstrap = ClusterBootstrap(prepared: prepared, threshold: 0.5)
        #expect(
            bootstrap.replicates(settings).elementsEqual(bootstrap.replicates(settings, useClusterSummary: false)) {
                Self.same($0.auc, $1.auc) && Self.same($0.eer, $1.eer) && Self.same($0.apcerMax, $1.apcerMax)
            })
    }
}
