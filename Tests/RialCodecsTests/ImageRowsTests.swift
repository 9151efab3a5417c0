import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialCodecs

/// Streamed decoding: readers on other threads see each row only once it is final, the
/// decode result is the plain decode's, and a failed decode never leaves a reader
/// blocked or reading undefined bytes.
@Suite struct ImageRowsTests {
    /// A 640 x 480 RGB image with structure in every row (so a row read too early differs).
    static let image: Image8 = {
        var image = Image8(width: 640, height: 480, channels: 3)
        var state: UInt32 = 12_345
        for y in 0..<480 {
            for x in 0..<640 {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = UInt8(truncatingIfNeeded: state >> 27)
                image[x, y, 0] = UInt8(truncatingIfNeeded: x / 3 + Int(noise))
                image[x, y, 1] = UInt8(truncatingIfNeeded: y / 2 + (x * y) % 37)
                image[x, y, 2] = UInt8(truncatingIfNeeded: (x ^ y) + Int(noise) * 2)
            }
        }
        return image
    }()
    static let jpeg: Data = (try? JPEGEncoder.encode(image, quality: 90)) ?? Data()

    /// Copies the rows band by band, each after `waitForRows` says it is final.
    static func copyInBands(_ rows: ImageRows, band: Int) -> [UInt8] {
        var copy = [UInt8](repeating: 0, count: rows.samples.count)
        var y = 0
        while y < rows.height {
            let end = min(rows.height, y + band)
            rows.waitForRows(end)
            for i in (y * rows.rowStride)..<(end * rows.rowStride) { copy[i] = rows.samples[i] }
            y = end
        }
        return copy
    }

    @Test func aReaderSeesEveryRowAsFinallyDecoded() throws {
        let plain = try JPEGDecoder.decode(Self.jpeg)
        for band in [1, 7, 64, 480] {
            let (result, copy) = try JPEGDecoder.decodeReporting(Self.jpeg) { rows in
                (rows.isStreamed, Self.copyInBands(rows, band: band))
            }
            #expect(result.image == plain, "band \(band)")
            #expect(copy.0, "band \(band): a decode in progress is streamed")
            #expect(copy.1 == plain.samples, "band \(band): a row was read before it was final")
        }
    }

    @Test func readersInSlotsAllFinishWithTheRightRows() throws {
        let plain = try JPEGDecoder.decode(Self.jpeg)
        let (_, copies) = try JPEGDecoder.decodeReporting(Self.jpeg) { rows -> [[UInt8]] in
            let results = Locked([[UInt8]](repeating: [], count: 4))
            DispatchQueue.concurrentPerform(iterations: 4) { reader in
                let copy = rows.withReaderSlot(priority: reader) { Self.copyInBands($0, band: 16 + 11 * reader) }
                results.withLock { $0[reader] = copy }
            }
            return results.withLock { $0 }
        }
        #expect(copies.count == 4)
        for copy in copies { #expect(copy == plain.samples) }
    }

    @Test func aTruncatedFileFailsWithoutLeavingTheReaderBlocked() throws {
        let cut = Self.jpeg.prefix(Self.jpeg.count * 6 / 10)
        let finished = Locked(false)
        #expect(throws: MediaError.self) {
            _ = try JPEGDecoder.decodeReporting(cut, source: "cut.jpg") { rows in
                let copy = Self.copyInBands(rows, band: 32)
                finished.withLock { $0 = true }
                return copy.count
            }
        }
        #expect(finished.withLock { $0 }, "the reader ran to its end")

        // Accepting truncation: the bottom is libjpeg's filler, and the reader sees it too.
        let options = JPEGDecodeOptions(warningPolicy: .acceptAll)
        let (result, copy) = try JPEGDecoder.decodeReporting(cut, options: options) { Self.copyInBands($0, band: 32) }
        #expect(result.isTruncated)
        #expect(copy == result.image.samples)
    }

    @Test func garbageNeverReachesTheReader() {
        for data in Mutations.garbage(lengths: [0, 3, 100, 5000], seed: 7)
            + Mutations.truncations(of: Self.jpeg, count: 12)
        {
            let calls = Locked(false)
            _ = try? JPEGDecoder.decodeReporting(data) { rows in
                calls.withLock { $0 = true }
                return Self.copyInBands(rows, band: 50).count
            }
            _ = calls.withLock { $0 } // reaching here without a hang or crash is the test
        }
    }

