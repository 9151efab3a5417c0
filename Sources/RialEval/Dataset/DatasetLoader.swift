import Foundation
import RialMedia

/// Reads a `rial-bench-dataset/1` manifest and hands out its samples one at a time.
///
/// Three steps, each reporting every problem instead of stopping at the first:
/// 1. `init(contentsOf:)` reads and parses the JSON. Only an unreadable file, text that
///    is not JSON, or a document that is not an object throws (one `DatasetError` with
///    one problem). Header problems (`format`, `name`, `samples`) are collected in
///    `headerProblems`.
/// 2. `entries` decodes samples lazily, one per iteration: each entry is a sample or a
///    `SampleFailure` (bad fields, or an `id` already used by an earlier sample).
/// 3. `resolve(_:index:checks:)` turns a sample's paths into absolute paths and checks
///    its files (existence, SHA-256, depth size), again as a value, never a throw.
///
/// `validate(checks:)` runs all three and returns every problem; `decodeManifest()`
/// is the strict all-or-nothing decode for commands that rewrite a manifest.
/// The JSON text is checked once as a whole (JSON needs it), but the sample objects are
/// not kept: only where each lies in the file. A sample is read back and decoded when
/// it is asked for, so memory does not grow with the manifest's per-sample detail (a
/// synthetic manifest carries every generation parameter), and a run can stream samples
/// and record failures.
public struct DatasetLoader: Sendable {
    /// The manifest as named by the caller; every problem starts with it.
    public let manifestPath: String
    /// The folder relative paths are resolved against (absolute, standardized).
    public let baseDirectory: URL
    /// The `name` key.
    public let name: String?
    /// The `description` key.
    public let description: String?
    /// Top-level keys the format does not define.
    public let extensions: JSONObject
    /// Problems with `format`, `name`, `description` or `samples` (missing, not an array,
    /// or empty: a manifest without samples has nothing to evaluate).
    public let headerProblems: [DatasetProblem]
    let samples: DatasetLoader.SampleSource

