import Foundation
import RialEval
import RialMedia
import Testing

/// Manual timing of item 8 of the metrics brief: ROC + AUC + 1,000 cluster-bootstrap
/// resamples over 1,000,000 scores. Skipped unless `RIAL_METRICS_PERF=1`; run it in a
/// release build (`-enable-testing` because other files of this target use
/// `@testable import`):
///
///     RIAL_METRICS_PERF=1 swift test -c release -Xswiftc -enable-testing \
///         --scratch-path .build-NAME --filter MetricsPerformance
///
/// It prints wall time and process CPU time (all threads) and asserts nothing about them
/// (a shared machine is no timer). The suite is serialized so the cases do not compete.
@Suite(.serialized) struct MetricsPerformanceTests {
    static let enabled = ProcessInfo.processInfo.environment["RIAL_METRICS_PERF"] == "1"

    /// 1,000,000 scores, bona fide shifted up, in `clusters` groups; `tied`: rounded to 3
    /// decimals (about 1000 distinct values), else continuous (all distinct).
    static func data(clusters: Int, tied: Bool = true) -> (scores: [Double], truth: [Bool], groups: [Int]) {
        var rng = SplitMix64(seed: 2024)
        var scores: [Double] = [], truth: [Bool] = [], groups: [Int] = []
        scores.reserveCapacity(1_000_000)
        for i in 0..<1_000_000 {
            let bonaFide = rng.next() & 1 == 0
            let u = Double(rng.next() >> 11) / Double(1 << 53)
            let score = u * 0.8 + (bonaFide ? 0.2 : 0)
            scores.append(tied ? (score * 1000).rounded() / 1000 : score)
            truth.append(bonaFide)
            groups.append(i % clusters)
        }
        return (scores, truth, groups)
    }

    /// Wall seconds (monotonic clock) and process CPU seconds of `body`.
    static func measure(_ body: () -> Void) -> (wall: Double, cpu: Double) {
        func cpuNow() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let start = ContinuousClock.now, cpuStart = cpuNow()
        body()
        let elapsed = (ContinuousClock.now - start).components
        return (Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, cpuNow() - cpuStart)
    }

    static func format(_ time: (wall: Double, cpu: Double)) -> String {
        String(format: "wall %.2f s, cpu %.2f s", time.wall, time.cpu)
    }

    @Test(.enabled(if: enabled), arguments: [(200_000, true), (1_000_000, true), (1_000_000, false)])
    func rocAucAndThousandResamplesOverAMillionScores(clusters: Int, tied: Bool) {
        let (scores, truth, groups) = Self.data(clusters: clusters, tied: tied)
        var auc = 0.0
        var interval: ClusterBootstrap.Intervals?
        let settings = BootstrapSettings(resamples: 1000, seed: 42)
        let time = Self.measure {
            auc = ROCCurve(scores: scores, bonaFide: truth).auc
            interval = ClusterBootstrap(scores: scores, bonaFide: truth, clusters: groups, threshold: 0.5)
                .intervals(settings)
        }
        print(
            "metrics-perf clusters=\(clusters) tied=\(tied) cores=\(ProcessInfo.processInfo.activeProcessorCount) "
                + "ROC+AUC+1000 resamples: \(Self.format(time)), AUC \(auc), "
                + "CI [\(interval?.auc.lower ?? .nan), \(interval?.auc.upper ?? .nan)]")
        #expect(interval != nil)
    }

    @Test(.enabled(if: enabled))
    func fullMethodMetricsOverAMillionSamples() {
        let (scores, truth, groups) = Self.data(clusters: 200_000)
        let species = ["lcd_screen", "oled_screen", "printed_paper"]
        let samples = (0..<scores.count).map { i in
            ScoredSample(
                id: "s\(i)", score: scores[i], bonaFide: truth[i],
                species: truth[i] ? "real_scene" : species[i % 3], group: "g\(groups[i])")
        }
        var metrics: MethodMetrics?
        let time = Self.measure {
            metrics = MethodMetrics.compute(
                samples: samples,
                configuration: MetricsConfiguration(breakdowns: [.label, .attestation]))
        }
        print(
            "metrics-perf MethodMetrics.compute 1M samples, 200k groups, 1000 resamples, label+attestation "
                + "breakdowns: \(Self.format(time)), AUC \(metrics?.auc ?? .nan)")
        #expect(metrics != nil)
    }
}
