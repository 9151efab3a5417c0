import Foundation
import RialCodecs
import RialTestSupport
import Testing

@testable import RialDetection

/// Hand-built texture models whose outputs follow from the definitions.
enum TextureModels {
    static let emptyProvenance = TextureModelProvenance(
        tool: "test", algorithm: "hand-built", datasets: [], trainSplits: ["train"], valSplits: [], seed: 0,
        hyperparameters: .init(
            l2: 0, standardisedClip: 6, maxIterations: 1, gradientTolerance: 0, iterations: 0,
            finalLoss: 0),
        trainClassCounts: [:], valClassCounts: [:], skippedLabels: [:], failedSamples: [],
        training: .init(sampleCount: 0, accuracy: nil, confusionMatrix: [], logLoss: nil), validation: nil)

    /// Means 0, stds 1, zero weights except `weight` on feature `feature` for the second class.
    static func model(
        classes: [TextureClass], biases: [Double], feature: Int = 0, weight: Double = 0,
        clip: Double = 6
    ) -> TextureModel {
        let d = TextureFeatures.count
        var weights = [Double](repeating: 0, count: classes.count * d)
        weights[d + feature] = weight
        return TextureModel(
            modelID: "hand", classes: classes, featureMeans: [Double](repeating: 0, count: d),
            featureStds: [Double](repeating: 1, count: d), standardisedClip: clip, weights: weights,
            biases: biases, provenance: emptyProvenance)
    }
}

@Suite struct TextureModelTests {
    static let modelFile = Fixtures.packageRoot.appendingPathComponent("models/texture-2.json")

    /// The embedded default and the committed file are the same bytes.
    @Test func embeddedModelMatchesCommittedFile() throws {
        let file = try Data(contentsOf: Self.modelFile)
        #expect(Data(TextureModel.defaultModelJSON.utf8) == file)
    }

    @Test func defaultModelDecodesAndValidates() throws {
        // `init(jsonData:)` validates: decoding without a throw is the validation.
        let model = try TextureModel(jsonData: Data(TextureModel.defaultModelJSON.utf8))
        #expect(model.modelID == "texture-2")
        #expect(model.classes == [.realScene, .lcdScreen, .oledScreen, .printedPaper])
        #expect(model.featureNames == TextureFeatures.names)
        // Canonical form: re-encoding gives the file back, so the digest is the file's.
        let file = try Data(contentsOf: Self.modelFile)
        #expect(try model.canonicalJSON() == file)
        #expect(TextureModel.defaultModelSHA256 == SHA256Digest.hash(file))
        #expect(TextureAnalyzer().modelSHA256 == SHA256Digest.hash(file))
        // Provenance of the committed model: validation on held-out synthetic captures.
        let validation = try #require(model.provenance.validation)
        #expect(validation.confusionMatrix.count == 4)
        #expect(validation.confusionMatrix.map { $0.reduce(0, +) }.reduce(0, +) == validation.sampleCount)
        #expect(model.provenance.datasets.first?.generatedBy?.contains("--seed 7") == true)
    }

    @Test func softmaxByHand() {
        let p = TextureModel.softmax([0, log(3)])
        #expect(abs(p[0] - 0.25) < 1e-12 && abs(p[1] - 0.75) < 1e-12)
        // Large logits do not overflow.
        let q = TextureModel.softmax([1000, 1000 + log(4)])
        #expect(abs(q[1] - 0.8) < 1e-12)
    }

    /// logits = [0, w z]: z = ln 3 with w = 1 gives [1/4, 3/4]; a value far out is clipped
    /// to ±6 standard deviations: p = 1 / (1 + e^-6).
    @Test func probabilitiesByHand() throws {
        let model = TextureModels.model(classes: [.realScene, .lcdScreen], biases: [0, 0], feature: 5, weight: 1)
        var x = [Double](repeating: 0, count: TextureFeatures.count)
        x[5] = log(3)
        let p = try #require(model.probabilities(x))
        #expect(abs(p[0] - 0.25) < 1e-12 && abs(p[1] - 0.75) < 1e-12)
        x[5] = 100
        let clipped = try #require(model.probabilities(x))
        #expect(abs(clipped[1] - 1 / (1 + exp(-6))) < 1e-12)
        #expect(abs(clipped.reduce(0, +) - 1) < 1e-12)
        #expect(model.probabilities([1, 2, 3]) == nil)
    }

    // MARK: - Decoding errors

