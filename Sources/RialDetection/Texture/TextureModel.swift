import Foundation

/// The trained weights of `texture/1`: which features, how they are standardised, the
/// classifier, and where it came from. Stored as JSON (`rial-texture-model/1`, keys
/// snake_case); the committed default is `TextureModel.default` (`models/texture-2.json`).
///
/// Prediction: `z_j = clamp((x_j - mean_j) / std_j, ±standardised_clip)`, logits
/// `a_k = bias_k + Σ_j weights[k d + j] z_j` (`d` features, classes in `classes` order),
/// probabilities `p = softmax(a)` (computed with the maximum logit subtracted). The clip
/// bounds how far an input unlike the training data can push a logit.
///
/// Loading validates everything `validate()` checks, so a model for another feature set
/// or with inconsistent shapes is a `TextureModelError`, never a crash.
public struct TextureModel: Sendable, Equatable, Codable {
    /// The `format` value this version reads and writes.
    public static let formatIdentifier = "rial-texture-model/1"
    /// The only classifier kind of this format.
    public static let multinomialLogistic = "multinomial_logistic"

    /// `rial-texture-model/1`.
    public var format: String
    /// A short name, e.g. `texture-2`.
    public var modelID: String
    /// `TextureFeatures.version` at training time.
    public var featureSetVersion: Int
    /// `TextureFeatures.names` at training time, in vector order.
    public var featureNames: [String]
    /// The classes of the classifier's outputs, in order (never `unknown`).
    public var classes: [TextureClass]
    /// Per-feature mean of the training samples.
    public var featureMeans: [Double]
    /// Per-feature population standard deviation of the training samples (> 0; a
    /// constant feature is stored with 1).
    public var featureStds: [Double]
    /// Standardised values are clamped to `±standardisedClip` (> 0).
    public var standardisedClip: Double
    /// `multinomial_logistic`.
    public var classifierKind: String
    /// `classes.count x featureNames.count`, row-major by class: `weights[k * d + j]`.
    public var weights: [Double]
    /// One per class.
    public var biases: [Double]
    /// How the model was trained and how it did on validation data.
    public var provenance: TextureModelProvenance

    public init(
        modelID: String, featureNames: [String] = TextureFeatures.names,
        featureSetVersion: Int = TextureFeatures.version, classes: [TextureClass],
        featureMeans: [Double], featureStds: [Double], standardisedClip: Double,
        weights: [Double], biases: [Double], provenance: TextureModelProvenance
    ) {
        format = Self.formatIdentifier
        self.modelID = modelID
        self.featureSetVersion = featureSetVersion
        self.featureNames = featureNames
        self.classes = classes
        self.featureMeans = featureMeans
        self.featureStds = featureStds
        self.standardisedClip = standardisedClip
        classifierKind = Self.multinomialLogistic
        self.weights = weights
        self.biases = biases
        self.provenance = provenance
    }

    enum CodingKeys: String, CodingKey {
        case format
        case modelID = "model_id"
        case featureSetVersion = "feature_set_version"
        case featureNames = "feature_names"
        case classes
        case featureMeans = "feature_means"
        case featureStds = "feature_stds"
        case standardisedClip = "standardised_clip"
        case classifierKind = "classifier_kind"
        case weights, biases, provenance
    }

    /// Decodes and validates a model file's bytes.
    ///
    /// - Throws: `TextureModelError` `.malformed` when the bytes are not a model object
    ///   (with the decoder's reason and key path), else what `validate()` throws.
    public init(jsonData: Data) throws(TextureModelError) {
        do {
            self = try JSONDecoder().decode(TextureModel.self, from: jsonData)
        } catch let error as DecodingError {
            throw .malformed(Self.describe(error))
        } catch {
            throw .malformed("\(error)")
        }
        try validate()
    }

