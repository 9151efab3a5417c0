import Foundation

/// Read access to the samples of an interleaved 8-bit image whose rows may still be
/// arriving: a decoder on another thread writes rows top to bottom and publishes how
/// many are complete, and a reader that needs rows `0..<r` calls `waitForRows(r)`
/// before it reads them. An image already in memory (`Image8.withRows`) has every row
/// at once and `waitForRows` returns immediately.
///
/// This is what lets a detection method read the first tiles of a 12 MP photo while
/// libjpeg is still decoding the last ones (RialCodecs'
/// `JPEGDecoder.decodeReporting(_:options:source:whileDecoding:)`).
///
/// Reader slots: readers that run on their own threads while the image decodes should
/// each run inside `withReaderSlot`. While the decoder runs, only `cores - 1` slot
/// holders compute at once (the decoder keeps a core to itself, so the rows everyone
/// waits for are not slowed down); a holder blocked in `waitForRows` lends its slot to
/// another reader meanwhile; when the decode ends its core becomes one more slot. So
/// several methods interleave on the spare cores, each working whenever its rows are
/// there, without ever starving the decoder.
///
/// The view is valid only inside the closure that hands it out: it points into a
/// buffer the caller owns. Rows at or after the published count must not be read.
public struct ImageRows: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let channels: Int
    /// `width * height * channels` samples, rows top to bottom, no padding.
    public let samples: UnsafeBufferPointer<UInt8>
    /// nil: every row is present.
    let progress: RowProgress?
    /// Set in the copy a reader gets inside `withReaderSlot`: its priority.
    private var slotPriority: Int?
    /// Values derived from these rows that the readers share (`sharingDerivedValues`).
    private var derivedValues: DerivedValues?

    /// Wraps `samples`; `progress` nil means every row is present.
    package init(width: Int, height: Int, channels: Int, samples: UnsafeBufferPointer<UInt8>, progress: RowProgress?) {
        precondition(
            width > 0 && height > 0 && (1...4).contains(channels)
                && samples.count == width * height * channels, "ImageRows: samples do not fit the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
        self.progress = progress
    }

    /// Number of samples in one row.
    @inlinable public var rowStride: Int { width * channels }

    /// True while rows may still be arriving (a decode in progress), false for an image
    /// in memory.
    public var isStreamed: Bool { progress != nil }

    /// Blocks until rows `0..<min(count, height)` may be read. Cheap when they already
    /// can (one lock); call it per tile or per band of rows, not per pixel. Inside
    /// `withReaderSlot`, the slot is lent out while this blocks.
    public func waitForRows(_ count: Int) {
        progress?.wait(for: Swift.min(count, height), slotPriority: slotPriority)
    }

    /// The same rows, with a store in which the readers of its copies share values they
    /// derive from the rows (`derived(_:_:)`); these rows when they already have one.
    public func sharingDerivedValues() -> ImageRows {
        guard derivedValues == nil else { return self }
        var shared = self
        shared.derivedValues = DerivedValues()
        return shared
    }

    /// Whether `derived(_:_:)` shares its values with the other readers of these rows.
    public var sharesDerivedValues: Bool { derivedValues != nil }

    /// The value `compute` derives from these rows, computed once under `key` for every
    /// copy of rows made by one `sharingDerivedValues`: the first reader to ask computes
    /// it, one that asks meanwhile waits for it (lending its reader slot), later ones get
    /// it at once. Without a shared store it just runs `compute`.
    ///
    /// `compute` must derive the value from these rows alone (the same key, the same
    /// value, whoever computes it), and must not ask for a derived value itself.
    public func derived<T: Sendable>(_ key: String, _ compute: () -> T) -> T {
        guard let derivedValues else { return compute() }
        return derivedValues.value(key, lendingSlotOf: self, compute)
    }

    /// The value derived under `key` if a reader of these rows has asked for it and its
    /// `compute` has returned; nil otherwise, and always without a shared store. Never
    /// blocks on another reader. For a value that is itself filled in progressively
    /// (a reference type its computer writes after returning it), so that a reader can
    /// use the part written so far instead of becoming its computer.
    public func derivedIfPresent<T: Sendable>(_ key: String, as type: T.Type) -> T? {
        derivedValues?.existing(key, as: type)
    }

    /// Blocks until every row may be read.
    public func waitForAllRows() {
        waitForRows(height)
    }

    /// Runs `body` as one of the readers that may compute at once (see the type's
    /// documentation), waiting for a free slot first. For an image in memory it just
    /// runs `body`.
    ///
    /// `priority`: when several waiting readers could take a freed slot, the highest
    /// goes first (ties: the earliest to wait). Give the reader with the most work left
    /// once the last rows arrive the highest, so the end of the image is not spent
    /// waiting on it alone.
    public func withReaderSlot<R>(priority: Int = 0, _ body: (ImageRows) throws -> R) rethrows -> R {
        guard let progress, slotPriority == nil else { return try body(self) }
        progress.acquireSlot(priority: priority)
        defer { progress.releaseSlot() }
        var reader = self
        reader.slotPriority = priority
        return try body(reader)
    }

    /// Runs `body`, which blocks on something other than rows (e.g. another reader's
    /// result), with this reader's slot lent out meanwhile, so the readers it waits for
    /// can compute on it; the slot is back when this returns. Outside a slot, or for an
    /// image in memory, it just runs `body`.
    public func lendingSlot<R>(_ body: () throws -> R) rethrows -> R {
        guard let progress, let slotPriority else { return try body() }
        progress.releaseSlot()
        defer { progress.acquireSlot(priority: slotPriority) }
        return try body()
    }

    /// Runs `body(task, rows)` for every task in `0..<count` and returns when all are
    /// done. While the image is streamed, each task runs on a thread of its own inside a
    /// reader slot of priority `priority(task)`, started in task order (so one whose rows
    /// come first should come first), and a caller holding a slot lends it out until
    /// they end: tasks that wait for different rows then each work as soon as their rows
    /// arrive, and those whose rows arrive last share the cores the decoder leaves. For an image in memory the tasks run one after
    /// another on the calling thread, in order (a caller that wants cores for them has
    /// its own scheduler).
    public func concurrently(
        _ count: Int, priority: (Int) -> Int = { _ in 0 },
        _ body: @escaping @Sendable (Int, ImageRows) -> Void
    ) {
        guard let progress, count > 1 else {
            for task in 0..<count { body(task, self) }
            return
        }
        // Threads, not a pool: a task blocked on rows must not hold a worker another
        // task could compute on (the slots bound the computing ones).
        if slotPriority != nil { progress.releaseSlot() }
        var unslotted = self
        unslotted.slotPriority = nil
        let free = unslotted
        let group = DispatchGroup()
        for task in 0..<count {
            let rank = priority(task)
            group.enter()
            Thread {
                free.withReaderSlot(priority: rank) { body(task, $0) }
                group.leave()
            }.start()
        }
        group.wait()
        if let slotPriority { progress.acquireSlot(priority: slotPriority) }
    }
}

