import Dispatch
import RialMedia
import Testing

/// `Range.concurrentMap`: results in index order, each index run once, on several
/// threads when asked, on the calling thread when there is one worker.
@Suite struct ConcurrentMapTests {
    @Test(arguments: [1, 2, 3, 8, 64])
    func resultsAreInIndexOrder(workers: Int) {
        let squares = (0..<1_000).concurrentMap(workers: workers) { $0 * $0 }
        #expect(squares == (0..<1_000).map { $0 * $0 })
    }

    @Test func rangeNotStartingAtZeroPassesItsOwnIndices() {
        #expect((5..<12).concurrentMap(workers: 4) { $0 } == Array(5..<12))
    }

    @Test func emptyRangeGivesNoResultsAndNeverCallsTransform() {
        let calls = Locked(0)
        let results = (0..<0).concurrentMap(workers: 4) { index -> Int in
            calls.withLock { $0 += 1 }
            return index
        }
        #expect(results.isEmpty)
        #expect(calls.withLock { $0 } == 0)
    }

    /// Every index is handed out exactly once, even with more workers than elements.
    @Test(arguments: [3, 16])
    func eachIndexRunsExactlyOnce(workers: Int) {
        let seen = Locked([Int](repeating: 0, count: 10))
        _ = (0..<10).concurrentMap(workers: workers) { index in seen.withLock { $0[index] += 1 } }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: 10))
    }

    /// Two elements that each wait for the other can only finish when they run at the
    /// same time: with 2 workers the map really runs them concurrently. The second worker
    /// is a Dispatch pool thread, which joins only once the pool has one free: while other
    /// tests fill the pool, the first worker waits alone. A 10 s limit failed under
    /// such load (a parallel debug test run beside a release build); 60 s fails only a
    /// map whose second worker never comes, and still as a failure, not a hang.
    @Test func twoWorkersRunConcurrently() {
        let arrived = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        let met = (0..<2).concurrentMap(workers: 2) { index -> Bool in
            if index == 0 {
                arrived.signal()
                return released.wait(timeout: .now() + 60) == .success
            }
            let other = arrived.wait(timeout: .now() + 60) == .success
            released.signal()
            return other
        }
        #expect(met == [true, true])
    }

    /// One worker runs the elements in order on the calling thread.
    @Test func oneWorkerRunsInOrder() {
        let order = Locked([Int]())
        _ = (0..<20).concurrentMap(workers: 1) { index in order.withLock { $0.append(index) } }
        #expect(order.withLock { $0 } == Array(0..<20))
    }
}
