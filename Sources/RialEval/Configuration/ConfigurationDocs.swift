import RialDetection
import RialMedia

/// Comments and key order for `config print`, from the doc comments of the
/// configuration types (`ConfigurationDocs+Generated.swift`, written by
/// `scripts/gen-config-docs`).
public enum ConfigurationDocs {
    static let index: [String: Int] = {
        var result: [String: Int] = [:]
        for (i, entry) in generated.enumerated() where result[entry.key] == nil { result[entry.key] = i }
        return result
    }()

    static let texts: [String: String] = {
        var result: [String: String] = [:]
        for entry in generated where result[entry.key] == nil { result[entry.key] = entry.text }
        return result
    }()

    /// `aggregation.profiles.android.primary` -> `aggregation.profiles.*.primary`.
    static func pattern(_ path: String) -> String {
        let prefix = "aggregation.profiles."
        guard path.hasPrefix(prefix) else { return path }
        var parts = path.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false).map(
            String.init)
        guard !parts.isEmpty else { return path }
        parts[0] = "*"
        return prefix + parts.joined(separator: ".")
    }

    /// The comment of `path`, if any.
    public static func comment(for path: String) -> String? {
        texts[pattern(path)]
    }

    /// Declaration position of `path` (unknown keys sort last).
    static func position(of path: String) -> Int {
        index[pattern(path)] ?? Int.max
    }

    /// Keys of the compiled-in defaults (with optional values filled) that have no
    /// comment, excluding children of free-form and enumerated maps.
    static func undocumentedKeys() -> [String] {
        var missing: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            guard case .object(let object) = value else { return }
            for (key, child) in object {
                let full = path.isEmpty ? key : "\(path).\(key)"
                let pattern = self.pattern(full)
                if comment(for: full) == nil && pattern != "aggregation.profiles.*" { missing.append(full) }
                if ConfigurationSchema.enumeratedMaps[pattern] != nil || pattern == "decision.method_thresholds"
                    || pattern == "aggregate_with"
                {
                    continue
                }
                walk(child, full)
            }
        }
        walk(ConfigurationSchema.exemplar, "")
        return missing
    }
}
