import Foundation
import RialCodecs
import RialTestSupport
import Testing

@testable import RialProvenance

/// The capture bundle of `../shared/product/birthmark-ios-readme.md` ("Device
/// Fingerprint", "Key Management", "Network Submission").
///
/// The expected values were computed outside this code with Python 3 (hashlib, and the
/// `cryptography` package's HKDF and AESGCM):
///
/// ```python
/// fp = hashlib.sha256(b"E621E1F8-C36C-495A-93FC-0C247A3E6E5F" + b"seed-0001"
///                     + b"Birthmark-Standard-iOS-v1").hexdigest()
/// key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"Birthmark234").derive(bytes(range(32)))
/// nonce = bytes(range(0xa0, 0xac))
/// token = base64.b64encode(nonce + AESGCM(key).encrypt(nonce, fp.encode(), None))
/// hashlib.sha256(b"\xff\xd8\xff\xe0 stand-in image bytes \xff\xd9").hexdigest()
/// ```
@Suite struct CaptureBundleTests {
    static let fingerprint = "2380fa73f854c185d72a48e7e297b04590f0358ea6423b8d858942a77a04fc90"
    static let derivedKey = "f0d5c3789aca601db618964d79a87baf648078ae7af1fc5c6d2c786ed217b5f3"
    static let token =
        "oKGio6SlpqeoqaqrPyBMeBTnbo8WwaSPAaqW5zZSLWTuXyAIFo5X5PbY2Hc+ROhI9DmXl65vHg2tU33PxZccPcFhK1uW4w2gXEiLofzr+nwCeGllrzNmuceNkeg="
    static let imageHash = "9fc24ef04fa36716d35c7618dd18716b5f50e5b8b5ea201c930ad773eb6897f3"
    static let image = Data([0xff, 0xd8, 0xff, 0xe0] + Array(" stand-in image bytes ".utf8) + [0xff, 0xd9])
    static let masterKey = [UInt8](0..<32)
    static let nonce = [UInt8](0xa0..<0xac)

    static func sealed() throws -> CaptureBundle {
        try CaptureBundle.seal(
            image: image, fingerprint: fingerprint, table: 847, masterKey: masterKey, keyIndex: 234,
            timestamp: 1_732_000_000, deviceSignature: [1, 2, 3], nonce: nonce)
    }

