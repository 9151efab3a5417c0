import Foundation
import RialMedia

/// The results of one capture's methods that other methods of the same capture read
/// (`DetectionMethod.readsResultsOf`): `texture/4` reads the cues `moire/2` and
/// `artifacts/2` computed instead of computing them a second time.
///
/// The analyzer makes one per run of methods (`CaptureAnalyzer`), expecting the methods
/// of that run whose results a method of the run reads and whose configuration is the
/// compiled-in one: a reader's model was trained on results computed with the standard
/// constants, so a method configured otherwise is not shared, and its reader computes
/// what it needs itself with the standard constants. Every expected method posts its
/// result once, whatever its status (`DetectionMethod.outcome(on:)`); a reader that
/// asks for one waits until it is posted, lending its reader slot meanwhile (so the
/// method it waits for can compute on it), and gets nil for a method that is not
/// expected or had no input.
public final class SharedResults: @unchecked Sendable {
    private let condition = NSCondition()
    /// The methods that will post.
    let expected: Set<MethodIdentifier>
    // Guarded by `condition`: the posted results, nil for a method that had no input.
    private var posted: [MethodIdentifier: (any Sendable)?] = [:]

    /// Shares the results of `expected`, each posted once.
    init(expected: Set<MethodIdentifier>) {
        self.expected = expected
    }

    /// Posts `result` of `method` (nil: it had no input), waking its readers. Ignored for
    /// a method that is not expected, and after its first post.
    func post<M: DetectionMethod>(_ result: M.Result?, of method: M.Type) {
        guard expected.contains(M.identifier) else { return }
        condition.lock()
        if posted[M.identifier] == nil {
            posted[M.identifier] = .some(result.map { $0 as any Sendable })
            condition.broadcast()
        }
        condition.unlock()
    }

    /// The result `method` posts for this capture: at once when it is posted, after a
    /// wait (with `rows`' reader slot lent out) when it is expected but still computing,
    /// and nil when it is not expected or had no input.
    public func result<M: DetectionMethod>(of method: M.Type, lendingSlotOf rows: ImageRows?) -> M.Result? {
        guard expected.contains(M.identifier) else { return nil }
        func take() -> (any Sendable)?? {
            condition.lock()
            defer { condition.unlock() }
            return posted[M.identifier]
        }
        if let ready = take() { return ready as? M.Result }
        return rows.map { $0.lendingSlot { waitFor(M.self) } } ?? waitFor(M.self)
    }

    /// Blocks until `method` has posted, and returns its result.
    private func waitFor<M: DetectionMethod>(_ method: M.Type) -> M.Result? {
        condition.lock()
        defer { condition.unlock() }
        while posted[M.identifier] == nil { condition.wait() }
        return posted[M.identifier]! as? M.Result
    }
}
