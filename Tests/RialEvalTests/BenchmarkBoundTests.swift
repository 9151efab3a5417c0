import Foundation
import Testing

@testable import RialEval

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