    @Test func fingerprintAndKeyFollowTheReadme() throws {
        #expect(
            CaptureBundleKeys.deviceFingerprint(
                vendorIdentifier: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", seed: "seed-0001")
                == Self.fingerprint)
        #expect(CaptureBundleKeys.info(keyIndex: 234) == Array("Birthmark234".utf8))
        #expect(
            SHA256Digest.hex(try CaptureBundleKeys.derivedKey(masterKey: Self.masterKey, keyIndex: 234))
                == Self.derivedKey)
    }

    @Test func sealBuildsTheReadmeBundle() throws {
        let bundle = try Self.sealed()
        #expect(bundle.imageHash == Self.imageHash)
        #expect(bundle.encryptedNUCToken == Self.token)
        // README "Network Submission": iOS repeats its single table and key index 3x.
        #expect(bundle.tableReferences == [847, 847, 847])
        #expect(bundle.keyIndices == [234, 234, 234])
        #expect(bundle.timestamp == 1_732_000_000)
        #expect(bundle.deviceSignature == "AQID")
        let json = try JSONSerialization.jsonObject(with: bundle.encoded()) as? [String: Any]
        #expect(
            Set(json?.keys.map { $0 } ?? []) == [
                "image_hash", "encrypted_nuc_token", "table_references", "key_indices", "timestamp", "device_signature",
            ])
    }

    @Test func verifyOpensTheFingerprintAndChecksTheHash() throws {
        let bundle = try CaptureBundle.parse(try Self.sealed().encoded())
        let result = try bundle.verify(
            image: Self.image, masterKeys: [847: Self.masterKey], expectedFingerprint: Self.fingerprint)
        #expect(result.fingerprint == Self.fingerprint)
        #expect(result.imageHashChecked && result.fingerprintChecked)
        #expect(result.table == 847 && result.keyIndex == 234)
    }

    static func kind(_ body: () throws -> Void) -> ProvenanceError.Kind? {
        do { try body() } catch let error as ProvenanceError { return error.kind } catch { return nil }
        return nil
    }

    @Test func everyTamperGivesOneClearError() throws {
        let good = try Self.sealed()
        let keys = [847: Self.masterKey]
        func verify(_ bundle: CaptureBundle, image: Data? = nil, keys: [Int: [UInt8]] = keys) -> ProvenanceError.Kind? {
            Self.kind {
                _ = try bundle.verify(
                    image: image ?? Self.image, masterKeys: keys, expectedFingerprint: Self.fingerprint)
            }
        }
        var combined = [UInt8](Data(base64Encoded: good.encryptedNUCToken)!)
        func withToken(_ change: (inout [UInt8]) -> Void) -> CaptureBundle {
            var bytes = combined
            change(&bytes)
            var bundle = good
            bundle.encryptedNUCToken = Data(bytes).base64EncodedString()
            return bundle
        }
        // nonce (bytes 0..<12), ciphertext, tag (last 16): each flipped bit fails authentication.
        #expect(verify(withToken { $0[3] ^= 1 }) == .authenticationFailed)
        #expect(verify(withToken { $0[20] ^= 1 }) == .authenticationFailed)
        #expect(verify(withToken { $0[$0.count - 1] ^= 1 }) == .authenticationFailed)
        // A different key index or master key derives another key.
        var otherIndex = good
        otherIndex.keyIndices = [235, 235, 235]
        #expect(verify(otherIndex) == .authenticationFailed)
        var otherKey = Self.masterKey
        otherKey[0] ^= 1
        #expect(verify(good, keys: [847: otherKey]) == .authenticationFailed)
        #expect(verify(good, keys: [848: Self.masterKey]) == .unknownKey)
        // The image changed after hashing.
        var image = Self.image
        image[5] ^= 1
        #expect(verify(good, image: image) == .hashMismatch)
        // A valid bundle sealed for another device.
        let other = try CaptureBundle.seal(
            image: Self.image, fingerprint: String(repeating: "0", count: 64), table: 847, masterKey: Self.masterKey,
            keyIndex: 234, timestamp: 1, nonce: Self.nonce)
        #expect(verify(other) == .fingerprintMismatch)
        // Cut inside the ciphertext: still a box, no longer the sealed one.
        #expect(verify(withToken { $0.removeLast(20) }) == .authenticationFailed)
        // Shorter than a nonce and a tag: not a sealed box at all.
        combined.removeLast(combined.count - 27)
        #expect(verify(withToken { _ in }) == .malformed)
    }

    @Test func validateNamesTheBadField() throws {
        let good = try Self.sealed()
        var cases: [(CaptureBundle, String)] = []
        var b = good
        b.imageHash = String(good.imageHash.uppercased())
        cases.append((b, "image_hash"))
        b = good
        b.tableReferences = [847, 847]
        cases.append((b, "table_references"))
        b = good
        b.tableReferences = [847, 848, 847]
        cases.append((b, "table_references"))
        b = good
        b.keyIndices = [1000, 1000, 1000]
        cases.append((b, "key_indices"))
        b = good
        b.encryptedNUCToken = "***"
        cases.append((b, "encrypted_nuc_token"))
        b = good
        b.deviceSignature = "?"
        cases.append((b, "device_signature"))
        b = good
        b.timestamp = -1
        cases.append((b, "timestamp"))
        for (bundle, field) in cases {
            do {
                try bundle.validate()
                Issue.record("\(field): accepted")
            } catch {
                #expect(error.kind == .malformed)
                #expect(error.detail.contains(field), "\(error)")
            }
        }
    }

    @Test func parseNamesTheSourceAndMissingField() throws {
        var json = try JSONSerialization.jsonObject(with: try Self.sealed().encoded()) as! [String: Any]
        json.removeValue(forKey: "key_indices")
        let data = try JSONSerialization.data(withJSONObject: json)
        do {
            _ = try CaptureBundle.parse(data, source: "bundle.json")
            Issue.record("accepted a bundle without key_indices")
        } catch {
            #expect(error.description == "bundle.json: not a capture bundle: missing field key_indices")
        }
    }

    /// The parser never crashes: every prefix, random corruptions and garbage are either a
    /// bundle that validates or one `.malformed` error.
    @Test func parserFuzz() throws {
        let data = try Self.sealed().encoded()
        var inputs = Mutations.truncations(of: data, count: 64)
        inputs += Mutations.corruptions(of: data, count: 300, seed: 15)
        inputs += Mutations.garbage(lengths: [0, 1, 2, 7, 64, 300, 4096], seed: 15)
        inputs.append(Data(count: CaptureBundle.maximumByteCount + 1))
        var accepted = 0
        for input in inputs {
            do {
                let bundle = try CaptureBundle.parse(input)
                accepted += 1
                // Whatever parses also verifies or fails with one typed error.
                _ = Self.kind { _ = try bundle.verify(image: Self.image, masterKeys: [847: Self.masterKey]) }
            } catch {
                #expect(error.kind == .malformed)
            }
        }
        #expect(accepted < inputs.count)
    }
}
