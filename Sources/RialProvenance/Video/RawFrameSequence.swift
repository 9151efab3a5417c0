import Foundation
import RialMedia

/// A recording's raw video frames on disk, the bytes the phone's hash chain covers
/// (methods.md section 6: H = SHA-256(frame pixel bytes ‖ depth ‖ timestamp ‖ H(n-1))),
/// so the chain can be recomputed: a decoded MP4 is not those bytes.
///
/// Layout (`.rlfs`, every integer and float little-endian like the deployed depth blob):
///
/// | bytes | field |
/// |---|---|
/// | 0..<4 | magic `RLFS` |
/// | 4..<8 | u32 version, 1 |
/// | 8..<12 | u32 width (even, 2...7680) |
/// | 12..<16 | u32 height (even, 2...7680; width x height at most 7680 x 4320) |
/// | 16..<20 | u32 frame_count (1...`maximumFrames`) |
/// | 20..<24 | u32 flags, 0 (no other value is defined) |
/// | then frame_count x 8 | f64 timestamp of each frame, seconds |
/// | then frame_count x width x height x 3/2 | NV12 frames in recording order: the luma plane, then the interleaved CbCr plane |
///
/// Uncompressed: a frame is read by one `read` and the file's size says at once whether
/// it is whole (docs/dataset-format-video.md gives the reasoning and the measured size).
///
/// Timestamps must be finite but may go back: a reordered frame is a tamper the chain
/// verifier must report, not a file this reader refuses. The depth bytes a frame was
/// hashed with are not in this file; `RawFrameSequenceReader` attaches them from the
/// depth keyframe blob (see `KeyframeAssignment`).
public enum RawFrameSequence {
    public static let magic: [UInt8] = Array("RLFS".utf8)
    public static let version: UInt32 = 1
    public static let headerBytes = 24
    /// The most frames a file may hold: twice the longest recording (450 frames, 15 s at
    /// 30 fps, PRD 1.1 FR47), room for a tampered copy with inserted frames.
    public static let maximumFrames = 900
    /// The largest side, pixels.
    public static let maximumSide = 7680
    /// The most pixels in a frame (8K UHD, 7680 x 4320).
    public static let maximumPixels = 7680 * 4320

    /// What the header and timestamp table say.
    public struct Header: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// One per frame, in file order.
        public var timestamps: [Double]

