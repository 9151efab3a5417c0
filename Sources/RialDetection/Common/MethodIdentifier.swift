/// The name and version of a detection algorithm, written `NAME/VERSION` (`depth/1`,
/// `parallax/1`, `moire/1`): the value of every result's `algorithm_version`.
///
/// - `name`: 1 to 64 characters, ASCII lowercase letters, digits, `-` and `_`, starting
///   with a letter.
/// - `version`: a positive decimal integer without sign or leading zeros (`1`, `12`).
///
/// The text form is canonical: `MethodIdentifier(parsing: id.description) == id` for
/// every identifier, and a string that parses prints back unchanged. Encodes as that
/// single JSON string (`"depth/1"`).
public struct MethodIdentifier: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The method family, e.g. `depth`.
    public let name: String
    /// The algorithm revision within the family, >= 1.
    public let version: Int

    /// `depth/1`: the reference LiDAR depth analysis (`DepthAnalyzerV1`).
    public static let depthV1 = MethodIdentifier(literal: "depth", version: 1)

    /// Checks and stores `name` and `version`.
    ///
    /// - Throws: `MethodIdentifierError.invalidName` or `.invalidVersion`.
    public init(name: String, version: Int) throws(MethodIdentifierError) {
        guard Self.isValidName(name) else { throw .invalidName(name) }
        guard version >= 1 else { throw .invalidVersion(String(version), identifier: "\(name)/\(version)") }
        self.name = name
        self.version = version
    }

    /// Parses `NAME/VERSION`.
    ///
    /// - Throws: `.missingSeparator` without exactly one `/`, `.invalidName` or
    ///   `.invalidVersion` for the parts (surrounding spaces are not trimmed).
    public init(parsing text: String) throws(MethodIdentifierError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .missingSeparator(text) }
        let name = String(parts[0]), versionText = String(parts[1])
        guard Self.isValidName(name) else { throw .invalidName(name) }
        guard let version = Self.parseVersion(versionText) else {
            throw .invalidVersion(versionText, identifier: text)
        }
        self.name = name
        self.version = version
    }

    /// An identifier written in the source (`MethodIdentifier(literal: "moire", version: 1)`).
    ///
    /// - Precondition: `name` and `version` satisfy the grammar (a literal that does not
    ///   is a programming error, caught the first time it is used).
    public init(literal name: String, version: Int) {
        precondition(Self.isValidName(name) && version >= 1, "\(name)/\(version) is not a valid method identifier")
        self.name = name
        self.version = version
    }

    /// `NAME/VERSION`.
    public var description: String { "\(name)/\(version)" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return bytes.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        }
    }

    /// Digits only, no leading zero, 1...Int.max.
    static func parseVersion(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first != UInt8(ascii: "0"),
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }
}

/// Why a method identifier was refused; the description says what to write instead.
public enum MethodIdentifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not two parts separated by exactly one `/`.
    case missingSeparator(String)
    /// The name is empty, too long, or has characters other than `a-z 0-9 - _`.
    case invalidName(String)
    /// The version is not a positive integer written without sign or leading zeros.
    case invalidVersion(String, identifier: String)

    public var description: String {
        switch self {
        case .missingSeparator(let text):
            "method identifier '\(text)' is not NAME/VERSION with exactly one '/' (e.g. depth/1)"
        case .invalidName(let name):
            "method name '\(name)' must be 1-64 characters of a-z, 0-9, '-' or '_', starting with a letter (e.g. depth)"
        case .invalidVersion(let version, let identifier):
            "method identifier '\(identifier)': version '\(version)' must be a positive integer without sign or leading zeros (e.g. depth/1)"
        }
    }
}
