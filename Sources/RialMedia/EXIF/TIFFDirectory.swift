/// Bounds-checked access to a TIFF block (the bytes after `Exif\0\0`), the building
/// block of `ExifReader`.
///
/// Layout (TIFF 6.0 section 2, EXIF 2.32 section 4.6.2): an 8-byte header
/// `II*\0` (little-endian) or `MM\0*` (big-endian) followed by the offset of IFD0; an
/// IFD is a 2-byte entry count, `count` 12-byte entries (tag, type, count, value or
/// offset) and a 4-byte offset of the next IFD. A value of at most 4 bytes is stored
/// inline in the entry; a longer one at an offset from the start of the TIFF block.
///
/// Every read checks bounds and returns `nil` past the end; nothing here traps on any
/// input.
struct TIFFBlock {
    enum ByteOrder: Sendable { case littleEndian, bigEndian }

    let bytes: [UInt8]
    let order: ByteOrder

    /// `UInt16` at `offset`, or `nil` when fewer than 2 bytes remain.
    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return order == .littleEndian ? (b << 8 | a) : (a << 8 | b)
    }

    /// `UInt32` at `offset`, or `nil` when fewer than 4 bytes remain.
    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        var v: UInt32 = 0
        if order == .littleEndian {
            for i in (0..<4).reversed() { v = v << 8 | UInt32(bytes[offset + i]) }
        } else {
            for i in 0..<4 { v = v << 8 | UInt32(bytes[offset + i]) }
        }
        return v
    }
}

/// TIFF field types (TIFF 6.0 section 2 plus EXIF 3.0's UTF-8), with their sizes.
enum TIFFFieldType: UInt16 {
    case byte = 1, ascii = 2, short = 3, long = 4, rational = 5
    case sbyte = 6, undefined = 7, sshort = 8, slong = 9, srational = 10
    case float = 11, double = 12, ifd = 13
    /// EXIF 3.0 (CIPA DC-008-2023) type 129: UTF-8 text, NUL terminated.
    case utf8 = 129

    /// Bytes per value.
    var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined, .utf8: return 1
        case .short, .sshort: return 2
        case .long, .slong, .float, .ifd: return 4
        case .rational, .srational, .double: return 8
        }
    }

    var name: String {
        switch self {
        case .byte: "BYTE"
        case .ascii: "ASCII"
        case .short: "SHORT"
        case .long: "LONG"
        case .rational: "RATIONAL"
        case .sbyte: "SBYTE"
        case .undefined: "UNDEFINED"
        case .sshort: "SSHORT"
        case .slong: "SLONG"
        case .srational: "SRATIONAL"
        case .float: "FLOAT"
        case .double: "DOUBLE"
        case .ifd: "IFD"
        case .utf8: "UTF-8"
        }
    }
}

/// One 12-byte IFD entry as stored; `valueFieldOffset` is where its 4-byte
/// value-or-offset field sits in the TIFF block.
struct TIFFEntry {
    let tag: UInt16
    let rawType: UInt16
    let count: UInt32
    let valueFieldOffset: Int
}

/// A field whose value bytes were located inside the block.
struct TIFFValue {
    let type: TIFFFieldType
    let count: Int
    /// Offset of the first value byte in the TIFF block; `count * type.size` bytes follow.
    let offset: Int
}

