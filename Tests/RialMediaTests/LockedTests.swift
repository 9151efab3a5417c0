import Dispatch
import RialMedia
import Testing

/// `Locked`: every update under contention is kept, and the box is shared, not copied.
@Suite struct LockedTests {
    /// 8 threads x 10 000 read-modify-write increments: a lost update (two threads
    /// reading the same old value) would leave the total short of 80 000.
    @Test func incrementsFromManyThreadsAreAllCounted() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    /// Appends from several threads: all 4 x 500 values arrive, each exactly once, and
    /// each thread's own values keep their order.
    @Test func appendsFromManyThreadsKeepEveryValue() {
        let log = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for k in 0..<500 { log.withLock { $0.append(thread * 1_000 + k) } }
        }
        let values = log.withLock { $0 }
        #expect(values.count == 2_000)
        #expect(Set(values) == Set((0..<4).flatMap { t in (0..<500).map { t * 1_000 + $0 } }))
        for thread in 0..<4 {
            let own = values.filter { $0 / 1_000 == thread }
            #expect(own == own.sorted())
        }
    }

    @Test func withLockReturnsTheBodysResultAndCopiesShareTheBox() {
        let box = Locked("a")
        let alias = box
        let before = alias.withLock { value -> String in
            defer { value += "b" }
            return value
        }
        #expect(before == "a")
        #expect(box.withLock { $0 } == "ab")
    }

    /// A throwing body releases the lock: the next `withLock` does not deadlock and sees
    /// the update made before the throw.
    @Test func throwingBodyReleasesTheLock() {
        struct Stop: Error {}
        let box = Locked(1)
        #expect(throws: Stop.self) {
            try box.withLock { (value: inout Int) throws(Stop) in
                value = 2
                throw Stop()
            }
        }
        #expect(box.withLock { $0 } == 2)
    }
}
