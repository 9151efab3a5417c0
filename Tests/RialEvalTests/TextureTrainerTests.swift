import Foundation
import RialCodecs
import RialDetection
import RialMedia
import RialSynth
import RialTestSupport
import Testing

@testable import RialEval

@Suite struct TextureTrainerTests {
    // MARK: - Optimiser

    /// Two samples x = -1 (class 0) and x = +1 (class 1), one feature. By symmetry the
    /// optimum has w1 = -w0 = a and equal biases; setting the derivative in w1 to zero,
    /// (1/2)[(σ(2a) - 1) - σ(-2a)] + λ a = 0, i.e. λ a = σ(-2a).
    @Test func softmaxRegressionMeetsTheStationarityCondition() {
        let lambda = 0.1
        let fit = SoftmaxRegression.fit(
            features: [-1, 1], labels: [0, 1], featureCount: 1, classes: 2, l2: lambda,
            maxIterations: 100, tolerance: 1e-12, seed: 3)
        let a = fit.weights[1]
        #expect(abs(fit.weights[0] + a) < 1e-9)
        #expect(abs(fit.biases[0] - fit.biases[1]) < 1e-9)
        #expect(abs(lambda * a - 1 / (1 + exp(2 * a))) < 1e-9)
        #expect(a > 0.9 && a < 1.2) // λa = σ(-2a) crosses between a = 1 (0.100 < 0.119) and 1.1 (0.110 > 0.0998)
    }

