import Foundation
import RialMedia

/// A whole `rial-bench-dataset/1` manifest (specs/dataset-format.md).
///
/// Decode with `DatasetLoader` (precise problems, streaming) or `init(json:manifest:)`;
/// encode with `jsonValue` / `serializedData()`. Top-level keys the format does not
/// define are kept in `extensions`. `Codable` goes through the same rules.
public struct DatasetManifest: Sendable, Equatable {
    /// The only format this version reads and writes.
    public static let formatIdentifier = "rial-bench-dataset/1"
    /// Top-level keys the format defines.
    public static let knownKeys: Set<String> = ["format", "name", "description", "samples"]

    public var name: String?
    public var description: String?
    public var samples: [DatasetSample]
    /// Top-level keys not defined by the format, in manifest order.
    public var extensions: JSONObject

    public init(
        name: String? = nil, description: String? = nil, samples: [DatasetSample],
        extensions: JSONObject = [:]
    ) {
        self.name = name
        self.description = description
        self.samples = samples
        self.extensions = extensions
    }

    /// Decodes a parsed manifest strictly: any problem (header or sample, including a
    /// duplicate id) throws, listing all of them. File checks are not done here.
    ///
    /// - Parameter manifest: the manifest's name used in messages.
    public init(json: JSONValue, manifest: String = "manifest.json") throws(DatasetError) {
        let loader = try DatasetLoader(
            json: json, manifestPath: manifest,
            baseDirectory: URL(fileURLWithPath: "."))
        self = try loader.decodeManifest()
    }

    /// The manifest as a JSON object: `format`, `name`, `description`, the extensions,
    /// then `samples` last.
    public var jsonValue: JSONValue {
        var o = JSONObject()
        o["format"] = .string(Self.formatIdentifier)
        if let name { o["name"] = .string(name) }
        if let description { o["description"] = .string(description) }
        for (key, value) in extensions { o[key] = value }
        o["samples"] = .array(samples.map(\.jsonValue))
        return .object(o)
    }

    /// Pretty-printed UTF-8 JSON with a trailing newline, ready to write to `manifest.json`.
    public func serializedData() -> Data {
        jsonValue.serializedData(pretty: true)
    }
}

extension DatasetManifest: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            try self.init(json: json)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

extension DatasetSample: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        let (sample, problems) = DatasetSample.decode(json, jsonPath: "sample", manifest: "<decoder>")
        guard let sample else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: DatasetError(problems).description))
        }
        self = sample
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
