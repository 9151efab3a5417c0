import Foundation

/// The authentication bundle the Birthmark iOS camera submits for each photo
/// (`../shared/product/birthmark-ios-readme.md`, "Network Submission", bundle sent to
/// `/api/v1/submit`):
///
/// ```json
/// {"image_hash": "a1b2…", "encrypted_nuc_token": "base64…", "table_references": [847, 847, 847],
///  "key_indices": [234, 234, 234], "timestamp": 1732000000, "device_signature": "base64…"}
/// ```
///
/// - `image_hash`: SHA-256 of the captured JPEG/HEIC bytes, 64 lowercase hex digits.
/// - `encrypted_nuc_token`: the device fingerprint sealed with AES-256-GCM under a key
///   derived by HKDF-SHA256 from the table's master key (`CaptureBundleKeys`). The
///   README only says "base64…"; here it is base64 of nonce ‖ ciphertext ‖ tag
///   (CryptoKit's `SealedBox.combined`, 12 + n + 16 bytes), the one layout a server can
///   open. (The Birthmark app's own `toAPIFormat()` sends the ciphertext alone, without
///   nonce and tag, which no server can authenticate or decrypt.)
/// - `table_references`, `key_indices`: the README's iOS variant repeats its single
///   table and key index three times "for compatibility with Phase 1 API format"; the
///   three entries must be equal. Tables are 0...2499, key indices 0...999 ("Key
///   Management").
/// - `timestamp`: Unix seconds.
/// - `device_signature`: base64, carried but not verified (the README does not say what
///   is signed or with which key); empty is accepted (the app sends an empty
///   placeholder).
public struct CaptureBundle: Sendable, Equatable, Codable {
    /// Repeats of the table and key index in the iOS bundle.
    public static let referenceCount = 3
    /// Valid table numbers (README "Key Management": "3 table assignments from SMA (0-2499)").
    public static let tableRange = 0...2499
    /// Valid key indices (README "Key Management": "random key index (0-999)").
    public static let keyIndexRange = 0...999
    /// The largest bundle `parse` reads: a bundle is a few hundred bytes.
    public static let maximumByteCount = 64 * 1024

    public var imageHash: String
    public var encryptedNUCToken: String
    public var tableReferences: [Int]
    public var keyIndices: [Int]
    public var timestamp: Int64
    public var deviceSignature: String

    enum CodingKeys: String, CodingKey {
        case imageHash = "image_hash"
        case encryptedNUCToken = "encrypted_nuc_token"
        case tableReferences = "table_references"
        case keyIndices = "key_indices"
        case timestamp
        case deviceSignature = "device_signature"
    }

    public init(
        imageHash: String, encryptedNUCToken: String, tableReferences: [Int], keyIndices: [Int], timestamp: Int64,
        deviceSignature: String
    ) {
        self.imageHash = imageHash
        self.encryptedNUCToken = encryptedNUCToken
        self.tableReferences = tableReferences
        self.keyIndices = keyIndices
        self.timestamp = timestamp
        self.deviceSignature = deviceSignature
    }

    /// The one table of an iOS bundle (its three equal references).
    public var table: Int { tableReferences.first ?? -1 }
    /// The one key index of an iOS bundle.
    public var keyIndex: Int { keyIndices.first ?? -1 }

    /// The sealed fingerprint decoded from `encrypted_nuc_token`.
    /// - Throws: `ProvenanceError.malformed` when the token is not base64 or is shorter
    ///   than a nonce and a tag.
    public func sealedFingerprint() throws(ProvenanceError) -> AES256GCM.SealedBox {
        guard let bytes = Data(base64Encoded: encryptedNUCToken) else {
            throw ProvenanceError(.malformed, "encrypted_nuc_token is not base64")
        }
        do { return try AES256GCM.SealedBox(combined: [UInt8](bytes)) } catch {
            throw ProvenanceError(.malformed, "encrypted_nuc_token: \(error.detail)")
        }
    }

    /// Checks every field's form (not the cryptography): hex hash, base64 token and
    /// signature, three equal in-range table references and key indices, timestamp >= 0.
    /// - Throws: `ProvenanceError.malformed` naming the field.
    public func validate() throws(ProvenanceError) {
        guard imageHash.utf8.count == 64, imageHash.utf8.allSatisfy(Self.isLowercaseHexDigit) else {
            throw ProvenanceError(.malformed, "image_hash must be 64 lowercase hex digits")
        }
        _ = try sealedFingerprint()
        for (name, values, range) in [
            (CodingKeys.tableReferences.stringValue, tableReferences, Self.tableRange),
            (CodingKeys.keyIndices.stringValue, keyIndices, Self.keyIndexRange),
        ] {
            guard values.count == Self.referenceCount else {
                throw ProvenanceError(
                    .malformed, "\(name) must have \(Self.referenceCount) entries, got \(values.count)")
            }
            guard values.allSatisfy({ range.contains($0) }) else {
                throw ProvenanceError(
                    .malformed, "\(name) entries must be in \(range.lowerBound)...\(range.upperBound), got \(values)")
            }
            guard Set(values).count == 1 else {
                throw ProvenanceError(.malformed, "\(name) must repeat one value (the iOS bundle), got \(values)")
            }
        }
        guard timestamp >= 0 else { throw ProvenanceError(.malformed, "timestamp must be >= 0, got \(timestamp)") }
        guard Data(base64Encoded: deviceSignature) != nil else {
            throw ProvenanceError(.malformed, "device_signature is not base64")
        }
    }

    /// Reads and validates a bundle from its JSON bytes.
    /// - Throws: `ProvenanceError.malformed` attributed to `source`: not JSON, a missing or
    ///   mistyped field, larger than `maximumByteCount`, or a field failing `validate()`.
    public static func parse(_ data: Data, source: String = "<memory>") throws(ProvenanceError) -> CaptureBundle {
        guard data.count <= maximumByteCount else {
            throw ProvenanceError(
                .malformed, source: source, "bundle is \(data.count) bytes, larger than \(maximumByteCount)")
        }
        let bundle: CaptureBundle
        do { bundle = try JSONDecoder().decode(CaptureBundle.self, from: data) } catch {
            throw ProvenanceError(.malformed, source: source, "not a capture bundle: \(Self.describe(error))")
        }
        do { try bundle.validate() } catch { throw error.attributed(to: source) }
        return bundle
    }

    /// The bundle as JSON (keys sorted, so equal bundles give equal bytes).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    private static func isLowercaseHexDigit(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
    }

    /// One line for a decoding error: which key, what went wrong.
    private static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "missing field \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "not valid JSON" : "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "not valid JSON"
        }
    }
}
