import Foundation
import RialDetection
import RialMedia

/// How `rial-bench train texture` holds samples out to validate a model.
public enum TextureHoldOut: String, CaseIterable, Sendable {
    /// Fit on the training split(s), validate on the validation split(s) (the synthetic
    /// path: the generator's splits are independent draws).
    case split
    /// Group K-fold over the samples of the training and validation splits: whole groups
    /// (`TextureExample.groupKey`) per fold.
    case group
    /// Leave one source out: one fold per `source:OWNER/NAME` tag, fitted on every other
    /// sample (samples without a source tag, e.g. synthetic captures, are always fitted
    /// on and never held out).
    case source
}

/// Group-aware held-out validation of the texture trainer: folds in which no group (and,
/// by source, no source) is both fitted on and held out; each fold's model is fitted on
/// the rest and scored on the fold.
public enum TextureCrossValidation {
    /// One fold: indices into the examples.
    public struct Fold: Sendable, Equatable {
        /// The held-out source (`OWNER/NAME`) or `fold N` (1-based).
        public var name: String
        public var train: [Int]
        public var heldOut: [Int]
    }

    /// The folds of `examples` for `holdOut` (`.group` or `.source`; `.split` has none).
    ///
    /// - `.source`: one fold per distinct source, in name order; a fold holds out every
    ///   sample tagged with it and fits on all others. A group whose samples carry two
    ///   sources is held out with each (its samples tagged with the other source stay out
    ///   of training too), so no group is on both sides.
    /// - `.group`: groups ordered by a seeded Fisher-Yates shuffle (SplitMix64) of their
    ///   names in sorted order, then dealt largest first to the fold with the fewest
    ///   samples so far (ties: the lowest fold); `folds` is capped at the number of
    ///   groups. Deterministic for a seed.
    public static func folds(
        of examples: [TextureExample], by holdOut: TextureHoldOut, folds: Int = 5, seed: UInt64 = 1
    ) -> [Fold] {
        let groupKeys = examples.map(\.groupKey)
        var members: [String: [Int]] = [:]
        for (i, key) in groupKeys.enumerated() { members[key, default: []].append(i) }
        switch holdOut {
        case .split:
            return []
        case .source:
            let sources = Set(examples.compactMap(\.source)).sorted()
            return sources.map { source in
                let heldGroups = Set(examples.indices.filter { examples[$0].source == source }.map { groupKeys[$0] })
                let heldOut = examples.indices.filter { heldGroups.contains(groupKeys[$0]) }
                let held = Set(heldOut)
                return Fold(name: source, train: examples.indices.filter { !held.contains($0) }, heldOut: heldOut)
            }
        case .group:
            var names = members.keys.sorted()
            var rng = SplitMix64(seed: seed)
            if names.count > 1 {
                for i in stride(from: names.count - 1, to: 0, by: -1) {
                    names.swapAt(i, Int(rng.next() % UInt64(i + 1)))
                }
            }
            let order = names.enumerated().sorted {
                (members[$0.element]!.count, -$0.offset) > (members[$1.element]!.count, -$1.offset)
            }.map(\.element)
            let k = max(1, min(folds, names.count))
            var assigned = [[Int]](repeating: [], count: k)
            for name in order {
                let target = assigned.indices.min { (assigned[$0].count, $0) < (assigned[$1].count, $1) } ?? 0
                assigned[target] += members[name]!
            }
            return assigned.enumerated().map { f, heldOut in
                let held = Set(heldOut)
                return Fold(
                    name: "fold \(f + 1)", train: examples.indices.filter { !held.contains($0) },
                    heldOut: heldOut.sorted())
            }
        }
    }

    /// The outcome of cross-validation.
    public struct Outcome: Sendable {
        /// Per fold, in fold order (`TextureModelProvenance.CrossValidation.Fold`).
        public var folds: [TextureModelProvenance.CrossValidation.Fold]
        /// Every held-out sample scored by its fold's model (a sample held out by two
        /// source folds appears twice).
        public var heldOut: TextureEvaluation
        /// Confusion matrix etc. pooled over the held-out samples, in the final model's
        /// classes (`TextureTrainer.evaluate`).
        public var pooled: TextureModelProvenance.Evaluation
        /// Held-out samples per class (the pooled confusion matrix's row sums), keyed by
        /// class name, every class of the final model present.
        public var pooledClassCounts: [String: Int]
        /// The model fitted for each fold (its training samples), in fold order, with the
        /// fold's name (`rial-bench train texture --fold-models-out` writes them).
        public var foldModels: [(heldOut: String, model: TextureModel)] = []
        /// The held-out samples of each fold, in fold order (`heldOut`'s samples split by fold).
        public var foldSamples: [[TextureEvaluation.SampleOutcome]] = []
    }

