import Foundation
import RialMedia
import Testing

@testable import RialEval

/// The bootstrap's weighted sweeps read each tied block through `TiedBlockEntries` (one
/// entry per cluster and class, with its count). Checked on heavily tied data against
/// references that never see the entries: the weighted AUC from its pairwise definition,
/// and the EER and APCER at BPCER of the samples repeated `weight` times (a resample is
/// the data with each cluster repeated by its multiplicity).
@Suite struct TiedBlockBootstrapTests {
    /// 60 samples in 6 clusters, scores from 4 values (so every block mixes clusters and
    /// classes), two attack species.
    static let samples: [ScoredSample] = {
        var random = SplitMix64(seed: 5)
        let values = [0.2, 0.4, 0.6, 0.8]
        return (0..<60).map { i in
            let bonaFide = random.next() % 3 == 0
            let value = values[Int(random.next() % 4)]
            return ScoredSample(
                id: "s\(i)", score: bonaFide ? max(value, 0.4) : value, bonaFide: bonaFide,
                species: bonaFide ? "real_scene" : (i % 2 == 0 ? "lcd_screen" : "printed_paper"),
                group: "g\(random.next() % 6)")
        }
    }()

    /// Multiplicity per cluster index for resample `seed` (0...3 each, some zero).
    static func weights(_ prepared: RankedSamples, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<prepared.clusterCount).map { _ in UInt8(random.next() % 4) }
    }

    /// The samples repeated by their cluster's multiplicity.
    static func repeated(_ prepared: RankedSamples, weights: [UInt8]) -> [ScoredSample] {
        var clusterOf: [String: Int32] = [:]
        for (k, index) in prepared.ranked.order.enumerated() {
            clusterOf[prepared.samples[Int(index)].id] = prepared.clusterOfSorted[k]
        }
        return prepared.samples.flatMap { sample in
            (0..<Int(weights[Int(clusterOf[sample.id]!)])).map { copy -> ScoredSample in
                var s = sample
                s.id += "-\(copy)"
                return s
            }
        }
    }

    @Test func tiedBlocksAreCompressedPerClusterAndClass() {
        let prepared = RankedSamples(samples: Self.samples)
        let curve = WeightedCurve(
            ranked: prepared.ranked, clusterOfSorted: prepared.clusterOfSorted, clusterCount: prepared.clusterCount)
        // 4 blocks, at most 6 clusters x 2 classes each: far fewer entries than samples.
        #expect(prepared.ranked.blockEnds.count == 4)
        #expect(curve.packed.count <= 48 && curve.packed.count < Self.samples.count)
        #expect(curve.counts.reduce(0) { $0 + Int($1) } == Self.samples.count)
    }

    @Test func weightedAUCAndEEROnTiesEqualTheirDefinitions() {
        let prepared = RankedSamples(samples: Self.samples)
        let curve = WeightedCurve(
            ranked: prepared.ranked, clusterOfSorted: prepared.clusterOfSorted, clusterCount: prepared.clusterCount)
        for seed in UInt64(1)...40 {
            let w = Self.weights(prepared, seed: seed)
            let (auc, eer) = w.withUnsafeBufferPointer { curve.aucAndEER(weights: .narrow($0)) }
            let copies = Self.repeated(prepared, weights: w)
            let positives = copies.filter(\.bonaFide), negatives = copies.filter { !$0.bonaFide }
            guard !positives.isEmpty, !negatives.isEmpty else {
                #expect(auc.isNaN && eer.isNaN)
                continue
            }
            // Pairwise: a win counts 2, a tie 1, over 2 P N.
            var twice = 0
            for p in positives {
                for n in negatives { twice += p.score > n.score ? 2 : (p.score == n.score ? 1 : 0) }
            }
            #expect(auc == Double(twice) / (2 * Double(positives.count) * Double(negatives.count)), "seed \(seed)")
            let plain = EqualErrorRate(scores: copies.map(\.score), bonaFide: copies.map(\.bonaFide))
            #expect(abs(eer - plain.rate) < 1e-12, "seed \(seed)")
        }
    }

    @Test func weightedSweepOnTiesEqualsRepeatedSamples() {
        let prepared = RankedSamples(samples: Self.samples)
        let sweep = WeightedThresholdSweep(prepared: prepared, eligible: [true, true])
        let targets = [0.01, 0.05, 0.3, 0.6]
        for seed in UInt64(1)...40 {
            let w = Self.weights(prepared, seed: seed)
            let copies = Self.repeated(prepared, weights: w)
            guard copies.contains(where: \.bonaFide), copies.contains(where: { !$0.bonaFide }) else { continue }
            let points = w.withUnsafeBufferPointer { sweep.points(targets: targets, weights: $0) }
            for (point, target) in zip(points, targets) {
                let plain = APCERAtBPCER(samples: copies, target: target)
                #expect(point.threshold == plain.threshold && point.bpcer == plain.bpcer, "seed \(seed)")
                #expect(point.apcerPooled == plain.apcerPooled && point.apcerMax == plain.apcerMax, "seed \(seed)")
            }
            let thresholds = [0.9, 0.8, 0.6, 0.5, 0.2, 0.1]
            let rates = w.withUnsafeBufferPointer { sweep.rates(at: thresholds, weights: $0) }
            for (index, threshold) in thresholds.enumerated() {
                let pad = PresentationAttackMetrics(samples: copies, threshold: threshold)
                #expect(rates[index].apcerPooled == pad.apcerPooled && rates[index].bpcer == pad.bpcer)
                #expect(rates[index].apcerMax == pad.apcerMax || (rates[index].apcerMax.isNaN && pad.apcerMax.isNaN))
            }
        }
    }

    /// The rates from the sorted order equal the per-sample count at every kind of
    /// threshold: a tied score, between scores, beyond both ends, infinite, NaN.
    @Test func ratesFromTheSortedOrderEqualThePerSampleCount() {
        let prepared = RankedSamples(samples: Self.samples)
        for threshold in [0.2, 0.4, 0.5, 0.6, 0.8, 0.0, 1.0, .infinity, -.infinity, .nan] {
            for minimum in [1, 8, 40] {
                let swept = PresentationAttackMetrics(prepared: prepared, threshold: threshold, minimumAttacks: minimum)
                let counted = PresentationAttackMetrics(
                    samples: Self.samples, threshold: threshold, minimumAttacks: minimum)
                #expect(swept.species == counted.species && swept.bonaFideRejected == counted.bonaFideRejected)
                #expect(
                    swept.apcerMaxSpecies == counted.apcerMaxSpecies && swept.attackAccepted == counted.attackAccepted)
                #expect(
                    swept.apcerPooled == counted.apcerPooled && swept.bpcer == counted.bpcer
                        && swept.warnings == counted.warnings && swept.excludedCount == counted.excludedCount)
                #expect(swept.apcerMax == counted.apcerMax || (swept.apcerMax.isNaN && counted.apcerMax.isNaN))
            }
        }
    }

    /// The breakdowns read off the sorted order of all samples equal those that sort each
    /// subset (tags, labels against all bona fide, groups, attestation), ties included.
    @Test func breakdownsFromTheSortedOrderEqualSortingEachSubset() throws {
        let samples = Self.samples.enumerated().map { i, sample -> ScoredSample in
            var s = sample
            s.tags = i % 3 == 0 ? ["indoor", "phone"] : (i % 3 == 1 ? ["phone", "phone"] : [])
            s.attestation = i % 4 == 0 ? "tee" : nil
            return s
        }
        let prepared = RankedSamples(samples: samples)
        let fast = MetricsBreakdown(
            prepared: prepared, threshold: 0.6, dimensions: BreakdownDimension.allCases, level: 0.95)
        let sorting = MetricsBreakdown(samples: samples, threshold: 0.6)
        // As JSON: undefined values (NaN) compare equal there.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(fast) == encoder.encode(sorting))
        #expect(fast.perTag?.map(\.key) == ["indoor", "phone"] && fast.perGroup?.count == 6)
    }
}
