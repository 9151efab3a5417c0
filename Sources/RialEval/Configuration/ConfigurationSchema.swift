import Foundation
import RialDetection
import RialMedia

/// The keys a configuration file may contain: those of the compiled-in defaults
/// (encoded), optional keys that are absent by default, and the free-form maps
/// (profile names, per-method thresholds).
enum ConfigurationSchema {
    /// The defaults with every optional value filled, so their keys are known.
    static let exemplar: JSONValue = {
        var c = PipelineConfiguration.exemplar()
        c.decision.methodThresholds = [:]
        c.provenance = [:]
        return tree(of: c)
    }()

    /// Paths whose children are names chosen by the user; children share the schema of
    /// `template` (`""`: any value; `"*"`: any value, checked by `enumeratedMaps` at `PATH.*`).
    static let openMaps: [String: String] = [
        "aggregation.profiles": "aggregation.profiles.ios_pro",
        "decision.method_thresholds": "",
        "provenance": "",
        "calibration": "*",
    ]

    /// Allowed children for paths whose keys come from an enumeration.
    static let enumeratedMaps: [String: [String]] = [
        "aggregate_with": MethodFamily.allCases.map(\.rawValue),
        "aggregation.profiles.*.weights": AggregationMethod.allCases.map(\.rawValue),
        "aggregation.cross_validation.method_uncertainty": AggregationMethod.allCases.map(\.rawValue),
        "attestation_scores": ["secure_enclave", "strongbox", "tee", "software", "failed"],
        "calibration.*": calibrationKeys,
    ]

    /// The keys a calibration may have: those `ScoreCalibration` encodes, over its kinds.
    static let calibrationKeys: [String] = {
        let kinds: [ScoreCalibration] = [.platt(a: 0, b: 0), .isotonic(x: [0], y: [0])]
        var keys: [String] = []
        for kind in kinds {
            for key in tree(of: kind).objectValue?.keys ?? [] where !keys.contains(key) { keys.append(key) }
        }
        return keys
    }()

    /// How a configuration file is laid over the encoded defaults (`ConfigurationFile.parse`,
    /// `JSONValue.overlaid(with:rules:)`) where the plain rule (objects merge key by key,
    /// `null` keeps the default, anything else replaces) does not say it:
    ///
    /// | path | rule | why |
    /// |---|---|---|
    /// | `aggregate_with` | replaced whole | a family left out is not aggregated |
    /// | `decision.method_thresholds` | replaced whole | the file lists every per-method threshold |
    /// | `calibration`, `provenance` | replaced whole | the file lists every entry (defaults are empty) |
    /// | `aggregation.profiles.*` | new name over `{weights: {}}`; `null` is a value | `AggregationConfiguration.overlayRules` |
    /// | `aggregation.profiles.*.weights.*` | `null` is a value | a weight is a number |
    static let overlayRules = JSONOverlayRules(
        replacedWhole: ["aggregate_with", "decision.method_thresholds", "calibration", "provenance"])
        .merging(AggregationConfiguration.overlayRules.prefixed(by: "aggregation"))

    static func tree(of configuration: some Encodable) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(configuration), let value = try? JSONValue.parse(data) else {
            return .null
        }
        return value
    }

    /// Every key of `tree` the schema does not know, in document order, with a hint.
    static func unknownKeys(in tree: JSONValue) -> [(key: String, hint: String)] {
        var found: [(String, String)] = []
        walk(tree, schema: exemplar, path: "", pattern: "", found: &found)
        return found
    }

    private static func walk(
        _ value: JSONValue, schema: JSONValue?, path: String, pattern: String,
        found: inout [(String, String)]
    ) {
        guard case .object(let object) = value else { return }
        if let allowed = enumeratedMaps[pattern] {
            for (key, _) in object where !allowed.contains(key) {
                found.append((join(path, key), "; allowed here: \(allowed.joined(separator: ", "))"))
            }
            return
        }
        if let template = openMaps[pattern] {
            guard !template.isEmpty else { return }
            if template == "*" {
                for (key, child) in object {
                    walk(child, schema: nil, path: join(path, key), pattern: join(pattern, "*"), found: &found)
                }
                return
            }
            let templateSchema = lookup(exemplar, template)
            for (key, child) in object {
                walk(child, schema: templateSchema, path: join(path, key), pattern: join(pattern, "*"), found: &found)
            }
            return
        }
        guard case .object(let known)? = schema else { return }
        for (key, child) in object {
            if let childSchema = known[key] {
                walk(child, schema: childSchema, path: join(path, key), pattern: join(pattern, key), found: &found)
            } else {
                let suggestion = known.keys.min { editDistance($0, key) < editDistance($1, key) }
                let hint =
                    suggestion.map { editDistance($0, key) <= max(2, key.count / 3) ? "; did you mean '\($0)'?" : "" }
                    ?? ""
                found.append(
                    (join(path, key), hint.isEmpty ? "; known keys here: \(known.keys.joined(separator: ", "))" : hint))
            }
        }
    }

    static func lookup(_ tree: JSONValue, _ path: String) -> JSONValue? {
        var node: JSONValue? = tree
        for part in path.split(separator: ".") { node = node?[String(part)] }
        return node
    }

    private static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : "\(a).\(b)" }

    /// Levenshtein distance, for "did you mean".
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