    /// Fits one model per fold with `trainer` (on the fold's training samples) and scores
    /// its held-out samples with arg-max classification; `final` (the model fitted on
    /// every sample) sets the class order of the pooled confusion matrix. The pooled log
    /// loss is nil when a fold's model lacks the class of one of its held-out samples
    /// (its training samples had none).
    ///
    /// - Parameter progress: called with (finished, total) folds.
    /// - Throws: `TextureTrainingError` when a fold cannot be fitted (its training samples
    ///   lack `real_scene` or every attack class), naming the fold.
    public static func run(
        _ trainer: TextureTrainer, examples: [TextureExample], folds: [Fold], final: TextureModel,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws(TextureTrainingError) -> Outcome {
        var results: [TextureModelProvenance.CrossValidation.Fold] = []
        var foldModels: [(heldOut: String, model: TextureModel)] = []
        var foldSamples: [[TextureEvaluation.SampleOutcome]] = []
        var outcomes: [TextureEvaluation.SampleOutcome] = []
        let k = final.classes.count
        var matrix = [[Int]](repeating: [Int](repeating: 0, count: k), count: k)
        var correct = 0, count = 0, logLoss = 0.0, unlearned = 0
        let argMax = TextureAnalyzer.Configuration.argMax
        for (f, fold) in folds.enumerated() {
            var collection = TextureTrainer.Collection()
            collection.train = fold.train.map { examples[$0] }
            let model: TextureModel
            do { model = try trainer.fit(collection) } catch {
                throw .fitFailed("held-out \(fold.name): \(error.description)")
            }
            let held = fold.heldOut.map { examples[$0] }
            let evaluation = TextureEvaluation(model: model, examples: held, configuration: argMax)
            outcomes += evaluation.samples
            foldModels.append((fold.name, model))
            foldSamples.append(evaluation.samples)
            var labels: [String: Int] = [:]
            for e in held { labels[e.label.rawValue, default: 0] += 1 }
            results.append(
                .init(
                    heldOut: fold.name, trainCount: fold.train.count, heldOutCount: held.count,
                    accuracy: evaluation.accuracy, auc: evaluation.realVersusAttackAUC, labelCounts: labels))
            for example in held {
                guard let truth = trainer.learnedClass(example), let row = final.classes.firstIndex(of: truth),
                    let p = model.probabilities(example.features)
                else { continue }
                let best = p.indices.max { p[$0] < p[$1] } ?? 0
                let column = final.classes.firstIndex(of: model.classes[best]) ?? best
                matrix[row][column] += 1
                if column == row { correct += 1 }
                if let own = model.classes.firstIndex(of: truth) {
                    logLoss -= log(max(p[own], 1e-300))
                } else {
                    unlearned += 1
                }
                count += 1
            }
            progress(f + 1, folds.count)
        }
        let pooled = TextureModelProvenance.Evaluation(
            sampleCount: count, accuracy: count > 0 ? Double(correct) / Double(count) : nil,
            confusionMatrix: matrix, logLoss: count > 0 && unlearned == 0 ? logLoss / Double(count) : nil)
        var classCounts: [String: Int] = [:]
        for (row, c) in final.classes.enumerated() { classCounts[c.rawValue] = matrix[row].reduce(0, +) }
        return Outcome(
            folds: results, heldOut: TextureEvaluation(outcomes), pooled: pooled, pooledClassCounts: classCounts,
            foldModels: foldModels, foldSamples: foldSamples)
    }
}

extension TextureAnalyzer.Configuration {
    /// The defaults with the unknown rule off: `classification` is always the arg-max
    /// class (how training measures accuracy).
    static var argMax: Self {
        var configuration = Self()
        configuration.minimumConfidence = 0
        return configuration
    }
}

extension TextureEvaluation {
    /// Already scored samples.
    init(_ samples: [SampleOutcome]) {
        self.samples = samples
    }
}
