import Foundation
import RialMedia

/// The deployed depth keyframe blob of a video recording (methods.md section 6, "Depth
/// keyframe blob (reference, as deployed)"), read into `DepthKeyframes` and written from
/// them.
///
/// Layout, after gunzip (every integer and float little-endian, see "Byte order"):
///
/// | bytes | field |
/// |---|---|
/// | 0..<4 | magic `RLDP` (0x52 0x4C 0x44 0x50) |
/// | 4..<8 | u32 version, 1 |
/// | 8..<12 | u32 frame_count |
/// | 12..<14 | u16 width |
/// | 14..<16 | u16 height |
/// | then frame_count x 12 | index entry: f64 timestamp (seconds), u32 offset of the frame from the start of the data section |
/// | then the data section | frames of width x height float32, metres, row-major |
///
/// The **headerless variant** (`Variant.headerless`): methods.md section 6, "The phone's
/// writer omits the header in one path". Its gunzipped bytes are the index and the data
/// section alone, nothing before the first index entry. Width and height must then come
/// from elsewhere (the manifest's `depth_keyframes.width`/`height`, the depth size of the
/// recording). The frame count follows from the size: each frame takes 12 index bytes
/// plus 4 x width x height data bytes, so `count = bytes / (12 + 4 x width x height)`,
/// which must divide exactly.
///
/// Which variant a blob is: the first four bytes `RLDP` mean the header is present,
/// anything else means headerless. A headerless blob whose first timestamp's low four
/// bytes happen to spell `RLDP` would be misread; no timestamp a recording produces
/// (seconds from 0 to 15 at 30 fps, whose low mantissa bytes are 0 for 0.0 and
/// otherwise not the ASCII letters) is known to. A caller that knows the variant
/// passes it, and a blob of the other variant is then an error.
///
/// **Byte order.** Little-endian throughout. The documents do not say it for the header
/// and index; they say it for the depth values (PRD 2.0, "Open Questions" Q1: "Gzip-
/// compressed Float32 array (little-endian)"), the phone writes its native order (arm64,
/// little-endian, as `FrameHashLayout` assumes for the chain's timestamp), and a version
/// field that reads 1 only in big-endian order is reported as such rather than as an
/// unknown version.
///
/// **Checks** (each a `MediaError` naming the file and the problem, never a trap): gzip
/// integrity (CRC, length, truncation, trailing bytes); the magic and version 1; a
/// width, height and count of at least 1 pixel where frames exist; at most
/// `maximumFrames` frames and `maximumTotalPixels` depth values in all frames, checked
/// before any frame-sized allocation; the blob's length equals what the header (or,
/// headerless, the size) implies; each frame's offset a multiple of 4, its
/// `4 x width x height` bytes inside the data section, and no two frames overlapping;
/// timestamps finite and never going back. Depth values outside
/// `DepthFormat.validMetres` become invalid (`NaN`) as for the other float formats.
public enum DepthKeyframeBlob {
    /// Which layout a blob has.
    public enum Variant: String, Sendable, Equatable, CaseIterable, Codable {
        /// The 16-byte `RLDP` header, then the index and the frames.
        case rldp
        /// The index and the frames without the header: width and height from elsewhere.
        case headerless
    }

    /// A blob read into keyframes.
    public struct Reading: Sendable, Equatable {
        public var keyframes: DepthKeyframes
        /// The variant the blob was.
        public var variant: Variant
        /// Stored values that were finite and non-zero but outside
        /// `DepthFormat.validMetres`, now `NaN` (as `DepthReader.Reading.outOfRangeCount`).
        public var outOfRangeCount: Int
        /// Each keyframe's `4 x width x height` bytes exactly as stored (little-endian
        /// float32, invalid values not normalised): the depth bytes the hash chain covers.
        public var storedFrames: [[UInt8]]
    }

    /// The four magic bytes, ASCII `RLDP`.
    public static let magic: [UInt8] = Array("RLDP".utf8)
    /// The only version written and read.
    public static let version: UInt32 = 1
    /// Bytes of the header.
    public static let headerBytes = 16
    /// Bytes of one index entry.
    public static let indexEntryBytes = 12
    /// The most keyframes a blob may hold: one per video frame of the longest recording
    /// (15 s at 30 fps, PRD 1.1 FR47; the product keeps every 3rd, 150).
    public static let maximumFrames = 450
    /// The most depth values in all frames together (`DepthFormat.maxPixels`, 400 MB of
    /// float32): a larger header is refused before allocating.
    public static let maximumTotalPixels = DepthFormat.maxPixels

