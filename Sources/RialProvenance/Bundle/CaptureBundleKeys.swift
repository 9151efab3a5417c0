import Foundation
import RialCodecs

/// The key material of the capture bundle (`birthmark-ios-readme.md`, "Device
/// Fingerprint" and "Key Management").
public enum CaptureBundleKeys {
    /// Master key length: "3 master keys (256-bit each)".
    public static let masterKeyByteCount = 32
    /// The suffix of the fingerprint input, as the README writes it.
    public static let fingerprintSuffix = "Birthmark-Standard-iOS-v1"
    /// The prefix of the HKDF info string: `info="Birthmark" + key_index`.
    public static let infoPrefix = "Birthmark"

    /// `fingerprint = SHA256(identifierForVendor + cryptographic_random_seed +
    /// "Birthmark-Standard-iOS-v1")`, the three strings concatenated as UTF-8, as 64
    /// lowercase hex digits (the form the app stores and seals).
    public static func deviceFingerprint(vendorIdentifier: String, seed: String) -> String {
        SHA256Digest.hash(Data((vendorIdentifier + seed + fingerprintSuffix).utf8))
    }

    /// The HKDF info for a key index: UTF-8 of "Birthmark" followed by the index in
    /// decimal without padding ("Birthmark234"). The README writes
    /// `info="Birthmark" + key_index`; decimal text is the reading of `+` on a string and
    /// an integer in the app's language (Swift interpolation).
    public static func info(keyIndex: Int) -> [UInt8] {
        Array("\(infoPrefix)\(keyIndex)".utf8)
    }

    /// The per-capture key: HKDF-SHA256(IKM = master key, salt = none, info =
    /// `info(keyIndex:)`, L = 32). The README gives no salt; none means RFC 5869's 32 zero
    /// bytes.
    /// - Throws: `ProvenanceError.invalidArgument` for a master key that is not 32 bytes
    ///   or a key index outside 0...999.
    public static func derivedKey(masterKey: [UInt8], keyIndex: Int) throws(ProvenanceError) -> [UInt8] {
        guard masterKey.count == masterKeyByteCount else {
            throw ProvenanceError(
                .invalidArgument, "master key is \(masterKey.count) bytes, expected \(masterKeyByteCount) (256 bits)")
        }
        guard CaptureBundle.keyIndexRange.contains(keyIndex) else {
            throw ProvenanceError(.invalidArgument, "key index must be in 0...999, got \(keyIndex)")
        }
        return try HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, info: info(keyIndex: keyIndex), outputByteCount: AES256GCM.keyByteCount)
    }
}
