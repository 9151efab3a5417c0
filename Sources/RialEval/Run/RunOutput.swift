import Foundation
import RialCodecs
import RialMedia

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a run folder and how they are written.
///
/// A run folder is self-checking: `results.json` records the SHA-256 and line count of
/// the `samples.jsonl` beside it (`samples_sha256`, `samples_lines`), and every command
/// that reads a run folder (`report --from`, `compare`, `merge`, `gate --current`) goes
/// through `verifiedResults(folder:)`, which refuses a folder whose files do not match.
/// Folders written before these fields existed are refused too, with a message that says
/// to re-run; a lone `results.json` used as a gate baseline is not a folder and is not
/// checked.
public enum RunOutput {
    public static let samplesFile = "samples.jsonl"
    public static let resultsFile = "results.json"

    /// Writes `results` (with the digest of the folder's `samples.jsonl`) and every
    /// report of `folder` from the records.
    ///
    /// `results.json` is written atomically (temporary file, then rename).
    /// `samplesDigest`: the digest of the folder's `samples.jsonl` when the caller computed
    /// it while writing the file (`rescore`), so it is not read again.
    public static func writeResultsAndReports(
        results: RunResults, records: [SampleRecord], folder: String, samplesDigest: SamplesDigest? = nil
    ) throws(RunError) {
        try writeResultsAndReports(
            results: results, records: records, folder: folder, samplesDigest: samplesDigest, columns: nil)
    }

    /// `columns`: the records' score columns `RunResults.buildWithColumns` read, or nil.
    static func writeResultsAndReports(
        results: RunResults, records: [SampleRecord], folder: String, samplesDigest: SamplesDigest?,
        columns: ScoreColumns?
    ) throws(RunError) {
        let url = URL(fileURLWithPath: folder)
        let digest: SamplesDigest
        if let samplesDigest {
            digest = samplesDigest
        } else {
            digest = try SamplesDigest(fileAt: samplesPath(folder: folder, results: results))
        }
        var results = results
        results.samplesSHA256 = digest.sha256
        results.samplesLines = digest.lines
        // The columns a rescore reads instead of samples.jsonl (docs/aggregation-sidecar.md).
        results.aggregationSidecarSHA256 = try AggregationColumns(records: records).write(folder: folder)
        // What metrics and reports read of every record (docs/aggregation-sidecar.md).
        results.metricColumnsSHA256 = try MetricColumns(records: records, keys: results.methods).write(folder: folder)
        do {
            try results.jsonData().write(to: url.appendingPathComponent(resultsFile), options: .atomic)
        } catch {
            throw RunError("\(folder)/\(resultsFile): cannot be written (\(error.localizedDescription))")
        }
        try ReportWriter.write(results: results, records: records, folder: folder, columns: columns)
    }

    /// The `results.json` of run folder `folder`, after checking that its `samples.jsonl`
    /// is the one it was computed from.
    ///
    /// - Throws: `RunError` naming the file when `results.json` is missing or unreadable,
    ///   records no digest (an older rial-bench wrote it: re-run), or when `samples.jsonl`
    ///   is missing or its line count or SHA-256 differ from the recorded ones (an
    ///   interrupted run, or a file changed after the run).
    public static func verifiedResults(folder: String) throws(RunError) -> RunResults {
        let results = try unverifiedResults(folder: folder)
        let samplesPath = samplesPath(folder: folder, results: results)
        try check(SamplesDigest(fileAt: samplesPath), against: results, samplesPath: samplesPath)
        // The columns' digests only: a file whose SHA-256 matches is the file that was
        // written (readers parse it when they use it).
        for (file, sha256, field) in [
            (AggregationColumns.fileName, results.aggregationSidecarSHA256, "aggregation_sidecar_sha256"),
            (MetricColumns.fileName, results.metricColumnsSHA256, "metric_columns_sha256"),
        ] {
            guard let sha256 else { continue }
            let path = URL(fileURLWithPath: folder).appendingPathComponent(file).path
            let digest: String
            do { digest = try SHA256Digest.hash(fileAt: path) } catch {
                throw RunError(
                    "\(path): \(FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")")
            }
            guard digest == sha256 else {
                throw AggregationColumns.digestMismatch(path: path, digest: digest, sha256: sha256, field: field)
            }
        }
        return results
    }

    /// The `samples.jsonl` that holds the records of run folder `folder`: its own, or for a
    /// folder `rescore` wrote from columns, that of the run it names (`samples_from`).
    public static func samplesPath(folder: String, results: RunResults) -> String {
        URL(fileURLWithPath: results.samplesFrom ?? folder).appendingPathComponent(samplesFile).path
    }

