import Foundation

/// Writes a report the user asked for (`--out`, `--markdown`, `--junit`): creates the
/// missing folders on its path, then writes the file atomically.
///
/// A path that cannot be written is bad input, not a crash or raw Foundation text: it
/// throws `CLIError.badInput` (exit 65) with one line naming the path and the reason
/// (a file where a folder should be, a folder where the file should be, no permission).
enum OutputFile {
    static func write(_ data: Data, to path: String) throws(CLIError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw CLIError.badInput("\(path): cannot be written: it is a folder")
        }
        // The nearest existing ancestor must be a folder, or nothing can be created below it.
        var ancestor = folder
        while !files.fileExists(atPath: ancestor.path, isDirectory: &isFolder), ancestor.path != "/" {
            ancestor.deleteLastPathComponent()
        }
        if !isFolder.boolValue {
            throw CLIError.badInput("\(path): cannot be written: \(ancestor.path) is a file, not a folder")
        }
        do { try files.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw CLIError.badInput("\(path): cannot create the folder \(folder.path) (\(reason(error)))")
        }
        do { try data.write(to: url, options: .atomic) } catch {
            throw CLIError.badInput("\(path): cannot be written (\(reason(error)))")
        }
    }

    /// The operating system's reason (`Permission denied`), not Foundation's sentence.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        if let posix = underlying, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        switch nsError.code {
        case NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on the device"
        case NSFileWriteVolumeReadOnlyError: return "read-only file system"
        default: return "file system error \(nsError.code)"
        }
    }
}
