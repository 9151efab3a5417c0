import CSystemZlib
import Foundation
import RialMedia

/// DEFLATE through the system zlib, with hard output caps so that a small corrupt or
/// hostile input can never make us allocate more than the caller expects.
enum ZlibCodec {
    /// The wrapper around the DEFLATE data.
    enum Container: Sendable {
        /// RFC 1950 zlib header and Adler-32 trailer (`windowBits` 15).
        case zlib
        /// RFC 1952 gzip header and CRC-32 trailer (`windowBits` 15 + 16).
        case gzip
        /// Bare RFC 1951 DEFLATE, as inside ZIP files (`windowBits` -15).
        case raw

        var windowBits: Int32 {
            switch self {
            case .zlib: 15
            case .gzip: 15 + 16
            case .raw: -15
            }
        }

        var name: String {
            switch self {
            case .zlib: "zlib"
            case .gzip: "gzip"
            case .raw: "deflate"
            }
        }
    }

    /// Inflates `input` into a buffer of exactly `capacity` bytes and returns the bytes
    /// produced (at most `capacity`).
    ///
    /// Callers pass `expected + 1` as the capacity: a result of `capacity` bytes then
    /// means "more than expected" without ever inflating the rest. Concatenated gzip
    /// members (RFC 1952 §2.2) are inflated one after another into the same buffer.
    ///
    /// - Throws: `MediaError.corrupt` naming `source` for a bad header, a checksum
    ///   mismatch, corrupt data, a stream that ends early, or bytes after the stream.
    static func inflate(_ input: Data, container: Container, capacity: Int, source: String) throws -> [UInt8] {
        precondition(capacity >= 0)
        var output = [UInt8](repeating: 0, count: capacity)
        let produced = try input.withUnsafeBytes { inputBytes in
            try output.withUnsafeMutableBytes { outputBytes in
                try inflate(inputBytes, into: outputBytes, container: container, source: source)
            }
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Inflates `input` completely when it produces at most `limit` bytes; returns
    /// `limit + 1` bytes (and stops) when it produces more.
    ///
    /// Unlike `inflate(_:container:capacity:source:)` the buffer grows with the output
    /// (starting near 8 x the input and quadrupling, re-inflating from the start), so a
    /// generous limit costs memory only when the data really is that large.
    ///
    /// - Throws: as `inflate(_:container:capacity:source:)`.
    static func inflate(_ input: Data, container: Container, limit: Int, source: String) throws -> [UInt8] {
        precondition(limit >= 0)
        var capacity = min(limit + 1, max(1 << 16, min(input.count, Int.max / 8) * 8))
        while true {
            let output = try inflate(input, container: container, capacity: capacity, source: source)
            if output.count < capacity || capacity == limit + 1 { return output }
            capacity = limit + 1 - capacity <= 3 * capacity ? limit + 1 : 4 * capacity
        }
    }

    private static func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        container: Container, source: String
    ) throws -> Int {
        var stream = z_stream()
        let status = inflateInit2_(
            &stream, container.windowBits, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            throw MediaError(.unreadable, source: source, "zlib inflateInit failed (\(status))")
        }
        defer { inflateEnd(&stream) }

        let inputBase = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let outputBase = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var consumed = 0 // input bytes handed to zlib so far
        var produced = 0
        let chunk = Int(UInt32.max)
        while true {
            if stream.avail_in == 0, consumed < input.count, let inputBase {
                let count = min(input.count - consumed, chunk)
                stream.next_in = UnsafeMutablePointer(mutating: inputBase + consumed)
                stream.avail_in = UInt32(count)
                consumed += count
            }
            let room = min(output.count - produced, chunk)
            if room == 0 { return produced } // buffer full: the caller sees "too large"
            stream.next_out = outputBase.map { $0 + produced }
            stream.avail_out = UInt32(room)
            let result = CSystemZlib.inflate(&stream, Z_NO_FLUSH)
            produced += room - Int(stream.avail_out)
            switch result {
            case Z_OK:
                continue
            case Z_STREAM_END:
                let remaining = Int(stream.avail_in) + (input.count - consumed)
                if remaining == 0 { return produced }
                if container == .gzip, remaining >= 2, let next = stream.next_in,
                    next[0] == 0x1F, next[1] == 0x8B
                {
                    inflateReset(&stream) // another gzip member follows
                    continue
                }
                throw MediaError(
                    .corrupt, source: source,
                    "\(remaining) bytes of unexpected data after the end of the \(container.name) stream")
            case Z_BUF_ERROR:
                if stream.avail_in == 0 && consumed == input.count {
                    throw MediaError(
                        .corrupt, source: source,
                        "\(container.name) stream is truncated: input ends after \(input.count) bytes "
                            + "with \(produced) bytes decompressed")
                }
                continue
            case Z_NEED_DICT:
                throw MediaError(.corrupt, source: source, "\(container.name) stream needs a preset dictionary")
            case Z_MEM_ERROR:
                throw MediaError(.unreadable, source: source, "out of memory while inflating \(container.name) data")
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "error \(result)"
                throw MediaError(.corrupt, source: source, "corrupt \(container.name) data: \(detail)")
            }
        }
    }

    /// Deflates `input` in one call into a buffer sized by `deflateBound`.
    ///
    /// - Parameter level: zlib level 0...9 (validated by the caller).
    static func deflate(_ input: UnsafeRawBufferPointer, container: Container, level: Int32) throws -> Data {
        guard input.count <= Int(UInt32.max) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "payload of \(input.count) bytes is too large to compress in one piece")
        }
        var stream = z_stream()
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, container.windowBits, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            throw MediaError(.invalidArgument, source: inMemorySource, "zlib deflateInit failed (\(status))")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = Data(count: bound)
        let result: Int32 = output.withUnsafeMutableBytes { outputBytes in
            var empty: UInt8 = 0
            return withUnsafeMutablePointer(to: &empty) { emptyPointer in
                stream.next_in =
                    input.baseAddress.map {
                        UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? emptyPointer
                stream.avail_in = UInt32(input.count)
                stream.next_out = outputBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                stream.avail_out = UInt32(outputBytes.count)
                return CSystemZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else {
            throw MediaError(.writeFailed, source: inMemorySource, "zlib deflate failed (\(result))")
        }
        output.count = Int(stream.total_out)
        return output
    }

    /// CRC-32 (ISO-HDLC, as in ZIP and gzip) of `bytes`.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CSystemZlib.crc32(0, nil, 0)
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let count = min(bytes.count - offset, Int(UInt32.max))
            crc = CSystemZlib.crc32(crc, (base + offset).assumingMemoryBound(to: UInt8.self), uInt(count))
            offset += count
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
