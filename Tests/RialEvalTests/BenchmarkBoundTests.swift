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
