import Foundation
import RialDetection
import RialMedia
import Yams

/// Reads the one configuration file of the pipeline (`PipelineConfiguration`): YAML
/// (JSON is accepted too, being YAML), every key optional, every value checked. The
/// file's tree is laid over the encoded defaults (`ConfigurationSchema.overlayRules`)
/// and the merged tree, which is complete, is decoded.
///
/// Refused, each with a message naming the file and the dotted key:
/// - YAML syntax errors (with line and column), aliases, non-string keys, duplicate keys;
/// - keys the configuration does not have (`depth/2.sample_strid`), at any depth;
/// - values of the wrong type (`decision.threshold: expected a number`);
/// - numbers that are not finite (`.nan`, `.inf`) and `null` (`~`) where it would
///   silently mean "the default" (`valueProblem(in:rules:)`);
/// - values out of range (`PipelineConfiguration.validate()`);
/// - model files of learned methods (`texture/1.model`) that are missing or are not a
///   valid model, relative to the file's folder (`loadModels`).
public enum ConfigurationFile {
    /// Loads and validates the configuration at `path`.
    ///
    /// - Throws: `ConfigurationFileError`.
    public static func load(path: String) throws(ConfigurationFileError) -> PipelineConfiguration {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConfigurationFileError(path: path, exists ? "cannot be read" : "no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationFileError(path: path, "is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses and validates configuration text; `path` names it in errors, and model
    /// files named in it are read relative to `path`'s folder.
    public static func parse(_ text: String, path: String) throws(ConfigurationFileError) -> PipelineConfiguration {
        let tree: JSONValue
        do { tree = try yamlTree(text) } catch let error as ConfigurationFileError {
            throw ConfigurationFileError(path: path, error.message)
        } catch {
            throw ConfigurationFileError(path: path, "is not valid YAML: \(error)")
        }
        if tree == .null { return .standard }
        guard case .object = tree else {
            throw ConfigurationFileError(
                path: path, "the top level must be a mapping of keys, got \(tree.typeDescription)")
        }
        if let unknown = ConfigurationSchema.unknownKeys(in: tree).first {
            throw ConfigurationFileError(path: path, "unknown key '\(unknown.key)'\(unknown.hint)")
        }
        if let problem = valueProblem(in: tree, rules: ConfigurationSchema.overlayRules) {
            throw ConfigurationFileError(path: path, problem)
        }
        var configuration: PipelineConfiguration
        do {
            configuration = try tree.decode(
                PipelineConfiguration.self, overlaying: .standard, rules: ConfigurationSchema.overlayRules)
        } catch let error as DecodingError {
            throw ConfigurationFileError(path: path, describe(error))
        } catch {
            throw ConfigurationFileError(path: path, "\(error)")
        }
        try loadModels(
            into: &configuration, folder: URL(fileURLWithPath: path).deletingLastPathComponent().path, path: path)
        do { try configuration.validate() } catch {
            throw ConfigurationFileError(path: path, "key '\(error.key)': \(error.reason)")
        }
        return configuration
    }

    /// The YAML document as a JSON tree (scalars typed by YAML 1.1 core resolution).
    /// Aliases are refused before the document is composed (`YAMLAliasCheck`): composing
    /// expands them, exponentially in the nesting of a few hundred bytes.
    static func yamlTree(_ text: String) throws -> JSONValue {
        if let alias = YAMLAliasCheck.firstAlias(in: text) {
            throw ConfigurationFileError(
                path: "",
                "YAML aliases are not supported (line \(alias.line), column \(alias.column): *\(alias.anchor));"
                    + " write the value out")
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch let error as YamlError {
            throw ConfigurationFileError(
                path: "", "is not valid YAML: \(error.description.split(separator: "\n").first ?? "")")
        }
        guard let node else { return .null }
        return try convert(node, path: "")
    }

    private static func convert(_ node: Node, path: String) throws -> JSONValue {
        let location = node.mark.map { " (line \($0.line))" } ?? ""
        switch node {
        case .scalar(let scalar):
            switch node.tag.description {
            case "tag:yaml.org,2002:null": return .null
            case "tag:yaml.org,2002:bool": return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case "tag:yaml.org,2002:int": return node.int.map { .number(Double($0)) } ?? .string(scalar.string)
            case "tag:yaml.org,2002:float": return node.float.map(JSONValue.number) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            return .array(try sequence.enumerated().map { try convert($1, path: "\(path)[\($0)]") })
        case .mapping(let mapping):
            var object = JSONObject()
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw ConfigurationFileError(path: "", "a key under '\(path)'\(location) is not a plain string")
                }
                let key = keyScalar.string
                let full = path.isEmpty ? key : "\(path).\(key)"
                guard object[key] == nil else {
                    throw ConfigurationFileError(path: "", "key '\(full)' appears twice\(location)")
                }
                object[key] = try convert(valueNode, path: full)
            }
            return .object(object)
        case .alias:
            throw ConfigurationFileError(path: "", "YAML aliases are not supported (at '\(path)'\(location))")
        }
    }

    /// The first value no key can take, in document order: a number that is not finite
    /// (`.nan`, `.inf`, `-.inf`), and `null` (`~`, `null`, a key with nothing after the
    /// colon) where the overlay would keep the default instead (`JSONOverlayRules.takesNull`):
    /// a written key that silently means "the default" hides a typo or a lost value.
    /// An empty file is still the default configuration.
    static func valueProblem(in tree: JSONValue, rules: JSONOverlayRules) -> String? {
        func walk(_ value: JSONValue, key: String, pattern: [String]) -> String? {
            switch value {
            case .number(let number) where !number.isFinite:
                let written = number.isNaN ? ".nan" : number < 0 ? "-.inf" : ".inf"
                return "key '\(key)': expected a finite number, got \(written)"
            case .null where !rules.takesNull(at: pattern):
                return "key '\(key)': no value (null); write a value, or remove the key to keep the default"
            case .object(let object):
                for (name, child) in object {
                    let childKey = key.isEmpty ? name : "\(key).\(name)"
                    if let problem = walk(child, key: childKey, pattern: pattern + [name]) { return problem }
                }
                return nil
            case .array(let elements):
                for (i, element) in elements.enumerated() {
                    if let problem = walk(element, key: "\(key)[\(i)]", pattern: pattern + ["*"]) { return problem }
                }
                return nil
            default:
                return nil
            }
        }
        return walk(tree, key: "", pattern: [])
    }

    /// `key 'a.b': expected a number` from a decoding error's coding path.
    static func describe(_ error: DecodingError) -> String {
        func key(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .replacingOccurrences(of: ".[", with: "[").trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "key '\(key(context.codingPath))': expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "key '\(key(context.codingPath))': expected \(typeName(type)), got null"
        case .keyNotFound(let missing, let context):
            return "key '\(key(context.codingPath + [missing]))' is required"
        case .dataCorrupted(let context):
            return "key '\(key(context.codingPath))': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is UInt64.Type, is Int64.Type: "an integer"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        default:
            String(describing: type).hasPrefix("Array") ? "a list" : "a mapping or a value of type \(type)"
        }
    }
}

/// A configuration file that cannot be used: `PATH: problem`.
public struct ConfigurationFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
