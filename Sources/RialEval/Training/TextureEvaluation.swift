import Foundation
import RialDetection

/// How a texture model does on described samples it was not trained on: per-sample
/// scores, mean score per label, the real-vs-attack AUC and the real scenes it misjudges.
public struct TextureEvaluation: Sendable {
    /// One sample's outcome.
    public struct SampleOutcome: Sendable, Equatable {
        public var id: String
        public var label: SampleLabel
        /// `p(real_scene)`.
        public var score: Double
        /// Arg-max class, or `unknown` below the configuration's minimum confidence.
        public var classification: TextureClass
        /// As `TextureAnalyzer.Result.isLikelyRecaptured`.
        public var isLikelyRecaptured: Bool

        /// The classification names the label (either panel class for `screen`).
        public var isCorrect: Bool {
            guard classification != .unknown else { return false }
            return label == .screen ? classification.isScreen : TextureTrainer.textureClass(label) == classification
        }
    }

    public var samples: [SampleOutcome]

    /// Scores every example whose features fit the model, with `configuration`'s unknown
    /// and recapture rules (as `TextureAnalyzer` applies them).
    public init(
        model: TextureModel, examples: [TextureExample],
        configuration: TextureAnalyzer.Configuration = .standard
    ) {
        samples = examples.compactMap { example in
            guard let p = model.probabilities(example.features) else { return nil }
            let best = p.indices.max { p[$0] < p[$1] } ?? 0
            var screen = 0.0, print = 0.0, real = 0.0
            for (k, c) in model.classes.enumerated() {
                if c.isScreen { screen += p[k] }
                if c == .printedPaper { print += p[k] }
                if c == .realScene { real = p[k] }
            }
            return SampleOutcome(
                id: example.id, label: example.label, score: real,
                classification: p[best] < configuration.minimumConfidence ? .unknown : model.classes[best],
                isLikelyRecaptured: screen > configuration.recaptureThreshold
                    || print > configuration.recaptureThreshold)
        }
    }

    /// Count and mean score per label present, in `SampleLabel` order.
    public var meanScoreByLabel: [(label: SampleLabel, count: Int, mean: Double)] {
        SampleLabel.allCases.compactMap { label in
            let scores = samples.filter { $0.label == label }.map(\.score)
            return scores.isEmpty ? nil : (label, scores.count, scores.reduce(0, +) / Double(scores.count))
        }
    }

    /// Area under the ROC curve of `score` for real scenes (positive) against every attack
    /// label: the Mann-Whitney probability that a random real sample scores above a random
    /// attack, ties counting one half (equal to scikit-learn's trapezoidal `roc_auc_score`).
    /// nil when either side has no sample.
    public var realVersusAttackAUC: Double? {
        let positives = samples.filter { $0.label.isBonaFide }.map(\.score)
        let negatives = samples.filter { !$0.label.isBonaFide }.map(\.score)
        guard !positives.isEmpty, !negatives.isEmpty else { return nil }
        var wins = 0.0
        for p in positives {
            for n in negatives { wins += p > n ? 1 : (p == n ? 0.5 : 0) }
        }
        return wins / Double(positives.count * negatives.count)
    }

    /// Real scenes whose classification is not `real_scene`.
    public var misjudgedRealScenes: [SampleOutcome] {
        samples.filter { $0.label == .realScene && $0.classification != .realScene }
    }

    /// Samples classified as their label, over all samples (a `screen` label is matched
    /// by either panel class; `unknown` is never correct).
    public var accuracy: Double? {
        samples.isEmpty ? nil : Double(samples.filter(\.isCorrect).count) / Double(samples.count)
    }
}
