import Foundation

/// One result slot per task for tasks that run on other threads
/// (`ImageRows.concurrently`, `DispatchQueue.concurrentPerform`): each task sets its own
/// index, the caller reads them once every task has ended.
final class TaskResults<Value>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLock()

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Value) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    /// The results set so far, in task order.
    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage.compactMap { $0 }
    }
}
