import Foundation

/// What a file is, judged from its first bytes (never from its name alone).
public enum SniffedFormat: String, Sendable, Equatable, Codable {
    case jpeg, png, npy, npz, gzip, zlib, unknown

    /// Recognises JPEG (FF D8 FF), PNG (the 8-byte signature), NumPy `.npy`
    /// (`\x93NUMPY`), `.npz` (a ZIP local header `PK\x03\x04`), gzip (1F 8B) and a zlib
    /// stream (CMF 0x78 with a valid FCHECK: `(CMF * 256 + FLG) % 31 == 0`).
    public static func sniff(_ data: Data) -> SniffedFormat {
        let b = [UInt8](data.prefix(8))
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .jpeg }
        if b.count >= 8, b == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if b.count >= 6, b[0] == 0x93, Array(b[1..<6]) == Array("NUMPY".utf8) { return .npy }
        if b.count >= 4, b[0..<4] == [0x50, 0x4B, 0x03, 0x04] { return .npz }
        if b.count >= 2, b[0] == 0x1F, b[1] == 0x8B { return .gzip }
        if b.count >= 2, b[0] == 0x78, (UInt16(b[0]) << 8 | UInt16(b[1])) % 31 == 0 { return .zlib }
        return .unknown
    }
}
