import Foundation
import RialTestSupport
import Testing

@testable import RialProvenance

/// The frame hash chain of methods.md section 6 ("Hash chain (phone)") with the byte
/// layout `FrameHashLayout` documents, and its verifier.
@Suite struct HashChainTests {
    static func hash(_ hex: String) -> ChainHash { ChainHash(bytes: CryptoVectorTests.bytes(hex)) }

    /// Three hand-made frames. Their hashes were computed with Python's hashlib, not by
    /// this code:
    ///
    /// ```python
    /// f = [b"\x01"*12 + struct.pack('<2f', 0.5, 1.0) + struct.pack('<d', 0.0),
    ///      b"\x02"*12 + struct.pack('<d', 1/30),
    ///      b"\x03"*12 + struct.pack('<d', 2/30)]
    /// prev = b""
    /// for x in f: prev = hashlib.sha256(x + prev).digest(); print(prev.hex())
    /// ```
    static let frames = [
        ChainFrame(pixels: Array(repeating: 1, count: 12), depthMetres: [0.5, 1.0], timestamp: 0),
        ChainFrame(pixels: Array(repeating: 2, count: 12), timestamp: 1.0 / 30),
        ChainFrame(pixels: Array(repeating: 3, count: 12), timestamp: 2.0 / 30),
    ]
    static let expected = [
        "4c00006ab69049e4554338203b0e49c606a4ff2e0250b53f26280a95c7873765",
        "bc26b445c5c6d04891769442e7e75b8da5acc2196e61194dd8d849e2f2351e2b",
        "0eb704f54196d322689fb97e8aa8a9294e9efbc7a007a9ae1fa6283788a620ba",
    ]

    @Test func chainMatchesHashlib() {
        let record = HashChainRecord.chain(Self.frames)
        #expect(record.frameHashes.map(\.hex) == Self.expected)
        #expect(record.finalHash?.hex == Self.expected[2])
        #expect(record.attestation == .init(attestedHash: Self.hash(Self.expected[2]), frameCount: 3))
        #expect(record.checkpoints.isEmpty)
    }

    @Test func handComputedChainVerifies() throws {
        // The recorded chain as the phone would upload it, from the hashlib values.
        let hashes = Self.expected.map(Self.hash)
        let record = HashChainRecord(
            frameHashes: hashes, checkpoints: [], finalHash: hashes[2],
            attestation: .init(attestedHash: hashes[2], frameCount: 3))
        var source = InMemoryFrameSource(Self.frames)
        let result = try HashChainVerifier.verify(&source, against: record)
        #expect(result.status == .intact)
        #expect(result.firstBadFrame == nil && result.attestedFrames == 3 && result.framesRead == 3)
        #expect(DeployedChainCheck.failures(record).isEmpty)
    }

    /// Frames 1...n with distinct bytes; every 3rd carries a depth keyframe (10 fps of 30).
    static func recording(_ count: Int) -> [ChainFrame] {
        (0..<count).map { i in
            let pixels = (0..<64).map { UInt8(truncatingIfNeeded: i &* 31 &+ $0) }
            let depth: [Float] = i % 3 == 0 ? (0..<8).map { Float(i) * 0.01 + Float($0) } : []
            return ChainFrame(pixels: pixels, depthMetres: depth, timestamp: Double(i) / 30)
        }
    }

    static func verify(_ frames: [ChainFrame], _ record: HashChainRecord) throws -> HashChainVerification {
        var source = InMemoryFrameSource(frames)
        return try HashChainVerifier.verify(&source, against: record)
    }

    @Test func fullRecordingHasThreeCheckpoints() throws {
        let frames = Self.recording(450)
        let record = HashChainRecord.chain(frames)
        #expect(record.checkpoints.map(\.index) == [0, 1, 2])
        #expect(record.checkpoints.map(\.hash) == [149, 299, 449].map { record.frameHashes[$0] })
        #expect(try Self.verify(frames, record).status == .intact)
    }

    struct TamperCase: Sendable, CustomTestStringConvertible {
        var name: String
        var kind: HashChainVerification.Tamper
        var firstBadFrame: Int?
        var apply: @Sendable (inout [ChainFrame], inout HashChainRecord) -> Void
        var testDescription: String { name }
    }