    /// The analytic gradient equals central finite differences of the loss.
    @Test func gradientMatchesFiniteDifferences() {
        var rng = SplitMix64(seed: 17)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1 }
        let n = 7, d = 3, k = 3
        let features = (0..<(n * d)).map { _ in uniform() * 2 }
        let labels = (0..<n).map { $0 % k }
        let theta = (0..<(k * (d + 1))).map { _ in uniform() }
        let (_, gradient) = SoftmaxRegression.lossAndGradient(
            theta, features: features, labels: labels, d: d, K: k, l2: 0.3)
        let h = 1e-6
        for q in theta.indices {
            var plus = theta, minus = theta
            plus[q] += h
            minus[q] -= h
            let lp = SoftmaxRegression.lossAndGradient(plus, features: features, labels: labels, d: d, K: k, l2: 0.3).0
            let lm = SoftmaxRegression.lossAndGradient(minus, features: features, labels: labels, d: d, K: k, l2: 0.3).0
            #expect(abs((lp - lm) / (2 * h) - gradient[q]) < 1e-6, "parameter \(q)")
        }
    }

    @Test func choleskySolvesByHand() throws {
        // [[4, 2], [2, 3]] x = [2, 1]  ->  x = [0.5, 0]
        var a = [4.0, 2, 2, 3]
        let x = try #require(SoftmaxRegression.solveCholesky(&a, [2, 1], size: 2))
        #expect(abs(x[0] - 0.5) < 1e-12 && abs(x[1]) < 1e-12)
        var singular = [1.0, 1, 1, 1]
        #expect(SoftmaxRegression.solveCholesky(&singular, [1, 1], size: 2) == nil)
    }

    // MARK: - Trainer on in-memory features

    /// Feature 0 is -3 or +3 by class plus noise in [-1, 1]; every other feature is noise:
    /// separable by feature 0 alone. With many more samples than features the noise
    /// cannot buy margin, so the fit leans on feature 0 and generalises.
    private func toyExamples(count: Int, seed: UInt64, split: DatasetSplit) -> [TextureExample] {
        var rng = SplitMix64(seed: seed)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1 }
        return (0..<(2 * count)).map { i in
            let label: SampleLabel = i % 2 == 0 ? .realScene : .printedPaper
            var features = (0..<TextureFeatures.count).map { _ in uniform() }
            features[0] += label == .realScene ? -3 : 3
            return TextureExample(features: features, label: label, id: "toy/\(i)", split: split)
        }
    }

    @Test func separableToyProblemIsRecovered() throws {
        var collection = TextureTrainer.Collection()
        collection.train = toyExamples(count: 150, seed: 1, split: .train)
        collection.validation = toyExamples(count: 25, seed: 2, split: .val)
        let model = try TextureTrainer().fit(collection)
        #expect(model.classes == [.realScene, .printedPaper]) // classes without samples are left out
        #expect(model.provenance.training.accuracy == 1)
        let validation = try #require(model.provenance.validation)
        #expect(try #require(validation.accuracy) >= 0.95)
        #expect(validation.confusionMatrix.map { $0.reduce(0, +) } == [25, 25])
        #expect(
            model.provenance.trainClassCounts == [
                "real_scene": 150, "lcd_screen": 0, "oled_screen": 0, "printed_paper": 150,
            ])
        #expect(model.provenance.hyperparameters.iterations >= 1)
        // Feature 0 carries the decision: its weight for printed_paper is the largest.
        let d = TextureFeatures.count
        let printWeights = Array(model.weights[d..<(2 * d)].map(abs))
        #expect(printWeights.firstIndex(of: printWeights.max()!) == 0)
    }

    @Test func seedChangesNothingButTheStart() throws {
        var collection = TextureTrainer.Collection()
        collection.train = toyExamples(count: 10, seed: 5, split: .train)
        var options = TextureTrainer.Options()
        options.seed = 1
        let a = try TextureTrainer(options: options).fit(collection)
        options.seed = 2
        let b = try TextureTrainer(options: options).fit(collection)
        // A strictly convex problem: the same optimum from either start (to the tolerance).
        for (x, y) in zip(a.weights, b.weights) { #expect(abs(x - y) < 1e-6) }
        #expect(try TextureTrainer(options: options).fit(collection) == b)
    }

    @Test func trainingNeedsRealAndAnAttack() {
        var collection = TextureTrainer.Collection()
        collection.train = toyExamples(count: 4, seed: 1, split: .train).filter { $0.label == .printedPaper }
        #expect(throws: TextureTrainingError.self) { try TextureTrainer().fit(collection) }
        #expect(throws: TextureTrainingError.self) { try TextureTrainer().fit(TextureTrainer.Collection()) }
    }

    /// Real scenes against LCD recaptures, features of synthetic 320x240 captures: the
    /// trainer separates its training set.
    @Test func syntheticRealVersusLCD() throws {
        var collection = TextureTrainer.Collection()
        for index in 0..<4 {
            let label: SynthClass = index % 2 == 0 ? .realScene : .lcdScreen
            let capture = SynthGenerator.generate(index: index, seed: 23, class: label, width: 320, height: 240)
            let features = try TextureFeatures.extract(capture.image).values
            collection.train.append(
                TextureExample(
                    features: features, label: SampleLabel(rawValue: label.rawValue)!,
                    id: "synth/\(index)"))
        }
        var options = TextureTrainer.Options()
        options.classes = [.realScene, .lcdScreen]
        let model = try TextureTrainer(options: options).fit(collection)
        #expect(model.provenance.training.accuracy == 1)
        #expect(model.provenance.training.confusionMatrix == [[2, 0], [0, 2]])
        for example in collection.train {
            let p = try #require(model.probabilities(example.features))
            #expect(abs(p.reduce(0, +) - 1) < 1e-12)
            #expect((p[0] > 0.5) == (example.label == .realScene), "\(example.id)")
        }
    }

    // MARK: - Datasets on disk

    /// A manifest with two train images, one validation image, a `screen` sample, a
    /// corrupt image and an image whose SHA-256 does not match.
    /// A set made with a phone camera names it in the command that remakes it (the spec
    /// records `camera` only when it is not `standard`).
    @Test func generatedByNamesAPhoneCamera() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("texture-train-camera")
        defer { EvalFixtures.removeTemporary(folder) }
        let manifest = try writeDataset(in: folder, camera: "phone2")
        let collection = try TextureTrainer(options: .init()).collect(manifests: [manifest])
        let dataset = try #require(collection.datasets.first)
        #expect(
            dataset.generatedBy == "rial-bench synth --out \(folder.path) --count 6 --seed 9 --width 160 --height 144 "
                + "--classes real_scene lcd_screen --camera phone2 --procedural-only")
    }

    private func writeDataset(in folder: URL, camera: String? = nil) throws -> String {
        let images = [("a", 1), ("b", 2), ("c", 3), ("s", 4)]
        for (name, seed) in images {
            var rng = SplitMix64(seed: UInt64(seed))
            let samples = (0..<(160 * 144 * 3)).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 56) }
            try JPEGEncoder.write(
                Image8(width: 160, height: 144, channels: 3, samples: samples)!,
                to: folder.appendingPathComponent("\(name).jpg").path)
        }
        try Data("not a jpeg".utf8).write(to: folder.appendingPathComponent("bad.jpg"))
        let manifest = """
            {"format": "rial-bench-dataset/1", "name": "toy",
             "generator": {"spec": {"count": 6, "seed": 9, "width": 160, "height": 144,
                                    "classes": ["real_scene", "lcd_screen"], "secondView": false\(camera.map { ", \"camera\": \"\($0)\"" } ?? "")},
                           "texture_sources": []},
             "samples": [
              {"id": "a", "image": "a.jpg", "label": "real_scene", "split": "train"},
              {"id": "b", "image": "b.jpg", "label": "lcd_screen", "split": "train"},
              {"id": "c", "image": "c.jpg", "label": "real_scene", "split": "val"},
              {"id": "s", "image": "s.jpg", "label": "screen", "split": "train"},
              {"id": "bad", "image": "bad.jpg", "label": "lcd_screen", "split": "train"},
              {"id": "hash", "image": "a.jpg", "label": "lcd_screen", "split": "train",
               "sha256": {"image": "\(String(repeating: "0", count: 64))"}},
              {"id": "t", "image": "a.jpg", "label": "real_scene", "split": "test"},
              {"id": 5}
             ]}
            """
        let path = folder.appendingPathComponent("manifest.json").path
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func collectSkipsReportsAndKeepsOrder() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("texture-train")
        defer { EvalFixtures.removeTemporary(folder) }
        let manifest = try writeDataset(in: folder)
        var options = TextureTrainer.Options()
        options.jobs = 2
        let collection = try TextureTrainer(options: options).collect(manifests: [manifest])
        #expect(collection.train.map(\.id) == ["a", "b"])
        #expect(collection.validation.map(\.id) == ["c"])
        #expect(collection.skippedLabels == ["screen": 1])
        #expect(Set(collection.failedSamples.map(\.sample)) == ["samples[7]", "bad", "hash"])
        #expect(collection.failedSamples.first { $0.sample == "hash" }?.reason.contains("SHA-256") == true)
        let dataset = try #require(collection.datasets.first)
        #expect(dataset.sha256 == (try SHA256Digest.hash(fileAt: manifest)))
        #expect(dataset.sampleCount == 8)
        #expect(
            dataset.generatedBy == "rial-bench synth --out \(folder.path) --count 6 --seed 9 --width 160 --height 144 "
                + "--classes real_scene lcd_screen --procedural-only")
        options.jobs = 1
        let serial = try TextureTrainer(options: options).collect(manifests: [manifest])
        #expect(serial.train == collection.train && serial.validation == collection.validation)

        let model = try TextureTrainer(options: options).fit(collection)
        #expect(model.provenance.failedSamples.count == 3)
        #expect(model.provenance.valClassCounts["real_scene"] == 1)
    }

    @Test func unreadableManifestThrows() {
        #expect(throws: TextureTrainingError.self) {
            try TextureTrainer().collect(manifests: ["/nonexistent/manifest.json"])
        }
    }

    // MARK: - Evaluation and source generation

    /// Real scores [0.9, 0.4] against attacks [0.5, 0.1]: 3 of 4 pairs ordered -> 0.75.
    @Test func aucByHand() {
        var evaluation = TextureEvaluation(model: .default, examples: [])
        func outcome(_ label: SampleLabel, _ score: Double) -> TextureEvaluation.SampleOutcome {
            .init(id: "", label: label, score: score, classification: .unknown, isLikelyRecaptured: false)
        }
        evaluation.samples = [
            outcome(.realScene, 0.9), outcome(.realScene, 0.4), outcome(.screen, 0.5),
            outcome(.printedPaper, 0.1),
        ]
        #expect(evaluation.realVersusAttackAUC == 0.75)
        evaluation.samples = [outcome(.realScene, 0.5), outcome(.lcdScreen, 0.5)]
        #expect(evaluation.realVersusAttackAUC == 0.5)
        evaluation.samples = [outcome(.realScene, 0.5)]
        #expect(evaluation.realVersusAttackAUC == nil)
    }

    @Test func swiftSourceEmbedsTheJSONVerbatim() throws {
        let json = try TextureModel.default.canonicalJSON()
        let source = TextureModelSource.swiftSource(json: json, model: .default)
        let open = try #require(source.range(of: "#\"\"\"\n"))
        let close = try #require(source.range(of: "\n\"\"\"#", options: .backwards))
        // An empty line precedes the closing delimiter, so the value keeps the final newline.
        #expect(Data(String(source[open.upperBound..<close.lowerBound]).utf8) == json)
        #expect(source.contains("static let defaultModelJSON"))
        #expect(source.contains("static let defaultModelSHA256 = \"\(SHA256Digest.hash(json))\""))
    }
}
