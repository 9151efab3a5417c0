import RialMedia

/// One thing wrong with a dataset manifest or a file it references.
///
/// `description` is one line a user can act on:
/// `manifest.json: samples[3].label (id "x"): unknown label 'tv' (expected one of ...)`,
/// or for file problems
/// `manifest.json: samples[3].image (id "x"): files/a.jpg: no such file (looked at /abs/files/a.jpg)`.
/// Control characters in it (from ids, paths, values) are escaped
/// (`String.escapingControlCharacters()`).
public struct DatasetProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The manifest file cannot be read.
        case unreadableManifest = "unreadable_manifest"
        /// The manifest is not valid JSON.
        case invalidJSON = "invalid_json"
        /// The `format` key is missing or names another format.
        case wrongFormat = "wrong_format"
        /// A required key is absent.
        case missingKey = "missing_key"
        /// A value has the wrong JSON type (a number where a string belongs).
        case wrongType = "wrong_type"
        /// A string is not one of the allowed values (label, attestation, split, depth format).
        case unknownValue = "unknown_value"
        /// A value has the right type but is out of range or malformed.
        case invalidValue = "invalid_value"
        /// Two samples share an `id`.
        case duplicateID = "duplicate_id"
        /// A referenced file does not exist.
        case missingFile = "missing_file"
        /// A referenced file exists but cannot be read.
        case unreadableFile = "unreadable_file"
        /// A referenced file's SHA-256 differs from the manifest's.
        case hashMismatch = "hash_mismatch"
        /// A depth file's size disagrees with its declared width and height, or its
        /// shape does not fit the image's aspect (`DepthAlignment`).
        case depthSizeMismatch = "depth_size_mismatch"
        /// A depth file cannot be decoded in its declared format.
        case unreadableDepth = "unreadable_depth"
    }

    public var kind: Kind
    /// The manifest as the user named it (e.g. `datasets/real-public/manifest.json`).
    public var manifest: String
    /// Where in the manifest: `samples[3].label`, `format`; empty for the whole document.
    public var jsonPath: String
    /// The sample's `id` when known.
    public var sampleID: String?
    /// The referenced file, as written in the manifest, for file problems.
    public var file: String?
    /// What is wrong.
    public var message: String

    public init(
        _ kind: Kind, manifest: String, jsonPath: String, sampleID: String? = nil,
        file: String? = nil, _ message: String
    ) {
        self.kind = kind
        self.manifest = manifest
        self.jsonPath = jsonPath
        self.sampleID = sampleID
        self.file = file
        self.message = message
    }

    public var description: String {
        var text = manifest + ":"
        if !jsonPath.isEmpty { text += " " + jsonPath }
        if let sampleID { text += " (id \"\(sampleID)\")" }
        if !jsonPath.isEmpty || sampleID != nil { text += ":" }
        if let file { text += " " + file + ":" }
        return (text + " " + message).escapingControlCharacters()
    }

    private enum CodingKeys: String, CodingKey {
        case kind, manifest, message, file
        case jsonPath = "json_path"
        case sampleID = "sample_id"
    }
}

/// A manifest that cannot be used, with every problem found.
///
/// A file that is not JSON (empty, truncated, garbage) gives exactly one problem.
public struct DatasetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [DatasetProblem]

    public init(_ problems: [DatasetProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