    /// Reads the manifest at `path`; relative sample paths resolve against its folder.
    ///
    /// - Throws: `DatasetError` with one problem when the file cannot be read, is not
    ///   JSON (with line and column), or is not a JSON object.
    public init(contentsOf path: String) throws(DatasetError) {
        let data: Data
        if let kind = Self.nonRegularKind(atPath: path) {
            throw DatasetError([
                DatasetProblem(.unreadableManifest, manifest: path, jsonPath: "", "is \(kind), not a manifest file")
            ])
        }
        let stamp = FileStamp(path: path) // before reading: a later rewrite is noticed
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason =
                !exists
                ? "no such file"
                : isDirectory.boolValue
                    ? "is a directory, expected a manifest.json file"
                    : "cannot read: \(error.localizedDescription)"
            throw DatasetError([DatasetProblem(.unreadableManifest, manifest: path, jsonPath: "", reason)])
        }
        let base = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        let document = try Self.scan([UInt8](data), manifestPath: path)
        let source: SampleSource? = document.elementRanges.map { .file(path: path, stamp: stamp, ranges: $0) }
        try self.init(root: document.root, samples: source, manifestPath: path, baseDirectory: base)
    }

    /// Parses manifest bytes.
    ///
    /// - Parameters:
    ///   - manifestPath: the name used in messages.
    ///   - baseDirectory: the folder relative sample paths resolve against.
    /// - Throws: `DatasetError` with one problem when `data` is not JSON or not an object.
    public init(data: Data, manifestPath: String, baseDirectory: URL) throws(DatasetError) {
        let bytes = [UInt8](data)
        let document = try Self.scan(bytes, manifestPath: manifestPath)
        let source: SampleSource? = document.elementRanges.map { .bytes(bytes, ranges: $0) }
        try self.init(root: document.root, samples: source, manifestPath: manifestPath, baseDirectory: baseDirectory)
    }

    /// Wraps an already parsed manifest.
    ///
    /// - Throws: `DatasetError` with one problem when `json` is not an object.
    public init(json: JSONValue, manifestPath: String, baseDirectory: URL) throws(DatasetError) {
        var source: SampleSource?
        if case .array(let values) = json["samples"] { source = .parsed(values) }
        try self.init(root: json, samples: source, manifestPath: manifestPath, baseDirectory: baseDirectory)
    }

    /// Checks the JSON of a whole manifest, keeping the samples as byte ranges.
    static func scan(_ bytes: [UInt8], manifestPath: String) throws(DatasetError) -> JSONDeferredDocument {
        do {
            return try JSONValue.parse(bytes, deferringTopLevelArray: "samples")
        } catch {
            throw DatasetError([
                DatasetProblem(
                    .invalidJSON, manifest: manifestPath, jsonPath: "",
                    "not valid JSON: \(error.description)")
            ])
        }
    }

    /// `root` is the manifest with `samples` (when an array) already taken into `samples`.
    private init(
        root json: JSONValue, samples source: SampleSource?, manifestPath: String,
        baseDirectory: URL
    ) throws(DatasetError) {
        guard case .object(let o) = json else {
            throw DatasetError([
                DatasetProblem(
                    .wrongType, manifest: manifestPath, jsonPath: "",
                    "expected a JSON object with \"format\" and \"samples\", found \(json.typeDescription)")
            ])
        }
        self.manifestPath = manifestPath
        self.baseDirectory = baseDirectory.standardizedFileURL
        var reader = FieldReader(manifest: manifestPath)
        switch o["format"] {
        case .none:
            reader.report(.wrongFormat, "", "missing key 'format' (expected \"\(DatasetManifest.formatIdentifier)\")")
        case .string(let format) where format == DatasetManifest.formatIdentifier:
            break
        case .string(let format):
            reader.report(
                .wrongFormat, "format",
                "unsupported format '\(format)' (expected \"\(DatasetManifest.formatIdentifier)\")")
        case .some(let other):
            reader.report(
                .wrongFormat, "format",
                "expected the string \"\(DatasetManifest.formatIdentifier)\", found \(other.typeDescription)")
        }
        name = reader.string(o, "name", in: "")
        description = reader.string(o, "description", in: "")
        switch o["samples"] {
        case .array:
            samples = source ?? .parsed([])
            if samples.count == 0 { reader.report(.invalidValue, "samples", Self.noSamplesMessage) }
        case .none:
            reader.report(.missingKey, "", "missing required key 'samples' (an array of sample objects)")
            samples = .parsed([])
        case .some(let other):
            reader.report(.wrongType, "samples", "expected an array of sample objects, found \(other.typeDescription)")
            samples = .parsed([])
        }
        var extensions = JSONObject()
        for (key, value) in o where !DatasetManifest.knownKeys.contains(key) { extensions[key] = value }
        self.extensions = extensions
        headerProblems = reader.problems
    }

    /// Why a manifest whose `samples` is empty cannot be used (`run` and `validate` refuse it).
    public static let noSamplesMessage = "no samples: a manifest needs at least one sample to evaluate"

    /// Number of elements of `samples` (valid or not).
    public var sampleCount: Int { samples.count }

    /// The samples, decoded one per iteration. Re-iterable; each iteration starts afresh.
    public var entries: DatasetEntries {
        DatasetEntries(samples: samples, manifest: manifestPath)
    }

    /// Sample `index` decoded on its own (no duplicate-id check: iterate `entries` for that).
    /// Lets a runner keep only indices and decode each sample when it is processed.
    public func sample(at index: Int) -> Result<DatasetSample, SampleFailure> {
        let jsonPath = "samples[\(index)]"
        guard index >= 0, index < samples.count else {
            return .failure(
                SampleFailure(
                    index: index, sampleID: nil,
                    problems: [
                        DatasetProblem(
                            .missingKey, manifest: manifestPath, jsonPath: jsonPath, sampleID: nil, "no such sample")
                    ]))
        }
        let raw: JSONValue
        switch samples.value(at: index) {
        case .success(let value): raw = value
        case .failure(let reread):
            return .failure(
                SampleFailure(
                    index: index, sampleID: nil,
                    problems: [
                        DatasetProblem(
                            .unreadableManifest, manifest: manifestPath, jsonPath: jsonPath, sampleID: nil,
                            reread.reason)
                    ]))
        }
        let (sample, problems) = DatasetSample.decode(raw, jsonPath: jsonPath, manifest: manifestPath)
        if let sample, problems.isEmpty { return .success(sample) }
        return .failure(SampleFailure(index: index, sampleID: sample?.id ?? raw["id"]?.stringValue, problems: problems))
    }

    /// Decodes every sample; throws when there is any header or sample problem, listing all.
    /// Files are not checked.
    public func decodeManifest() throws(DatasetError) -> DatasetManifest {
        var problems = headerProblems
        var samples: [DatasetSample] = []
        samples.reserveCapacity(sampleCount)
        for entry in entries {
            switch entry.result {
            case .success(let sample): samples.append(sample)
            case .failure(let failure): problems += failure.problems
            }
        }
        if !problems.isEmpty { throw DatasetError(problems) }
        return DatasetManifest(name: name, description: description, samples: samples, extensions: extensions)
    }

    /// `path` made absolute: unchanged when absolute, else resolved against `baseDirectory`.
    public func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL.path }
        return baseDirectory.appendingPathComponent(path).standardizedFileURL.path
    }
}

