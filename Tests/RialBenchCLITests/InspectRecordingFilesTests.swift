import Foundation
import Testing

/// `rial-bench inspect` on the files of a video sample (docs/dataset-format-video.md),
/// each written out byte by byte here.
@Suite struct InspectRecordingFilesTests {
    /// CRC-32 (ISO-HDLC, RFC 1952 section 8), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// A gzip member (RFC 1952) holding `bytes` in one stored DEFLATE block (RFC 1951 3.2.4).
    static func gzipStored(_ bytes: [UInt8]) -> [UInt8] {
        let length = UInt16(bytes.count)
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
            + [1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + bytes + le32(crc32(bytes)) + le32(UInt32(bytes.count))
    }

    @Test func keyframeBlobFrameSequenceAndChain() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-bench-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        // methods.md section 6: RLDP, version 1, 2 frames of 2 x 1; index (0.0 s, 0),
        // (0.1 s, 8); float32 0.5, 1.0 | 2.0, 0.0 (0.0 = no return, invalid).
        let blob: [UInt8] =
            [0x52, 0x4C, 0x44, 0x50, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0]
            + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            + [0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F, 8, 0, 0, 0]
            + [0, 0, 0, 0x3F, 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0, 0]
        // RLFS, version 1, 2 x 2, 3 frames, flags 0; 0, 1/30, 2/30 s; 6 NV12 bytes each.
        let sequence: [UInt8] =
            [0x52, 0x4C, 0x46, 0x53, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]
            + [0, 0, 0, 0, 0, 0, 0, 0]
            + [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0xA1, 0x3F]
            + [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0xB1, 0x3F]
            + Array(repeating: 7, count: 18)
        // HashChainTests' three hashes (Python hashlib), base64; the final hash altered in
        // the second file.
        let hashes = [
            "TAAAaraQSeRVQzggOw5Jxgak/y4CULU/JigKlceHN2U=", "vCa0RcXG0EiRdpRC5+dbjaWswhluYRlN2NhJ4vI1His=",
            "DrcE9UGW0yJon7l+iqipKU6e+8egB6muH6YoN4imILo=",
        ]
        func chain(final: String) -> String {
            #"{"frame_hashes": ["\#(hashes[0])", "\#(hashes[1])", "\#(hashes[2])"], "checkpoints": [], "final_hash": "\#(final)", "attestation": {"attested_hash": "\#(hashes[2])", "frame_count": 3}}"#
        }
        let files: [(String, Data)] = [
            ("depth_keyframes.bin", Data(Self.gzipStored(blob))), ("frames.rlfs", Data(sequence)),
            ("hash_chain.json", Data(chain(final: hashes[2]).utf8)),
            ("bad_chain.json", Data(chain(final: hashes[0]).utf8)),
        ]
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        let paths = files.map { folder.appendingPathComponent($0.0).path }

        let result = try CLIRunner.run(["inspect", "--json"] + paths)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(objects.count == 4)
        #expect(objects[0]["kind"] as? String == "depth_keyframes")
        #expect(objects[0]["variant"] as? String == "rldp" && objects[0]["keyframes"] as? Int == 2)
        #expect(objects[0]["width"] as? Int == 2 && objects[0]["height"] as? Int == 1)
        #expect(objects[0]["last_timestamp"] as? Double == 0.1)
        #expect(objects[0]["valid_fraction"] as? Double == 0.75)
        #expect(objects[1]["kind"] as? String == "frame_sequence" && objects[1]["frames"] as? Int == 3)
        #expect(objects[1]["bytes"] as? Int == 24 + 3 * 8 + 3 * 6)
        #expect(objects[1]["timestamps_going_back"] as? Int == 0)
        #expect(objects[2]["kind"] as? String == "hash_chain" && objects[2]["attestation"] as? String == "complete")
        #expect((objects[2]["deployed_check_failures"] as? [String])?.isEmpty == true)
        // methods.md section 6, deployed verifier: "final hash = last frame hash; the attested
        // final hash equals the chain's final hash": both fail when only the final hash changes.
        #expect(
            objects[3]["deployed_check_failures"] as? [String] == [
                "final hash is not the last frame's hash", "attested hash is not the final hash",
            ])

        let table = try CLIRunner.run(["inspect"] + paths)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("0.000-0.100") && table.stdout.contains("2x2 NV12"))
        #expect(table.stdout.contains("complete, 3 frames") && table.stdout.contains("passes"))

        // A cut frame sequence is one error line naming the file, exit 65.
        try Data(sequence.dropLast(2)).write(to: folder.appendingPathComponent("frames.rlfs"))
        let cut = try CLIRunner.run(["inspect", paths[1]])
        #expect(cut.status == 65)
        #expect(cut.stderr.contains("\(paths[1]): frame sequence is truncated"))
    }
}
