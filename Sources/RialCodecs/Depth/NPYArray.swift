import Foundation
import RialMedia

/// Reading and writing NumPy `.npy` files holding a 2-D depth or disparity array.
///
/// Format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the magic `\x93NUMPY`, a
/// major and minor version byte, a little-endian header length (UInt16 for 1.0,
/// UInt32 for 2.0 and 3.0), then a Python dict literal such as
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (500, 741), }` (Latin-1 for
/// 1.0/2.0, UTF-8 for 3.0), padded with spaces and a newline, then the raw array data.
///
/// Accepted dtypes: `f4`, `f8`, `u1`, `u2`, `i2`, `u4`, `i4` in either byte order
/// (`<`, `>`, `|`, `=`; `=` means little-endian, as NumPy writes it on every platform
/// we target). Accepted shapes: `(h, w)`, `(h, w, 1)` and `(1, h, w)`. Both C and
/// Fortran order are read; values are returned row-major.
enum NPYArray {
    /// The element types we convert to `Float`.
    enum ElementType: String, Sendable {
        case float32 = "f4", float64 = "f8", uint8 = "u1", uint16 = "u2", int16 = "i2"
        case uint32 = "u4", int32 = "i4"

        var size: Int {
            switch self {
            case .uint8: 1
            case .uint16, .int16: 2
            case .float32, .uint32, .int32: 4
            case .float64: 8
            }
        }
    }

    /// A parsed `.npy` header.
    struct Header: Sendable, Equatable {
        var major: UInt8
        var minor: UInt8
        var elementType: ElementType
        var bigEndian: Bool
        var fortranOrder: Bool
        var shape: [Int]
        /// Byte offset of the array data.
        var dataOffset: Int
        var height: Int
        var width: Int
    }

    static let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59] // \x93NUMPY

    /// Parses and validates the header.
    ///
    /// - Throws: `MediaError.corrupt` for a bad magic, truncated or unparsable header;
    ///   `.unsupported` for other versions, dtypes, shapes or sizes over the limit.
    static func parseHeader(_ data: Data, source: String) throws -> Header {
        let bytes = [UInt8](data.prefix(12))
        guard bytes.count >= 10, Array(bytes[0..<6]) == magic else {
            throw MediaError(.corrupt, source: source, "not a NumPy .npy file (missing \\x93NUMPY magic)")
        }
        let major = bytes[6], minor = bytes[7]
        let headerLength: Int, headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else {
                throw MediaError(.corrupt, source: source, ".npy header is truncated")
            }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        default:
            throw MediaError(
                .unsupported, source: source,
                ".npy format version \(major).\(minor) is not supported (1.0, 2.0, 3.0 are)")
        }
        guard headerLength <= data.count - headerStart else {
            throw MediaError(
                .corrupt, source: source,
                ".npy header is truncated: declares \(headerLength) bytes, file has "
                    + "\(data.count - headerStart) after the preamble")
        }
        let start = data.startIndex + headerStart
        let headerBytes = data[start..<(start + headerLength)]
        let text: String
        if major == 3 {
            guard let utf8 = String(bytes: headerBytes, encoding: .utf8) else {
                throw MediaError(.corrupt, source: source, ".npy 3.0 header is not valid UTF-8")
            }
            text = utf8
        } else {
            text = String(headerBytes.map { Character(Unicode.Scalar($0)) }) // Latin-1
        }
        let dict: [String: PyValue]
        do {
            var parser = PyLiteralParser(text)
            dict = try parser.parseDictionary()
        } catch let error as PyLiteralParser.Failure {
            throw MediaError(.corrupt, source: source, ".npy header is not a valid dict literal: \(error.reason)")
        }
        guard case .string(let descr)? = dict["descr"] else {
            throw MediaError(.corrupt, source: source, ".npy header has no string 'descr'")
        }
        guard case .bool(let fortranOrder)? = dict["fortran_order"] else {
            throw MediaError(.corrupt, source: source, ".npy header has no boolean 'fortran_order'")
        }
        guard case .tuple(let shape)? = dict["shape"] else {
            throw MediaError(.corrupt, source: source, ".npy header has no tuple 'shape'")
        }
        let (elementType, bigEndian) = try parseDescr(descr, source: source)
        let dims: (height: Int, width: Int)
        switch shape.count {
        case 2: dims = (shape[0], shape[1])
        case 3 where shape[2] == 1: dims = (shape[0], shape[1])
        case 3 where shape[0] == 1: dims = (shape[1], shape[2])
        default:
            throw MediaError(
                .unsupported, source: source,
                ".npy array has shape \(shapeText(shape)); expected a 2-D depth map (h, w)")
        }
        guard dims.height > 0, dims.width > 0 else {
            throw MediaError(.unsupported, source: source, ".npy array is empty: shape \(shapeText(shape))")
        }
        let pixels = dims.height.multipliedReportingOverflow(by: dims.width)
        guard !pixels.overflow, pixels.partialValue <= DepthFormat.maxPixels else {
            throw MediaError(
                .unsupported, source: source,
                ".npy array shape \(shapeText(shape)) exceeds the limit of \(DepthFormat.maxPixels) pixels")
        }
        return Header(
            major: major, minor: minor, elementType: elementType, bigEndian: bigEndian,
            fortranOrder: fortranOrder, shape: shape, dataOffset: headerStart + headerLength,
            height: dims.height, width: dims.width)
    }

    private static func shapeText(_ shape: [Int]) -> String {
        shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
    }

    private static func parseDescr(_ descr: String, source: String) throws -> (ElementType, Bool) {
        let scalars = Array(descr.unicodeScalars)
        guard scalars.count == 3, let type = ElementType(rawValue: String(String.UnicodeScalarView(scalars[1...])))
        else {
            throw MediaError(
                .unsupported, source: source,
                ".npy dtype '\(descr)' is not supported (float32/64, uint8/16/32, int16/32)")
        }
        switch scalars[0] {
        case "<", "=": return (type, false)
        case ">": return (type, true)
        case "|" where type.size == 1: return (type, false)
        default:
            throw MediaError(.unsupported, source: source, ".npy dtype '\(descr)' has an unknown byte order")
        }
    }

    /// Reads a depth map: every element converted to `Float` (`Float(Double(v) * scale)`
    /// when a scale is given), then values outside `DepthFormat.validMetres` become
    /// `NaN`; `outOfRange` is increased by the finite non-zero ones among them.
    ///
    /// - Throws: as `parseHeader`, plus `.sizeMismatch` when the data length is not
    ///   `h * w * itemsize` (naming both numbers).
    static func readDepth(_ data: Data, scale: Double?, source: String, outOfRange: inout Int) throws -> DepthMap {
        let header = try parseHeader(data, source: source)
        let count = header.height * header.width
        let expected = count * header.elementType.size
        let available = data.count - header.dataOffset
        guard available == expected else {
            throw MediaError(
                .sizeMismatch, source: source,
                ".npy data is \(available) bytes, expected \(header.height) x \(header.width) x "
                    + "\(header.elementType.size) = \(expected) bytes for shape \(shapeText(header.shape))")
        }
        var values = [Float](repeating: .nan, count: count)
        var outside = 0
        data.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[header.dataOffset...])
            values.withUnsafeMutableBufferPointer { out in
                outside = convert(payload, header: header, scale: scale, into: out)
            }
        }
        outOfRange += outside
        guard let map = DepthMap(width: header.width, height: header.height, metres: values) else {
            throw MediaError(.corrupt, source: source, ".npy array has an unusable size")
        }
        return map
    }

    /// Returns the number of finite non-zero values outside `DepthFormat.validMetres`.
    private static func convert(
        _ payload: UnsafeRawBufferPointer, header: Header, scale: Double?,
        into out: UnsafeMutableBufferPointer<Float>
    ) -> Int {
        let big = header.bigEndian
        switch header.elementType {
        case .float32:
            return store(payload, header, scale, out) { (bits: UInt32) in
                Double(Float(bitPattern: big ? bits.bigEndian : bits.littleEndian))
            }
        case .float64:
            return store(payload, header, scale, out) { (bits: UInt64) in
                Double(bitPattern: big ? bits.bigEndian : bits.littleEndian)
            }
        case .uint8:
            return store(payload, header, scale, out) { (value: UInt8) in Double(value) }
        case .uint16:
            return store(payload, header, scale, out) { (v: UInt16) in Double(big ? v.bigEndian : v.littleEndian) }
        case .int16:
            return store(payload, header, scale, out) { (v: UInt16) in
                Double(Int16(bitPattern: big ? v.bigEndian : v.littleEndian))
            }
        case .uint32:
            return store(payload, header, scale, out) { (v: UInt32) in Double(big ? v.bigEndian : v.littleEndian) }
        case .int32:
            return store(payload, header, scale, out) { (v: UInt32) in
                Double(Int32(bitPattern: big ? v.bigEndian : v.littleEndian))
            }
        }
    }

    /// One pass over the elements in file order, writing row-major output. Each value
    /// is decoded exactly to `Double`, multiplied by `scale` there (one rounding), then
    /// rounded once to `Float`. `bigEndian`/`littleEndian` on a value loaded in host
    /// order swaps exactly when the file's byte order differs from the host's.
    @inline(__always)
    private static func store<Raw: FixedWidthInteger>(
        _ payload: UnsafeRawBufferPointer, _ header: Header,
        _ scale: Double?, _ out: UnsafeMutableBufferPointer<Float>,
        _ decode: (Raw) -> Double
    ) -> Int {
        let size = MemoryLayout<Raw>.size
        let height = header.height, width = header.width
        let count = height * width
        var outside = 0
        for i in 0..<count {
            let raw = payload.loadUnaligned(fromByteOffset: i * size, as: Raw.self)
            let decoded = decode(raw)
            var value = Float(scale.map { decoded * $0 } ?? decoded)
            if !DepthFormat.validMetres.contains(value) {
                if value.isFinite && value != 0 { outside += 1 }
                value = .nan
            }
            let destination = header.fortranOrder ? (i % height) * width + i / height : i
            out[destination] = value
        }
        return outside
    }

    /// Encodes a depth map as a version 1.0 `.npy` file: `'<f4'`, C order, shape
    /// `(height, width)`, header padded to a multiple of 64 bytes as NumPy does.
    /// `NaN` pixels are written as `NaN`.
    static func encode(_ map: DepthMap) -> Data {
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(map.height), \(map.width)), }"
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var data = Data(magic + [1, 0, UInt8(header.utf8.count & 0xFF), UInt8(header.utf8.count >> 8)])
        data.append(contentsOf: Array(header.utf8))
        data.append(FloatPayload.littleEndianBytes(map.metres))
        return data
    }
}

/// A Python literal value, as far as `.npy` headers need.
enum PyValue: Equatable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case tuple([Int])
    case none
}

/// A recursive-descent parser for the dict literal in a `.npy` header. It never traps:
/// every malformed input ends in a `Failure`.
struct PyLiteralParser {
    struct Failure: Error { var reason: String }

    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func parseDictionary() throws -> [String: PyValue] {
        skipSpace()
        try expect("{")
        var result: [String: PyValue] = [:]
        while true {
            skipSpace()
            if peek() == "}" {
                index += 1
                break
            }
            let key = try parseString()
            skipSpace()
            try expect(":")
            skipSpace()
            result[key] = try parseValue()
            skipSpace()
            if peek() == "," {
                index += 1
                continue
            }
            skipSpace()
            try expect("}")
            break
        }
        skipSpace()
        guard index == scalars.count else { throw Failure(reason: "unexpected text after the dict") }
        return result
    }

    private mutating func parseValue() throws -> PyValue {
        switch peek() {
        case "'", "\"": return .string(try parseString())
        case "(": return .tuple(try parseTuple())
        case let c? where c == "-" || ("0"..."9").contains(c): return .int(try parseInt())
        default:
            let word = parseWord()
            switch word {
            case "True": return .bool(true)
            case "False": return .bool(false)
            case "None": return .none
            case "": throw Failure(reason: "expected a value at offset \(index)")
            default: throw Failure(reason: "unsupported value '\(word)'")
            }
        }
    }

    private mutating func parseTuple() throws -> [Int] {
        try expect("(")
        var items: [Int] = []
        while true {
            skipSpace()
            if peek() == ")" {
                index += 1
                return items
            }
            items.append(try parseInt())
            skipSpace()
            if peek() == "," {
                index += 1
                continue
            }
            try expect(")")
            return items
        }
    }

    private mutating func parseInt() throws -> Int {
        var negative = false
        if peek() == "-" {
            negative = true
            index += 1
        }
        var value = 0
        var digits = 0
        while let c = peek(), ("0"..."9").contains(c) {
            let step = value.multipliedReportingOverflow(by: 10)
            let sum = step.partialValue.addingReportingOverflow(Int(c.value - 48))
            guard !step.overflow, !sum.overflow else { throw Failure(reason: "integer too large") }
            value = sum.partialValue
            digits += 1
            index += 1
        }
        if peek() == "L" { index += 1 } // Python 2 long suffix in old files
        guard digits > 0 else { throw Failure(reason: "expected an integer at offset \(index)") }
        return negative ? -value : value
    }

    private mutating func parseString() throws -> String {
        guard let quote = peek(), quote == "'" || quote == "\"" else {
            throw Failure(reason: "expected a quoted string at offset \(index)")
        }
        index += 1
        var out = String.UnicodeScalarView()
        while let c = peek() {
            index += 1
            if c == quote { return String(out) }
            if c == "\\" {
                guard let escaped = peek() else { break }
                index += 1
                out.append(escaped)
            } else {
                out.append(c)
            }
        }
        throw Failure(reason: "unterminated string")
    }

    private mutating func parseWord() -> String {
        var out = String.UnicodeScalarView()
        while let c = peek(), c.properties.isAlphabetic || c == "_" {
            out.append(c)
            index += 1
        }
        return String(out)
    }

    private mutating func expect(_ c: Unicode.Scalar) throws {
        guard peek() == c else {
            throw Failure(reason: "expected '\(c)' at offset \(index)")
        }
        index += 1
    }

    private mutating func skipSpace() {
        while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" { index += 1 }
    }

    private func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
}