/// One element of a manifest's `samples`: decoded, or why not.
public struct DatasetEntry: Sendable {
    /// Position in `samples` (0-based).
    public var index: Int
    /// `samples[index]`.
    public var jsonPath: String { "samples[\(index)]" }
    public var result: Result<DatasetSample, SampleFailure>
}

/// Why one sample cannot be used; the run records it and goes on.
public struct SampleFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Position in `samples`.
    public var index: Int
    /// The sample's `id` when it could be read.
    public var sampleID: String?
    /// Every problem found (at least one).
    public var problems: [DatasetProblem]

    public init(index: Int, sampleID: String?, problems: [DatasetProblem]) {
        self.index = index
        self.sampleID = sampleID
        self.problems = problems
    }

    /// The problems on one line, without the manifest name: for per-sample logs. Control
    /// characters are escaped (`String.escapingControlCharacters()`).
    public var reason: String {
        problems.map { problem in
            var text = problem.jsonPath
            if let file = problem.file { text += " \(file)" }
            return text + ": " + problem.message
        }.joined(separator: "; ").escapingControlCharacters()
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// The samples of a manifest as a lazy sequence of `DatasetEntry`.
///
/// Each iteration decodes one sample. An `id` already used by an earlier element gives a
/// failure of kind `duplicateID` naming the earlier position; the first keeps the id.
public struct DatasetEntries: Sequence, Sendable {
    let samples: DatasetLoader.SampleSource
    let manifest: String

    public var underestimatedCount: Int { samples.count }

    public func makeIterator() -> Iterator {
        Iterator(samples: samples, manifest: manifest)
    }

    public struct Iterator: IteratorProtocol {
        let samples: DatasetLoader.SampleSource
        let manifest: String
        var index = 0
        var firstIndexByID: [String: Int] = [:]

        public mutating func next() -> DatasetEntry? {
            guard index < samples.count else { return nil }
            defer { index += 1 }
            let jsonPath = "samples[\(index)]"
            let raw: JSONValue
            switch samples.value(at: index) {
            case .success(let value): raw = value
            case .failure(let reread):
                let problem = DatasetProblem(
                    .unreadableManifest, manifest: manifest, jsonPath: jsonPath, sampleID: nil,
                    reread.reason)
                return DatasetEntry(
                    index: index,
                    result: .failure(
                        SampleFailure(
                            index: index, sampleID: nil,
                            problems: [problem])))
            }
            let (sample, problems) = DatasetSample.decode(raw, jsonPath: jsonPath, manifest: manifest)
            let id = sample?.id ?? raw["id"]?.stringValue
            var allProblems = problems
            if let id {
                if let first = firstIndexByID[id] {
                    allProblems.append(
                        DatasetProblem(
                            .duplicateID, manifest: manifest, jsonPath: jsonPath + ".id",
                            sampleID: id, "duplicate id, already used by samples[\(first)]"))
                } else {
                    firstIndexByID[id] = index
                }
            }
            if let sample, allProblems.isEmpty {
                return DatasetEntry(index: index, result: .success(sample))
            }
            return DatasetEntry(
                index: index, result: .failure(SampleFailure(index: index, sampleID: id, problems: allProblems)))
        }
    }
}