    /// Reads a blob file.
    ///
    /// - Parameters:
    ///   - variant: the variant the caller expects; nil to tell it from the magic.
    ///   - width: depth width in pixels; required for a headerless blob, and checked
    ///     against the header when given for an `RLDP` one. `height` likewise.
    /// - Throws: `MediaError` naming `path` (see the type's "Checks").
    public static func read(path: String, variant: Variant? = nil, width: Int? = nil, height: Int? = nil) throws
        -> Reading
    {
        let data = try MediaFile.read(path)
        return try read(data: data, variant: variant, width: width, height: height, source: path)
    }

    /// Reads a blob already in memory; `source` names it in errors. Parameters as in
    /// `read(path:variant:width:height:)`.
    public static func read(
        data: Data, variant: Variant? = nil, width: Int? = nil, height: Int? = nil, source: String = inMemorySource
    ) throws -> Reading {
        for (name, value) in [("width", width), ("height", height)] {
            if let value, !(1...Int(UInt16.max)).contains(value) {
                throw MediaError(
                    .invalidArgument, source: source, "depth keyframe \(name) must be 1...65535, got \(value)")
            }
        }
        // The first bytes tell the variant; inflating only those costs one small buffer.
        let start = try ZlibCodec.inflate(data, container: .gzip, capacity: headerBytes, source: source)
        let hasMagic = start.count >= 4 && Array(start[0..<4]) == magic
        let found: Variant = hasMagic ? .rldp : .headerless
        if let variant, variant != found {
            throw MediaError(
                .corrupt, source: source,
                variant == .rldp
                    ? "depth keyframe blob has no RLDP header (its first bytes are \(hexPrefix(start))); expected the RLDP variant"
                    : "depth keyframe blob starts with an RLDP header; expected the headerless variant")
        }
        switch found {
        case .rldp:
            return try readHeadered(data, start: start, width: width, height: height, source: source)
        case .headerless:
            guard let width, let height else {
                throw MediaError(
                    .invalidArgument, source: source,
                    "depth keyframe blob has no RLDP header (headerless variant): its width and height must be given "
                        + "(manifest depth_keyframes.width and height)")
            }
            return try readHeaderless(data, width: width, height: height, source: source)
        }
    }

    /// True when `data` is gzip whose content starts with the `RLDP` magic (a cheap probe:
    /// only the first bytes are inflated; false for anything else, never a throw).
    public static func startsWithHeader(_ data: Data) -> Bool {
        guard data.count >= 2, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B,
            let start = try? ZlibCodec.inflate(data, container: .gzip, capacity: magic.count, source: inMemorySource)
        else { return false }
        return start == magic
    }

    /// Encodes `keyframes` as a gzip blob: frames in order, contiguous, offsets
    /// `i x 4 x width x height`; `NaN` written as `NaN`.
    ///
    /// - Parameter compressionLevel: zlib level 0...9.
    /// - Throws: `MediaError.invalidArgument` when the keyframes do not fit the format
    ///   (a width or height above 65535, more than `maximumFrames` frames, an empty
    ///   0 x 0 sequence written with a header) or the level is out of range.
    public static func encode(_ keyframes: DepthKeyframes, variant: Variant = .rldp, compressionLevel: Int = 6)
        throws -> Data
    {
        let stored = keyframes.frames.map { frame in
            (
                timestamp: frame.timestamp,
                bytes: frame.depth.metres.flatMap { value in
                    withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
                }
            )
        }
        return try encode(
            width: keyframes.width, height: keyframes.height, frames: stored, variant: variant,
            compressionLevel: compressionLevel)
    }

