import COpenSSLCrypto

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) through OpenSSL's `EVP_CIPHER`
/// `EVP_aes_256_gcm()`, with a 96-bit nonce and a 128-bit tag, as CryptoKit's `AES.GCM`
/// uses by default.
public enum AES256GCM {
    /// Key length in bytes (256 bits).
    public static let keyByteCount = 32
    /// Nonce (IV) length in bytes (96 bits, the length GCM is specified around).
    public static let nonceByteCount = 12
    /// Authentication tag length in bytes (128 bits).
    public static let tagByteCount = 16

    /// A sealed message: nonce, ciphertext (as long as the plaintext) and tag.
    public struct SealedBox: Sendable, Equatable {
        public var nonce: [UInt8]
        public var ciphertext: [UInt8]
        public var tag: [UInt8]

        public init(nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) {
            self.nonce = nonce
            self.ciphertext = ciphertext
            self.tag = tag
        }

        /// nonce ‖ ciphertext ‖ tag: CryptoKit's `AES.GCM.SealedBox.combined` layout.
        public var combined: [UInt8] { nonce + ciphertext + tag }

        /// Splits CryptoKit's combined layout (12-byte nonce, ciphertext, 16-byte tag).
        /// - Throws: `ProvenanceError.malformed` when `combined` is shorter than 28 bytes.
        public init(combined: [UInt8]) throws(ProvenanceError) {
            let overhead = AES256GCM.nonceByteCount + AES256GCM.tagByteCount
            guard combined.count >= overhead else {
                throw ProvenanceError(
                    .malformed,
                    "sealed box is \(combined.count) bytes, shorter than its 12-byte nonce and 16-byte tag")
            }
            nonce = Array(combined[..<AES256GCM.nonceByteCount])
            ciphertext = Array(combined[AES256GCM.nonceByteCount..<(combined.count - AES256GCM.tagByteCount)])
            tag = Array(combined[(combined.count - AES256GCM.tagByteCount)...])
        }
    }

    /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`), for nonces.
    /// - Throws: `ProvenanceError.cryptoLibrary` when the generator is not seeded.
    public static func randomBytes(_ count: Int) throws(ProvenanceError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count == 0 || RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw ProvenanceError(.cryptoLibrary, "OpenSSL RAND_bytes failed")
        }
        return bytes
    }

    /// Encrypts and authenticates `plaintext` (and authenticates `associatedData`).
    ///
    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - nonce: 12 bytes; nil draws a random one. Never reuse a nonce with a key.
    /// - Throws: `ProvenanceError.invalidArgument` for a key or nonce of the wrong length,
    ///   `.cryptoLibrary` when libcrypto fails.
    public static func seal(
        _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]? = nil, associatedData: [UInt8] = []
    ) throws(ProvenanceError) -> SealedBox {
        try checkKey(key)
        let iv: [UInt8]
        if let nonce { iv = nonce } else { iv = try randomBytes(nonceByteCount) }
        try checkNonce(iv)
        let context = try CipherContext()
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        var length: Int32 = 0
        var ok = EVP_EncryptInit_ex(context.pointer, EVP_aes_256_gcm(), nil, key, iv) == 1
        if ok && !associatedData.isEmpty {
            ok = EVP_EncryptUpdate(context.pointer, nil, &length, associatedData, Int32(associatedData.count)) == 1
        }
        if ok && !plaintext.isEmpty {
            ok = ciphertext.withUnsafeMutableBufferPointer {
                EVP_EncryptUpdate(context.pointer, $0.baseAddress, &length, plaintext, Int32(plaintext.count)) == 1
            }
        }
        if ok {
            // GCM writes nothing at the end; the scratch byte keeps the pointer valid.
            var scratch = [UInt8](repeating: 0, count: 16)
            ok = EVP_EncryptFinal_ex(context.pointer, &scratch, &length) == 1 && length == 0
        }
        if ok {
            ok = EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), &tag) == 1
        }
        guard ok else { throw ProvenanceError(.cryptoLibrary, "OpenSSL AES-256-GCM encryption failed") }
        return SealedBox(nonce: iv, ciphertext: ciphertext, tag: tag)
    }

    /// Decrypts `box` after checking its tag.
    ///
    /// - Throws: `ProvenanceError.authenticationFailed` when the tag does not match (the
    ///   ciphertext, tag, nonce, associated data or key differ from the sealing ones; GCM
    ///   cannot tell which), `.malformed` for a nonce or tag of the wrong length,
    ///   `.invalidArgument` for a key of the wrong length.
    public static func open(
        _ box: SealedBox, key: [UInt8], associatedData: [UInt8] = []
    ) throws(ProvenanceError) -> [UInt8] {
        try checkKey(key)
        guard box.nonce.count == nonceByteCount else {
            throw ProvenanceError(.malformed, "AES-GCM nonce is \(box.nonce.count) bytes, expected \(nonceByteCount)")
        }
        guard box.tag.count == tagByteCount else {
            throw ProvenanceError(.malformed, "AES-GCM tag is \(box.tag.count) bytes, expected \(tagByteCount)")
        }
        let context = try CipherContext()
        var plaintext = [UInt8](repeating: 0, count: box.ciphertext.count)
        var tag = box.tag
        var length: Int32 = 0
        var ok = EVP_DecryptInit_ex(context.pointer, EVP_aes_256_gcm(), nil, key, box.nonce) == 1
        if ok && !associatedData.isEmpty {
            ok = EVP_DecryptUpdate(context.pointer, nil, &length, associatedData, Int32(associatedData.count)) == 1
        }
        if ok && !box.ciphertext.isEmpty {
            ok = plaintext.withUnsafeMutableBufferPointer {
                EVP_DecryptUpdate(
                    context.pointer, $0.baseAddress, &length, box.ciphertext, Int32(box.ciphertext.count)) == 1
            }
        }
        if ok {
            ok = EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), &tag) == 1
        }
        guard ok else { throw ProvenanceError(.cryptoLibrary, "OpenSSL AES-256-GCM decryption failed") }
        var scratch = [UInt8](repeating: 0, count: 16)
        guard EVP_DecryptFinal_ex(context.pointer, &scratch, &length) == 1 else {
            throw ProvenanceError(
                .authenticationFailed,
                "AES-GCM authentication failed: the ciphertext, tag, nonce or key is not the one it was sealed with")
        }
        return plaintext
    }

    private static func checkKey(_ key: [UInt8]) throws(ProvenanceError) {
        guard key.count == keyByteCount else {
            throw ProvenanceError(.invalidArgument, "AES-256 key is \(key.count) bytes, expected \(keyByteCount)")
        }
    }

    private static func checkNonce(_ nonce: [UInt8]) throws(ProvenanceError) {
        guard nonce.count == nonceByteCount else {
            throw ProvenanceError(.invalidArgument, "AES-GCM nonce is \(nonce.count) bytes, expected \(nonceByteCount)")
        }
    }

    /// An `EVP_CIPHER_CTX` freed when it goes away.
    private final class CipherContext {
        let pointer: OpaquePointer

        init() throws(ProvenanceError) {
            guard let pointer = EVP_CIPHER_CTX_new() else {
                throw ProvenanceError(.cryptoLibrary, "OpenSSL EVP_CIPHER_CTX_new failed")
            }
            self.pointer = pointer
        }

        deinit { EVP_CIPHER_CTX_free(pointer) }
    }
}
