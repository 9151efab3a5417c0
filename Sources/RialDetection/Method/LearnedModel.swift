import Foundation

/// The weights of a learned detection method, as stored in a model file: what a
/// `LearnedMethodConfiguration` names with its `model` key and the configuration-file
/// reader (RialEval) reads, so a method can score with another model without a rebuild.
///
/// This module does no file I/O (it must stay portable to the phone): the reader reads
/// the file, hashes it and hands the bytes to `init(modelFile:)`.
public protocol LearnedModel: Sendable, Equatable {
    /// Decodes and validates a model file's bytes.
    ///
    /// - Throws: `LearnedModelError` saying what is wrong (not JSON, a missing key, a
    ///   feature set this build does not compute, a non-finite weight, ...), without the
    ///   file's name (the reader adds it).
    init(modelFile: Data) throws(LearnedModelError)
    /// The model's name as results record it (`model_id`), e.g. `texture-2`.
    var modelID: String { get }
}

/// Why a model file cannot be used; `description` says what is wrong.
public struct LearnedModelError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Where a learned method's model comes from: the value of its `model` key.
///
/// A configuration file writes either the path alone (`model: models/texture-3.json`) or
/// the object `{path, model_id, sha256}`. The path is relative to the configuration
/// file's folder (or absolute). The configuration-file reader fills `model_id` and
/// `sha256` from the file it reads, so a resolved configuration (`config print`, a run's
/// `results.json`) names the exact model; when a file writes them, the model file must
/// match them (a tuned configuration pins its model).
public struct ModelFileReference: Sendable, Equatable, Codable {
    /// The model file: relative to the configuration file's folder, or absolute.
    public var path: String
    /// The model's `model_id`. Filled by the reader; when written, the file's must equal it.
    public var modelID: String?
    /// SHA-256 of the model file's bytes, 64 lowercase hex digits. Filled by the reader;
    /// when written, the file's must equal it.
    public var sha256: String?

    public init(path: String, modelID: String? = nil, sha256: String? = nil) {
        self.path = path
        self.modelID = modelID
        self.sha256 = sha256
    }

    enum CodingKeys: String, CodingKey {
        case path
        case modelID = "model_id"
        case sha256
    }

    /// A string (the path) or an object with `path` and optionally `model_id` and `sha256`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let path = try? single.decode(String.self) {
            self.init(path: path)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try container.decode(String.self, forKey: .path),
            modelID: try container.decodeIfPresent(String.self, forKey: .modelID),
            sha256: try container.decodeIfPresent(String.self, forKey: .sha256))
    }

    /// Checks what a configuration can check without reading the file.
    ///
    /// - Throws: `ConfigurationError` (keys relative to the reference) for an empty path,
    ///   an empty `model_id`, or a `sha256` that is not 64 hex digits.
    public func validate() throws(ConfigurationError) {
        guard !path.isEmpty else { throw ConfigurationError(key: CodingKeys.path, "must name a model file") }
        if let modelID, modelID.isEmpty {
            throw ConfigurationError(key: CodingKeys.modelID, "must not be empty")
        }
        if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
            throw ConfigurationError(key: CodingKeys.sha256, "must be 64 hexadecimal digits, got '\(sha256)'")
        }
    }
}

/// The section of a method that scores with a `LearnedModel`: besides its constants, the
/// `model` key naming the model file (absent = the model compiled into the build) and
/// the model read from it.
///
/// The reader (RialEval's configuration file) finds these sections through the method
/// registry, reads each named file and sets `loadedModel`; the method's
/// `init(configuration:)` scores with `loadedModel` when there is one, and refuses a
/// section that names a file nobody read. A future learned method conforms its
/// configuration to this protocol and gets the loading, the checks and the error
/// messages for free.
public protocol LearnedMethodConfiguration: MethodConfiguration {
    associatedtype Model: LearnedModel
    /// The `model` key: the model file, or nil for `compiledInModel`.
    var model: ModelFileReference? { get set }
    /// The model read from `model`'s file; nil until the reader has read it. Not a key of
    /// the configuration file.
    var loadedModel: Model? { get set }
    /// The identity of the model compiled into the build, used when `model` is nil.
    static var compiledInModel: ModelFileReference { get }
}

