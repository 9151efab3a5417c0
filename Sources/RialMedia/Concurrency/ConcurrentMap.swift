import Dispatch
import Foundation

extension Range where Bound == Int {
    /// `map(transform)` computed on up to `workers` threads: the results are in index
    /// order whatever the number of workers and whichever thread ran which index.
    ///
    /// Scheduling is dynamic: `min(workers, count)` workers
    /// (`DispatchQueue.concurrentPerform`) each take the next unprocessed index from a
    /// shared counter until none is left, so a slow element never leaves the other
    /// workers idle. With one worker (or one element) everything runs on the calling
    /// thread, in order. Returns when every element is done.
    ///
    /// `transform` runs concurrently with itself; anything it shares must be `Sendable`
    /// (use `Locked` for mutable state such as a progress count). Errors are results:
    /// map to `Result` to keep each element's failure.
    ///
    /// - Parameters:
    ///   - workers: Most threads to use; values below 1 count as 1. Default: the active
    ///     processor count.
    ///   - transform: Called exactly once per element of the range.
    /// - Complexity: `count` calls of `transform`, plus one lock acquisition per element
    ///   for the counter and one for the result slot.
    public func concurrentMap<T: Sendable>(
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        _ transform: @Sendable (Int) -> T
    ) -> [T] {
        let threads = Swift.max(1, Swift.min(workers, count))
        guard threads > 1 else { return map(transform) }
        let first = lowerBound, count = count
        let next = Locked(0)
        let slots = Locked([T?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let offset = next.withLock({ (taken: inout Int) -> Int? in
                guard taken < count else { return nil }
                defer { taken += 1 }
                return taken
            }) {
                let result = transform(first + offset)
                slots.withLock { $0[offset] = result }
            }
        }
        // Every offset below `count` was taken by exactly one worker and stored before
        // `concurrentPerform` returned.
        return slots.withLock { $0.map { $0! } }
    }
}
