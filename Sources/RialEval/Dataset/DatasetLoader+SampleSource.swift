import Foundation
import RialMedia

extension DatasetLoader {
    /// Where a loader finds its sample objects.
    ///
    /// A manifest read from a file keeps only the byte range of each sample and reads it
    /// back from the file when asked; that costs one small read per sample and keeps the
    /// loader's memory at two integers per sample, however much each sample carries.
    enum SampleSource: Sendable {
        /// Already parsed values (a manifest handed over as JSON).
        case parsed([JSONValue])
        /// Manifest bytes held in memory, with each sample's range.
        case bytes([UInt8], ranges: [Range<Int>])
        /// A manifest file, its size and modification time when it was checked, and each
        /// sample's range in it.
        case file(path: String, stamp: FileStamp?, ranges: [Range<Int>])

        var count: Int {
            switch self {
            case .parsed(let values): values.count
            case .bytes(_, let ranges), .file(_, _, let ranges): ranges.count
            }
        }

        /// Sample `index` as JSON. Fails only for a file that changed or vanished since the
        /// loader checked it.
        func value(at index: Int) -> Result<JSONValue, RereadFailure> {
            switch self {
            case .parsed(let values):
                return .success(values[index])
            case .bytes(let bytes, let ranges):
                // Checked when the loader was made, so this parse cannot fail.
                return (try? JSONValue.parse(bytes[ranges[index]])).map { .success($0) }
                    ?? .failure(RereadFailure(reason: "sample is not valid JSON"))
            case .file(let path, let stamp, let ranges):
                let range = ranges[index]
                guard FileStamp(path: path) == stamp else {
                    return .failure(RereadFailure(reason: "the manifest changed on disk after it was read; run again"))
                }
                guard let handle = FileHandle(forReadingAtPath: path) else {
                    return .failure(RereadFailure(reason: "the manifest can no longer be read"))
                }
                defer { try? handle.close() }
                do {
                    try handle.seek(toOffset: UInt64(range.lowerBound))
                    guard let data = try handle.read(upToCount: range.count), data.count == range.count else {
                        return .failure(
                            RereadFailure(reason: "the manifest is shorter than when it was read; run again"))
                    }
                    return .success(try JSONValue.parse(data))
                } catch {
                    return .failure(
                        RereadFailure(reason: "the manifest changed on disk after it was read (\(error)); run again"))
                }
            }
        }
    }

    /// Why a sample could not be read back from its manifest.
    struct RereadFailure: Error {
        var reason: String
    }

    /// A file's size and modification time: enough to notice that a manifest was
    /// rewritten between checking it and reading its samples back.
    struct FileStamp: Sendable, Equatable {
        var size: UInt64
        var modified: Date

        /// The stamp of the file at `path` now; nil when it cannot be read.
        init?(path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let size = (attributes[.size] as? NSNumber)?.uint64Value,
                let modified = attributes[.modificationDate] as? Date
            else { return nil }
            self.size = size
            self.modified = modified
        }
    }
}
