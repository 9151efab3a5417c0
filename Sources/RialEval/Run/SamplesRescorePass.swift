import Dispatch
import Foundation
import RialCodecs
import RialDetection
import RialMedia

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The record pass of a rescore: streams `samples.jsonl` in large chunks, rescores the
/// lines of each chunk on every worker (`concurrentMap` over slices of lines; each line by
/// `SampleRecordLine`'s scanner, or by `JSONDecoder` where it does not apply), and writes
/// the new lines in the original order. Memory holds one chunk of text and the slim
/// records (`SampleRecord.slimmed()`) the metrics are computed from.
enum SamplesRescorePass {
    /// Bytes read at a time (whole lines are processed; the rest waits for the next chunk).
    static let chunkSize = 16 << 20

    struct Result: Sendable {
        /// Slim records, in file order.
        var records: [SampleRecord]
        var rescored: Int
        var failed: Int
        /// The first line that could not be rescored (its message); nothing after it was written.
        var problem: String?
        /// Digest and lines of `source` and of what was written to `target`.
        var inputDigest = SamplesDigest(sha256: "", lines: 0)
        var outputDigest = SamplesDigest(sha256: "", lines: 0)
    }

    /// One slice of lines, processed by one worker.
    struct Slice: Sendable {
        var output: [UInt8] = []
        var records: [SampleRecord] = []
        var rescored = 0
        var failed = 0
        /// The first problem: (line number within the file, message).
        var problem: (line: Int, message: String)?
    }

    /// Rescores `source` into `target`.
    ///
    /// Three stages overlap: a reader thread reads `source` in chunks and hashes them (the
    /// digest the caller checks against `results.json`), the workers rescore a chunk's lines,
    /// and a writer thread writes and hashes the new lines (the digest `results.json` records).
    /// After a problem the reader still hashes the rest of `source`, so the caller can say
    /// whether the file was changed after its run before naming the line.
    ///
    /// - Throws: `RunError` when `source` cannot be read or `target` written. A line that is
    ///   not a sample record, or an evaluated record without `aggregation_inputs`, is
    ///   reported in `Result.problem`.
    static func run(source: String, target: String, rescorer: Rescorer, jobs: Int) throws(RunError) -> Result {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw RunError(
                "\(source): \(FileManager.default.fileExists(atPath: source) ? "cannot be read" : "no such file")")
        }
        guard FileManager.default.createFile(atPath: target, contents: nil),
            let output = FileHandle(forWritingAtPath: target)
        else {
            try? input.close()
            throw RunError("\(target): cannot be created")
        }
        let chunks = Channel<Data?>(capacity: 2)
        let inputDigest = Locked<Swift.Result<SamplesDigest, RunError>?>(nil)
        let reader = Thread {
            var hasher = SHA256Hasher()
            var lines = 0
            var last: UInt8?
            var failure: RunError?
            while true {
                let chunk: Data
                do { chunk = try input.read(upToCount: chunkSize) ?? Data() } catch {
                    failure = RunError("\(source): read failed (\(error.localizedDescription))")
                    break
                }
                if chunk.isEmpty { break }
                hasher.update(chunk)
                lines += chunk.withUnsafeBytes { newlines(in: $0) }
                last = chunk.last
                chunks.send(chunk)
            }
            if let last, last != 0x0A { lines += 1 }
            try? input.close()
            let digest = SamplesDigest(sha256: hasher.finalizeHex(), lines: lines)
            inputDigest.withLock { $0 = failure.map { .failure($0) } ?? .success(digest) }
            chunks.send(nil)
        }
        let blocks = Channel<[UInt8]?>(capacity: 2 * Swift.max(1, jobs) * 4)
        let writerDone = DispatchSemaphore(value: 0)
        let outputDigest = Locked<Swift.Result<SamplesDigest, RunError>?>(nil)
        let writer = Thread {
            var hasher = SHA256Hasher()
            var lines = 0
            var failure: RunError?
            while let block = blocks.receive() {
                guard failure == nil else { continue }
                hasher.update(block)
                lines += block.withUnsafeBytes { newlines(in: $0) }
                do { try output.write(contentsOf: block) } catch {
                    failure = RunError("\(target): cannot be written (\(error.localizedDescription))")
                }
            }
            if failure == nil {
                do { try output.synchronize() } catch {
                    failure = RunError("\(target): cannot be written (\(error.localizedDescription))")
                }
            }
            try? output.close()
            let digest = SamplesDigest(sha256: hasher.finalizeHex(), lines: lines)
            outputDigest.withLock { $0 = failure.map { .failure($0) } ?? .success(digest) }
            writerDone.signal()
        }
        reader.start()
        writer.start()

