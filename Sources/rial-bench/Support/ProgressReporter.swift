import Foundation
import RialMedia

/// Progress of a long job on standard error: a redrawn bar with rate and ETA on a
/// terminal, plain lines every 10% (or 15 s) otherwise, so logs stay readable in CI.
/// Safe to call from any thread.
final class ProgressReporter: Sendable {
    /// When the last line was drawn: decides whether the next update draws one.
    private struct Drawn {
        var lastDraw: ContinuousClock.Instant
        var lastPlainDecile = -1
        var lastPlainTime: ContinuousClock.Instant
    }

    private let label: String
    private let total: Int
    private let interactive: Bool
    private let start: ContinuousClock.Instant
    private let drawn: Locked<Drawn>

    init(label: String, total: Int, interactive: Bool = Terminal.stderrIsTerminal) {
        self.label = label
        self.total = max(total, 1)
        self.interactive = interactive
        let now = ContinuousClock.now
        start = now
        drawn = Locked(Drawn(lastDraw: now, lastPlainTime: now))
    }

    /// Reports that `done` of `total` items are finished.
    func update(_ done: Int) {
        drawn.withLock { drawn in
            let now = ContinuousClock.now
            let elapsed = seconds(now - start)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let eta = rate > 0 ? Double(total - done) / rate : 0
            if interactive {
                guard done == total || now - drawn.lastDraw >= .milliseconds(100) else { return }
                drawn.lastDraw = now
                let width = 30
                let filled = width * done / total
                let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                let line = String(
                    format: "\r%@ [%@] %d/%d  %.1f/s  ETA %@", label, bar, done, total, rate, Self.clock(eta))
                FileHandle.standardError.write(Data(line.utf8))
                if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
            } else {
                let decile = 10 * done / total
                guard decile > drawn.lastPlainDecile || now - drawn.lastPlainTime >= .seconds(15) || done == total
                else { return }
                drawn.lastPlainDecile = decile
                drawn.lastPlainTime = now
                let line = String(
                    format: "%@: %d/%d (%d%%), %.1f/s, ETA %@\n", label, done, total,
                    100 * done / total, rate, Self.clock(eta))
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
    }

    private func seconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) + Double(atto) * 1e-18
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600
            ? String(format: "%dh%02dm", s / 3600, s / 60 % 60) : String(format: "%dm%02ds", s / 60, s % 60)
    }
}

extension ProgressReporter {
    /// A `ProgressReporter` created on the first update, for jobs that learn their total
    /// only once they start: the first update's `total` is the reporter's, later totals
    /// are ignored. Safe to call from any thread.
    struct Deferred: Sendable {
        private let label: String
        private let created = Locked<ProgressReporter?>(nil)

        init(label: String) {
            self.label = label
        }

        /// Reports that `done` of `total` items are finished.
        func update(_ done: Int, of total: Int) {
            let reporter = created.withLock { created in
                if created == nil { created = ProgressReporter(label: label, total: total) }
                return created!
            }
            reporter.update(done)
        }
    }
}
