import COpenSSLCrypto
import Foundation

/// Incremental SHA-256 (FIPS 180-4) through OpenSSL's EVP digest API
/// (`EVP_MD_CTX_new`, `EVP_DigestInit_ex(EVP_sha256())`, `EVP_DigestUpdate`,
/// `EVP_DigestFinal_ex`); the context is freed when the hasher goes away.
///
/// Noncopyable so a context is never shared or used after `finalize()`, which consumes
/// the hasher. Feeding chunks of any size gives the same digest as one `update` with
/// their concatenation.
///
/// OpenSSL failing to allocate or initialise a SHA-256 context is an environment
/// failure (out of memory, a broken libcrypto), not bad input, and stops the program.
public struct SHA256Hasher: ~Copyable {
    /// Digest length in bytes.
    public static let digestByteCount = 32

    private let context: OpaquePointer

    public init() {
        guard let ctx = EVP_MD_CTX_new() else {
            preconditionFailure("OpenSSL EVP_MD_CTX_new failed (out of memory)")
        }
        guard EVP_DigestInit_ex(ctx, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(ctx)
            preconditionFailure("OpenSSL EVP_DigestInit_ex(EVP_sha256()) failed")
        }
        context = ctx
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let ok = EVP_DigestUpdate(context, base, bytes.count)
        precondition(ok == 1, "OpenSSL EVP_DigestUpdate failed")
    }

    /// Adds `data` to the message.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything added. Consumes the hasher.
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Self.digestByteCount)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBufferPointer {
            EVP_DigestFinal_ex(context, $0.baseAddress, &length)
        }
        precondition(
            ok == 1 && length == UInt32(Self.digestByteCount),
            "OpenSSL EVP_DigestFinal_ex failed")
        return digest
    }

    /// The digest as 64 lowercase hex digits. Consumes the hasher.
    public consuming func finalizeHex() -> String {
        SHA256Digest.hex(finalize())
    }
}
