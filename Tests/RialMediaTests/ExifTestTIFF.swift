import Foundation

/// Builds TIFF blocks and minimal JPEGs byte by byte for the EXIF tests, so every
/// offset and count in a test is one the test chose (including wrong ones).
///
/// Layout: 8-byte header, IFD `i` at consecutive offsets (IFD0 at 8 unless
/// overridden), then a data area for values longer than 4 bytes.
struct ExifTestTIFF {
    enum Order { case little, big }

    enum Value {
        case ascii(String)
        case bytes([UInt8]) // ASCII field with these exact bytes
        case shorts([UInt16])
        case longs([UInt32])
        case rationals([(UInt32, UInt32)])
        case srationals([(Int32, Int32)])
        /// LONG pointing to IFD number `n` of this block.
        case pointer(Int)
        /// The 4-byte value/offset field exactly as given (for bad offsets).
        case raw(UInt32)
    }

    struct Entry {
        var tag: UInt16
        var value: Value
        /// Overrides the type the value implies.
        var type: UInt16?
        /// Overrides the count the value implies.
        var count: UInt32?

        init(_ tag: UInt16, _ value: Value, type: UInt16? = nil, count: UInt32? = nil) {
            self.tag = tag
            self.value = value
            self.type = type
            self.count = count
        }
    }

    var order: Order = .little
    var ifds: [[Entry]] = []
    /// Entry count written for each IFD (default: the real number of entries).
    var declaredCounts: [Int: UInt16] = [:]
    /// IFD0 offset written in the header (default: 8).
    var ifd0Offset: UInt32?
    var magic: UInt16 = 42

    init(order: Order = .little, ifds: [[Entry]]) {
        self.order = order
        self.ifds = ifds
    }

    func u16(_ v: UInt16) -> [UInt8] {
        order == .little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }

    func u32(_ v: UInt32) -> [UInt8] {
        let be = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return order == .little ? be.reversed() : be
    }

    func ifdOffsets() -> [Int] {
        var offsets: [Int] = []
        var next = 8
        for entries in ifds {
            offsets.append(next)
            next += 2 + 12 * entries.count + 4
        }
        return offsets
    }

    /// (type, count, encoded value bytes) of an entry.
    func encode(_ value: Value, offsets: [Int]) -> (UInt16, UInt32, [UInt8]) {
        switch value {
        case .ascii(let s):
            let b = Array(s.utf8) + [0]
            return (2, UInt32(b.count), b)
        case .bytes(let b):
            return (2, UInt32(b.count), b)
        case .shorts(let v):
            return (3, UInt32(v.count), v.flatMap(u16))
        case .longs(let v):
            return (4, UInt32(v.count), v.flatMap(u32))
        case .rationals(let v):
            return (5, UInt32(v.count), v.flatMap { u32($0.0) + u32($0.1) })
        case .srationals(let v):
            return (
                10, UInt32(v.count),
                v.flatMap { u32(UInt32(bitPattern: $0.0)) + u32(UInt32(bitPattern: $0.1)) }
            )
        case .pointer(let n):
            return (4, 1, u32(UInt32(offsets[n])))
        case .raw(let v):
            return (4, 1, u32(v))
        }
    }

    var bytes: [UInt8] {
        let offsets = ifdOffsets()
        var out: [UInt8] =
            (order == .little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(magic)
            + u32(ifd0Offset ?? 8)
        let dataStart = 8 + ifds.reduce(0) { $0 + 2 + 12 * $1.count + 4 }
        var data: [UInt8] = []
        for (i, entries) in ifds.enumerated() {
            out += u16(declaredCounts[i] ?? UInt16(entries.count))
            for e in entries {
                let (type, count, value) = encode(e.value, offsets: offsets)
                out += u16(e.tag) + u16(e.type ?? type) + u32(e.count ?? count)
                if case .raw(let v) = e.value {
                    out += u32(v)
                } else if value.count <= 4 {
                    out += value + [UInt8](repeating: 0, count: 4 - value.count)
                } else {
                    out += u32(UInt32(dataStart + data.count))
                    data += value
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += u32(0)
        }
        return out + data
    }

    /// SOI, APP1 `Exif\0\0` + this block, a dummy SOS and EOI.
    var jpeg: Data { ExifTestTIFF.jpeg(segments: [(0xE1, ExifTestTIFF.exifSignature + bytes)]) }

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// SOI, the given marker segments (marker byte, payload), SOS with a 1-byte scan
    /// and EOI.
    static func jpeg(segments: [(UInt8, [UInt8])]) -> Data {
        var out: [UInt8] = [0xFF, 0xD8]
        for (marker, payload) in segments {
            let length = payload.count + 2
            out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        out += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0xFF, 0xD9]
        return Data(out)
    }
}
