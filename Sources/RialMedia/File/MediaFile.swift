import Foundation

/// Reading and writing whole files with errors that name the path.
public enum MediaFile {
    /// Reads a whole file.
    ///
    /// - Throws: `MediaError` `.notFound` when nothing exists at `path`, `.unreadable`
    ///   when it is a directory or cannot be read.
    public static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MediaError(.notFound, source: path, "no such file")
        }
        if isDirectory.boolValue {
            throw MediaError(.unreadable, source: path, "is a directory, expected a file")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw MediaError(.unreadable, source: path, "cannot read: \(error.localizedDescription)")
        }
    }

    /// Writes `data` atomically (temporary file, then rename), creating parent folders.
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw MediaError(.writeFailed, source: path, "cannot write: \(error.localizedDescription)")
        }
    }
}