    /// The records of run folder `folder`, whose `results.json` is `results` (verified):
    /// its `samples.jsonl`; for a folder `rescore` wrote from columns, the records of the
    /// run it names aggregated again under `results.configuration`, which are the records a
    /// rescore that writes them gives (`RescoreColumnsTests`).
    ///
    /// - Throws: `RunError` naming the file that cannot be read or parsed.
    public static func records(folder: String, results: RunResults, slim: Bool = false) throws(RunError)
        -> [SampleRecord]
    {
        let path = samplesPath(folder: folder, results: results)
        let records = try SampleRecord.readLines(path: path, slim: slim)
        guard results.samplesFrom != nil else { return records }
        let rescorer: Rescorer
        do { rescorer = try Rescorer(configuration: results.configuration) } catch {
            throw RunError("\(folder)/\(resultsFile): key '\(error.key)': \(error.reason)")
        }
        return records.indices.concurrentMap { rescorer.rescore(records[$0]) }
    }

    /// Work running on a thread of its own (not in a `concurrentMap`, so the `concurrentMap`s
    /// inside it and beside it each spread over the cores; nested, one would run serially).
    final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
        private let result = Locked<Result<Value, RunError>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping @Sendable () throws(RunError) -> Value) {
            let result = result, done = done
            let thread = Thread {
                let outcome = Result { () throws(RunError) in try work() }
                result.withLock { $0 = outcome }
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        /// Waits for the work (once) and returns its value or throws its error.
        func wait() throws(RunError) -> Value {
            done.wait()
            return try result.withLock { $0 }!.get()
        }
    }

    /// Completes a rescore from the run's columns in `folder`: the reports that read the
    /// metrics (`ReportWriter.metricParts`), then, once `early` (started before the metrics:
    /// it writes the metric columns and the reports that read only scores, and returns the
    /// metric columns' SHA-256) is done, the sidecar (a hard link to `sidecarFrom`'s) and
    /// `results.json` with that digest. Always waits for `early`, also when a report fails.
    static func writeColumnsRun(
        results: RunResults, sampleCount: Int, early: BackgroundWork<String>, sidecarFrom: String, folder: String,
        columns: ScoreColumns
    ) throws(RunError) {
        let url = URL(fileURLWithPath: folder)
        var results = results
        let reports = Result { () throws(RunError) in
            try ReportWriter.write(
                parts: ReportWriter.metricParts(results: results, sampleCount: sampleCount, columns: columns),
                folder: folder)
        }
        results.metricColumnsSHA256 = try early.wait()
        try reports.get()
        let sidecarSource = URL(fileURLWithPath: sidecarFrom).appendingPathComponent(AggregationColumns.fileName)
        let sidecarTarget = url.appendingPathComponent(AggregationColumns.fileName)
        do {
            // A hard link where the file system allows one (the file is never changed in place).
            do { try FileManager.default.linkItem(at: sidecarSource, to: sidecarTarget) } catch {
                try FileManager.default.copyItem(at: sidecarSource, to: sidecarTarget)
            }
        } catch {
            throw RunError("\(sidecarTarget.path): cannot be written (\(error.localizedDescription))")
        }
        do {
            try results.jsonData().write(to: url.appendingPathComponent(resultsFile), options: .atomic)
        } catch {
            throw RunError("\(folder)/\(resultsFile): cannot be written (\(error.localizedDescription))")
        }
    }

    /// The `results.json` of run folder `folder`, which must record the digest of its
    /// `samples.jsonl`; the caller checks it with `check(_:against:samplesPath:)` (a rescore
    /// hashes the file while it reads it).
    ///
    /// - Throws: `RunError` as `verifiedResults(folder:)` for a folder, `results.json` or digest.
    public static func unverifiedResults(folder: String) throws(RunError) -> RunResults {
        let url = URL(fileURLWithPath: folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw RunError("\(folder): no such run folder")
        }
        guard isDirectory.boolValue else { throw RunError("\(folder): not a folder, expected a run folder") }
        let resultsPath = url.appendingPathComponent(resultsFile).path
        let results = try RunResults.read(path: resultsPath)
        guard results.samplesSHA256 != nil, results.samplesLines != nil else {
            throw RunError(
                "\(resultsPath): records no samples_sha256/samples_lines (written by an older rial-bench), so \(samplesFile) cannot be checked; re-run it"
            )
        }
        return results
    }

    /// Checks `digest` (of the `samples.jsonl` at `samplesPath`) against the digest `results` records.
    ///
    /// - Throws: `RunError` naming the file when the line count or SHA-256 differ.
    public static func check(_ digest: SamplesDigest, against results: RunResults, samplesPath: String)
        throws(RunError)
    {
        let sha256 = results.samplesSHA256 ?? "", lines = results.samplesLines ?? -1
        guard digest.lines == lines else {
            throw RunError(
                "\(samplesPath): \(digest.lines) lines but \(resultsFile) was computed from \(lines) (an interrupted or altered run); re-run it"
            )
        }
        guard digest.sha256 == sha256 else {
            throw RunError(
                "\(samplesPath): SHA-256 \(digest.sha256.prefix(12))… does not match \(resultsFile)'s \(sha256.prefix(12))… (changed after the run); re-run it"
            )
        }
    }
}

/// SHA-256 and line count of a `samples.jsonl`, read in 1 MiB chunks.
public struct SamplesDigest: Sendable, Equatable {
    /// 64 lowercase hex digits.
    public var sha256: String
    /// Newline characters, plus one for a last line without a newline.
    public var lines: Int