        public var frameCount: Int { timestamps.count }
        /// NV12 bytes of one frame.
        public var frameBytes: Int { width * height * 3 / 2 }
        /// Bytes from the start of the file to the first frame.
        public var framesOffset: Int { RawFrameSequence.headerBytes + 8 * frameCount }
        /// The file's size.
        public var fileBytes: Int { framesOffset + frameCount * frameBytes }
    }

    /// Writes `frames` (their pixels and timestamps; the depth goes to the depth blob) to
    /// `path`, one frame at a time, creating folders.
    ///
    /// - Throws: `MediaError.invalidArgument` for a size or count the format cannot hold,
    ///   a frame whose pixels are not `width x height x 3/2` bytes or a timestamp that is
    ///   not finite (naming the frame), `.writeFailed` naming `path`.
    public static func write(_ frames: [ChainFrame], width: Int, height: Int, to path: String) throws {
        try checkSize(width: width, height: height, source: inMemorySource, kind: .invalidArgument)
        guard (1...maximumFrames).contains(frames.count) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "a frame sequence holds 1...\(maximumFrames) frames, got \(frames.count)")
        }
        let header = Header(width: width, height: height, timestamps: frames.map(\.timestamp))
        for (index, frame) in frames.enumerated() {
            guard frame.pixels.count == header.frameBytes else {
                throw MediaError(
                    .invalidArgument, source: inMemorySource,
                    "frame \(index) has \(frame.pixels.count) pixel bytes, an NV12 \(width)x\(height) frame has "
                        + "\(header.frameBytes)")
            }
            guard frame.timestamp.isFinite else {
                throw MediaError(
                    .invalidArgument, source: inMemorySource, "frame \(index) has timestamp \(frame.timestamp)")
            }
        }
        var head: [UInt8] = magic
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { head.append(contentsOf: $0) }
        }
        put(version)
        put(UInt32(width))
        put(UInt32(height))
        put(UInt32(frames.count))
        put(UInt32(0))
        for timestamp in header.timestamps { put(timestamp.bitPattern) }

        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let partial = url.appendingPathExtension("partial")
            guard FileManager.default.createFile(atPath: partial.path, contents: Data(head)) else {
                throw MediaError(.writeFailed, source: path, "cannot create the file")
            }
            let handle = try FileHandle(forWritingTo: partial)
            try handle.seekToEnd()
            for frame in frames { try handle.write(contentsOf: frame.pixels) }
            try handle.close()
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.moveItem(at: partial, to: url)
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(.writeFailed, source: path, "cannot write: \(error.localizedDescription)")
        }
    }

    /// Parses the header and timestamp table from the first bytes of a file and checks
    /// them against the file's size.
    ///
    /// - Parameters:
    ///   - prefix: at least the first `headerBytes` bytes (more is fine).
    ///   - readTable: reads `count` bytes at an offset (the timestamp table).
    ///   - fileBytes: the whole file's size.
    static func parseHeader(
        _ prefix: [UInt8], fileBytes: Int, source: String, readTable: (Int, Int) throws -> [UInt8]
    ) throws -> Header {
        guard prefix.count >= headerBytes else {
            throw MediaError(
                .corrupt, source: source,
                "frame sequence is truncated: \(prefix.count) bytes, shorter than the \(headerBytes)-byte header")
        }
        guard Array(prefix[0..<4]) == magic else {
            throw MediaError(.corrupt, source: source, "not a frame sequence: the file does not start with RLFS")
        }
        let field = { (offset: Int) -> UInt32 in
            prefix.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        }
        guard field(4) == version else {
            throw MediaError(
                .unsupported, source: source, "frame sequence version \(field(4)) is not supported (only \(version))")
        }
        let width = Int(field(8)), height = Int(field(12)), count = Int(field(16))
        try checkSize(width: width, height: height, source: source, kind: .corrupt)
        guard (1...maximumFrames).contains(count) else {
            throw MediaError(
                .corrupt, source: source, "frame sequence claims \(count) frames; 1...\(maximumFrames) are allowed")
        }
        guard field(20) == 0 else {
            throw MediaError(.unsupported, source: source, "frame sequence flags \(field(20)) are not defined (only 0)")
        }
        var header = Header(width: width, height: height, timestamps: [])
        let expected = headerBytes + count * (8 + header.frameBytes)
        guard fileBytes == expected else {
            throw MediaError(
                fileBytes < expected ? .corrupt : .sizeMismatch, source: source,
                fileBytes < expected
                    ? "frame sequence is truncated: \(fileBytes) bytes, \(count) NV12 frames of \(width)x\(height) "
                        + "need \(expected)"
                    : "frame sequence has \(fileBytes - expected) bytes after its \(count) frames of \(width)x\(height)"
            )
        }
        let table = try readTable(headerBytes, 8 * count)
        guard table.count == 8 * count else {
            throw MediaError(.corrupt, source: source, "frame sequence's timestamp table cannot be read whole")
        }
        header.timestamps = table.withUnsafeBytes { raw in
            (0..<count).map {
                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)))
            }
        }
        if let bad = header.timestamps.firstIndex(where: { !$0.isFinite }) {
            throw MediaError(
                .corrupt, source: source, "frame \(bad) of the frame sequence has timestamp \(header.timestamps[bad])")
        }
        return header
    }

    private static func checkSize(width: Int, height: Int, source: String, kind: MediaError.Kind) throws {
        guard (2...maximumSide).contains(width), (2...maximumSide).contains(height), width % 2 == 0,
            height % 2 == 0, width * height <= maximumPixels
        else {
            throw MediaError(
                kind, source: source,
                "frame size \(width)x\(height) is not an NV12 size this format holds (even sides of 2...\(maximumSide), "
                    + "at most \(maximumPixels) pixels)")
        }
    }
}

/// Streams a `RawFrameSequence` as a `ChainFrameSource`: one frame in memory at a time,
/// each frame with the depth bytes of the keyframe assigned to it.
///
/// The header, timestamp table and file size are checked when the reader is made; a
/// frame that cannot be read later (the file changed underneath) throws from
/// `nextFrame()`.
public struct RawFrameSequenceReader: ChainFrameSource {
    public let header: RawFrameSequence.Header
    /// The file or label in errors.
    public let source: String
    private let input: Input
    private let depth: [Int: [UInt8]]
    private var position = 0

    private enum Input {
        case file(FileHandle)
        case memory(Data)
    }