extension TIFFBlock {
    /// Parses the 8-byte header. Returns the IFD0 offset, or a reason the header is
    /// unreadable (too short, unknown byte order mark, magic number not 42).
    static func parseHeader(_ bytes: [UInt8]) -> Result<(TIFFBlock, Int), TIFFHeaderError> {
        guard bytes.count >= 8 else { return .failure(.tooShort(bytes.count)) }
        let order: ByteOrder
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): order = .littleEndian
        case (0x4D, 0x4D): order = .bigEndian
        default: return .failure(.badByteOrder(bytes[0], bytes[1]))
        }
        let block = TIFFBlock(bytes: bytes, order: order)
        let magic = block.uint16(at: 2) ?? 0
        guard magic == 42 else { return .failure(.badMagic(magic)) }
        let ifd0 = Int(block.uint32(at: 4) ?? 0)
        return .success((block, ifd0))
    }

    /// The entries of the IFD at `offset`.
    ///
    /// An entry count larger than what fits before the end of the block is clamped to
    /// the entries that fit, with a warning; an offset past the end (or inside the
    /// 8-byte header) returns `nil` with a warning.
    func entries(ofIFDAt offset: Int, name: String, warnings: inout [String]) -> [TIFFEntry]? {
        guard offset >= 8, let declared = uint16(at: offset) else {
            warnings.append(
                "\(name): offset \(offset) is not inside the \(bytes.count)-byte TIFF block after its header; IFD skipped"
            )
            return nil
        }
        let fitting = (bytes.count - offset - 2) / 12
        var count = Int(declared)
        if count > fitting {
            warnings.append(
                "\(name) at offset \(offset): declares \(declared) entries but only \(fitting) fit in the TIFF block; reading \(fitting)"
            )
            count = fitting
        }
        var result: [TIFFEntry] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            let e = offset + 2 + 12 * i
            // In bounds by construction: e + 12 <= bytes.count.
            guard let tag = uint16(at: e), let type = uint16(at: e + 2),
                let n = uint32(at: e + 4)
            else { break }
            result.append(TIFFEntry(tag: tag, rawType: type, count: n, valueFieldOffset: e + 8))
        }
        return result
    }

    /// Locates an entry's value bytes: inline when `count * size <= 4`, else at the
    /// stored offset. Fails (with a reason) for an unknown type, a byte size that
    /// overflows, or a value that runs past the end of the block.
    func locate(_ entry: TIFFEntry) -> Result<TIFFValue, TIFFFieldError> {
        guard let type = TIFFFieldType(rawValue: entry.rawType) else {
            return .failure(.unknownType(entry.rawType))
        }
        let (size, overflow) = Int(entry.count).multipliedReportingOverflow(by: type.size)
        guard !overflow, size <= Int(UInt32.max) else {
            return .failure(.sizeOverflow(count: entry.count, type: type))
        }
        if size <= 4 {
            return .success(TIFFValue(type: type, count: Int(entry.count), offset: entry.valueFieldOffset))
        }
        guard let stored = uint32(at: entry.valueFieldOffset) else {
            return .failure(.pastEnd(offset: entry.valueFieldOffset, size: 4, blockSize: bytes.count))
        }
        let start = Int(stored)
        let (end, endOverflow) = start.addingReportingOverflow(size)
        guard !endOverflow, end <= bytes.count else {
            return .failure(.pastEnd(offset: start, size: size, blockSize: bytes.count))
        }
        return .success(TIFFValue(type: type, count: Int(entry.count), offset: start))
    }
}

enum TIFFHeaderError: Error, CustomStringConvertible {
    case tooShort(Int)
    case badByteOrder(UInt8, UInt8)
    case badMagic(UInt16)

    var description: String {
        switch self {
        case .tooShort(let n):
            "TIFF header: block is \(n) bytes, shorter than the 8-byte header"
        case .badByteOrder(let a, let b):
            "TIFF header: byte order mark is 0x\(TIFFHex.byte(a))\(TIFFHex.byte(b)), expected II or MM"
        case .badMagic(let m):
            "TIFF header: magic number is \(m), expected 42"
        }
    }
}

enum TIFFFieldError: Error, CustomStringConvertible {
    case unknownType(UInt16)
    case sizeOverflow(count: UInt32, type: TIFFFieldType)
    case pastEnd(offset: Int, size: Int, blockSize: Int)

    var description: String {
        switch self {
        case .unknownType(let t):
            "unknown field type \(t)"
        case .sizeOverflow(let count, let type):
            "count \(count) of \(type.name) overflows the value size"
        case .pastEnd(let offset, let size, let blockSize):
            "\(size)-byte value at offset \(offset) runs past the end of the \(blockSize)-byte TIFF block"
        }
    }
}

/// Hex spellings used in EXIF warnings and errors.
enum TIFFHex {
    /// Two uppercase hex digits of a byte.
    static func byte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// `0x` and four uppercase hex digits of a tag number, as the EXIF tables print them.
    static func tag(_ tag: UInt16) -> String {
        "0x" + byte(UInt8(tag >> 8)) + byte(UInt8(tag & 0xFF))
    }
}
