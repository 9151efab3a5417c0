import Foundation
import RialCodecs
import RialDetection
import RialMedia
import RialSynth
import RialTestSupport
import Testing

@testable import RialEval

/// `texture/1.model`: a model file named in the configuration, read by the
/// configuration-file reader relative to the file's folder, and scored with at run time.
@Suite struct LearnedModelConfigurationTests {
    /// The committed default model file (the bytes embedded in RialDetection).
    static let defaultModelFile = EvalFixtures.packageRoot.appendingPathComponent("models/texture-2.json")

    static let image = SynthGenerator.generate(index: 3, seed: 5, class: .realScene, width: 320, height: 240).image

    /// `texture/1` on `image` under `configuration`, untimed.
    static func textureResult(_ configuration: PipelineConfiguration) throws -> TextureAnalyzer.Result {
        var result = try TextureAnalyzer(configuration: configuration[TextureAnalyzer.self]).analyze(image)
        result.analysisTimeMs = 0
        return result
    }

    /// Writes `model` (bytes) as `models/NAME` and a configuration naming it as
    /// `configs/c.yaml` (`../models/NAME`) in a fresh folder; returns the configuration's path.
    static func configuration(withModel model: Data, name: String = "m.json") throws
        -> (folder: URL, config: String)
    {
        let folder = try EvalFixtures.makeTemporaryFolder("learned-model")
        try EvalFixtures.write(model, to: "models/\(name)", in: folder)
        let yaml = "texture/1:\n  model: ../models/\(name)\n"
        try EvalFixtures.write(Data(yaml.utf8), to: "configs/c.yaml", in: folder)
        return (folder, folder.appendingPathComponent("configs/c.yaml").path)
    }

    @Test func sameBytesAsTheEmbeddedDefaultGiveTheSameResult() throws {
        let bytes = try Data(contentsOf: Self.defaultModelFile)
        let (folder, config) = try Self.configuration(withModel: bytes)
        defer { EvalFixtures.removeTemporary(folder) }
        let loaded = try ConfigurationFile.load(path: config)
        let reference = try #require(loaded[TextureAnalyzer.self].model)
        #expect(reference.path == "../models/m.json")
        #expect(reference.modelID == "texture-2")
        #expect(reference.sha256 == SHA256Digest.hash(bytes))

        let fromFile = try Self.textureResult(loaded)
        let embedded = try Self.textureResult(.standard)
        #expect(fromFile.status == .completed)
        #expect(fromFile == embedded)
        #expect(fromFile.modelSHA256 == SHA256Digest.hash(bytes))
        // Same model, same hash: a rescore may keep the results.
        #expect(loaded.learnedModelChange(from: .standard) == nil)
    }

    /// Adding δ to the real_scene bias adds δ to its logit only, so
    /// p' = p e^δ / (p e^δ + 1 - p) (softmax); with δ = ln 3, p' = 3p / (3p + 1 - p).
    @Test func aDifferentModelFileChangesTheScore() throws {
        var model = TextureModel.default
        let real = try #require(model.classes.firstIndex(of: .realScene))
        model.biases[real] += log(3)
        model.modelID = "texture-shifted"
        let bytes = try model.canonicalJSON()
        let (folder, config) = try Self.configuration(withModel: bytes)
        defer { EvalFixtures.removeTemporary(folder) }
        let loaded = try ConfigurationFile.load(path: config)

        let shifted = try Self.textureResult(loaded)
        let p = try #require(try Self.textureResult(.standard).score)
        let expected = 3 * p / (3 * p + 1 - p)
        #expect(abs(try #require(shifted.score) - expected) < 1e-12)
        #expect(shifted.modelID == "texture-shifted")
        #expect(shifted.modelSHA256 == SHA256Digest.hash(bytes))
        let change = try #require(loaded.learnedModelChange(from: .standard))
        #expect(change.contains("texture/1") && change.contains("texture-shifted") && change.contains("texture-2"))
    }

