import Foundation
import RialDetection
import RialMedia
import RialTestSupport
import Testing

@testable import RialEval

/// Group-aware held-out validation of `train texture`: no group (or source) on both
/// sides of a fold.
@Suite struct TextureCrossValidationTests {
    /// 3 sources x 4 groups x 3 samples, plus 10 untagged synthetic samples without
    /// groups. Labels alternate real / screen / print within a group. Feature 0 separates
    /// real scenes (-3) from attacks (+3) under uniform noise in [-1, 1].
    static func examples() -> [TextureExample] {
        var rng = SplitMix64(seed: 4)
        func noise() -> Double { Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1 }
        let labels: [SampleLabel] = [.realScene, .screen, .printedPaper]
        var out: [TextureExample] = []
        for source in ["a/one", "b/two", "c/three"] {
            for g in 0..<4 {
                for i in 0..<3 {
                    var features = (0..<TextureFeatures.count).map { _ in noise() }
                    features[0] += labels[i] == .realScene ? -3 : 3
                    out.append(
                        TextureExample(
                            features: features, label: labels[i], id: "\(source)/\(g)/\(i)", manifest: "real.json",
                            group: "\(source)/g\(g)", tags: ["source:\(source)", "recompressed"]))
                }
            }
        }
        for i in 0..<10 {
            var features = (0..<TextureFeatures.count).map { _ in noise() }
            let label: SampleLabel = i % 2 == 0 ? .realScene : .lcdScreen
            features[0] += label == .realScene ? -3 : 3
            out.append(TextureExample(features: features, label: label, id: "synth/\(i)", manifest: "synth.json"))
        }
        return out
    }

    @Test func leaveOneSourceOutHoldsOutExactlyOneSource() {
        let examples = Self.examples()
        let folds = TextureCrossValidation.folds(of: examples, by: .source)
        #expect(folds.map(\.name) == ["a/one", "b/two", "c/three"])
        for fold in folds {
            #expect(fold.heldOut.count == 12)
            #expect(fold.heldOut.allSatisfy { examples[$0].source == fold.name })
            #expect(fold.train.allSatisfy { examples[$0].source != fold.name })
            #expect(Set(fold.train).isDisjoint(with: fold.heldOut))
            #expect(fold.train.count + fold.heldOut.count == examples.count)
            // Synthetic samples (no source tag) are always fitted on.
            #expect(fold.train.filter { examples[$0].source == nil }.count == 10)
        }
    }

    /// A group whose samples carry two sources is held out whole with each source.
    @Test func aGroupSpanningTwoSourcesNeverStraddlesAFold() {
        var examples = Self.examples()
        examples[0].tags = ["source:b/two"] // group a/one/g0 now spans a/one and b/two
        for fold in TextureCrossValidation.folds(of: examples, by: .source) {
            let trained = Set(fold.train.map { examples[$0].groupKey })
            let held = Set(fold.heldOut.map { examples[$0].groupKey })
            #expect(trained.isDisjoint(with: held), "\(fold.name)")
        }
    }

    @Test(arguments: [2, 3, 5, 100])
    func groupFoldsAreDisjointAndCoverEverySample(k: Int) {
        let examples = Self.examples()
        let folds = TextureCrossValidation.folds(of: examples, by: .group, folds: k, seed: 9)
        // 12 named groups + 10 single samples = 22 groups: k is capped there.
        #expect(folds.count == min(k, 22))
        var seen = [Int: Int]()
        for fold in folds {
            for i in fold.heldOut { seen[i, default: 0] += 1 }
            let trained = Set(fold.train.map { examples[$0].groupKey })
            let held = Set(fold.heldOut.map { examples[$0].groupKey })
            #expect(trained.isDisjoint(with: held))
            #expect(fold.train.count + fold.heldOut.count == examples.count)
        }
        #expect(seen.count == examples.count && seen.values.allSatisfy { $0 == 1 })
        // Same seed, same folds; another seed deals the groups differently.
        #expect(TextureCrossValidation.folds(of: examples, by: .group, folds: k, seed: 9) == folds)
    }

    @Test func anotherSeedGivesOtherGroupFolds() {
        let examples = Self.examples()
        #expect(
            TextureCrossValidation.folds(of: examples, by: .group, folds: 3, seed: 1)
                != TextureCrossValidation.folds(of: examples, by: .group, folds: 3, seed: 2))
    }

    /// Groups of the same name in two manifests are different groups.
    @Test func groupKeysIncludeTheManifest() {
        let a = TextureExample(features: [], label: .realScene, id: "x", manifest: "a.json", group: "g")
        let b = TextureExample(features: [], label: .realScene, id: "x", manifest: "b.json", group: "g")
        let single = TextureExample(features: [], label: .realScene, id: "g", manifest: "a.json")
        #expect(a.groupKey != b.groupKey && a.groupKey != single.groupKey)
    }

    /// Each fold's numbers are those of a model fitted on exactly the samples outside the
    /// held-out source (fitted here separately; a leak of held-out samples into the fold's
    /// fit would change them); `screen` samples are learned as `lcd_screen`.
    @Test func leaveOneSourceOutScoresEachSource() throws {
        var options = TextureTrainer.Options()
        options.screenClass = .lcdScreen
        let trainer = TextureTrainer(options: options)
        let examples = Self.examples()
        var collection = TextureTrainer.Collection()
        collection.train = examples
        let final = try trainer.fit(collection)
        #expect(final.classes == [.realScene, .lcdScreen, .printedPaper])
        #expect(final.provenance.labelMap == ["screen": "lcd_screen"])
        #expect(final.provenance.trainClassCounts["lcd_screen"] == 3 * 4 + 5)

        let folds = TextureCrossValidation.folds(of: examples, by: .source)
        let outcome = try TextureCrossValidation.run(trainer, examples: examples, folds: folds, final: final)
        #expect(outcome.folds.map(\.heldOut) == ["a/one", "b/two", "c/three"])
        for fold in outcome.folds {
            #expect(fold.heldOutCount == 12 && fold.trainCount == examples.count - 12)
            #expect(fold.labelCounts == ["real_scene": 4, "screen": 4, "printed_paper": 4])
            var outside = TextureTrainer.Collection()
            outside.train = examples.filter { $0.source != fold.heldOut }
            let alone = try trainer.fit(outside)
            var argMax = TextureAnalyzer.Configuration()
            argMax.minimumConfidence = 0
            let expected = TextureEvaluation(
                model: alone, examples: examples.filter { $0.source == fold.heldOut }, configuration: argMax)
            #expect(fold.accuracy == expected.accuracy && fold.auc == expected.realVersusAttackAUC)
            #expect(fold.auc != nil)
        }
        #expect(outcome.pooled.sampleCount == 36)
        #expect(outcome.pooled.confusionMatrix.map { $0.reduce(0, +) } == [12, 12, 12])
    }

    @Test func screenSamplesAreSkippedWithoutAScreenClass() throws {
        var collection = TextureTrainer.Collection()
        collection.train = Self.examples()
        let model = try TextureTrainer().fit(collection)
        #expect(model.provenance.labelMap == nil)
        #expect(model.provenance.trainClassCounts["lcd_screen"] == 5)
        var options = TextureTrainer.Options()
        options.screenClass = .printedPaper
        #expect(throws: TextureTrainingError.self) { try TextureTrainer(options: options).fit(collection) }
    }
}
