import CYaml

/// Finds the first alias (`*name`) of a YAML text with libyaml's event parser, before
/// anything composes the document.
///
/// Composing expands aliases: a node that lists an anchored node ten times, nine levels
/// deep (the "billion laughs" file, a few hundred bytes), becomes 10^9 nodes; an alias
/// used as a mapping key is hashed node by node while the keys are checked for
/// duplicates. Reading events costs time linear in the text and holds no tree, so the
/// check is bounded whatever the file holds. Configuration and policy files have no use
/// for aliases; every reader refuses them (`ConfigurationFile.yamlTree`).
///
/// `CYaml` is the libyaml copy Yams itself parses with (same version, same grammar).
enum YAMLAliasCheck {
    /// An alias: its 1-based line and column and the anchor it names.
    struct Alias: Equatable {
        var line: Int
        var column: Int
        var anchor: String
    }

    /// The first alias of `text` in document order, or nil when there is none or the
    /// text stops being YAML before one (the composer then reports the syntax error).
    static func firstAlias(in text: String) -> Alias? {
        var utf8 = Array(text.utf8)
        if utf8.isEmpty { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return utf8.withUnsafeMutableBufferPointer { buffer -> Alias? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_ALIAS_EVENT:
                    let anchor = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                    return Alias(
                        line: event.start_mark.line + 1, column: event.start_mark.column + 1, anchor: anchor)
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    continue
                }
            }
        }
    }
}
