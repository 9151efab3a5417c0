/// An error reading, decoding or writing media, always naming the input it concerns.
///
/// `source` is the file path when the bytes came from a file, or a caller-chosen label
/// such as `"<memory>"` for in-memory buffers. `description` is one line a user can act
/// on: which file, what is wrong.
public struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The file does not exist or cannot be opened.
        case notFound = "not_found"
        /// Reading the file failed (permissions, I/O error, a directory).
        case unreadable
        /// The bytes are not a valid instance of the expected format (truncated, corrupt).
        case corrupt
        /// The format is valid but uses a feature this tool does not support.
        case unsupported
        /// Sizes disagree: declared width x height vs. payload length, or two inputs.
        case sizeMismatch = "size_mismatch"
        /// Arguments given by the caller are invalid (a scale that does not exist, say).
        case invalidArgument = "invalid_argument"
        /// Writing an output file failed.
        case writeFailed = "write_failed"
    }

    public var kind: Kind
    /// File path or label of the input.
    public var source: String
    /// What is wrong, in words a user understands.
    public var detail: String

    public init(_ kind: Kind, source: String, _ detail: String) {
        self.kind = kind
        self.source = source
        self.detail = detail
    }

    /// `source: detail`, control characters escaped (`String.escapingControlCharacters()`).
    public var description: String { "\(source): \(detail)".escapingControlCharacters() }

    /// The same error attributed to another source (a path instead of `<memory>`).
    public func attributed(to source: String) -> MediaError {
        MediaError(kind, source: source, detail)
    }
}

extension MediaError: Encodable {
    private enum CodingKeys: String, CodingKey { case kind, source, detail, message }

    /// `{"kind": "corrupt", "source": path, "detail": ..., "message": "path: detail"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(source, forKey: .source)
        try c.encode(detail, forKey: .detail)
        try c.encode(description, forKey: .message)
    }
}

/// The label used for buffers that did not come from a named file.
public let inMemorySource = "<memory>"