    // One case per tamper kind on a 200-frame recording (checkpoint 0 at frame 150), with
    // the frame the tamper starts at (1-based).
    static let tamperCases: [TamperCase] = [
        TamperCase(name: "pixel changed in frame 57", kind: .modified, firstBadFrame: 57) { frames, _ in
            frames[56].pixels[10] ^= 1
        },
        TamperCase(name: "depth changed in frame 31", kind: .modified, firstBadFrame: 31) { frames, _ in
            frames[30].depth[0] ^= 0x80
        },
        TamperCase(name: "timestamp changed in frame 2", kind: .modified, firstBadFrame: 2) { frames, _ in
            frames[1].timestamp += 0.001
        },
        TamperCase(name: "frame 90 dropped", kind: .dropped, firstBadFrame: 90) { frames, _ in
            frames.remove(at: 89)
        },
        TamperCase(name: "frame inserted before frame 120", kind: .inserted, firstBadFrame: 120) { frames, _ in
            frames.insert(ChainFrame(pixels: Array(repeating: 9, count: 64), timestamp: 4.0), at: 119)
        },
        TamperCase(name: "frame appended after the last", kind: .inserted, firstBadFrame: 201) { frames, _ in
            frames.append(ChainFrame(pixels: Array(repeating: 9, count: 64), timestamp: 7.0))
        },
        TamperCase(name: "frames 10 and 11 swapped", kind: .reordered, firstBadFrame: 10) { frames, _ in
            frames.swapAt(9, 10)
        },
        TamperCase(name: "last 30 frames cut", kind: .truncated, firstBadFrame: 171) { frames, _ in
            frames.removeLast(30)
        },
        TamperCase(name: "frames and their hashes cut, attestation kept", kind: .truncated, firstBadFrame: 171) {
            frames, record in
            frames.removeLast(30)
            record.frameHashes.removeLast(30)
            record.finalHash = record.frameHashes.last
        },
        TamperCase(name: "checkpoint 0 altered", kind: .checkpointMismatch, firstBadFrame: 150) { _, record in
            record.checkpoints[0].hash = record.frameHashes[0]
        },
        TamperCase(name: "final hash altered", kind: .finalHashMismatch, firstBadFrame: 200) { _, record in
            record.finalHash = record.frameHashes[0]
        },
        TamperCase(
            name: "frame 5 replaced and the whole chain recomputed", kind: .attestationMismatch, firstBadFrame: nil
        ) { frames, record in
            frames[4].pixels[0] ^= 0xff
            let attestation = record.attestation
            record = HashChainRecord.chain(frames)
            record.attestation = attestation
        },
    ]

    @Test(arguments: tamperCases) func tamperIsCaughtAtItsFrame(_ c: TamperCase) throws {
        var frames = Self.recording(200)
        var record = HashChainRecord.chain(frames)
        #expect(try Self.verify(frames, record).status == .intact)
        c.apply(&frames, &record)
        let result = try Self.verify(frames, record)
        #expect(result.status == .broken)
        #expect(result.tamper == c.kind)
        #expect(result.firstBadFrame == c.firstBadFrame)
    }

    @Test func interruptedRecordingIsPartiallyAttestedByItsCheckpoint() throws {
        // Recording stopped at frame 200; the app attested checkpoint 0 (frame 150).
        let frames = Self.recording(200)
        let record = HashChainRecord.chain(frames, interruptedAtCheckpoint: 0)
        #expect(record.attestation?.checkpointIndex == 0)
        let result = try Self.verify(frames, record)
        #expect(result.status == .partial)
        #expect(result.attestedFrames == 150)
        #expect(result.passes)
        #expect(DeployedChainCheck.failures(record).isEmpty)

        // A frame changed after the checkpoint: broken at that frame, frames 1-150 still attested.
        var later = frames
        later[170].pixels[0] ^= 1
        let afterCheckpoint = try Self.verify(later, record)
        #expect(afterCheckpoint.status == .broken && afterCheckpoint.firstBadFrame == 171)
        #expect(afterCheckpoint.attestedFrames == 150)

        // Before it: nothing attested.
        var earlier = frames
        earlier[100].pixels[0] ^= 1
        let beforeCheckpoint = try Self.verify(earlier, record)
        #expect(beforeCheckpoint.firstBadFrame == 101 && beforeCheckpoint.attestedFrames == 0)

        // A partial attestation over the wrong checkpoint hash.
        var wrong = record
        wrong.attestation?.attestedHash = record.frameHashes[10]
        #expect(try Self.verify(frames, wrong).tamper == .attestationMismatch)
    }

