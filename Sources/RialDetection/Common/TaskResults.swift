import RialMedia

/// One result slot per task for tasks that run on other threads
/// (`ImageRows.concurrently`, `DispatchQueue.concurrentPerform`): each task sets its own
/// index, the caller reads them once every task has ended. Copies share the slots.
struct TaskResults<Value: Sendable>: Sendable {
    private let slots: Locked<[Value?]>

    init(count: Int) {
        slots = Locked(Array(repeating: nil, count: count))
    }

    func set(_ index: Int, _ value: Value) {
        slots.withLock { $0[index] = value }
    }

    /// The results set so far, in task order.
    var values: [Value] {
        slots.withLock { $0.compactMap { $0 } }
    }
}
