import Foundation
import RialCodecs
import Testing

@testable import RialProvenance

/// Published test vectors for the three primitives of the capture bundle.
@Suite struct CryptoVectorTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    // FIPS 180-2, Appendix B.1 (one-block message "abc") and B.2 (the 448-bit message).
    @Test func sha256FIPS180Examples() {
        #expect(
            SHA256Digest.hash(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256Digest.hash(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    struct HKDFCase: Sendable, CustomTestStringConvertible {
        var name: String, ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int, okm: String
        var testDescription: String { name }
    }

    // RFC 5869 Appendix A.1-A.3 (the SHA-256 cases): IKM, salt, info, L and OKM as published.
    static let hkdfCases = [
        HKDFCase(
            name: "RFC 5869 A.1 basic", ikm: Array(repeating: 0x0b, count: 22), salt: Array(0x00...0x0c),
            info: Array(0xf0...0xf9), length: 42,
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        HKDFCase(
            name: "RFC 5869 A.2 longer inputs", ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf),
            info: Array(0xb0...0xff), length: 82,
            okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
                + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
                + "cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        HKDFCase(
            name: "RFC 5869 A.3 zero-length salt and info", ikm: Array(repeating: 0x0b, count: 22), salt: [],
            info: [], length: 42,
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test(arguments: hkdfCases) func hkdfRFC5869(_ c: HKDFCase) throws {
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: c.ikm, salt: c.salt, info: c.info, outputByteCount: c.length)
        #expect(SHA256Digest.hex(okm) == c.okm)
    }

    @Test func hkdfRejectsBadArguments() {
        #expect(throws: ProvenanceError.self) { try HKDFSHA256.deriveKey(inputKeyMaterial: [], outputByteCount: 32) }
        #expect(throws: ProvenanceError.self) { try HKDFSHA256.deriveKey(inputKeyMaterial: [1], outputByteCount: 0) }
        #expect(throws: ProvenanceError.self) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], outputByteCount: 255 * 32 + 1)
        }
    }

    struct GCMCase: Sendable, CustomTestStringConvertible {
        var name: String, key: String, nonce: String, plaintext: String, aad: String, ciphertext: String, tag: String
        var testDescription: String { name }
    }

    static let k15 = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
    static let p15 =
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    static let c15 =
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
        + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"

    // McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)" (revised 2005),
    // Appendix B, Test Cases 13-16: the AES-256 cases (K, P, A, IV, C, T as published).
    static let gcmCases = [
        GCMCase(
            name: "McGrew-Viega test case 13", key: String(repeating: "00", count: 32),
            nonce: String(repeating: "00", count: 12), plaintext: "", aad: "", ciphertext: "",
            tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        GCMCase(
            name: "McGrew-Viega test case 14", key: String(repeating: "00", count: 32),
            nonce: String(repeating: "00", count: 12), plaintext: String(repeating: "00", count: 16), aad: "",
            ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        GCMCase(
            name: "McGrew-Viega test case 15", key: k15, nonce: "cafebabefacedbaddecaf888", plaintext: p15, aad: "",
            ciphertext: c15, tag: "b094dac5d93471bdec1a502270e3cc6c"),
        GCMCase(
            name: "McGrew-Viega test case 16", key: k15, nonce: "cafebabefacedbaddecaf888",
            plaintext: String(p15.prefix(120)), aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            ciphertext: String(c15.prefix(120)), tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
    ]

    @Test(arguments: gcmCases) func aes256GCMSealMatchesPublishedVector(_ c: GCMCase) throws {
        let box = try AES256GCM.seal(
            Self.bytes(c.plaintext), key: Self.bytes(c.key), nonce: Self.bytes(c.nonce),
            associatedData: Self.bytes(c.aad))
        #expect(SHA256Digest.hex(box.ciphertext) == c.ciphertext)
        #expect(SHA256Digest.hex(box.tag) == c.tag)
    }

    @Test(arguments: gcmCases) func aes256GCMOpensPublishedVector(_ c: GCMCase) throws {
        let box = AES256GCM.SealedBox(
            nonce: Self.bytes(c.nonce), ciphertext: Self.bytes(c.ciphertext), tag: Self.bytes(c.tag))
        let plaintext = try AES256GCM.open(box, key: Self.bytes(c.key), associatedData: Self.bytes(c.aad))
        #expect(SHA256Digest.hex(plaintext) == c.plaintext)
    }

    static let authenticationFailure =
        "AES-GCM authentication failed: the ciphertext, tag, nonce or key is not the one it was sealed with"

    /// Any altered part of a published vector fails authentication with the one error.
    @Test(arguments: gcmCases) func aes256GCMRejectsEveryAlteredPart(_ c: GCMCase) {
        let key = Self.bytes(c.key), aad = Self.bytes(c.aad)
        let box = AES256GCM.SealedBox(
            nonce: Self.bytes(c.nonce), ciphertext: Self.bytes(c.ciphertext), tag: Self.bytes(c.tag))
        var altered: [(AES256GCM.SealedBox, [UInt8], [UInt8])] = []
        var tag = box
        tag.tag[0] ^= 1
        altered.append((tag, key, aad))
        var nonce = box
        nonce.nonce[11] ^= 0x80
        altered.append((nonce, key, aad))
        var wrongKey = key
        wrongKey[31] ^= 1
        altered.append((box, wrongKey, aad))
        altered.append((box, key, aad + [0]))
        if !box.ciphertext.isEmpty {
            var ciphertext = box
            ciphertext.ciphertext[ciphertext.ciphertext.count - 1] ^= 4
            altered.append((ciphertext, key, aad))
        }
        for (box, key, aad) in altered {
            #expect(throws: ProvenanceError(.authenticationFailed, Self.authenticationFailure)) {
                try AES256GCM.open(box, key: key, associatedData: aad)
            }
        }
    }

    @Test func aes256GCMRejectsWrongLengths() {
        #expect(throws: ProvenanceError.self) { try AES256GCM.seal([1], key: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: ProvenanceError.self) {
            try AES256GCM.seal([1], key: [UInt8](repeating: 0, count: 32), nonce: [UInt8](repeating: 0, count: 8))
        }
        #expect(throws: ProvenanceError.self) {
            try AES256GCM.open(
                AES256GCM.SealedBox(nonce: [0], ciphertext: [], tag: []), key: [UInt8](repeating: 0, count: 32))
        }
    }

    @Test func randomNoncesDiffer() throws {
        let key = [UInt8](repeating: 7, count: 32)
        let a = try AES256GCM.seal([1, 2, 3], key: key), b = try AES256GCM.seal([1, 2, 3], key: key)
        #expect(a.nonce.count == 12)
        #expect(a.nonce != b.nonce)
        #expect(try AES256GCM.open(a, key: key) == [1, 2, 3])
    }
}