    /// Encodes frames given as stored bytes (`4 x width x height` each, little-endian
    /// float32), so depth the hash chain covers is written bit for bit.
    ///
    /// - Throws: `MediaError.invalidArgument` as `encode(_:variant:compressionLevel:)`, and
    ///   for a frame of the wrong byte count or a timestamp that is not finite or goes back.
    public static func encode(
        width: Int, height: Int, frames: [(timestamp: Double, bytes: [UInt8])], variant: Variant = .rldp,
        compressionLevel: Int = 6
    ) throws -> Data {
        guard (0...9).contains(compressionLevel) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource, "compression level must be 0...9, got \(compressionLevel)")
        }
        guard (1...Int(UInt16.max)).contains(width), (1...Int(UInt16.max)).contains(height) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "depth keyframes of \(width)x\(height) do not fit the blob's u16 width and height")
        }
        guard frames.count <= maximumFrames else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "\(frames.count) depth keyframes exceed the blob's limit of \(maximumFrames)")
        }
        let frameBytes = 4 * width * height
        var previous = -Double.infinity
        for (index, frame) in frames.enumerated() {
            guard frame.bytes.count == frameBytes else {
                throw MediaError(
                    .invalidArgument, source: inMemorySource,
                    "depth keyframe \(index) has \(frame.bytes.count) bytes, expected 4 x \(width) x \(height)")
            }
            guard frame.timestamp.isFinite, frame.timestamp >= previous else {
                throw MediaError(
                    .invalidArgument, source: inMemorySource,
                    "depth keyframe \(index) has timestamp \(frame.timestamp), not finite or before the previous one")
            }
            previous = frame.timestamp
        }
        let prefix = variant == .rldp ? headerBytes : 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix + frames.count * (indexEntryBytes + frameBytes))
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        if variant == .rldp {
            bytes.append(contentsOf: magic)
            put(version)
            put(UInt32(frames.count))
            put(UInt16(width))
            put(UInt16(height))
        }
        for (index, frame) in frames.enumerated() {
            put(frame.timestamp.bitPattern)
            put(UInt32(index * frameBytes))
        }
        for frame in frames { bytes.append(contentsOf: frame.bytes) }
        return try bytes.withUnsafeBytes {
            try ZlibCodec.deflate($0, container: .gzip, level: Int32(compressionLevel))
        }
    }

    /// Writes `keyframes` to `path` (creating folders); parameters as in `encode`.
    public static func write(
        _ keyframes: DepthKeyframes, to path: String, variant: Variant = .rldp, compressionLevel: Int = 6
    ) throws {
        let data = try encode(keyframes, variant: variant, compressionLevel: compressionLevel)
        try MediaFile.write(data, to: path)
    }

    // MARK: - Reading

    private static func readHeadered(_ data: Data, start: [UInt8], width: Int?, height: Int?, source: String)
        throws -> Reading
    {
        guard start.count == headerBytes else {
            throw MediaError(
                .corrupt, source: source,
                "depth keyframe blob is truncated: \(start.count) bytes, shorter than the \(headerBytes)-byte RLDP header"
            )
        }
        let header = start.withUnsafeBytes { raw in
            (
                version: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                count: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
                width: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt16.self)),
                height: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 14, as: UInt16.self))
            )
        }
        guard header.version == version else {
            if header.version == version.byteSwapped {
                throw MediaError(
                    .unsupported, source: source,
                    "depth keyframe blob's header is big-endian (version reads 1 only in big-endian order); "
                        + "the deployed format is little-endian")
            }
            throw MediaError(
                .unsupported, source: source,
                "depth keyframe blob version \(header.version) is not supported (only version \(version))")
        }
        let count = Int(header.count), w = Int(header.width), h = Int(header.height)
        if let width, let height, width != w || height != h {
            throw MediaError(
                .sizeMismatch, source: source,
                "depth keyframe blob header says \(w)x\(h), the manifest says \(width)x\(height)")
        } else if let width, width != w {
            throw MediaError(
                .sizeMismatch, source: source, "depth keyframe blob header says width \(w), the manifest says \(width)")
        } else if let height, height != h {
            throw MediaError(
                .sizeMismatch, source: source,
                "depth keyframe blob header says height \(h), the manifest says \(height)")
        }
        try checkLimits(count: count, width: w, height: h, source: source)
        let expected = headerBytes + count * (indexEntryBytes + 4 * w * h)
        let bytes = try ZlibCodec.inflate(data, container: .gzip, limit: expected, source: source)
        guard bytes.count == expected else {
            throw MediaError(
                bytes.count < expected ? .corrupt : .sizeMismatch, source: source,
                bytes.count < expected
                    ? "depth keyframe blob is truncated: \(bytes.count) bytes, the header's \(count) frames of "
                        + "\(w)x\(h) need \(expected)"
                    : "depth keyframe blob has bytes after the header's \(count) frames of \(w)x\(h) "
                        + "(\(expected) bytes expected)")
        }
        return try decodeFrames(
            bytes, indexStart: headerBytes, count: count, width: w, height: h, variant: .rldp, source: source)
    }

    private static func readHeaderless(_ data: Data, width: Int, height: Int, source: String) throws -> Reading {
        try checkLimits(count: 1, width: width, height: height, source: source)
        let perFrame = indexEntryBytes + 4 * width * height
        let limitFrames = min(maximumFrames, maximumTotalPixels / (width * height))
        let bytes = try ZlibCodec.inflate(data, container: .gzip, limit: limitFrames * perFrame, source: source)
        guard bytes.count <= limitFrames * perFrame else {
            throw MediaError(
                .unsupported, source: source,
                "headerless depth keyframe blob holds more than \(limitFrames) frames of \(width)x\(height), "
                    + "the most this reader accepts")
        }
        guard !bytes.isEmpty else {
            throw MediaError(.corrupt, source: source, "headerless depth keyframe blob is empty")
        }
        guard bytes.count % perFrame == 0 else {
            throw MediaError(
                .sizeMismatch, source: source,
                "headerless depth keyframe blob is \(bytes.count) bytes, not a whole number of \(width)x\(height) "
                    + "frames of \(perFrame) bytes (12 index + 4 x \(width) x \(height)); check width and height")
        }
        return try decodeFrames(
            bytes, indexStart: 0, count: bytes.count / perFrame, width: width, height: height, variant: .headerless,
            source: source)
    }

    private static func checkLimits(count: Int, width: Int, height: Int, source: String) throws {
        guard count <= maximumFrames else {
            throw MediaError(
                .unsupported, source: source,
                "depth keyframe blob claims \(count) frames, more than the \(maximumFrames) a recording can hold")
        }
        guard count == 0 || (width > 0 && height > 0) else {
            throw MediaError(
                .corrupt, source: source, "depth keyframe blob header has \(count) frames of \(width)x\(height) pixels"
            )
        }
        guard count * width * height <= maximumTotalPixels else {
            throw MediaError(
                .unsupported, source: source,
                "depth keyframe blob claims \(count) frames of \(width)x\(height), more than \(maximumTotalPixels) "
                    + "depth values in all")
        }
    }

    /// Reads the index at `indexStart` and the frames after it; `bytes` holds exactly
    /// the index and a data section of `count` frames.
    private static func decodeFrames(
        _ bytes: [UInt8], indexStart: Int, count: Int, width: Int, height: Int, variant: Variant, source: String
    ) throws -> Reading {
        let frameBytes = 4 * width * height
        let dataStart = indexStart + count * indexEntryBytes
        let dataBytes = bytes.count - dataStart
        var entries: [(timestamp: Double, offset: Int)] = []
        entries.reserveCapacity(count)
        bytes.withUnsafeBytes { raw in
            for i in 0..<count {
                let at = indexStart + i * indexEntryBytes
                let bits = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                let offset = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))
                entries.append((Double(bitPattern: bits), Int(offset)))
            }
        }
        var previous = -Double.infinity
        for (i, entry) in entries.enumerated() {
            guard entry.timestamp.isFinite else {
                throw MediaError(.corrupt, source: source, "depth keyframe \(i) has timestamp \(entry.timestamp)")
            }
            guard entry.timestamp >= previous else {
                throw MediaError(
                    .corrupt, source: source,
                    "depth keyframe \(i) has timestamp \(entry.timestamp) s, before keyframe \(i - 1)'s \(previous) s")
            }
            previous = entry.timestamp
            guard entry.offset % 4 == 0, entry.offset <= dataBytes - frameBytes else {
                throw MediaError(
                    .corrupt, source: source,
                    "depth keyframe \(i)'s offset \(entry.offset) does not place its \(frameBytes) bytes inside the "
                        + "\(dataBytes)-byte data section on a float boundary")
            }
        }
        let byOffset = entries.indices.sorted { entries[$0].offset < entries[$1].offset }
        for (a, b) in zip(byOffset, byOffset.dropFirst()) where entries[b].offset < entries[a].offset + frameBytes {
            throw MediaError(
                .corrupt, source: source,
                "depth keyframes \(min(a, b)) and \(max(a, b)) overlap (offsets \(entries[a].offset) and "
                    + "\(entries[b].offset), \(frameBytes) bytes each)")
        }
        var frames: [DepthKeyframe] = []
        frames.reserveCapacity(count)
        var stored: [[UInt8]] = []
        stored.reserveCapacity(count)
        var outOfRange = 0
        try bytes.withUnsafeBytes { raw in
            for entry in entries {
                let start = dataStart + entry.offset
                stored.append(Array(bytes[start..<(start + frameBytes)]))
                let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + frameBytes)])
                let map = try FloatPayload.decode(
                    slice, width: width, height: height, source: source, outOfRange: &outOfRange)
                frames.append(DepthKeyframe(timestamp: entry.timestamp, depth: map))
            }
        }
        let keyframes: DepthKeyframes
        if frames.isEmpty {
            keyframes = DepthKeyframes(width: width, height: height)
        } else {
            do {
                keyframes = try DepthKeyframes(frames)
            } catch {
                throw MediaError(.corrupt, source: source, error.description)
            }
        }
        return Reading(keyframes: keyframes, variant: variant, outOfRangeCount: outOfRange, storedFrames: stored)
    }

    private static func hexPrefix(_ bytes: [UInt8]) -> String {
        bytes.prefix(4).map { String($0, radix: 16, uppercase: false) }.map { $0.count == 1 ? "0" + $0 : $0 }
            .joined(separator: " ")
    }
}
