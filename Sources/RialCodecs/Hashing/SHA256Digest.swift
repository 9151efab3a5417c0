import Foundation
import RialMedia

/// One-shot SHA-256 helpers (see `SHA256Hasher`).
public enum SHA256Digest {
    /// Size of the chunks `hash(fileAt:)` reads: 1 MiB.
    public static let fileChunkSize = 1 << 20

    /// SHA-256 of `data` as 64 lowercase hex digits.
    public static func hash(_ data: Data) -> String {
        hex(digest(data))
    }

    /// SHA-256 of `data`: 32 bytes.
    public static func digest(_ data: Data) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update(data)
        return hasher.finalize()
    }

    /// SHA-256 of the file at `path` as 64 lowercase hex digits, reading it in
    /// `fileChunkSize` chunks so memory stays bounded whatever the file size.
    /// - Throws: `MediaError` naming `path`: `.notFound` when nothing is there,
    ///   `.unreadable` for a directory or a failed open/read.
    public static func hash(fileAt path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MediaError(.notFound, source: path, "no such file")
        }
        if isDirectory.boolValue {
            throw MediaError(.unreadable, source: path, "is a directory, expected a file")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw MediaError(.unreadable, source: path, "cannot open: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: fileChunkSize)
            } catch {
                throw MediaError(.unreadable, source: path, "read failed: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(chunk)
        }
        return hasher.finalizeHex()
    }

    /// Lowercase hex spelling of `bytes`, two digits per byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
