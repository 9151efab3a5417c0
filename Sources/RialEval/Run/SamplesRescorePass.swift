import Foundation
import RialDetection
import RialMedia

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
    /// - Throws: `RunError` naming the file (and line) when `source` cannot be read, a line
    ///   is not a sample record, an evaluated record has no `aggregation_inputs`, or
    ///   `target` cannot be written.
    static func run(source: String, target: String, rescorer: Rescorer, jobs: Int) throws(RunError) -> Result {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw RunError("\(source): cannot be read")
        }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: target, contents: nil),
            let output = FileHandle(forWritingAtPath: target)
        else { throw RunError("\(target): cannot be created") }
        defer { try? output.close() }

        var result = Result(records: [], rescored: 0, failed: 0)
        var pending: [UInt8] = []
        var firstLine = 1
        while true {
            let chunk: Data
            do { chunk = try input.read(upToCount: chunkSize) ?? Data() } catch {
                throw RunError("\(source): read failed (\(error.localizedDescription))")
            }
            let atEnd = chunk.isEmpty
            pending.append(contentsOf: chunk)
            // Whole lines only, unless the file ends without a newline.
            let end: Int
            if atEnd {
                end = pending.count
            } else if let last = pending.lastIndex(of: UInt8(ascii: "\n")) {
                end = last + 1
            } else {
                continue
            }
            if end > 0 {
                let slices = try process(
                    pending[0..<end], firstLine: firstLine, source: source, rescorer: rescorer, jobs: jobs)
                for slice in slices {
                    if !slice.output.isEmpty {
                        do { try output.write(contentsOf: slice.output) } catch {
                            throw RunError("\(target): cannot be written (\(error.localizedDescription))")
                        }
                    }
                    result.records += slice.records
                    result.rescored += slice.rescored
                    result.failed += slice.failed
                }
                firstLine += pending[0..<end].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                pending.removeFirst(end)
            }
            if atEnd { break }
        }
        do { try output.synchronize() } catch {
            throw RunError("\(target): cannot be written (\(error.localizedDescription))")
        }
        return result
    }

    /// Rescores the lines of `text` (whole lines) on `jobs` workers; slices in order.
    static func process(
        _ text: ArraySlice<UInt8>, firstLine: Int, source: String, rescorer: Rescorer, jobs: Int
    ) throws(RunError) -> [Slice] {
        // The lines (without their newline), then about 4 slices per worker so a slow
        // slice does not leave the others idle.
        var found: [Range<Int>] = []
        var start = text.startIndex
        for i in text.indices where text[i] == UInt8(ascii: "\n") {
            found.append(start..<i)
            start = i + 1
        }
        if start < text.endIndex { found.append(start..<text.endIndex) }
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
        if let problem = slices.compactMap(\.problem).min(by: { $0.line < $1.line }) {
            throw RunError(problem.message)
        }
        return slices
    }
}