    /// The default model's JSON object, to mutate.
    private func object() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(TextureModel.defaultModelJSON.utf8)) as? [String: Any])
    }

    private func decode(_ object: [String: Any]) throws -> TextureModel {
        try TextureModel(jsonData: JSONSerialization.data(withJSONObject: object))
    }

    private func decodingError(_ mutate: (inout [String: Any]) -> Void) throws -> TextureModelError? {
        var o = try object()
        mutate(&o)
        do {
            _ = try decode(o)
            return nil
        } catch let error as TextureModelError {
            return error
        }
    }

    @Test func garbageIsMalformed() {
        for bytes in [Data(), Data("{".utf8), Data("[1, 2]".utf8), Data("not json".utf8)] {
            #expect(throws: TextureModelError.self) { try TextureModel(jsonData: bytes) }
        }
        let truncated = Data(TextureModel.defaultModelJSON.utf8).prefix(500)
        #expect {
            try TextureModel(jsonData: truncated)
        } throws: { error in
            if case .malformed = error as? TextureModelError { return true } else { return false }
        }
    }

    @Test func missingKeyIsNamed() throws {
        let error = try decodingError { $0.removeValue(forKey: "feature_stds") }
        guard case .malformed(let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(reason.contains("feature_stds"))
    }

    @Test func wrongFeatureSetIsRefused() throws {
        let version = try decodingError { $0["feature_set_version"] = 2 }
        guard case .featureSetMismatch(let reason)? = version else {
            Issue.record("got \(String(describing: version))")
            return
        }
        #expect(reason.contains("version 2"))

        let renamed = try decodingError { o in
            var names = o["feature_names"] as! [String]
            names[3] = "lbp_r9_3"
            o["feature_names"] = names
        }
        guard case .featureSetMismatch(let why)? = renamed else {
            Issue.record("got \(String(describing: renamed))")
            return
        }
        #expect(why.contains("feature_names[3]"))

        let shorter = try decodingError { o in o["feature_names"] = Array((o["feature_names"] as! [String]).dropLast())
        }
        guard case .featureSetMismatch? = shorter else {
            Issue.record("got \(String(describing: shorter))")
            return
        }
    }

    @Test func wrongShapesAreRefused() throws {
        let weights = try decodingError { o in o["weights"] = Array((o["weights"] as! [Double]).dropLast()) }
        guard case .shapeMismatch(let reason)? = weights else {
            Issue.record("got \(String(describing: weights))")
            return
        }
        #expect(reason.contains("weights"))
        let biases = try decodingError { o in o["biases"] = [0.0, 1.0] }
        guard case .shapeMismatch? = biases else {
            Issue.record("got \(String(describing: biases))")
            return
        }
    }

    @Test func badValuesAreRefused() throws {
        let std = try decodingError { o in
            var stds = o["feature_stds"] as! [Double]
            stds[7] = 0
            o["feature_stds"] = stds
        }
        guard case .invalidValue(let reason)? = std else {
            Issue.record("got \(String(describing: std))")
            return
        }
        #expect(reason.contains("feature_stds[7]"))
        let clip = try decodingError { $0["standardised_clip"] = -1 }
        guard case .invalidValue? = clip else {
            Issue.record("got \(String(describing: clip))")
            return
        }
        let kind = try decodingError { $0["classifier_kind"] = "mlp" }
        guard case .invalidValue? = kind else {
            Issue.record("got \(String(describing: kind))")
            return
        }
        let format = try decodingError { $0["format"] = "rial-texture-model/9" }
        #expect(format == .unsupportedFormat("rial-texture-model/9"))
    }

    @Test func badClassesAreRefused() throws {
        let unknown = try decodingError { $0["classes"] = ["real_scene", "unknown", "oled_screen", "printed_paper"] }
        guard case .invalidClasses? = unknown else {
            Issue.record("got \(String(describing: unknown))")
            return
        }
        let duplicate = try decodingError {
            $0["classes"] = ["real_scene", "real_scene", "oled_screen", "printed_paper"]
        }
        guard case .invalidClasses? = duplicate else {
            Issue.record("got \(String(describing: duplicate))")
            return
        }
        let noReal = try decodingError { $0["classes"] = ["lcd_screen", "oled_screen", "printed_paper"] }
        guard case .invalidClasses(let reason)? = noReal else {
            Issue.record("got \(String(describing: noReal))")
            return
        }
        #expect(reason.contains("real_scene"))
        let notAClass = try decodingError { $0["classes"] = ["real_scene", "tv", "oled_screen", "printed_paper"] }
        guard case .malformed? = notAClass else {
            Issue.record("got \(String(describing: notAClass))")
            return
        }
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: TextureModelError.unreadable(path: "/nonexistent/model.json", reason: "no such file")) {
            try TextureModel(contentsOf: "/nonexistent/model.json")
        }
    }
}