    /// A digest computed while the file was written.
    init(sha256: String, lines: Int) {
        self.sha256 = sha256
        self.lines = lines
    }

    /// - Throws: `RunError` naming `path` when it is missing or unreadable.
    public init(fileAt path: String) throws(RunError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            throw RunError(
                "\(path): \(FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")")
        }
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        var lines = 0
        var last: UInt8?
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: SHA256Digest.fileChunkSize) ?? Data() } catch {
                throw RunError("\(path): read failed (\(error.localizedDescription))")
            }
            if chunk.isEmpty { break }
            hasher.update(chunk)
            lines += chunk.withUnsafeBytes { newlines(in: $0) }
            last = chunk.last
        }
        if let last, last != UInt8(ascii: "\n") { lines += 1 }
        sha256 = hasher.finalizeHex()
        self.lines = lines
    }
}

/// A run folder being written: every file goes into a staging folder beside the
/// destination (`.NAME.partial-PID-RANDOM`), and `commit()` puts the whole folder in
/// place with renames, so the destination is at every moment either the earlier
/// complete run, absent (between the two renames of a replacement), or the new complete
/// run, never a mix; files of the earlier run (plots of other methods, a `gate.md`) do
/// not survive.
///
/// The destination must be absent, an empty folder, or a run folder (one with a
/// `results.json` of schema `rial-bench-results/…`); anything else is refused, not
/// overwritten. Staging folders left by killed runs are removed by the next run to the
/// same destination once their process is gone.
public struct RunFolderStaging: Sendable {
    /// The run folder to produce.
    public let destination: String
    /// Where the files are written until `commit()`.
    public let path: String

    /// Checks `destination` and creates the staging folder (and missing parents).
    ///
    /// - Throws: `RunError` when `destination` exists and is not a folder, or is a folder
    ///   that holds files but no rial-bench `results.json`, or when a folder cannot be created.
    public init(destination: String) throws(RunError) {
        let url = URL(fileURLWithPath: destination).standardizedFileURL
        try Self.checkDestination(url.path, shownAs: destination)
        let parent = url.deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
            throw RunError("\(parent.path): cannot create the output folder's parent (\(error.localizedDescription))")
        }
        let name = url.lastPathComponent
        Self.removeAbandoned(in: parent, name: name)
        let staging = parent.appendingPathComponent(
            ".\(name).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do { try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false) } catch {
            throw RunError("\(staging.path): cannot create the staging folder (\(error.localizedDescription))")
        }
        self.destination = destination
        path = staging.path
    }

    /// Refuses a destination that is not absent, an empty folder or a run folder.
    static func checkDestination(_ path: String, shownAs shown: String) throws(RunError) {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: path) else { return }
        guard attributes[.type] as? FileAttributeType == .typeDirectory else {
            throw RunError("\(shown): exists and is not a folder; choose another output folder")
        }
        guard let contents = try? manager.contentsOfDirectory(atPath: path) else {
            throw RunError("\(shown): cannot be listed; choose another output folder")
        }
        if contents.isEmpty { return }
        let results = URL(fileURLWithPath: path).appendingPathComponent(RunOutput.resultsFile)
        if let data = try? Data(contentsOf: results),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let schema = object["schema"] as? String, schema.hasPrefix("rial-bench-results/")
        {
            return
        }
        throw RunError(
            "\(shown): exists and is not a rial-bench run folder (no readable \(RunOutput.resultsFile)); it is not overwritten: choose another output folder or remove it"
        )
    }

    /// Removes `.NAME.partial-PID-*` and `.NAME.replaced-PID-*` folders whose process no longer runs.
    static func removeAbandoned(in parent: URL, name: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for entry in entries {
            for kind in ["partial", "replaced"] {
                let prefix = ".\(name).\(kind)-"
                guard entry.hasPrefix(prefix),
                    let pid = Int32(entry.dropFirst(prefix.count).split(separator: "-").first ?? ""),
                    pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
                else { continue }
                try? FileManager.default.removeItem(at: parent.appendingPathComponent(entry))
            }
        }
    }

    /// Puts the staging folder in place of `destination`.
    ///
    /// - Throws: `RunError` when the destination changed into something that is not a
    ///   run folder meanwhile, or a rename fails (the staging folder is then kept and named).
    public func commit() throws(RunError) {
        let target = URL(fileURLWithPath: destination).standardizedFileURL
        try Self.checkDestination(target.path, shownAs: destination)
        // Absent or empty: one rename (rename(2) replaces an empty folder).
        if rename(path, target.path) == 0 { return }
        let replaced = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).replaced-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        guard rename(target.path, replaced) == 0 else {
            throw RunError(
                "\(destination): cannot be replaced (\(String(cString: strerror(errno)))); the new run is in \(path)")
        }
        guard rename(path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(replaced, target.path)
            throw RunError("\(destination): cannot be replaced (\(reason)); the new run is in \(path)")
        }
        try? FileManager.default.removeItem(atPath: replaced)
    }

    /// Removes the staging folder (after an error).
    public func discard() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