extension LearnedMethodConfiguration {
    /// The model this section scores with: `model` when a file is named, else
    /// `compiledInModel`.
    public var effectiveModel: ModelFileReference { model ?? Self.compiledInModel }

    /// The model a method built from this section scores with, and its SHA-256 (64
    /// lowercase hex digits): `loadedModel` when `model` names a file, else `compiledIn`.
    ///
    /// - Throws: `ConfigurationError` with key `key` when `model` names a file that was
    ///   not read (`loadedModel` is nil, e.g. a configuration decoded from a run's
    ///   `results.json`) or whose SHA-256 is unknown.
    public func resolvedModel(compiledIn: Model, compiledInSHA256: String, key: some CodingKey)
        throws(ConfigurationError) -> (model: Model, sha256: String)
    {
        guard let model else { return (compiledIn, compiledInSHA256) }
        guard let loadedModel, let sha256 = model.sha256 else {
            throw ConfigurationError(
                key: key,
                "the model file '\(model.path)' has not been read; load the configuration with its file "
                    + "reader (rial-bench --config FILE)")
        }
        return (loadedModel, sha256.lowercased())
    }

    /// Checks the `model` key and, once read, that `loadedModel` is the one it names.
    ///
    /// - Throws: `ConfigurationError` with key `model` or `model.KEY`.
    public func validateModel(key: some CodingKey) throws(ConfigurationError) {
        guard let model else { return }
        do { try model.validate() } catch { throw error.prefixed(by: key) }
        if let loadedModel, let id = model.modelID, id != loadedModel.modelID {
            throw ConfigurationError(
                key: key, "\(model.path): model_id is '\(loadedModel.modelID)', the configuration expects '\(id)'")
        }
    }
}

extension PipelineConfiguration {
    /// The model each learned method scores with (`effectiveModel`), by method
    /// identifier, for the methods that run.
    public var learnedModels: [MethodIdentifier: ModelFileReference] {
        var result: [MethodIdentifier: ModelFileReference] = [:]
        func add<M: DetectionMethod>(_ method: M.Type) {
            if let section = self[method] as? any LearnedMethodConfiguration {
                result[M.identifier] = section.effectiveModel
            }
        }
        for method in registry.methods where settings.methods.contains(method.identifier) { add(method) }
        return result
    }

    /// True when `identifier` is a learned method whose section names no model file (it
    /// scores with the model compiled into the build).
    public func usesCompiledInModel(_ identifier: MethodIdentifier) -> Bool {
        func check<M: DetectionMethod>(_ method: M.Type) -> Bool {
            (self[method] as? any LearnedMethodConfiguration).map { $0.model == nil } ?? false
        }
        return registry.method(identifier).map { check($0) } ?? false
    }

    /// Why results computed under `original` cannot be re-aggregated under this
    /// configuration: a learned method that runs in both scores with another model (by
    /// SHA-256; a model whose hash is unknown counts as different from any other file).
    /// Nil when every model is the same. `rial-bench rescore` refuses such a change,
    /// since it does not re-run the methods.
    public func learnedModelChange(from original: PipelineConfiguration) -> String? {
        let before = original.learnedModels, after = learnedModels
        for identifier in after.keys.sorted(by: { $0.description < $1.description }) {
            guard let old = before[identifier], let new = after[identifier] else { continue }
            if old.sha256 == nil || old.sha256 != new.sha256 {
                return
                    "\(identifier) would score with model \(new.modelID ?? new.path) (sha256 \(new.sha256 ?? "unknown")) "
                    + "but the run used \(old.modelID ?? old.path) (sha256 \(old.sha256 ?? "unknown")); "
                    + "re-run the methods with `rial-bench run` instead"
            }
        }
        return nil
    }
}
