import Foundation
import RialDetection
import RialMedia

/// Writes a configuration as commented YAML (`rial-bench config print`): every key in
/// declaration order with its doc comment above it, optional keys that are unset shown
/// commented out. The output parses back (`ConfigurationFile.parse`) to the same value.
public enum ConfigurationPrinter {
    /// The YAML text of `configuration`.
    public static func yaml(_ configuration: PipelineConfiguration) -> String {
        var out = """
            # rial-bench configuration (\(PipelineConfiguration.formatName)).
            # Every weight, threshold, level boundary and method version of the detection
            # pipeline. Any key may be left out of a file: it then keeps the value shown here.
            # Unknown keys and out-of-range values are refused with the key named.
            # Use: rial-bench analyze --config FILE, rial-bench run --config FILE.

            """
        let tree = ConfigurationSchema.tree(of: configuration)
        let exemplar = ConfigurationSchema.exemplar
        guard case .object(let root) = tree else { return out }
        write(root, exemplar: exemplar.objectValue, path: "", indent: 0, into: &out)
        return out
    }

    private static func write(
        _ object: JSONObject, exemplar: JSONObject?, path: String, indent: Int, into out: inout String
    ) {
        var keys = object.keys
        for key in exemplar?.keys ?? [] where object[key] == nil { keys.append(key) }
        keys.sort {
            (ConfigurationDocs.position(of: join(path, $0)), $0) < (ConfigurationDocs.position(of: join(path, $1)), $1)
        }
        let pad = String(repeating: "  ", count: indent)
        for key in keys {
            let full = join(path, key)
            if indent == 0 { out += "\n" }
            if let comment = ConfigurationDocs.comment(for: full) {
                for line in wrap(comment, width: 88 - pad.count) { out += "\(pad)# \(line)\n" }
            }
            guard let value = object[key] else {
                // Optional and unset: show the shape, commented out.
                if let example = exemplar?[key] { out += "\(pad)# \(yamlKey(key)): \(flow(example))   (unset)\n" }
                continue
            }
            switch value {
            case .object(let child) where !child.isEmpty:
                out += "\(pad)\(yamlKey(key)):\n"
                write(child, exemplar: exemplar?[key]?.objectValue, path: full, indent: indent + 1, into: &out)
            default:
                out += "\(pad)\(yamlKey(key)): \(flow(value))\n"
            }
        }
    }

    /// A value in YAML flow style.
    static func flow(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSONValue.numberText(n)
        case .string(let s): scalar(s)
        case .array(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
        case .object(let object):
            "{" + object.map { "\(yamlKey($0.key)): \(flow($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// A string as a plain scalar when that reads back as the same string, else double-quoted.
    static func scalar(_ s: String) -> String {
        let plain = s.range(of: #"^[A-Za-z_][A-Za-z0-9_./-]*$"#, options: .regularExpression) != nil
        let reserved = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"].contains(s.lowercased())
        if plain && !reserved { return s }
        return JSONValue.string(s).serialized(pretty: false)
    }

    static func yamlKey(_ key: String) -> String { scalar(key) }

    private static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : "\(a).\(b)" }

    /// Greedy word wrap.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " \(word)"
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
