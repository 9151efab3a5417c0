import Foundation
import RialCodecs
import RialDetection

extension ConfigurationFile {
    /// Reads the model file of every learned method section that names one
    /// (`LearnedMethodConfiguration.model`), whether or not the method runs: resolves its
    /// path against `folder`, hashes the bytes (SHA-256), decodes and validates them with
    /// the method's `LearnedModel`, checks them against a `model_id` or `sha256` the
    /// configuration pins, and stores the model (`loadedModel`) with its identity filled in
    /// (`model.model_id`, `model.sha256`).
    ///
    /// - Parameters:
    ///   - folder: the configuration file's folder; relative model paths start there.
    ///   - path: the configuration file, for messages.
    /// - Throws: `ConfigurationFileError` naming the configuration file, the key and the
    ///   model file with one problem: no such file, unreadable, not a model of the method
    ///   (bad JSON, missing key, another feature set, a non-finite weight...), or not the
    ///   pinned model.
    static func loadModels(
        into configuration: inout PipelineConfiguration, folder: String, path: String
    ) throws(ConfigurationFileError) {
        for method in configuration.registry.methods {
            try loadModel(of: method, into: &configuration, folder: folder, path: path)
        }
    }

    private static func loadModel<M: DetectionMethod>(
        of method: M.Type, into configuration: inout PipelineConfiguration, folder: String, path: String
    ) throws(ConfigurationFileError) {
        guard let section = configuration[method] as? any LearnedMethodConfiguration else { return }
        let key = "\(M.identifier).model"
        let loaded = try loaded(section, key: key, folder: folder, path: path)
        if let loaded = loaded as? M.Configuration { configuration[method] = loaded }
    }

    private static func loaded<C: LearnedMethodConfiguration>(
        _ section: C, key: String, folder: String, path: String
    ) throws(ConfigurationFileError) -> C {
        guard var reference = section.model else { return section }
        func failure(_ problem: String) -> ConfigurationFileError {
            ConfigurationFileError(path: path, "key '\(key)': \(problem)")
        }
        do { try reference.validate() } catch {
            throw ConfigurationFileError(path: path, "key '\(key).\(error.key)': \(error.reason)")
        }
        let file = resolve(reference.path, in: folder)
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
            throw failure(
                "\(file): \(!exists ? "no such model file" : isFolder.boolValue ? "is a folder, not a model file" : "cannot be read")"
            )
        }
        let model: C.Model
        do { model = try C.Model(modelFile: data) } catch { throw failure("\(file): \(error.description)") }
        let digest = SHA256Digest.hash(data)
        if let pinned = reference.sha256, pinned.lowercased() != digest {
            throw failure("\(file): SHA-256 is \(digest), the configuration expects \(pinned.lowercased())")
        }
        if let pinned = reference.modelID, pinned != model.modelID {
            throw failure("\(file): model_id is '\(model.modelID)', the configuration expects '\(pinned)'")
        }
        reference.sha256 = digest
        reference.modelID = model.modelID
        var result = section
        result.model = reference
        result.loadedModel = model
        return result
    }

    /// `path` when absolute, else `path` under `folder` (standardised).
    static func resolve(_ path: String, in folder: String) -> String {
        if path.hasPrefix("/") { return path }
        return URL(fileURLWithPath: folder.isEmpty ? "." : folder).appendingPathComponent(path).standardizedFileURL
            .path
    }
}