        var result = Result(records: [], rescored: 0, failed: 0)
        var pending: [UInt8] = []
        var firstLine = 1
        var atEnd = false
        while !atEnd {
            let chunk = chunks.receive()
            atEnd = chunk == nil
            if let chunk { pending.append(contentsOf: chunk) }
            guard result.problem == nil else {
                pending.removeAll(keepingCapacity: true)
                continue
            }
            // Whole lines only, unless the file ends without a newline.
            let end = atEnd ? pending.count : (pending.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
            guard end > 0 else { continue }
            let slices = process(pending[0..<end], firstLine: firstLine, source: source, rescorer: rescorer, jobs: jobs)
            if let problem = slices.compactMap(\.problem).min(by: { $0.line < $1.line }) {
                result.problem = problem.message
                continue
            }
            for slice in slices {
                blocks.send(slice.output)
                result.records += slice.records
                result.rescored += slice.rescored
                result.failed += slice.failed
            }
            firstLine += pending.withUnsafeBytes { newlines(in: UnsafeRawBufferPointer(rebasing: $0[0..<end])) }
            pending.removeFirst(end)
        }
        blocks.send(nil)
        writerDone.wait()
        switch inputDigest.withLock({ $0 }) {
        case .failure(let error)?: throw error
        case .success(let digest)?: result.inputDigest = digest
        case nil: throw RunError("\(source): read failed")
        }
        switch outputDigest.withLock({ $0 }) {
        case .failure(let error)?: throw error
        case .success(let digest)?: result.outputDigest = digest
        case nil: throw RunError("\(target): cannot be written")
        }
        return result
    }

    /// Rescores the lines of `text` (whole lines) on `jobs` workers; slices in order.
    static func process(
        _ text: ArraySlice<UInt8>, firstLine: Int, source: String, rescorer: Rescorer, jobs: Int
    ) -> [Slice] {
        // The lines (without their newline), then about 4 slices per worker so a slow
        // slice does not leave the others idle.
        var found: [Range<Int>] = []
        text.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count, let base = bytes.baseAddress {
                guard let hit = memchr(base + start, 0x0A, bytes.count - start) else { break }
                let i = UnsafeRawPointer(hit) - base
                found.append((text.startIndex + start)..<(text.startIndex + i))
                start = i + 1
            }
            if start < bytes.count { found.append((text.startIndex + start)..<text.endIndex) }
        }
        let lines = found
        let lineCount = lines.count
        let sliceCount = Swift.max(1, Swift.min(lineCount, jobs * 4))
        let bounds = (0...sliceCount).map { $0 * lineCount / sliceCount }
        let slices = (0..<sliceCount).concurrentMap(workers: jobs) { s -> Slice in
            var slice = Slice()
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            for n in bounds[s]..<bounds[s + 1] {
                guard !lines[n].isEmpty else { continue }
                let number = firstLine + n
                let fast = text.withUnsafeBufferPointer { buffer in
                    let base = lines[n].lowerBound - text.startIndex
                    return SampleRecordLine.rescore(
                        UnsafeBufferPointer(rebasing: buffer[base..<(base + lines[n].count)]), rescorer: rescorer)
                }
                if let fast {
                    slice.output += fast.line
                    slice.output.append(UInt8(ascii: "\n"))
                    if fast.record.status == .evaluated { slice.rescored += 1 } else { slice.failed += 1 }
                    slice.records.append(fast.record)
                    continue
                }
                let record: SampleRecord
                do { record = try decoder.decode(SampleRecord.self, from: Data(text[lines[n]])) } catch {
                    slice.problem = (number, "\(source): line \(number) is not a sample record (\(error))")
                    return slice
                }
                if record.status == .evaluated && record.aggregationInputs == nil {
                    slice.problem = (
                        number,
                        "\(source): line \(number) (sample \(record.id)) has no aggregation_inputs: the run was written by an older rial-bench; re-run it with this version to rescore it"
                    )
                    return slice
                }
                let rescored = rescorer.rescore(record)
                slice.output += Array(rescored.jsonLine().utf8)
                slice.output.append(UInt8(ascii: "\n"))
                slice.records.append(rescored.slimmed())
                if record.status == .evaluated { slice.rescored += 1 } else { slice.failed += 1 }
            }
            return slice
        }
        return slices
    }
}

/// The newline bytes in `bytes` (`memchr` steps).
func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0, start = 0
    while start < bytes.count, let hit = memchr(base + start, 0x0A, bytes.count - start) {
        count += 1
        start = UnsafeRawPointer(hit) - base + 1
    }
    return count
}

/// A bounded first-in first-out hand-over between threads: `send` waits while `capacity`
/// items are queued, `receive` waits for one.
final class Channel<Element: Sendable>: @unchecked Sendable {
    private let free: DispatchSemaphore
    private let filled = DispatchSemaphore(value: 0)
    private let queue = Locked<[Element]>([])

    init(capacity: Int) { free = DispatchSemaphore(value: capacity) }

    func send(_ element: Element) {
        free.wait()
        queue.withLock { $0.append(element) }
        filled.signal()
    }

    func receive() -> Element {
        filled.wait()
        let element = queue.withLock { $0.removeFirst() }
        free.signal()
        return element
    }
}
