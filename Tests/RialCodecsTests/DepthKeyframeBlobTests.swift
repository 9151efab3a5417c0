import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// The deployed depth keyframe blob (methods.md section 6, "Depth keyframe blob
/// (reference, as deployed)"): blobs written out byte by byte here from that text, then
/// gzipped by zlib, not by `DepthKeyframeBlob.encode`.
@Suite("Depth keyframe blob")
struct DepthKeyframeBlobTests {
    static func gzip(_ bytes: [UInt8]) throws -> Data {
        try bytes.withUnsafeBytes { try ZlibCodec.deflate($0, container: .gzip, level: 6) }
    }

    /// methods.md section 6: "16-byte header (magic `RLDP`, u32 version = 1, u32
    /// frame_count, u16 width, u16 height)", here 2 frames of 2 x 1, little-endian.
    static let header: [UInt8] = [
        0x52, 0x4C, 0x44, 0x50, // "RLDP"
        0x01, 0x00, 0x00, 0x00, // version 1
        0x02, 0x00, 0x00, 0x00, // frame_count 2
        0x02, 0x00, // width 2
        0x01, 0x00, // height 1
    ]
    /// "one 12-byte index entry per frame (f64 timestamp, u32 offset relative to the start
    /// of the data section)": 0.0 s at offset 0, 0.1 s (0x3FB999999999999A) at offset 8.
    static let index: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00,
        0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F, 0x08, 0x00, 0x00, 0x00,
    ]
    /// "then float32 frames of width x height, metres": 0.5, 1.0 | 2.0, 4.0
    /// (0x3F000000, 0x3F800000, 0x40000000, 0x40800000).
    static let frameData: [UInt8] = [
        0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0x3F,
        0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0x40,
    ]

    static func index(_ entries: [(timestamp: [UInt8], offset: UInt8)]) -> [UInt8] {
        entries.flatMap { $0.timestamp + [$0.offset, 0, 0, 0] }
    }
    static let zero: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
    static let tenth: [UInt8] = [0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F]

    static func expectHandBuilt(_ reading: DepthKeyframeBlob.Reading, variant: DepthKeyframeBlob.Variant) {
        #expect(reading.variant == variant)
        #expect(reading.keyframes.width == 2 && reading.keyframes.height == 1)
        #expect(reading.keyframes.frames.map(\.timestamp) == [0.0, 0.1])
        #expect(reading.keyframes.frames.map(\.depth.metres) == [[0.5, 1.0], [2.0, 4.0]])
        #expect(reading.keyframes.frames.allSatisfy { $0.videoFrameIndex == nil })
        #expect(reading.outOfRangeCount == 0)
    }

    @Test func handBuiltRLDPBlob() throws {
        let data = try Self.gzip(Self.header + Self.index + Self.frameData)
        Self.expectHandBuilt(try DepthKeyframeBlob.read(data: data), variant: .rldp)
        Self.expectHandBuilt(
            try DepthKeyframeBlob.read(data: data, variant: .rldp, width: 2, height: 1), variant: .rldp)
    }

    @Test func handBuiltHeaderlessBlob() throws {
        // "The phone's writer omits the header in one path": the same bytes without the
        // 16-byte header; 40 bytes / (12 + 4 x 2 x 1) = 2 frames.
        let data = try Self.gzip(Self.index + Self.frameData)
        Self.expectHandBuilt(try DepthKeyframeBlob.read(data: data, width: 2, height: 1), variant: .headerless)
        Self.expectHandBuilt(
            try DepthKeyframeBlob.read(data: data, variant: .headerless, width: 2, height: 1), variant: .headerless)
    }

    @Test func offsetsPlaceFramesInAnyOrder() throws {
        // Frame 0 stored second, frame 1 first: the offsets decide, not the order.
        let swappedIndex = Self.index([(Self.zero, 8), (Self.tenth, 0)])
        let swappedData = Array(Self.frameData[8...]) + Array(Self.frameData[..<8])
        let reading = try DepthKeyframeBlob.read(data: try Self.gzip(Self.header + swappedIndex + swappedData))
        Self.expectHandBuilt(reading, variant: .rldp)
    }

    @Test func storedBytesAreKeptAsWritten() throws {
        // 0.0 (no LiDAR return) and 2000 m (0x44FA0000) are invalid depth, NaN in metres,
        // but the chain covers the bytes as stored.
        let frame: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFA, 0x44]
        let header: [UInt8] = Array(Self.header[0..<8]) + [1, 0, 0, 0] + [0x02, 0x00, 0x01, 0x00]
        let reading = try DepthKeyframeBlob.read(data: try Self.gzip(header + Array(Self.index[0..<12]) + frame))
        #expect(reading.storedFrames == [frame])
        #expect(reading.keyframes.frames[0].depth.metres.allSatisfy { $0.isNaN })
        #expect(reading.outOfRangeCount == 1)
    }

    @Test func emptyRecordingReads() throws {
        let header: [UInt8] = Array(Self.header[0..<8]) + [0, 0, 0, 0] + [0x02, 0x00, 0x01, 0x00]
        let reading = try DepthKeyframeBlob.read(data: try Self.gzip(header))
        #expect(reading.keyframes.isEmpty && reading.keyframes.width == 2 && reading.variant == .rldp)
    }

    struct BadBlob: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var gzipped = true
        var variant: DepthKeyframeBlob.Variant? = nil
        var width: Int? = nil
        var height: Int? = nil
        var detail: String
        var testDescription: String { name }
    }

    static let h = header, i = index, d = frameData
    static let bad: [BadBlob] = [
        BadBlob(name: "not gzip", bytes: h + i + d, gzipped: false, detail: "gzip"),
        BadBlob(
            name: "wrong magic", bytes: [0x52, 0x4C, 0x44, 0x51] + Array(h[4...]) + i + d, variant: .rldp,
            detail: "no RLDP header"),
        BadBlob(
            name: "wrong magic, headerless, no size", bytes: [0x52, 0x4C, 0x44, 0x51] + Array(h[4...]) + i + d,
            detail: "width and height must be given"),
        BadBlob(
            name: "header where headerless expected", bytes: h + i + d, variant: .headerless, width: 2, height: 1,
            detail: "expected the headerless variant"),
        BadBlob(
            name: "version 2", bytes: Array(h[0..<4]) + [2, 0, 0, 0] + Array(h[8...]) + i + d, detail: "version 2"),
        BadBlob(
            name: "big-endian header", bytes: Array(h[0..<4]) + [0, 0, 0, 1] + Array(h[8...]) + i + d,
            detail: "big-endian"),
        BadBlob(
            name: "header only part", bytes: Array(Array(h[0..<10])), detail: "shorter than the 16-byte RLDP header"),
        BadBlob(name: "truncated data", bytes: h + i + Array(d.dropLast(1)), detail: "truncated"),
        BadBlob(
            name: "count 3 for 2 frames", bytes: Array(h[0..<8]) + [3, 0, 0, 0] + Array(h[12...]) + i + d,
            detail: "truncated"),
        BadBlob(name: "trailing bytes", bytes: h + i + d + [0], detail: "bytes after"),
        BadBlob(
            name: "absurd frame count", bytes: Array(h[0..<8]) + [0, 0xCA, 0x9A, 0x3B] + Array(h[12...]) + i + d,
            detail: "more than the 450"),
        BadBlob(
            name: "absurd size", bytes: Array(h[0..<8]) + [0xC2, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF] + i + d,
            detail: "depth values in all"),
        BadBlob(name: "zero width", bytes: Array(h[0..<12]) + [0, 0, 1, 0] + i + d, detail: "2 frames of 0x1"),
        BadBlob(name: "offset outside", bytes: h + index([(zero, 0), (tenth, 12)]) + d, detail: "offset 12"),
        BadBlob(
            name: "offset off a float boundary", bytes: h + index([(zero, 0), (tenth, 6)]) + d, detail: "offset 6"),
        BadBlob(name: "overlapping", bytes: h + index([(zero, 4), (tenth, 4)]) + d, detail: "overlap"),
        BadBlob(name: "time goes back", bytes: h + index([(tenth, 0), (zero, 8)]) + d, detail: "before keyframe 0"),
        BadBlob(
            name: "NaN timestamp", bytes: h + index([(zero, 0), ([0, 0, 0, 0, 0, 0, 0xF8, 0x7F], 8)]) + d,
            detail: "timestamp nan"),
        BadBlob(
            name: "manifest size differs", bytes: h + i + d, width: 4, height: 1,
            detail: "header says 2x1, the manifest says 4x1"),
        BadBlob(
            name: "headerless not whole frames", bytes: i + d + [0, 0, 0, 0], width: 2, height: 1,
            detail: "not a whole number"),
        BadBlob(name: "headerless wrong size", bytes: i + d, width: 3, height: 1, detail: "not a whole number"),
    ]

    @Test(arguments: bad)
    func malformedBlobIsOneClearError(_ blob: BadBlob) throws {
        let data = blob.gzipped ? try Self.gzip(blob.bytes) : Data(blob.bytes)
        do {
            _ = try DepthKeyframeBlob.read(
                data: data, variant: blob.variant, width: blob.width, height: blob.height, source: "clip/depth.bin")
            Issue.record("\(blob.name) was read")
        } catch let error as MediaError {
            #expect(error.source == "clip/depth.bin")
            #expect(error.description.hasPrefix("clip/depth.bin: "))
            #expect(error.detail.contains(blob.detail), "\(error.detail)")
            #expect(!error.description.contains("\n"))
        }
    }

    // MARK: - Round trip

    static func keyframes(count: Int, width: Int, height: Int, seed: UInt64) throws -> DepthKeyframes {
        var rng = SeededGenerator(seed: seed)
        let frames = (0..<count).map { k in
            let values = (0..<(width * height)).map { i -> Float in
                i % 5 == 2 ? .nan : Float.random(in: 0.2...12, using: &rng)
            }
            return DepthKeyframe(
                timestamp: Double(k) / 10, depth: DepthMap(width: width, height: height, metres: values)!)
        }
        return try DepthKeyframes(frames)
    }

    @Test(arguments: DepthKeyframeBlob.Variant.allCases)
    func roundTrip(variant: DepthKeyframeBlob.Variant) throws {
        let keyframes = try Self.keyframes(count: 5, width: 16, height: 12, seed: 1)
        let data = try DepthKeyframeBlob.encode(keyframes, variant: variant)
        let reading = try DepthKeyframeBlob.read(data: data, width: 16, height: 12)
        #expect(reading.variant == variant)
        #expect(reading.keyframes == keyframes)
    }

    @Test func roundTripThroughFile() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("rec/depth_keyframes.bin").path
        let keyframes = try Self.keyframes(count: 150, width: 32, height: 24, seed: 2)
        try DepthKeyframeBlob.write(keyframes, to: path)
        #expect(try DepthKeyframeBlob.read(path: path).keyframes == keyframes)
        #expect(throws: MediaError.self) { try DepthKeyframeBlob.read(path: path + ".missing") }
    }

    @Test func writerRefusesWhatTheFormatCannotHold() throws {
        let big = try DepthKeyframes([
            DepthKeyframe(
                timestamp: 0, depth: DepthMap(width: 70_000, height: 1, metres: .init(repeating: 1, count: 70_000))!)
        ])
        #expect(throws: MediaError.self) { try DepthKeyframeBlob.encode(big) }
        #expect(throws: MediaError.self) {
            try DepthKeyframeBlob.encode(try Self.keyframes(count: 451, width: 1, height: 1, seed: 3))
        }
    }

    // MARK: - Fuzz

    /// Reads or throws `MediaError`; anything else (a trap, another error) fails.
    func survive(_ inputs: [Data], width: Int? = 4, height: Int? = 3) -> (read: Int, rejected: Int) {
        var read = 0, rejected = 0
        for input in inputs {
            do {
                _ = try DepthKeyframeBlob.read(data: input, width: width, height: height)
                read += 1
            } catch is MediaError {
                rejected += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
        return (read, rejected)
    }

    @Test("fuzz: truncated at every length, compressed and uncompressed", arguments: DepthKeyframeBlob.Variant.allCases)
    func truncations(variant: DepthKeyframeBlob.Variant) throws {
        let keyframes = try Self.keyframes(count: 3, width: 4, height: 3, seed: 4)
        let data = try DepthKeyframeBlob.encode(keyframes, variant: variant)
        let compressed = (0..<data.count).map { data.prefix($0) }
        #expect(survive(compressed).rejected == compressed.count)
        let raw = try ZlibCodec.inflate(data, container: .gzip, limit: 1 << 20, source: "x")
        let cut = try (0..<raw.count).map { try Self.gzip(Array(raw.prefix($0))) }
        // A headerless prefix of whole frames (1 or 2 of them) reads as a shorter recording;
        // nothing else reads.
        let result = survive(cut)
        #expect(result.read == (variant == .rldp ? 0 : 2))
        #expect(result.read + result.rejected == cut.count)
    }

    @Test("fuzz: random bytes and bit flips", arguments: DepthKeyframeBlob.Variant.allCases)
    func corruptions(variant: DepthKeyframeBlob.Variant) throws {
        let keyframes = try Self.keyframes(count: 3, width: 4, height: 3, seed: 5)
        let data = try DepthKeyframeBlob.encode(keyframes, variant: variant)
        let seed: UInt64 = variant == .rldp ? 50 : 60
        let inputs =
            Mutations.corruptions(of: data, count: 1500, seed: seed)
            + Mutations.garbage(lengths: Array(0..<200), seed: seed + 1)
        let result = survive(inputs)
        #expect(result.rejected > 0 && result.read + result.rejected == inputs.count)
        // Flips inside the gzipped content reach the header and index checks.
        let raw = try ZlibCodec.inflate(data, container: .gzip, limit: 1 << 20, source: "x")
        let flipped = try Mutations.corruptions(of: Data(raw), count: 1500, seed: seed + 2).map {
            try Self.gzip(Array($0))
        }
        let inner = survive(flipped)
        #expect(inner.rejected > 0 && inner.read + inner.rejected == flipped.count)
        // gzipped random bytes, with and without the magic in front
        let garbage = try Mutations.garbage(lengths: Array(0..<300), seed: seed + 3).flatMap {
            [try Self.gzip(Array($0)), try Self.gzip(DepthKeyframeBlob.magic + Array($0))]
        }
        #expect(survive(garbage).read + survive(garbage).rejected == garbage.count)
        #expect(survive([data]).read == 1)
    }
}
