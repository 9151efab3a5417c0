import Foundation
import RialMedia

/// The quantisation tables of a JPEG file, read from its DQT markers, and the IJG
/// quality they are closest to.
///
/// Read in Swift from the marker segments (no pixel is decoded): the file is scanned
/// from SOI over marker segments up to the first SOS; every DQT segment may hold several
/// tables (`Pq Tq` byte, then 64 values of 8 or 16 bits in zigzag order). A later table
/// with the same `Tq` replaces an earlier one, as in a decoder.
public struct JPEGQuantizationTables: Sendable, Equatable {
    /// Table slot `Tq` (0...3) -> 64 values in natural (row-major) order.
    public var tables: [Int: [Int]]

    public init(tables: [Int: [Int]]) {
        self.tables = tables
    }

    /// Luma table: slot 0 (what every common encoder uses for Y).
    public var luma: [Int]? { tables[0] }
    /// Chroma table: slot 1 when present.
    public var chroma: [Int]? { tables[1] }

    /// Natural-order index of each zigzag position (ITU-T T.81 Figure A.6).
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    /// IJG (libjpeg) standard luma table, ITU-T T.81 Table K.1, natural order.
    public static let standardLuma: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// IJG standard chroma table, ITU-T T.81 Table K.2, natural order.
    public static let standardChroma: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    ]

    /// libjpeg's `jpeg_quality_scaling` + `jpeg_add_quant_table` with
    /// `force_baseline`: scale = 5000 / q for q < 50, else 200 - 2 q; each value
    /// `(base * scale + 50) / 100` (integer division) clamped to 1...255.
    public static func ijgTable(_ base: [Int], quality: Int) -> [Int] {
        let q = min(max(quality, 1), 100)
        let scale = q < 50 ? 5000 / q : 200 - 2 * q
        return base.map { min(max(($0 * scale + 50) / 100, 1), 255) }
    }

    /// The IJG quality 1...100 whose scaled `base` table is nearest to `table` (least
    /// mean absolute difference; the higher quality wins a tie), and that mean absolute
    /// difference (0 for a table libjpeg wrote at that quality; large for an encoder
    /// with tables of its own, e.g. a phone's). `nil` for a table that is not 64 values.
    public static func estimateQuality(_ table: [Int], base: [Int]) -> (quality: Int, meanAbsoluteError: Double)? {
        guard table.count == 64, base.count == 64 else { return nil }
        var best = (quality: 0, meanAbsoluteError: Double.infinity)
        for q in 1...100 {
            let candidate = ijgTable(base, quality: q)
            let error = Double(zip(candidate, table).reduce(0) { $0 + abs($1.0 - $1.1) }) / 64
            if error <= best.meanAbsoluteError { best = (q, error) }
        }
        return best
    }

    /// Reads the tables from a JPEG file's bytes.
    ///
    /// - Throws: `MediaError` `.corrupt` when `data` is not a JPEG (no SOI), a segment
    ///   runs past the end, or a DQT segment is malformed; the message names `source`.
    public static func read(_ data: Data, source: String = inMemorySource) throws(MediaError) -> JPEGQuantizationTables
    {
        let bytes = [UInt8](data)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw MediaError(.corrupt, source: source, "not a JPEG file (no SOI marker)")
        }
        var tables: [Int: [Int]] = [:]
        var i = 2
        while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else {
                throw MediaError(.corrupt, source: source, "JPEG marker expected at byte \(i)")
            }
            var marker = bytes[i + 1]
            var j = i + 1
            while marker == 0xFF, j + 1 < bytes.count { // fill bytes
                j += 1
                marker = bytes[j]
            }
            i = j + 1
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA { break } // EOI, SOS: no table follows in the header
            guard i + 1 < bytes.count else { break }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else {
                throw MediaError(
                    .corrupt, source: source, "JPEG segment at byte \(i - 2) runs past the end of the file")
            }
            if marker == 0xDB {
                var k = i + 2
                let end = i + length
                while k < end {
                    let precision = Int(bytes[k] >> 4), slot = Int(bytes[k] & 0x0F)
                    let size = precision == 0 ? 64 : 128
                    guard precision <= 1, slot <= 3, k + 1 + size <= end else {
                        throw MediaError(.corrupt, source: source, "malformed DQT segment at byte \(i - 2)")
                    }
                    var table = [Int](repeating: 0, count: 64)
                    for z in 0..<64 {
                        let value =
                            precision == 0
                            ? Int(bytes[k + 1 + z]) : Int(bytes[k + 1 + 2 * z]) << 8 | Int(bytes[k + 2 + 2 * z])
                        table[naturalOrder[z]] = value
                    }
                    tables[slot] = table
                    k += 1 + size
                }
            }
            i += length
        }
        return JPEGQuantizationTables(tables: tables)
    }
}