    @Test func unattestedAndEmptyRecordings() throws {
        var record = HashChainRecord.chain(Self.frames)
        record.attestation = nil
        #expect(try Self.verify(Self.frames, record).status == .unattested)
        #expect(try Self.verify([], record).tamper == .malformed)
    }

    /// The deployed check never looks at frames: a chain recomputed over replaced frames
    /// passes it; and it lets the attested frame count differ by up to 5.
    @Test func deployedCheckPassesARecomputedChain() {
        var frames = Self.recording(200)
        frames[4].pixels[0] ^= 0xff
        #expect(DeployedChainCheck.failures(HashChainRecord.chain(frames)).isEmpty)
        var record = HashChainRecord.chain(Self.recording(200))
        record.attestation?.frameCount = 205
        #expect(DeployedChainCheck.failures(record).isEmpty)
        record.attestation?.frameCount = 206
        #expect(DeployedChainCheck.failures(record).count == 1)
        record.checkpoints[0].hash = record.frameHashes[0]
        #expect(DeployedChainCheck.failures(record).count == 2)
    }

    /// Out-of-range checkpoint indices and frame counts are reported, never trapped on.
    @Test func hostileIndicesAndCounts() throws {
        let frames = Self.recording(10)
        for index in [-1, 3, Int.max, Int.min] {
            var record = HashChainRecord.chain(frames)
            record.checkpoints.append(.init(index: index, hash: record.frameHashes[0]))
            #expect(try Self.verify(frames, record).tamper == .malformed)
            #expect(DeployedChainCheck.failures(record).count == 1)
            record = HashChainRecord.chain(frames)
            record.attestation?.checkpointIndex = index
            #expect(try Self.verify(frames, record).tamper == .malformed)
        }
        for count in [Int.max, Int.min, -1] {
            var record = HashChainRecord.chain(frames)
            record.attestation?.frameCount = count
            #expect(try Self.verify(frames, record).status == .broken)
            #expect(DeployedChainCheck.failures(record).count == 1)
        }
    }

    /// Truncated, corrupted and random JSON either fails to decode or decodes to a record
    /// both verifiers handle without trapping.
    @Test func recordDecodingFuzz() throws {
        let frames = Self.recording(160)
        let data = try JSONEncoder().encode(HashChainRecord.chain(frames, interruptedAtCheckpoint: 0))
        var inputs = Mutations.truncations(of: data, count: 48)
        inputs += Mutations.corruptions(of: data, count: 200, seed: 150)
        inputs += Mutations.garbage(lengths: [0, 1, 5, 100, 2000], seed: 150)
        var decoded = 0
        for input in inputs {
            guard let record = try? JSONDecoder().decode(HashChainRecord.self, from: input) else { continue }
            decoded += 1
            _ = DeployedChainCheck.failures(record)
            _ = try Self.verify(frames, record)
        }
        #expect(decoded > 0 && decoded < inputs.count)
    }

    @Test func recordDecodesOnlyValidHashes() throws {
        let record = HashChainRecord.chain(Self.recording(160))
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(HashChainRecord.self, from: data) == record)
        let good = record.frameHashes[0].base64
        for bad in ["AAAA", "not base64!", String(good.dropLast(4))] {
            let json = #"{"frame_hashes": ["\#(bad)"], "checkpoints": []}"#
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(HashChainRecord.self, from: Data(json.utf8))
            }
        }
        let json = #"{"frame_hashes": ["\#(good)"], "checkpoints": []}"#
        #expect(
            try JSONDecoder().decode(HashChainRecord.self, from: Data(json.utf8)).frameHashes == [record.frameHashes[0]]
        )
    }
}