    /// Reads, decodes and validates the model file at `path`.
    ///
    /// - Throws: `TextureModelError.unreadable` naming `path`, or what `init(jsonData:)` throws.
    public init(contentsOf path: String) throws(TextureModelError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(
                path: path,
                reason: FileManager.default.fileExists(atPath: path)
                    ? "cannot read: \(error.localizedDescription)" : "no such file")
        }
        try self.init(jsonData: data)
    }

    /// Checks that the model can score `TextureFeatures` vectors of this build.
    ///
    /// - Throws: `TextureModelError` for the first problem: wrong format or classifier
    ///   kind, another feature set version or list of names, duplicate, missing or
    ///   `unknown` classes, array lengths that do not match, non-finite numbers, a
    ///   standard deviation <= 0 or a clip <= 0.
    public func validate() throws(TextureModelError) {
        guard format == Self.formatIdentifier else { throw .unsupportedFormat(format) }
        guard classifierKind == Self.multinomialLogistic else {
            throw .invalidValue(
                "classifier_kind '\(classifierKind)' is not supported (expected \(Self.multinomialLogistic))")
        }
        guard let expected = Self.featureNames(ofVersion: featureSetVersion) else {
            throw .featureSetMismatch(
                "model was trained on feature set version \(featureSetVersion); "
                    + "this build computes versions \(TextureFeatures.version) (texture/1), "
                    + "\(Texture2Features.version) (texture/2), \(Texture3Features.version) (texture/3) and "
                    + "\(Texture4Features.version) (texture/4)")
        }
        guard featureNames.count == expected.count else {
            throw .featureSetMismatch(
                "model has \(featureNames.count) feature names; feature set version "
                    + "\(featureSetVersion) has \(expected.count)")
        }
        if let i = featureNames.indices.first(where: { featureNames[$0] != expected[$0] }) {
            throw .featureSetMismatch("feature_names[\(i)] is '\(featureNames[i])', expected '\(expected[i])'")
        }
        guard classes.count >= 2 else { throw .invalidClasses("need at least 2 classes, got \(classes.count)") }
        guard Set(classes).count == classes.count else {
            throw .invalidClasses("classes are not unique: \(classes.map(\.rawValue))")
        }
        guard !classes.contains(.unknown) else { throw .invalidClasses("'unknown' cannot be a model class") }
        guard classes.contains(.realScene) else { throw .invalidClasses("classes must include real_scene (the score)") }
        let d = featureNames.count, k = classes.count
        let shapes: [(String, Int, Int)] = [
            ("feature_means", featureMeans.count, d), ("feature_stds", featureStds.count, d),
            ("weights", weights.count, k * d), ("biases", biases.count, k),
        ]
        for (key, count, wanted) in shapes where count != wanted {
            throw .shapeMismatch("\(key) has \(count) values, expected \(wanted) (\(k) classes x \(d) features)")
        }
        for (key, values) in [
            ("feature_means", featureMeans), ("feature_stds", featureStds),
            ("weights", weights), ("biases", biases),
        ] {
            if let i = values.firstIndex(where: { !$0.isFinite }) {
                throw .invalidValue("\(key)[\(i)] is not a finite number")
            }
        }
        if let i = featureStds.firstIndex(where: { $0 <= 0 }) {
            throw .invalidValue("feature_stds[\(i)] (\(featureNames[i])) must be > 0, got \(featureStds[i])")
        }
        guard standardisedClip.isFinite, standardisedClip > 0 else {
            throw .invalidValue("standardised_clip must be finite and > 0, got \(standardisedClip)")
        }
    }

    /// The feature names of feature set `version` in this build: `TextureFeatures.names`
    /// (version 1, `texture/1`) or `Texture2Features.names` (version 2, `texture/2`);
    /// nil for any other version.
    public static func featureNames(ofVersion version: Int) -> [String]? {
        switch version {
        case TextureFeatures.version: TextureFeatures.names
        case Texture2Features.version: Texture2Features.names
        case Texture3Features.version: Texture3Features.names
        case Texture4Features.version: Texture4Features.names
        default: nil
        }
    }

    /// `validate()`, and the model must be for feature set `version` (the method that
    /// loads it computes only that one).
    ///
    /// - Throws: `TextureModelError.featureSetMismatch` for another version, else what
    ///   `validate()` throws.
    public func validate(featureSetVersion version: Int) throws(TextureModelError) {
        guard featureSetVersion == version else {
            throw .featureSetMismatch(
                "model was trained on feature set version \(featureSetVersion) "
                    + "(texture/\(featureSetVersion)); this method needs version \(version)")
        }
        try validate()
    }

    /// Class probabilities (in `classes` order, summing to 1) for one feature vector;
    /// nil when `features` does not have one value per feature name.
    /// - Complexity: O(classes x features).
    public func probabilities(_ features: [Double]) -> [Double]? {
        let d = featureNames.count
        guard features.count == d else { return nil }
        var z = [Double](repeating: 0, count: d)
        for j in 0..<d {
            let v = (features[j] - featureMeans[j]) / featureStds[j]
            z[j] = Swift.min(standardisedClip, Swift.max(-standardisedClip, v.isNaN ? 0 : v))
        }
        return Self.softmax(logits(standardised: z))
    }

    /// `bias_k + Σ_j weights[k d + j] z_j` for standardised features `z`.
    func logits(standardised z: [Double]) -> [Double] {
        let d = featureNames.count
        return (0..<classes.count).map { k in
            var a = biases[k]
            for j in 0..<d { a += weights[k * d + j] * z[j] }
            return a
        }
    }

    /// `exp(a_k - max a) / Σ exp(a_i - max a)`.
    public static func softmax(_ logits: [Double]) -> [Double] {
        let top = logits.max() ?? 0
        let e = logits.map { exp($0 - top) }
        let total = e.reduce(0, +)
        return e.map { $0 / total }
    }

    /// The canonical file form: pretty-printed JSON with sorted keys, unescaped slashes,
    /// and a final newline. `rial-bench train texture` writes exactly these bytes, and
    /// their SHA-256 is the model's digest (`TextureAnalyzer.modelSHA256`), so a model
    /// has one identity wherever it is stored.
    ///
    /// - Throws: `TextureModelError.invalidValue` when a number cannot be written as
    ///   JSON (NaN or infinity).
    public func canonicalJSON() throws(TextureModelError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(self)
            data.append(UInt8(ascii: "\n"))
            return data
        } catch {
            throw .invalidValue("cannot encode the model as JSON: \(error)")
        }
    }

    /// The committed default model (`models/texture-2.json`, embedded in
    /// `TextureModel+Default.swift`). A test decodes and validates it, so this cannot fail.
    ///
    /// Trained on synthetic captures held out from the default evaluation set (seed
    /// 20261121): a set generated (not committed) by generator `rial-synth/5` with
    /// `rial-bench synth --out /tmp/texture-train --count 600 --seed 7 --width 1600 --height 1200`,
    /// then `rial-bench train texture --dataset /tmp/texture-train/manifest.json
    /// --out models/texture-2.json --seed 7 --swift-out Sources/RialDetection/Texture/TextureModel+Default.swift`
    /// (train split to fit, val split to validate; see `provenance`).
    public static let `default`: TextureModel = {
        do throws(TextureModelError) {
            return try TextureModel(jsonData: Data(defaultModelJSON.utf8))
        } catch {
            preconditionFailure("the embedded texture model is invalid: \(error.description)")
        }
    }()

    /// The decoder's message with the key path, e.g. `weights[3]: expected a number`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
                .joined()
            return keys.isEmpty ? "" : String(keys.drop(while: { $0 == "." })) + ": "
        }
        switch error {
        case .keyNotFound(let key, let context):
            return path(context) + "missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            return path(context) + "expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return path(context) + "expected \(type), found null"
        case .dataCorrupted(let context):
            return path(context) + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

/// Why a texture model cannot be used; the description says what is wrong.
public enum TextureModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model file cannot be read.
    case unreadable(path: String, reason: String)
    /// Not JSON, or a key is missing or has the wrong type.
    case malformed(String)
    /// `format` is not `rial-texture-model/1`.
    case unsupportedFormat(String)
    /// Trained on another feature set (version or names).
    case featureSetMismatch(String)
    /// Array lengths disagree with the numbers of classes and features.
    case shapeMismatch(String)
    /// The class list is unusable.
    case invalidClasses(String)
    /// A number is out of range or not finite.
    case invalidValue(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .malformed(let reason): "not a texture model: \(reason)"
        case .unsupportedFormat(let format):
            "unsupported model format '\(format)' (expected \(TextureModel.formatIdentifier))"
        case .featureSetMismatch(let reason): "feature set mismatch: \(reason); retrain with `rial-bench train texture`"
        case .shapeMismatch(let reason): "inconsistent model: \(reason)"
        case .invalidClasses(let reason): "invalid classes: \(reason)"
        case .invalidValue(let reason): "invalid model value: \(reason)"
        }
    }
}