    /// Opens `path`.
    ///
    /// - Parameter depth: the stored depth bytes to attach, keyed by 0-based frame index
    ///   (`KeyframeAssignment.depthByFrame`).
    /// - Throws: `MediaError` naming `path` (not found, truncated, a bad header).
    public init(path: String, depth: [Int: [UInt8]] = [:]) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw MediaError(.notFound, source: path, "no such file")
        }
        let handle: FileHandle
        let size: Int
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            size = Int(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
        } catch {
            throw MediaError(.unreadable, source: path, "cannot read: \(error.localizedDescription)")
        }
        let prefix = try Self.read(handle, count: RawFrameSequence.headerBytes, source: path)
        header = try RawFrameSequence.parseHeader(prefix, fileBytes: size, source: path) { offset, count in
            try handle.seek(toOffset: UInt64(offset))
            return try Self.read(handle, count: count, source: path)
        }
        try Self.check(depth, header: header, source: path)
        source = path
        input = .file(handle)
        self.depth = depth
    }

    /// Reads a sequence already in memory; `source` names it in errors.
    public init(data: Data, depth: [Int: [UInt8]] = [:], source: String = inMemorySource) throws {
        let bytes = data
        header = try RawFrameSequence.parseHeader(
            Array(bytes.prefix(RawFrameSequence.headerBytes)), fileBytes: bytes.count, source: source
        ) { offset, count in
            Array(bytes.dropFirst(offset).prefix(count))
        }
        try Self.check(depth, header: header, source: source)
        self.source = source
        input = .memory(bytes)
        self.depth = depth
    }

    private static func check(_ depth: [Int: [UInt8]], header: RawFrameSequence.Header, source: String) throws {
        if let bad = depth.keys.sorted().first(where: { !(0..<header.frameCount).contains($0) }) {
            throw MediaError(
                .invalidArgument, source: source,
                "depth is attached to frame \(bad), outside the sequence's \(header.frameCount) frames")
        }
    }

    public mutating func nextFrame() throws -> ChainFrame? {
        guard position < header.frameCount else { return nil }
        let offset = header.framesOffset + position * header.frameBytes
        let pixels: [UInt8]
        switch input {
        case .file(let handle):
            pixels = try read(handle.fileDescriptor, at: offset, count: header.frameBytes, frame: position)
            guard pixels.count == header.frameBytes else {
                throw MediaError(
                    .corrupt, source: source, "frame \(position) is cut short (the file changed while being read)")
            }
        case .memory(let data):
            let start = data.startIndex + offset
            pixels = [UInt8](data[start..<(start + header.frameBytes)])
        }
        defer { position += 1 }
        return ChainFrame(pixels: pixels, depth: depth[position] ?? [], timestamp: header.timestamps[position])
    }

    /// The pixels of frame `index` (0-based) without moving the stream: one `pread` (the
    /// still `run` takes from a video, while the stream goes to the chain verifier).
    ///
    /// - Throws: `MediaError` naming the file for an index outside the sequence or a
    ///   frame that cannot be read.
    public func pixels(ofFrame index: Int) throws -> [UInt8] {
        guard (0..<header.frameCount).contains(index) else {
            throw MediaError(
                .invalidArgument, source: source, "no frame \(index) in a sequence of \(header.frameCount) frames")
        }
        let offset = header.framesOffset + index * header.frameBytes
        switch input {
        case .file(let handle):
            let pixels = try read(handle.fileDescriptor, at: offset, count: header.frameBytes, frame: index)
            guard pixels.count == header.frameBytes else {
                throw MediaError(
                    .corrupt, source: source, "frame \(index) is cut short (the file changed while being read)")
            }
            return pixels
        case .memory(let data):
            let start = data.startIndex + offset
            return [UInt8](data[start..<(start + header.frameBytes)])
        }
    }

    /// `count` bytes at `offset` with `pread`, straight into the frame's array (no
    /// intermediate `Data`); fewer only at the end of the file.
    private func read(_ descriptor: Int32, at offset: Int, count: Int, frame: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count, let base = buffer.baseAddress {
                let result = pread(descriptor, base + done, count - done, off_t(offset + done))
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if result == 0 { break }
                done += result
            }
            initialized = done
        }
        if failure != 0 {
            throw MediaError(
                .unreadable, source: source, "cannot read frame \(frame): \(String(cString: strerror(failure)))")
        }
        return bytes
    }

    private static func read(_ handle: FileHandle, count: Int, source: String) throws -> [UInt8] {
        do {
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        } catch {
            throw MediaError(.unreadable, source: source, "cannot read: \(error.localizedDescription)")
        }
    }
}