/// The values readers of the same rows derive once and share (`ImageRows.derived(_:_:)`).
final class DerivedValues: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`: the values, and the keys being computed.
    private var values: [String: any Sendable] = [:]
    private var computing: Set<String> = []

    func existing<T: Sendable>(_ name: String, as type: T.Type) -> T? {
        condition.lock()
        defer { condition.unlock() }
        return values["\(T.self)/\(name)"] as? T
    }

    func value<T: Sendable>(_ name: String, lendingSlotOf rows: ImageRows, _ compute: () -> T) -> T {
        // The type is part of the key: a value is only ever read back as what it is.
        let key = "\(T.self)/\(name)"
        condition.lock()
        if let value = values[key] {
            condition.unlock()
            return value as! T
        }
        guard computing.contains(key) else {
            computing.insert(key)
            condition.unlock()
            let value = compute()
            condition.lock()
            values[key] = value
            computing.remove(key)
            condition.broadcast()
            condition.unlock()
            return value
        }
        condition.unlock()
        // Another reader computes it: wait with the slot lent, so that it can compute.
        return rows.lendingSlot {
            condition.lock()
            defer { condition.unlock() }
            while values[key] == nil { condition.wait() }
            return values[key] as! T
        }
    }
}

extension PixelImage where Sample == UInt8 {
    /// Runs `body` with every row of the image readable at once.
    ///
    /// - Precondition: `sampleLayoutProblem == nil` (callers that take images from
    ///   elsewhere check it first).
    public func withRows<R, E: Error>(_ body: (ImageRows) throws(E) -> R) throws(E) -> R {
        try samples.withUnsafeBufferPointer { buffer throws(E) in
            try body(ImageRows(width: width, height: height, channels: channels, samples: buffer, progress: nil))
        }
    }
}

/// How many rows of an image are complete, published by one writer and awaited by
/// readers on other threads, and the reader slots (`ImageRows.withReaderSlot`).
///
/// Wake-ups are kept few, because on a virtual machine each costs tens of microseconds
/// and may take the decoder's core:
/// - a slot is handed straight to one waiting reader whose rows are there (FIFO among
///   those), which alone is woken, through its own semaphore; a reader whose rows are
///   not there is not woken just to find that out;
/// - the writer publishes every few rows, but wakes a reader outside the slot scheme only
///   when the smallest count awaited is reached;
/// - a reader that has to block asks for a batch of rows beyond what it needs (`batch`,
///   about 1/12 of the image), so it then reads a band without blocking again.
///
/// The writer's side is `package`: the JPEG decoder in RialCodecs publishes the rows.
package final class RowProgress: @unchecked Sendable {
    /// A reader waiting for a slot, and the rows it needs before it can use one.
    private struct SlotWaiter {
        var rows: Int
        var priority: Int
        var wake: DispatchSemaphore
    }

    private let lock = NSLock()
    /// For readers outside the slot scheme (plain `waitForRows`).
    private let rowsReady = NSCondition()
    private let height: Int
    private let batch: Int
    // Guarded by `lock`.
    private var rows = 0
    private var freeSlots: Int
    private var slotWaiters: [SlotWaiter] = []
    // Guarded by `rowsReady`.
    private var plainRows = 0
    private var awaited = Int.max

    /// `readerSlots`: how many slot holders may compute while the writer writes.
    package init(height: Int, readerSlots: Int) {
        self.height = height
        batch = Swift.max(16, height / 12)
        freeSlots = Swift.max(1, readerSlots)
    }

    /// Rows `0..<count` are written (`count` never decreases).
    package func publish(_ count: Int) {
        lock.lock()
        let grew = count > rows
        if grew {
            rows = count
            if freeSlots > 0 && !slotWaiters.isEmpty { handOutSlots() }
        }
        lock.unlock()
        if grew { publishPlain(count) }
    }

    /// The writer is done (every row readable, or zero-filled after a failure): its
    /// core becomes one more slot.
    package func finish() {
        lock.lock()
        rows = height
        freeSlots += 1
        handOutSlots()
        lock.unlock()
        publishPlain(height)
    }

    /// The rows published so far.
    package var published: Int {
        lock.lock()
        defer { lock.unlock() }
        return rows
    }

    /// Blocks until the caller holds a slot.
    func acquireSlot(priority: Int) {
        enterQueue(needing: 0, priority: priority)
    }

    func releaseSlot() {
        lock.lock()
        freeSlots += 1
        handOutSlots()
        lock.unlock()
    }

    /// Blocks until at least `count` rows are published. A slot holder lends its slot
    /// out meanwhile and has it back when this returns.
    func wait(for count: Int, slotPriority: Int?) {
        lock.lock()
        guard rows < count else {
            lock.unlock()
            return
        }
        let target = Swift.min(height, Swift.max(count, rows + batch))
        lock.unlock()
        if let slotPriority {
            releaseSlot()
            enterQueue(needing: target, priority: slotPriority)
        } else {
            rowsReady.lock()
            while plainRows < target {
                awaited = Swift.min(awaited, target)
                rowsReady.wait()
            }
            rowsReady.unlock()
        }
    }

    /// Takes a free slot at once when no one is queued and the rows are there;
    /// otherwise queues and sleeps until `handOutSlots` gives it one.
    private func enterQueue(needing count: Int, priority: Int) {
        lock.lock()
        if freeSlots > 0 && slotWaiters.isEmpty && rows >= count {
            freeSlots -= 1
            lock.unlock()
            return
        }
        let wake = DispatchSemaphore(value: 0)
        slotWaiters.append(SlotWaiter(rows: count, priority: priority, wake: wake))
        handOutSlots()
        lock.unlock()
        wake.wait()
    }

    /// With `lock` held: gives free slots to the waiters whose rows are there, highest
    /// priority first, then the earliest.
    private func handOutSlots() {
        while freeSlots > 0 {
            var chosen = -1
            for (index, waiter) in slotWaiters.enumerated() where waiter.rows <= rows {
                if chosen < 0 || waiter.priority > slotWaiters[chosen].priority { chosen = index }
            }
            guard chosen >= 0 else { return }
            freeSlots -= 1
            slotWaiters.remove(at: chosen).wake.signal()
        }
    }

    private func publishPlain(_ count: Int) {
        rowsReady.lock()
        plainRows = Swift.max(plainRows, count)
        if plainRows >= awaited {
            awaited = Int.max // the woken readers register again if they must wait on
            rowsReady.broadcast()
        }
        rowsReady.unlock()
    }
}