    @Test func anImageInMemoryHasEveryRowAtOnce() throws {
        let rows = Self.image.withRows { rows in
            rows.waitForAllRows() // returns at once
            return (rows.isStreamed, rows.samples.count, rows.withReaderSlot { $0.samples.count })
        }
        #expect(rows.0 == false)
        #expect(rows.1 == 640 * 480 * 3)
        #expect(rows.2 == rows.1)

        let png = try PNGEncoder.encode(Self.image)
        let (loaded, copy) = try ImageReader.read(data: png) { rows in
            (rows.isStreamed, Self.copyInBands(rows, band: 100))
        }
        #expect(loaded.image == Self.image)
        #expect(copy.0 == false)
        #expect(copy.1 == Self.image.samples)
    }

    /// `concurrently` on a decode in progress: every task runs on its own thread and
    /// reads exactly the final rows, also when the caller holds a slot (it lends it out
    /// and has it back: with one core's worth of slots the tasks could not run otherwise).
    @Test func concurrentTasksSeeFinalRows() throws {
        let plain = try JPEGDecoder.decode(Self.jpeg)
        for nested in [false, true] {
            let (_, copies) = try JPEGDecoder.decodeReporting(Self.jpeg) { rows -> [[UInt8]] in
                let results = Locked([[UInt8]](repeating: [], count: 3))
                let run = { (rows: ImageRows) in
                    rows.concurrently(3, priority: { $0 }) { task, reader in
                        let copy = Self.copyInBands(reader, band: 24 + 40 * task)
                        results.withLock { $0[task] = copy }
                    }
                }
                if nested { rows.withReaderSlot(priority: 5) { run($0) } } else { run(rows) }
                return results.withLock { $0 }
            }
            #expect(copies.count == 3, "nested \(nested)")
            for copy in copies { #expect(copy == plain.samples, "nested \(nested)") }
        }
    }

    /// On an image in memory the tasks run on the calling thread, one after another, in order.
    @Test func concurrentTasksInMemoryRunInOrder() {
        let order = Locked([Int]())
        let caller = pthread_self()
        let onCaller = Locked(false)
        Self.image.withRows { rows in
            rows.concurrently(4) { task, reader in
                order.withLock { $0.append(task) }
                if pthread_equal(pthread_self(), caller) != 0 && reader.samples.count == rows.samples.count {
                    onCaller.withLock { $0 = true }
                }
            }
        }
        #expect(order.withLock { $0 } == [0, 1, 2, 3])
        #expect(onCaller.withLock { $0 })
    }

    /// A streamed decode into a buffer of the right size writes into that buffer (same
    /// address, no new allocation) and gives the plain decode's pixels; a buffer of
    /// another size is left alone; a failed decode leaves the buffer with its caller.
    @Test func streamedDecodeReusesTheBuffer() throws {
        let plain = try JPEGDecoder.decode(Self.jpeg)
        var storage = [UInt8](repeating: 7, count: plain.samples.count)
        let address = storage.withUnsafeBufferPointer { $0.baseAddress }
        let (result, copy) = try JPEGDecoder.decodeReporting(Self.jpeg, reusing: &storage) {
            Self.copyInBands($0, band: 32)
        }
        #expect(result.image == plain)
        #expect(copy == plain.samples)
        #expect(result.image.samples.withUnsafeBufferPointer { $0.baseAddress } == address)
        #expect(storage.isEmpty, "the buffer moved into the image")

        var other = [UInt8](repeating: 7, count: 10)
        let fresh = try JPEGDecoder.decodeReporting(Self.jpeg, reusing: &other) { $0.height }
        #expect(fresh.result.image == plain && fresh.consumed == 480)
        #expect(other == [UInt8](repeating: 7, count: 10))

        var kept = result.image.samples
        let cut = Self.jpeg.prefix(Self.jpeg.count / 2)
        #expect(throws: MediaError.self) {
            _ = try JPEGDecoder.decodeReporting(cut, reusing: &kept) { Self.copyInBands($0, band: 32).count }
        }
        #expect(kept.count == plain.samples.count, "a failed decode hands the buffer back")

        // ImageReader passes the buffer on (`kept` is uniquely held: the failed decode
        // wrote into its own copy of the buffer `result` still shares).
        let keptAddress = kept.withUnsafeBufferPointer { $0.baseAddress }
        let reread = try ImageReader.read(data: Self.jpeg, reusing: &kept) { $0.width }
        #expect(reread.image.image == plain && reread.consumed == 640)
        #expect(reread.image.image.samples.withUnsafeBufferPointer { $0.baseAddress } == keptAddress)
    }

