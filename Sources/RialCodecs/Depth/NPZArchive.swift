import Foundation
import RialMedia
import ZIPFoundation

/// `.npz` files: ZIP archives whose members are `.npy` files (`numpy.savez`,
/// `numpy.savez_compressed`).
///
/// Reading uses a small bounds-checked ZIP parser (end of central directory, ZIP64
/// records, central directory, local headers; stored and deflated members; CRC-32
/// checked) rather than ZIPFoundation's reader, because ZIPFoundation 0.9.20 is not
/// safe on corrupt input on Linux: its in-memory archive traps (`MemoryFile.readData`
/// builds a negative range) when an offset points past the end of the data, and its
/// Linux inflate loop (`Data.decode`) never ends when a deflate stream is cut short.
/// Writing goes through ZIPFoundation (`Archive(accessMode: .create)`).
enum NPZArchive {
    /// One member as described by the central directory.
    struct Member: Sendable, Equatable {
        var name: String
        var method: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var dataOffset: Int
    }

    /// The largest member we inflate: a `.npy` of `DepthFormat.maxPixels` float64 values
    /// plus a generous header allowance.
    static let maxMemberSize = DepthFormat.maxPixels * 8 + (1 << 20)

    /// Lists the members, validating every offset and size against the data length.
    ///
    /// - Throws: `MediaError.corrupt` for anything inconsistent, `.unsupported` for
    ///   multi-disk or encrypted archives and compression methods other than
    ///   stored (0) and deflate (8).
    static func members(of data: Data, source: String) throws -> [Member] {
        try data.withUnsafeBytes { raw in try members(in: ByteReader(raw), source: source) }
    }

    private static func members(in bytes: ByteReader, source: String) throws -> [Member] {
        func corrupt(_ detail: String) -> MediaError {
            MediaError(.corrupt, source: source, "not a valid .npz (ZIP) file: \(detail)")
        }
        let n = bytes.count
        guard n >= 22 else { throw corrupt("\(n) bytes is too short for a ZIP archive") }

        // End of central directory: the last signature within the final 64 KiB + 22 bytes.
        var eocd = -1
        var position = n - 22
        let lowest = max(0, n - 22 - 0xFFFF)
        while position >= lowest {
            if bytes.u32(position) == 0x0605_4B50 {
                eocd = position
                break
            }
            position -= 1
        }
        guard eocd >= 0 else { throw corrupt("no end-of-central-directory record") }
        guard bytes.u16(eocd + 4) == 0, bytes.u16(eocd + 6) == 0 else {
            throw MediaError(.unsupported, source: source, "multi-disk ZIP archives are not supported")
        }
        var entryCount = Int(bytes.u16(eocd + 10))
        var directorySize = Int(bytes.u32(eocd + 12))
        var directoryOffset = Int(bytes.u32(eocd + 16))

        if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: locator right before the EOCD record, pointing at the ZIP64 EOCD record.
            let locator = eocd - 20
            guard locator >= 0, bytes.u32(locator) == 0x0706_4B50 else {
                throw corrupt("ZIP64 sizes without a ZIP64 locator")
            }
            let record64 = bytes.u64(locator + 8)
            guard locator >= 56, record64 <= UInt64(locator - 56),
                bytes.u32(Int(record64)) == 0x0606_4B50
            else {
                throw corrupt("bad ZIP64 end-of-central-directory record")
            }
            let record = Int(record64)
            let count64 = bytes.u64(record + 32), size64 = bytes.u64(record + 40), offset64 = bytes.u64(record + 48)
            guard count64 <= UInt64(n), size64 <= UInt64(n), offset64 <= UInt64(n) else {
                throw corrupt("ZIP64 directory values exceed the file size")
            }
            entryCount = Int(count64)
            directorySize = Int(size64)
            directoryOffset = Int(offset64)
        }
        guard directoryOffset <= n, directorySize <= n - directoryOffset, directoryOffset + directorySize <= eocd else {
            throw corrupt("central directory (offset \(directoryOffset), \(directorySize) bytes) lies outside the file")
        }
        guard entryCount <= directorySize / 46 + 1 else {
            throw corrupt("\(entryCount) entries cannot fit in a \(directorySize)-byte central directory")
        }

