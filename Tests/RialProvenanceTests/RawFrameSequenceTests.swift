import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialProvenance

/// The raw frame container (`RawFrameSequence`, docs/dataset-format-video.md) and the
/// keyframe-to-frame rule (`KeyframeAssignment`).
@Suite struct RawFrameSequenceTests {
    /// A 2 x 2 NV12 sequence of two frames written out byte by byte from the layout in
    /// docs/dataset-format-video.md ("Frame sequence"): 4 luma + 2 CbCr bytes a frame.
    static let handBuilt: [UInt8] =
        [0x52, 0x4C, 0x46, 0x53] // "RLFS"
        + [1, 0, 0, 0] // version 1
        + [2, 0, 0, 0] + [2, 0, 0, 0] // width 2, height 2
        + [2, 0, 0, 0] // 2 frames
        + [0, 0, 0, 0] // flags 0
        + [0, 0, 0, 0, 0, 0, 0, 0] // 0.0 s
        + [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0xA1, 0x3F] // 1/30 s = 0x3FA1111111111111
        + [10, 20, 30, 40, 128, 128] // frame 0: Y Y Y Y Cb Cr
        + [11, 21, 31, 41, 127, 129] // frame 1

    static func readAll(_ reader: inout RawFrameSequenceReader) throws -> [ChainFrame] {
        var frames: [ChainFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test func handBuiltSequenceReads() throws {
        let depth: [UInt8] = [0x00, 0x00, 0x00, 0x3F] // 0.5 m as float32 LE
        var reader = try RawFrameSequenceReader(data: Data(Self.handBuilt), depth: [1: depth], source: "f.rlfs")
        #expect(reader.header.width == 2 && reader.header.height == 2 && reader.header.frameCount == 2)
        #expect(reader.header.timestamps == [0, 1.0 / 30])
        let frames = try Self.readAll(&reader)
        #expect(frames.map(\.pixels) == [[10, 20, 30, 40, 128, 128], [11, 21, 31, 41, 127, 129]])
        #expect(frames.map(\.depth) == [[], depth])
        #expect(try reader.nextFrame() == nil)
    }

    /// `frames` frames of `width x height`, every 3rd with a 4 x 3 depth keyframe.
    static func recording(frames count: Int, width: Int = 8, height: Int = 6) -> [ChainFrame] {
        (0..<count).map { i in
            let pixels = (0..<(width * height * 3 / 2)).map { UInt8(truncatingIfNeeded: i &* 7 &+ $0 &* 13) }
            return ChainFrame(pixels: pixels, depthMetres: i % 3 == 0 ? depth(i) : [], timestamp: Double(i) / 30)
        }
    }

    /// Frame i's 4 x 3 depth keyframe, metres.
    static func depth(_ i: Int) -> [Float] { (0..<12).map { 0.5 + Float(i) * 0.01 + Float($0) * 0.1 } }

    @Test func writeThenStreamRecomputesTheChain() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = Self.recording(frames: 160)
        let record = HashChainRecord.chain(frames)
        let path = folder.appendingPathComponent("a/frames.rlfs").path
        try RawFrameSequence.write(frames, width: 8, height: 6, to: path)
        // The depth goes through the deployed blob, as the dataset stores it.
        let keyframes = try DepthKeyframes(
            stride(from: 0, to: 160, by: 3).map {
                DepthKeyframe(timestamp: Double($0) / 30, depth: DepthMap(width: 4, height: 3, metres: Self.depth($0))!)
            })
        let blob = try DepthKeyframeBlob.read(data: try DepthKeyframeBlob.encode(keyframes))
        let assigned = try KeyframeAssignment.frames(
            for: blob.keyframes, frameTimestamps: frames.map(\.timestamp), source: "blob")
        #expect(assigned == stride(from: 0, to: 160, by: 3).map { Optional($0) })
        var reader = try RawFrameSequenceReader(
            path: path, depth: KeyframeAssignment.depthByFrame(stored: blob.storedFrames, frames: assigned))
        #expect(try Self.readAll(&reader) == frames)
        var again = try RawFrameSequenceReader(
            path: path, depth: KeyframeAssignment.depthByFrame(stored: blob.storedFrames, frames: assigned))
        let result = try HashChainVerifier.verify(&again, against: record)
        #expect(result.status == .intact && result.framesRead == 160)
    }

    @Test func reorderedTimestampsAreTheVerifiersToReport() throws {
        var frames = Self.recording(frames: 20)
        let record = HashChainRecord.chain(frames)
        frames.swapAt(9, 10)
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("frames.rlfs").path
        try RawFrameSequence.write(frames, width: 8, height: 6, to: path)
        let depth = Dictionary(
            uniqueKeysWithValues: frames.enumerated().filter { !$0.element.depth.isEmpty }.map {
                ($0.offset, $0.element.depth)
            })
        var reader = try RawFrameSequenceReader(path: path, depth: depth)
        let result = try HashChainVerifier.verify(&reader, against: record)
        #expect(result.tamper == .reordered && result.firstBadFrame == 10)
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var depth: [Int: [UInt8]] = [:]
        var detail: String
        var testDescription: String { name }
    }

    static let h = handBuilt
    static func replacing(_ range: Range<Int>, with bytes: [UInt8]) -> [UInt8] {
        var copy = handBuilt
        copy.replaceSubrange(range, with: bytes)
        return copy
    }
    static let badFiles: [BadFile] = [
        BadFile(name: "empty", bytes: [], detail: "shorter than the 24-byte header"),
        BadFile(name: "wrong magic", bytes: replacing(0..<4, with: Array("RLDP".utf8)), detail: "RLFS"),
        BadFile(name: "version 2", bytes: replacing(4..<8, with: [2, 0, 0, 0]), detail: "version 2"),
        BadFile(name: "odd width", bytes: replacing(8..<12, with: [3, 0, 0, 0]), detail: "frame size 3x2"),
        BadFile(name: "huge height", bytes: replacing(12..<16, with: [0, 0, 1, 0]), detail: "frame size 2x65536"),
        BadFile(name: "no frames", bytes: replacing(16..<20, with: [0, 0, 0, 0]), detail: "claims 0 frames"),
        BadFile(
            name: "absurd count", bytes: replacing(16..<20, with: [0xFF, 0xFF, 0xFF, 0xFF]), detail: "claims 4294967295"
        ),
        BadFile(name: "flags", bytes: replacing(20..<24, with: [1, 0, 0, 0]), detail: "flags 1"),
        BadFile(name: "truncated", bytes: Array(h.dropLast()), detail: "truncated"),
        BadFile(name: "trailing", bytes: h + [0], detail: "1 bytes after"),
        BadFile(
            name: "NaN timestamp", bytes: replacing(24..<32, with: [0, 0, 0, 0, 0, 0, 0xF8, 0x7F]),
            detail: "timestamp nan"),
        BadFile(name: "depth beyond the frames", bytes: h, depth: [2: [0, 0, 0, 0]], detail: "frame 2, outside"),
    ]

    @Test(arguments: badFiles)
    func malformedFileIsOneClearError(_ file: BadFile) throws {
        do {
            _ = try RawFrameSequenceReader(data: Data(file.bytes), depth: file.depth, source: "rec/frames.rlfs")
            Issue.record("\(file.name) was read")
        } catch let error as MediaError {
            #expect(error.source == "rec/frames.rlfs")
            #expect(error.detail.contains(file.detail), "\(error.detail)")
        }
    }

    @Test func fileErrorsNameThePath() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("cut.rlfs").path
        #expect(throws: MediaError(.notFound, source: path, "no such file")) { try RawFrameSequenceReader(path: path) }
        try Data(Self.handBuilt.dropLast(3)).write(to: URL(fileURLWithPath: path))
        do {
            _ = try RawFrameSequenceReader(path: path)
            Issue.record("a cut file was read")
        } catch let error as MediaError {
            #expect(error.source == path && error.detail.contains("truncated"))
        }
        #expect(throws: MediaError.self) {
            try RawFrameSequence.write([ChainFrame(pixels: [1, 2, 3], timestamp: 0)], width: 2, height: 2, to: path)
        }
    }

    @Test("fuzz: every truncation, bit flips, random bytes")
    func fuzz() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("f.rlfs").path
        try RawFrameSequence.write(Self.recording(frames: 4, width: 4, height: 2), width: 4, height: 2, to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let inputs =
            (0..<data.count).map { data.prefix($0) }
            + Mutations.corruptions(of: data, count: 2000, seed: 71)
            + Mutations.garbage(lengths: Array(0..<200), seed: 72)
            + Mutations.garbage(lengths: Array(repeating: 40, count: 200), seed: 73).map {
                Data(RawFrameSequence.magic) + [1, 0, 0, 0] + $0
            }
        var read = 0, rejected = 0
        for input in inputs {
            do {
                var reader = try RawFrameSequenceReader(data: input, depth: [0: [1, 2, 3, 4]])
                _ = try Self.readAll(&reader)
                read += 1
            } catch is MediaError {
                rejected += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
        #expect(read > 0 && rejected > 0 && read + rejected == inputs.count)
        // Every strict prefix is refused.
        for length in 0..<data.count {
            #expect(throws: MediaError.self) { try RawFrameSequenceReader(data: data.prefix(length)) }
        }
    }

    // MARK: - Keyframe assignment

    static func keyframes(_ timestamps: [Double], frames: [Int?]? = nil) throws -> DepthKeyframes {
        try DepthKeyframes(
            timestamps.enumerated().map { k, t in
                DepthKeyframe(
                    timestamp: t, videoFrameIndex: frames?[k], depth: DepthMap(width: 1, height: 1, metres: [1])!)
            })
    }

    @Test func keyframesFindTheirFrames() throws {
        let times = (0..<10).map { Double($0) / 30 }
        // Rule 3: by timestamp; a keyframe whose frame is gone stays unassigned.
        var dropped = times
        dropped.remove(at: 3)
        #expect(
            try KeyframeAssignment.frames(
                for: Self.keyframes([times[0], times[3], times[6]]), frameTimestamps: dropped, source: "x")
                == [0, nil, 5])
        // Rule 2: videoFrameIndex wins over the timestamp.
        #expect(
            try KeyframeAssignment.frames(
                for: Self.keyframes([times[0], times[3]], frames: [1, 4]), frameTimestamps: times, source: "x")
                == [1, 4])
        // Rule 1: the explicit list decides alone, null included.
        #expect(
            try KeyframeAssignment.frames(
                for: Self.keyframes([times[0], times[3]], frames: [1, 4]), explicit: [nil, 2], frameTimestamps: times,
                source: "x") == [nil, 2])
        // Two keyframes at one time go to two frames with that time, in order.
        #expect(
            try KeyframeAssignment.frames(
                for: Self.keyframes([0, 0]), frameTimestamps: [0, 0, 1], source: "x") == [0, 1])
    }

    @Test func badAssignmentsAreErrors() throws {
        let times = [0.0, 0.1, 0.2]
        let two = try Self.keyframes([0, 0.1])
        #expect(throws: MediaError.self) {
            try KeyframeAssignment.frames(for: two, explicit: [0], frameTimestamps: times, source: "x")
        }
        #expect(throws: MediaError.self) {
            try KeyframeAssignment.frames(for: two, explicit: [0, 3], frameTimestamps: times, source: "x")
        }
        #expect(throws: MediaError.self) {
            try KeyframeAssignment.frames(for: two, explicit: [1, 1], frameTimestamps: times, source: "x")
        }
        #expect(throws: MediaError.self) {
            try KeyframeAssignment.frames(for: two, explicit: [-1, 1], frameTimestamps: times, source: "x")
        }
    }
}