    /// The run's record of the model: the resolved configuration names it, and its hash
    /// changes with the model; `config print` of it reads back to the same value.
    @Test func resolvedConfigurationNamesTheModelAndPrintsBack() throws {
        var model = TextureModel.default
        model.modelID = "texture-other"
        let (folder, config) = try Self.configuration(withModel: try model.canonicalJSON())
        defer { EvalFixtures.removeTemporary(folder) }
        let loaded = try ConfigurationFile.load(path: config)
        let tree = ConfigurationSchema.tree(of: loaded)
        #expect(tree["texture/1"]?["model"]?["model_id"]?.stringValue == "texture-other")
        #expect(RunResults.configurationHash(loaded) != RunResults.configurationHash(.standard))
        #expect(ConfigurationSchema.tree(of: PipelineConfiguration.standard)["texture/1"]?["model"] == nil)

        let printed = ConfigurationPrinter.yaml(loaded)
        let again = try ConfigurationFile.parse(printed, path: config)
        #expect(again == loaded)
        #expect(
            MethodologyReport.notes(for: loaded).first { $0.key == "texture/1" }?.signal.contains("texture-other")
                == true)
    }

    /// A configuration decoded without its reader (a run's results.json) names a model
    /// nobody read: the analyzer refuses it rather than score with the default.
    @Test func anUnreadModelIsRefusedByTheAnalyzer() throws {
        var configuration = PipelineConfiguration.standard
        configuration[TextureAnalyzer.self].model = ModelFileReference(path: "x.json")
        #expect(throws: ConfigurationError.self) { try CaptureAnalyzer(configuration: configuration) }
        do {
            _ = try TextureAnalyzer(configuration: configuration[TextureAnalyzer.self])
            Issue.record("an unread model was accepted")
        } catch {
            #expect(error.key == "model" && error.reason.contains("x.json"))
        }
    }

    /// One bad model file each; the message is one line naming the configuration file,
    /// the key, the model file and the problem.
    @Test(arguments: [
        ("missing", "no such model file"),
        ("not-json", "not a texture model"),
        ("truncated", "not a texture model"),
        // JSON has no NaN or infinity: such a weight is not JSON (validate() refuses
        // non-finite values of models built in memory).
        ("nan-weight", "not a texture model: The given data was not valid JSON"),
        ("infinite-weight", "not a texture model: The given data was not valid JSON"),
        ("feature-count", "feature set mismatch: model has 81 feature names"),
        ("means-count", "feature_means has 81 values"),
        ("pinned-sha", "the configuration expects abab"),
        ("pinned-id", "the configuration expects 'texture-9'"),
        ("folder", "is a folder"),
    ])
    func badModelFilesGiveOneClearMessage(kind: String, problem: String) throws {
        let good = try Data(contentsOf: Self.defaultModelFile)
        let text = String(decoding: good, as: UTF8.self)
        var model = TextureModel.default
        var bytes = good
        switch kind {
        case "not-json": bytes = Data("this is not json".utf8)
        case "truncated": bytes = good.prefix(good.count / 2)
        case "nan-weight", "infinite-weight":
            // The first weight's text replaced by a non-finite number.
            let weights = try #require(text.range(of: "\"weights\" : [\n    "))
            let end = try #require(text[weights.upperBound...].firstIndex(of: ","))
            bytes = Data(
                (text[..<weights.upperBound] + (kind == "nan-weight" ? "NaN" : "1e999") + text[end...]).utf8)
        case "feature-count":
            model.featureNames.removeLast()
            bytes = try JSONEncoder().encode(model)
        case "means-count":
            model.featureMeans.removeLast()
            bytes = try JSONEncoder().encode(model)
        default: break
        }
        let (folder, config) = try Self.configuration(withModel: bytes)
        defer { EvalFixtures.removeTemporary(folder) }
        let modelPath = folder.appendingPathComponent("models/m.json").path
        switch kind {
        case "missing":
            try FileManager.default.removeItem(atPath: modelPath)
        case "pinned-sha":
            let yaml = "texture/1:\n  model: {path: ../models/m.json, sha256: \(String(repeating: "ab", count: 32))}\n"
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: config))
        case "pinned-id":
            let yaml = "texture/1:\n  model: {path: ../models/m.json, model_id: texture-9}\n"
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: config))
        case "folder":
            try FileManager.default.removeItem(atPath: modelPath)
            try FileManager.default.createDirectory(atPath: modelPath, withIntermediateDirectories: true)
        default: break
        }
        var message = ""
        do { _ = try ConfigurationFile.load(path: config) } catch { message = error.description }
        #expect(message.hasPrefix("\(config): key 'texture/1.model': \(modelPath): "), "\(message)")
        #expect(message.contains(problem), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
    }

    @Test(arguments: [
        ("texture/1:\n  model: ~\n", "texture/1.model': no value"),
        ("texture/1:\n  model: ''\n", "texture/1.model.path': must name a model file"),
        ("texture/1:\n  model: {path: a.json, sha256: xyz}\n", "texture/1.model.sha256': must be 64 hexadecimal"),
        ("texture/1:\n  model: {path: a.json, model_idd: t}\n", "unknown key 'texture/1.model.model_idd'"),
        ("texture/1:\n  model: [a.json]\n", "texture/1.model"),
    ])
    func badModelKeysAreRefusedBeforeReading(yaml: String, problem: String) {
        var message = ""
        do { _ = try ConfigurationFile.parse(yaml, path: "/nonexistent/c.yaml") } catch { message = error.description }
        #expect(message.hasPrefix("/nonexistent/c.yaml: "), "\(message)")
        #expect(message.contains(problem), "\(message)")
    }
}