    @Test func imageReaderStreamsJPEGRowsInStoredOrientation() throws {
        let (loaded, copy) = try ImageReader.read(data: Self.jpeg) { Self.copyInBands($0, band: 40) }
        #expect(copy == loaded.image.samples)
        #expect(loaded.format == .jpeg)
    }
}

/// `ImageRows.derived`: a value derived from the rows is computed once for every reader
/// of rows made by one `sharingDerivedValues`, also while the rows stream in; without a
/// store every reader computes it.
@Suite struct DerivedValuesTests {
    /// The sum of every sample, read band by band (waiting for each band while streamed).
    static func sum(_ rows: ImageRows) -> Int {
        ImageRowsTests.copyInBands(rows, band: 32).reduce(0) { $0 + Int($1) }
    }

    @Test func computedOnceForEveryCopyOfSharedRows() {
        ImageRowsTests.image.withRows { rows in
            let shared = rows.sharingDerivedValues()
            #expect(shared.sharesDerivedValues && !rows.sharesDerivedValues)
            let calls = Locked(0)
            let values = Locked([Int]())
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let copy = shared // each reader its own copy of the view
                let value = copy.derived("sum") {
                    calls.withLock { $0 += 1 }
                    return Self.sum(copy)
                }
                values.withLock { $0.append(value) }
            }
            let expected = ImageRowsTests.image.samples.reduce(0) { $0 + Int($1) }
            #expect(calls.withLock { $0 } == 1)
            #expect(values.withLock { $0 } == [Int](repeating: expected, count: 4))
            // Another type under the same name is another value; an unshared view computes.
            #expect(shared.derived("sum") { "text" } == "text")
            #expect(shared.derived("sum") { -1 } == expected)
            var unshared = 0
            for _ in 0..<2 { rows.derived("sum") { unshared += 1 } }
            #expect(unshared == 2)
            // Sharing again keeps the same store.
            #expect(shared.sharingDerivedValues().derived("sum") { -1 } == expected)
        }
    }

    /// `derivedIfPresent` sees a value only once a reader has computed it, never
    /// computes, and without a store sees nothing.
    @Test func presentOnlyOnceComputed() {
        ImageRowsTests.image.withRows { rows in
            let shared = rows.sharingDerivedValues()
            #expect(shared.derivedIfPresent("sum", as: Int.self) == nil)
            let expected = shared.derived("sum") { Self.sum(shared) }
            #expect(shared.derivedIfPresent("sum", as: Int.self) == expected)
            #expect(shared.sharingDerivedValues().derivedIfPresent("sum", as: Int.self) == expected)
            // Another type under the same name is another value.
            #expect(shared.derivedIfPresent("sum", as: String.self) == nil)
            _ = rows.derived("sum") { 1 }
            #expect(rows.derivedIfPresent("sum", as: Int.self) == nil)
        }
    }

    /// While the photo decodes, with one reader slot: a reader that asks for the value
    /// while another computes it lends its slot, so that the one computing (which waits
    /// for rows, and for a slot after each wait) can go on. Without the loan this would
    /// deadlock on a 2-core machine; with it both get the decoded image's sum.
    @Test func aWaitingReaderLendsItsSlotWhileRowsStream() throws {
        let plain = try JPEGDecoder.decode(ImageRowsTests.jpeg)
        let expected = plain.samples.reduce(0) { $0 + Int($1) }
        let (_, values) = try JPEGDecoder.decodeReporting(ImageRowsTests.jpeg) { rows -> [Int] in
            let shared = rows.sharingDerivedValues()
            let calls = Locked(0)
            let results = Locked([Int]())
            shared.concurrently(3, priority: { $0 }) { _, reader in
                let value = reader.derived("sum") {
                    calls.withLock { $0 += 1 }
                    return Self.sum(reader)
                }
                results.withLock { $0.append(value) }
            }
            #expect(calls.withLock { $0 } == 1)
            return results.withLock { $0 }
        }
        #expect(values == [Int](repeating: expected, count: 3))
    }
}
