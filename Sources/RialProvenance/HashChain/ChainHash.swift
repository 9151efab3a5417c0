import Foundation
import RialCodecs

/// One SHA-256 value of the frame hash chain: 32 bytes.
public struct ChainHash: Sendable, Hashable, Codable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// - Precondition: `bytes.count == 32` (use `init(base64:)` for untrusted input).
    public init(bytes: [UInt8]) {
        precondition(bytes.count == SHA256Hasher.digestByteCount, "a chain hash is 32 bytes")
        self.bytes = bytes
    }

    /// The hash from its base64 text (the deployed chain's encoding), nil when the text is
    /// not base64 of exactly 32 bytes.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64), data.count == SHA256Hasher.digestByteCount else { return nil }
        bytes = [UInt8](data)
    }

    public var base64: String { Data(bytes).base64EncodedString() }
    public var hex: String { SHA256Digest.hex(bytes) }
    public var description: String { hex }

    /// Encodes as base64 text, as the deployed chain does.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let hash = ChainHash(base64: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not base64 of 32 bytes"))
        }
        self = hash
    }
}
