import Foundation

/// Progress of a long job on standard error: a redrawn bar with rate and ETA on a
/// terminal, plain lines every 10% (or 15 s) otherwise, so logs stay readable in CI.
/// Safe to call from any thread.
final class ProgressReporter: @unchecked Sendable {
    private let label: String
    private let total: Int
    private let interactive: Bool
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now
    private var lastPlainDecile = -1
    private var lastPlainTime = ContinuousClock.now
    private let lock = NSLock()

    init(label: String, total: Int, interactive: Bool = Terminal.stderrIsTerminal) {
        self.label = label
        self.total = max(total, 1)
        self.interactive = interactive
    }

    /// Reports that `done` of `total` items are finished.
    func update(_ done: Int) {
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        let elapsed = seconds(now - start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        if interactive {
            guard done == total || now - lastDraw >= .milliseconds(100) else { return }
            lastDraw = now
            let width = 30
            let filled = width * done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let line = String(format: "\r%@ [%@] %d/%d  %.1f/s  ETA %@", label, bar, done, total, rate, Self.clock(eta))
            FileHandle.standardError.write(Data(line.utf8))
            if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
        } else {
            let decile = 10 * done / total
            guard decile > lastPlainDecile || now - lastPlainTime >= .seconds(15) || done == total else { return }
            lastPlainDecile = decile
            lastPlainTime = now
            let line = String(format: "%@: %d/%d (%d%%), %.1f/s, ETA %@\n", label, done, total,
                              100 * done / total, rate, Self.clock(eta))
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    private func seconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) + Double(atto) * 1e-18
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%dh%02dm", s / 3600, s / 60 % 60) : String(format: "%dm%02ds", s / 60, s % 60)
    }
}
