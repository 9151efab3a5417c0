import Foundation
import Testing

@testable import RialEval

#if canImport(Glibc)
    import Glibc
#endif

/// `Benchmark.EndToEndBound`: the least end to end can take on a machine, worked by hand.
@Suite struct BenchmarkBoundTests {
    static let p50: [String: Double] = ["decode": 40, "sha256": 1, "moire/2": 30, "texture/3": 20, "depth/2": 9]

    /// 40 + 1 + 30 + 20 + 9 = 100 ms of work: on 2 cores at least 50 ms (1.25 x decode);
    /// on 4 cores 25 ms of work per core, but the decode alone takes 40 ms.
    @Test func workOverCoresOrTheDecode() throws {
        let methods = ["moire/2", "texture/3", "depth/2"]
        let two = try #require(Benchmark.EndToEndBound(methods: methods, p50: Self.p50, cores: 2))
        #expect(two.cpuMs == 100 && two.boundMs == 50 && two.cores == 2 && two.methods == methods)
        let four = try #require(Benchmark.EndToEndBound(methods: methods, p50: Self.p50, cores: 4))
        #expect(four.boundMs == 40)
        // One core: everything in turn.
        #expect(Benchmark.EndToEndBound(methods: methods, p50: Self.p50, cores: 1)?.boundMs == 100)
    }

    /// A method that was not timed, a missing or non-finite decode, or no core: no bound
    /// rather than a wrong one.
    @Test func missingTimesGiveNoBound() {
        #expect(Benchmark.EndToEndBound(methods: ["artifacts/2"], p50: Self.p50, cores: 2) == nil)
        var p50 = Self.p50
        p50["decode"] = .nan
        #expect(Benchmark.EndToEndBound(methods: [], p50: p50, cores: 2) == nil)
        #expect(Benchmark.EndToEndBound(methods: [], p50: Self.p50, cores: 0) == nil)
        // No sha256 row counts it as 0.
        p50 = Self.p50
        p50["sha256"] = nil
        #expect(Benchmark.EndToEndBound(methods: ["moire/2"], p50: p50, cores: 1)?.cpuMs == 70)
    }

    @Test func readsBack() throws {
        let bound = try #require(Benchmark.EndToEndBound(methods: ["moire/2"], p50: Self.p50, cores: 2))
        let json = try JSONEncoder().encode(bound)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"bound_ms\"") && text.contains("\"cpu_ms\""))
        #expect(try JSONDecoder().decode(Benchmark.EndToEndBound.self, from: json) == bound)
    }
}

/// `Benchmark.EndToEndUsage`: paired medians and ratios, worked by hand.
@Suite struct BenchmarkUsageTests {
    typealias Iteration = Benchmark.EndToEndUsage.Iteration

    /// Three iterations on 2 cores, the machine slower in the third:
    /// - decode 40, work 100, wall 60, CPU 96: ratio 1.5, busy 96 / 120 = 0.8, inflation 0.96;
    /// - decode 40, work 80, wall 50, CPU 100: ratio 1.25, busy 1.0, inflation 1.25;
    /// - decode 80, work 160, wall 100, CPU 180: ratio 1.25, busy 0.9, inflation 1.125.
    /// Medians (nearest rank, the 2nd of 3): wall 60, CPU 100, work 100, ratio 1.25,
    /// busy 0.9, inflation 1.125. Each ratio is the median of the iterations' ratios, not a
    /// ratio of medians (which for the decode would be 60 / 40 = 1.5).
    @Test func mediansOfPairedRatios() throws {
        let usage = try #require(
            Benchmark.EndToEndUsage(
                [
                    Iteration(decodeMs: 40, singleThreadedMs: 100, wallMs: 60, cpuMs: 96),
                    Iteration(decodeMs: 40, singleThreadedMs: 80, wallMs: 50, cpuMs: 100),
                    Iteration(decodeMs: 80, singleThreadedMs: 160, wallMs: 100, cpuMs: 180),
                ], cores: 2))
        #expect(usage.iterations == 3 && usage.cores == 2)
        #expect(usage.wallMs == 60 && usage.cpuMs == 100 && usage.singleThreadedMs == 100)
        #expect(usage.overDecode == 1.25 && usage.utilisation == 0.9 && usage.workInflation == 1.125)
    }

    /// An iteration with a non-finite or non-positive time is left out; none left or no
    /// core: no usage.
    @Test func badIterationsGiveNoUsage() {
        let good = Iteration(decodeMs: 40, singleThreadedMs: 100, wallMs: 60, cpuMs: 96)
        let bad = [
            Iteration(decodeMs: .nan, singleThreadedMs: 100, wallMs: 60, cpuMs: 96),
            Iteration(decodeMs: 40, singleThreadedMs: 0, wallMs: 60, cpuMs: 96),
            Iteration(decodeMs: 40, singleThreadedMs: 100, wallMs: .infinity, cpuMs: 96),
            Iteration(decodeMs: 40, singleThreadedMs: 100, wallMs: 60, cpuMs: -1),
        ]
        #expect(Benchmark.EndToEndUsage(bad + [good], cores: 2)?.iterations == 1)
        #expect(Benchmark.EndToEndUsage(bad, cores: 2) == nil)
        #expect(Benchmark.EndToEndUsage([], cores: 2) == nil)
        #expect(Benchmark.EndToEndUsage([good], cores: 0) == nil)
    }

    /// The process clock counts the work of every thread: two threads each busy until their
    /// own thread clock has advanced 20 ms add at least 40 ms to it (CPU time, not wall
    /// time, so a loaded machine changes nothing).
    @Test func processClockCountsEveryThread() {
        @Sendable func threadCPUMs() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
        }
        let before = ProcessCPUClock.seconds()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let start = threadCPUMs()
            while threadCPUMs() - start < 20 {} // the clock reads themselves are the work
        }
        #expect(1000 * (ProcessCPUClock.seconds() - before) >= 40)
    }

    @Test func readsBack() throws {
        let usage = try #require(
            Benchmark.EndToEndUsage(
                [Iteration(decodeMs: 40, singleThreadedMs: 100, wallMs: 60, cpuMs: 96)], cores: 2))
        let json = try JSONEncoder().encode(usage)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"work_inflation\"") && text.contains("\"over_decode\""))
        #expect(try JSONDecoder().decode(Benchmark.EndToEndUsage.self, from: json) == usage)
    }
}

