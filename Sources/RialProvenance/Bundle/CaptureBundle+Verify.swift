import Foundation
import RialCodecs

/// What verifying a capture bundle established.
public struct CaptureBundleVerification: Sendable, Equatable, Codable {
    /// The opened device fingerprint.
    public var fingerprint: String
    public var table: Int
    public var keyIndex: Int
    /// True when the image bytes were given and their SHA-256 equals `image_hash`; false
    /// when no image was given (the hash was not checked).
    public var imageHashChecked: Bool
    /// True when an expected fingerprint was given and equals the opened one.
    public var fingerprintChecked: Bool

    enum CodingKeys: String, CodingKey {
        case fingerprint, table
        case keyIndex = "key_index"
        case imageHashChecked = "image_hash_checked"
        case fingerprintChecked = "fingerprint_checked"
    }
}

extension CaptureBundle {
    /// Verifies the bundle as the aggregation server would: the form of every field, the
    /// image hash against the image bytes (when given), then opens the sealed fingerprint
    /// with the key derived from the table's master key and compares it with the expected
    /// fingerprint (when given). Stops at the first failure.
    ///
    /// - Parameters:
    ///   - image: the image file bytes, or nil when only the bundle is at hand.
    ///   - masterKeys: master keys by table number.
    ///   - expectedFingerprint: the fingerprint registered for the device, or nil.
    /// - Throws: `ProvenanceError` attributed to `source`: `.malformed` (a field's form),
    ///   `.hashMismatch` (image bytes changed), `.unknownKey` (no master key for the
    ///   table), `.authenticationFailed` (the token's ciphertext, tag or nonce was altered,
    ///   or the table, key index or master key is not the sealing one),
    ///   `.fingerprintMismatch`.
    public func verify(
        image: Data?, masterKeys: [Int: [UInt8]], expectedFingerprint: String? = nil, source: String = "<memory>"
    ) throws(ProvenanceError) -> CaptureBundleVerification {
        do throws(ProvenanceError) {
            try validate()
            if let image {
                let actual = SHA256Digest.hash(image)
                guard actual == imageHash else {
                    throw ProvenanceError(
                        .hashMismatch, "image_hash \(imageHash) does not match the image's SHA-256 \(actual)")
                }
            }
            guard let masterKey = masterKeys[table] else {
                throw ProvenanceError(.unknownKey, "no master key for table \(table)")
            }
            let key = try CaptureBundleKeys.derivedKey(masterKey: masterKey, keyIndex: keyIndex)
            let plaintext: [UInt8]
            do { plaintext = try AES256GCM.open(try sealedFingerprint(), key: key) } catch
                where error.kind == .authenticationFailed
            {
                throw ProvenanceError(
                    .authenticationFailed,
                    "encrypted_nuc_token does not open with table \(table) key index \(keyIndex): its ciphertext, tag or nonce, or the key, was altered"
                )
            }
            guard let fingerprint = String(validating: plaintext, as: UTF8.self) else {
                throw ProvenanceError(.malformed, "the opened fingerprint is not UTF-8 text")
            }
            if let expectedFingerprint, expectedFingerprint != fingerprint {
                throw ProvenanceError(
                    .fingerprintMismatch, "the sealed fingerprint is not the device's registered fingerprint")
            }
            return CaptureBundleVerification(
                fingerprint: fingerprint, table: table, keyIndex: keyIndex, imageHashChecked: image != nil,
                fingerprintChecked: expectedFingerprint != nil)
        } catch {
            throw error.attributed(to: source)
        }
    }
}
