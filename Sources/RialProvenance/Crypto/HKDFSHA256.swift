import COpenSSLCrypto
import Foundation

/// HKDF with HMAC-SHA256 (RFC 5869) through OpenSSL's `EVP_KDF` "HKDF" (OpenSSL 3.0+),
/// extract-then-expand mode.
///
/// PRK = HMAC-SHA256(salt, IKM); OKM = T(1) ‖ T(2) ‖ … truncated to `outputByteCount`,
/// T(i) = HMAC-SHA256(PRK, T(i-1) ‖ info ‖ i). An empty `salt` is RFC 5869's "not
/// provided" (32 zero bytes), as CryptoKit's `HKDF<SHA256>` treats it.
public enum HKDFSHA256 {
    /// The most output RFC 5869 allows: 255 x 32 bytes.
    public static let maximumOutputByteCount = 255 * 32

    // OSSL_PARAM keeps its key name's pointer, so the names must outlive the call that
    // builds the parameter (a Swift string literal passed as a C string does not):
    // immortal copies, never written.
    private nonisolated(unsafe) static let digestKey = UnsafePointer(strdup("digest")!)
    private nonisolated(unsafe) static let keyKey = UnsafePointer(strdup("key")!)
    private nonisolated(unsafe) static let saltKey = UnsafePointer(strdup("salt")!)
    private nonisolated(unsafe) static let infoKey = UnsafePointer(strdup("info")!)

    /// The derived key material.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: IKM, any length >= 1 byte.
    ///   - salt: optional salt; empty means none.
    ///   - info: context and application specific information; may be empty.
    ///   - outputByteCount: L, 1...8160 bytes.
    /// - Throws: `ProvenanceError` `.invalidArgument` for an empty IKM or L out of range,
    ///   `.cryptoLibrary` when libcrypto cannot run HKDF.
    public static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8] = [], info: [UInt8] = [], outputByteCount: Int
    ) throws(ProvenanceError) -> [UInt8] {
        guard !inputKeyMaterial.isEmpty else {
            throw ProvenanceError(.invalidArgument, "HKDF input key material is empty")
        }
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw ProvenanceError(
                .invalidArgument, "HKDF output length must be in 1...\(maximumOutputByteCount), got \(outputByteCount)")
        }
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else {
            throw ProvenanceError(.cryptoLibrary, "OpenSSL has no HKDF (EVP_KDF_fetch failed)")
        }
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else {
            throw ProvenanceError(.cryptoLibrary, "OpenSSL EVP_KDF_CTX_new failed")
        }
        defer { EVP_KDF_CTX_free(context) }

        var key = inputKeyMaterial, saltBytes = salt, infoBytes = info
        var digestName = Array("SHA256".utf8CString)
        var output = [UInt8](repeating: 0, count: outputByteCount)
        let status = digestName.withUnsafeMutableBufferPointer { name in
            key.withUnsafeMutableBytes { key in
                saltBytes.withUnsafeMutableBytes { salt in
                    infoBytes.withUnsafeMutableBytes { info in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(digestKey, name.baseAddress, 0),
                            OSSL_PARAM_construct_octet_string(keyKey, key.baseAddress, key.count),
                        ]
                        if salt.count > 0 {
                            parameters.append(OSSL_PARAM_construct_octet_string(saltKey, salt.baseAddress, salt.count))
                        }
                        if info.count > 0 {
                            parameters.append(OSSL_PARAM_construct_octet_string(infoKey, info.baseAddress, info.count))
                        }
                        parameters.append(OSSL_PARAM_construct_end())
                        return output.withUnsafeMutableBufferPointer {
                            EVP_KDF_derive(context, $0.baseAddress, $0.count, parameters)
                        }
                    }
                }
            }
        }
        guard status == 1 else {
            throw ProvenanceError(.cryptoLibrary, "OpenSSL EVP_KDF_derive (HKDF-SHA256) failed")
        }
        return output
    }
}
