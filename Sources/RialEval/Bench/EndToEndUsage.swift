import Foundation

extension Benchmark {
    /// Where `end_to_end`'s time goes, measured in pairs: each iteration times the decode,
    /// the file's hash and each deployed method alone, one thread each, then end to end
    /// with the CPU time of the whole process (every thread, user and system). Ratios are
    /// taken within an iteration, under the same machine state, and their medians
    /// reported: on a shared virtual machine the speed drifts by a quarter between items
    /// measured seconds apart, which a ratio of two items' p50s takes in whole.
    ///
    /// - `overDecode`: end to end over the decode of the same iteration (issue 5's goal
    ///   is at most 1.5).
    /// - `utilisation = cpu / (wall x cores)`: the share of the cores' time the capture
    ///   kept busy. Below 1, cores waited (for rows, for another method's result, or for
    ///   the scheduler to move a runnable thread to an idle core).
    /// - `workInflation = cpu / single-threaded work`: above 1, the same work cost more
    ///   when it ran concurrently (threads slowing each other through shared caches and
    ///   memory, hand-offs between threads, a photo freshly written by the decoder
    ///   instead of one in memory).
    ///
    /// With `work` the single-threaded sum, end to end takes about
    /// `work x workInflation / (cores x utilisation)` (and never less than the decode):
    /// the two ratios say how far each cause keeps it above `EndToEndBound`.
    public struct EndToEndUsage: Sendable, Equatable, Codable {
        /// One paired iteration, ms.
        public struct Iteration: Sendable, Equatable {
            public var decodeMs: Double
            /// Decode + hash + each deployed method alone.
            public var singleThreadedMs: Double
            public var wallMs: Double
            public var cpuMs: Double

            public init(decodeMs: Double, singleThreadedMs: Double, wallMs: Double, cpuMs: Double) {
                self.decodeMs = decodeMs
                self.singleThreadedMs = singleThreadedMs
                self.wallMs = wallMs
                self.cpuMs = cpuMs
            }
        }

        /// Paired iterations counted.
        public var iterations: Int
        public var cores: Int
        /// Medians over the iterations, ms: end to end's wall and CPU time, the single-threaded work.
        public var wallMs: Double
        public var cpuMs: Double
        public var singleThreadedMs: Double
        /// Medians of the per-iteration ratios.
        public var overDecode: Double
        public var utilisation: Double
        public var workInflation: Double

        enum CodingKeys: String, CodingKey {
            case iterations, cores
            case wallMs = "wall_ms"
            case cpuMs = "cpu_ms"
            case singleThreadedMs = "single_threaded_ms"
            case overDecode = "over_decode"
            case utilisation
            case workInflation = "work_inflation"
        }

        /// Nil without a core or an iteration whose times are all finite and positive
        /// (the others are left out).
        public init?(_ iterations: [Iteration], cores: Int) {
            let valid = iterations.filter { i in
                [i.decodeMs, i.singleThreadedMs, i.wallMs, i.cpuMs].allSatisfy { $0.isFinite && $0 > 0 }
            }
            guard cores >= 1, !valid.isEmpty else { return nil }
            func median(_ values: [Double]) -> Double { LatencyStatistics(milliseconds: values).p50 }
            self.iterations = valid.count
            self.cores = cores
            wallMs = median(valid.map(\.wallMs))
            cpuMs = median(valid.map(\.cpuMs))
            singleThreadedMs = median(valid.map(\.singleThreadedMs))
            overDecode = median(valid.map { $0.wallMs / $0.decodeMs })
            utilisation = median(valid.map { $0.cpuMs / ($0.wallMs * Double(cores)) })
            workInflation = median(valid.map { $0.cpuMs / $0.singleThreadedMs })
        }
    }
}
