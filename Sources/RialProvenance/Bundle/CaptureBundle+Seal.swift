import Foundation
import RialCodecs

extension CaptureBundle {
    /// Builds the bundle for one capture as the app does (`birthmark-ios-readme.md`,
    /// "Authentication Flow" steps 3-8): SHA-256 of the image bytes, the key for
    /// (`table`, `keyIndex`) derived from the table's master key, the fingerprint (UTF-8)
    /// sealed with AES-256-GCM, the table and key index repeated three times.
    ///
    /// - Parameters:
    ///   - image: the captured JPEG/HEIC file bytes.
    ///   - fingerprint: the device fingerprint (`CaptureBundleKeys.deviceFingerprint`).
    ///   - table: 0...2499.
    ///   - masterKey: the table's 32-byte master key.
    ///   - keyIndex: 0...999.
    ///   - timestamp: Unix seconds.
    ///   - deviceSignature: carried as base64.
    ///   - nonce: 12 bytes; nil draws a random one (tests fix it).
    /// - Throws: `ProvenanceError.invalidArgument` for an out-of-range table, key index,
    ///   timestamp or a wrong-length key or nonce; `.cryptoLibrary` when libcrypto fails.
    public static func seal(
        image: Data, fingerprint: String, table: Int, masterKey: [UInt8], keyIndex: Int, timestamp: Int64,
        deviceSignature: [UInt8] = [], nonce: [UInt8]? = nil
    ) throws(ProvenanceError) -> CaptureBundle {
        guard tableRange.contains(table) else {
            throw ProvenanceError(.invalidArgument, "table must be in 0...2499, got \(table)")
        }
        guard timestamp >= 0 else {
            throw ProvenanceError(.invalidArgument, "timestamp must be >= 0, got \(timestamp)")
        }
        let imageHash = SHA256Digest.hash(image)
        let key = try CaptureBundleKeys.derivedKey(masterKey: masterKey, keyIndex: keyIndex)
        let box = try AES256GCM.seal(Array(fingerprint.utf8), key: key, nonce: nonce)
        return CaptureBundle(
            imageHash: imageHash, encryptedNUCToken: Data(box.combined).base64EncodedString(),
            tableReferences: Array(repeating: table, count: referenceCount),
            keyIndices: Array(repeating: keyIndex, count: referenceCount), timestamp: timestamp,
            deviceSignature: Data(deviceSignature).base64EncodedString())
    }
}
