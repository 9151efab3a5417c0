import Foundation

/// A value shared between threads, reachable only while its lock is held.
///
/// The one lock-protected box of the package: counters, result slots and writers that
/// several threads update are a `Locked` around a plain value (`Locked(0)`,
/// `Locked([Result?](repeating: nil, count: n))`) instead of a class with its own lock.
/// Copies of a `Locked` reference the same box.
///
/// The lock is an `NSLock` (not re-entrant): calling `withLock` on the same box from
/// inside its own `body` deadlocks. Keep `body` short and never block in it on other
/// threads. (`Synchronization.Mutex` would do the same job but needs macOS 15 / iOS 18;
/// the package supports macOS 13 / iOS 16.)
public final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns; the
    /// lock is released when `body` returns or throws.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// The value is only touched under the lock, so the box may cross threads whenever the
// value itself may.
extension Locked: @unchecked Sendable where Value: Sendable {}
