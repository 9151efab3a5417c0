import Foundation
import RialDetection
import RialMedia
import RialTestSupport
import Testing

@testable import RialEval

/// `rial-bench train texture --method texture/2`: the trainer with feature set version 2.
@Suite struct Texture2TrainerTests {
    /// Real scenes and screens that differ only in feature 5 (±3 on top of uniform noise
    /// in -1...1): perfectly separable by a threshold at 0.
    private func toy(count: Int, seed: UInt64, split: DatasetSplit, source: String) -> [TextureExample] {
        var rng = SplitMix64(seed: seed)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1 }
        return (0..<(2 * count)).map { i in
            let label: SampleLabel = i % 2 == 0 ? .realScene : .screen
            var features = (0..<Texture2Features.count).map { _ in uniform() }
            features[5] += label == .realScene ? -3 : 3
            return TextureExample(
                features: features, label: label, id: "\(source)/\(i)", split: split, group: "\(source)/\(i)",
                tags: ["source:\(source)"])
        }
    }

    @Test func separableToySetGivesAVersion2Model() throws {
        var options = TextureTrainer.Options()
        options.featureSetVersion = Texture2Features.version
        options.screenClass = .lcdScreen
        options.modelID = "toy2"
        var collection = TextureTrainer.Collection()
        collection.train =
            toy(count: 100, seed: 1, split: .train, source: "a/a")
            + toy(
                count: 100, seed: 2, split: .train, source: "b/b")
        let trainer = TextureTrainer(options: options)
        let model = try trainer.fit(collection)
        #expect(model.featureSetVersion == 2)
        #expect(model.featureNames == Texture2Features.names)
        #expect(model.classes == [.realScene, .lcdScreen])
        #expect(model.provenance.training.accuracy == 1)
        #expect(model.provenance.algorithm.contains("texture/2"))
        // Feature 5 carries the decision.
        let d = Texture2Features.count
        let weights = model.weights[d..<(2 * d)].map(abs)
        #expect(weights.firstIndex(of: weights.max()!) == 5)
        // texture/2 accepts it; texture/1 refuses it with one message naming the version.
        let json = try model.canonicalJSON()
        #expect(try Texture2Model(modelFile: json).modelID == "toy2")
        #expect(throws: LearnedModelError.self) { try TextureModel(modelFile: json) }

        // Leave one source out: each fold's model is fitted without its source and ranks it
        // perfectly.
        let folds = TextureCrossValidation.folds(of: collection.train, by: .source)
        #expect(folds.map(\.name) == ["a/a", "b/b"])
        let outcome = try TextureCrossValidation.run(trainer, examples: collection.train, folds: folds, final: model)
        #expect(outcome.foldModels.map(\.heldOut) == ["a/a", "b/b"])
        #expect(outcome.folds.map(\.auc) == [1, 1])
        #expect(outcome.foldSamples.map(\.count) == [200, 200])
    }

    @Test func unknownFeatureSetIsRefused() {
        var options = TextureTrainer.Options()
        options.featureSetVersion = 3
        var collection = TextureTrainer.Collection()
        collection.train = toy(count: 5, seed: 1, split: .train, source: "a/a")
        #expect(throws: TextureTrainingError.self) { try TextureTrainer(options: options).fit(collection) }
    }
}