        var members: [Member] = []
        var cursor = directoryOffset
        let directoryEnd = directoryOffset + directorySize
        for index in 0..<entryCount {
            guard cursor + 46 <= directoryEnd, bytes.u32(cursor) == 0x0201_4B50 else {
                throw corrupt("central directory entry \(index) is missing or truncated")
            }
            let flags = bytes.u16(cursor + 8)
            let method = bytes.u16(cursor + 10)
            let crc = bytes.u32(cursor + 16)
            var compressed = UInt64(bytes.u32(cursor + 20))
            var uncompressed = UInt64(bytes.u32(cursor + 24))
            let nameLength = Int(bytes.u16(cursor + 28))
            let extraLength = Int(bytes.u16(cursor + 30))
            let commentLength = Int(bytes.u16(cursor + 32))
            var localOffset = UInt64(bytes.u32(cursor + 42))
            let nameStart = cursor + 46
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= directoryEnd else { throw corrupt("central directory entry \(index) is truncated") }
            let name = bytes.string(nameStart, nameLength, utf8: flags & 0x0800 != 0)

            // ZIP64 extended information (header 0x0001): the 64-bit values of the
            // fields that hold 0xFFFFFFFF, in this order.
            if uncompressed == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
                var field = extraStart
                let extraEnd = extraStart + extraLength
                var found = false
                while field + 4 <= extraEnd {
                    let id = bytes.u16(field), size = Int(bytes.u16(field + 2))
                    guard field + 4 + size <= extraEnd else { break }
                    if id == 0x0001 {
                        var value = field + 4
                        let end = value + size
                        func take(_ slot: inout UInt64) throws {
                            guard slot == 0xFFFF_FFFF else { return }
                            guard value + 8 <= end else { throw corrupt("short ZIP64 field in entry '\(name)'") }
                            slot = bytes.u64(value)
                            value += 8
                        }
                        try take(&uncompressed)
                        try take(&compressed)
                        try take(&localOffset)
                        found = true
                        break
                    }
                    field += 4 + size
                }
                guard found else { throw corrupt("entry '\(name)' needs a ZIP64 field and has none") }
            }
            guard flags & 0x0001 == 0 else {
                throw MediaError(.unsupported, source: source, "encrypted ZIP entry '\(name)' is not supported")
            }
            guard method == 0 || method == 8 else {
                throw MediaError(
                    .unsupported, source: source,
                    "ZIP entry '\(name)' uses compression method \(method); only stored (0) and deflate (8) are supported"
                )
            }
            guard localOffset <= UInt64(n), compressed <= UInt64(n), uncompressed <= UInt64(Int.max / 2) else {
                throw corrupt("entry '\(name)' has offsets or sizes beyond the file")
            }
            let local = Int(localOffset)
            guard local + 30 <= n, bytes.u32(local) == 0x0403_4B50 else {
                throw corrupt("local header of entry '\(name)' is missing")
            }
            let dataOffset = local + 30 + Int(bytes.u16(local + 26)) + Int(bytes.u16(local + 28))
            guard dataOffset <= n, Int(compressed) <= n - dataOffset else {
                throw corrupt("data of entry '\(name)' runs past the end of the file")
            }
            members.append(
                Member(
                    name: name, method: method, crc32: crc, compressedSize: Int(compressed),
                    uncompressedSize: Int(uncompressed), dataOffset: dataOffset))
            cursor = next
        }
        return members
    }

    /// The bytes of one member, inflated and CRC-checked.
    static func extract(_ member: Member, from data: Data, source: String) throws -> Data {
        guard member.uncompressedSize <= maxMemberSize else {
            throw MediaError(
                .unsupported, source: source,
                "array '\(member.name)' is \(member.uncompressedSize) bytes, over the limit of \(maxMemberSize)")
        }
        // DEFLATE cannot expand data more than 1032:1 (RFC 1951 length/distance limits),
        // so a larger declared size is a lie; refusing it keeps allocations proportional
        // to the input.
        guard member.method == 0 || member.uncompressedSize <= member.compressedSize * 1032 + 64 else {
            throw MediaError(
                .corrupt, source: source,
                "entry '\(member.name)' claims \(member.uncompressedSize) bytes from only "
                    + "\(member.compressedSize) compressed bytes")
        }
        let start = data.startIndex + member.dataOffset
        let stored = data[start..<(start + member.compressedSize)]
        let content: Data
        if member.method == 0 {
            guard member.compressedSize == member.uncompressedSize else {
                throw MediaError(
                    .corrupt, source: source,
                    "stored entry '\(member.name)' has different compressed and uncompressed sizes")
            }
            content = Data(stored)
        } else {
            let bytes = try ZlibCodec.inflate(
                stored, container: .raw, capacity: member.uncompressedSize + 1,
                source: source)
            guard bytes.count == member.uncompressedSize else {
                throw MediaError(
                    .corrupt, source: source,
                    "entry '\(member.name)' inflates to \(bytes.count == member.uncompressedSize + 1 ? "more than " : "")"
                        + "\(min(bytes.count, member.uncompressedSize)) bytes, the directory says \(member.uncompressedSize)"
                )
            }
            content = Data(bytes)
        }
        let crc = content.withUnsafeBytes { ZlibCodec.crc32($0) }
        guard crc == member.crc32 else {
            throw MediaError(
                .corrupt, source: source,
                "CRC-32 mismatch in entry '\(member.name)' (stored \(hex(member.crc32)), computed \(hex(crc)))")
        }
        return content
    }

    /// Chooses the member for `array` (`"arr_0"` or `"arr_0.npy"`), or the only
    /// `.npy` member when `array` is `nil`.
    ///
    /// - Throws: `MediaError.invalidArgument` listing the arrays when the name is
    ///   missing or ambiguous; `.corrupt` when the archive holds no arrays.
    static func select(_ array: String?, from members: [Member], source: String) throws -> Member {
        let arrays = members.filter { $0.name.hasSuffix(".npy") }
        let names = arrays.map { String($0.name.dropLast(4)) }
        if let array {
            if let match = arrays.first(where: { $0.name == array || $0.name == array + ".npy" }) { return match }
            throw MediaError(
                .invalidArgument, source: source,
                "no array named '\(array)' in the .npz; it holds: \(names.joined(separator: ", "))")
        }
        guard !arrays.isEmpty else {
            throw MediaError(.corrupt, source: source, ".npz archive contains no .npy arrays")
        }
        guard arrays.count == 1 else {
            throw MediaError(
                .invalidArgument, source: source,
                ".npz holds \(arrays.count) arrays (\(names.joined(separator: ", "))); name the one to read")
        }
        return arrays[0]
    }

    /// Builds an `.npz` (ZIP, members stored or deflated) with ZIPFoundation.
    ///
    /// Entries get a fixed 1980-01-01 timestamp so the same arrays give the same bytes.
    static func write(_ arrays: [(name: String, npy: Data)], compressed: Bool) throws -> Data {
        do {
            let archive = try Archive(accessMode: .create)
            let epoch = Date(timeIntervalSince1970: 315_532_800) // 1980-01-01, the ZIP epoch
            for (name, npy) in arrays {
                let path = name.hasSuffix(".npy") ? name : name + ".npy"
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(npy.count),
                    modificationDate: epoch, permissions: 0o644,
                    compressionMethod: compressed ? .deflate : .none
                ) { position, size in
                    let start = npy.startIndex + Int(position)
                    return npy.subdata(in: start..<(start + size))
                }
            }
            guard let data = archive.data else {
                throw MediaError(.writeFailed, source: inMemorySource, "ZIP writer returned no data")
            }
            return data
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(.writeFailed, source: inMemorySource, "cannot build .npz: \(error)")
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// Little-endian reads at absolute offsets. Callers check bounds first; reads past
/// the end return zero instead of trapping, as a second line of defence.
struct ByteReader {
    let raw: UnsafeRawBufferPointer
    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }
    var count: Int { raw.count }

    func u16(_ offset: Int) -> UInt16 {
        guard offset >= 0, offset <= raw.count - 2 else { return 0 }
        return UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func u32(_ offset: Int) -> UInt32 {
        guard offset >= 0, offset <= raw.count - 4 else { return 0 }
        return UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func u64(_ offset: Int) -> UInt64 {
        guard offset >= 0, offset <= raw.count - 8 else { return 0 }
        return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Bytes as UTF-8 (flag bit 11) or code page 437, approximated as Latin-1.
    func string(_ offset: Int, _ length: Int, utf8: Bool) -> String {
        guard offset >= 0, length >= 0, offset <= raw.count - length else { return "" }
        let slice = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
        if utf8 { return String(decoding: slice, as: UTF8.self) }
        return String(slice.map { Character(Unicode.Scalar($0)) })
    }
}