/// `Benchmark.Remeasurement`: an item's row against its second measurement, worked by hand.
@Suite struct BenchmarkRemeasurementTests {
    static func row(_ key: String, p50: Double, target: Double?, verdict: String) -> Benchmark.Entry {
        Benchmark.Entry(
            key: key, statistics: LatencyStatistics(milliseconds: [p50]), targetMs: target, targetSource: nil,
            verdict: verdict)
    }

    /// Row p50 28 ms against a 30 ms target (PASS); again 31, 33, 29 ms: p50 31 (nearest
    /// rank, the 2nd of 3), over the target, so unsettled; drift 31 / 28 - 1.
    @Test func passThenFailIsUnsettled() throws {
        let row = Self.row("moire/2", p50: 28, target: 30, verdict: "PASS")
        let again = try #require(Benchmark.Remeasurement(row: row, times: [31, 33, 29]))
        #expect(again.key == "moire/2" && again.p50Ms == 28 && again.repeatP50Ms == 31 && again.repeatCount == 3)
        #expect(again.unsettled && again.targetMs == 30)
        #expect(abs(again.drift - 3.0 / 28) < 1e-12)
    }

    /// Both on the same side of the target (both over, both under, one exactly on it, which
    /// passes as the verdict does): settled. No target, or a verdict of n/a: never unsettled.
    @Test func sameSideOrNoVerdictIsSettled() throws {
        let cases: [(Benchmark.Entry, [Double])] = [
            (Self.row("depth/2", p50: 12, target: 5, verdict: "FAIL"), [9, 10, 11]),
            (Self.row("texture/4", p50: 11, target: 15, verdict: "PASS"), [14, 12, 13]),
            (Self.row("texture/4", p50: 11, target: 15, verdict: "PASS"), [15]),
            (Self.row("decode", p50: 31, target: nil, verdict: "n/a"), [44]),
            (Self.row("moire/2", p50: 28, target: 30, verdict: "n/a"), [40]),
        ]
        for (row, times) in cases {
            let again = try #require(Benchmark.Remeasurement(row: row, times: times))
            #expect(!again.unsettled, "\(row.key) \(times)")
        }
    }

    /// Non-finite or negative times are left out; none left, or a row p50 that is not
    /// finite and positive: no remeasurement.
    @Test func badTimesAreLeftOut() {
        let row = Self.row("moire/2", p50: 28, target: 30, verdict: "PASS")
        #expect(Benchmark.Remeasurement(row: row, times: [.nan, -1, 29, .infinity])?.repeatCount == 1)
        #expect(Benchmark.Remeasurement(row: row, times: [.nan, -1]) == nil)
        #expect(Benchmark.Remeasurement(row: row, times: []) == nil)
        #expect(Benchmark.Remeasurement(row: Self.row("x", p50: .nan, target: 30, verdict: "PASS"), times: [1]) == nil)
        #expect(Benchmark.Remeasurement(row: Self.row("x", p50: 0, target: 30, verdict: "PASS"), times: [1]) == nil)
    }

    @Test func readsBack() throws {
        let again = try #require(
            Benchmark.Remeasurement(row: Self.row("moire/2", p50: 28, target: 30, verdict: "PASS"), times: [31]))
        let json = try JSONEncoder().encode(again)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"repeat_p50_ms\"") && text.contains("\"unsettled\""))
        #expect(try JSONDecoder().decode(Benchmark.Remeasurement.self, from: json) == again)
    }
}
