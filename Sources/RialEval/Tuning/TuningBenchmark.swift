import Foundation
import RialDetection
import RialMedia

/// `rial-bench bench-tune`: the time `rial-bench tune` takes on a large synthetic run,
/// from records in memory (extraction, nested cross-validation, final fit, intervals,
/// tuned.yaml, tune.json and tune.md text) — everything but reading the files.
public enum TuningBenchmark {
    /// The timings of one tuning, seconds (monotonic clock).
    public struct Timing: Sendable, Equatable, Codable {
        public var samples: Int
        public var methods: Int
        public var folds: Int
        public var resamples: Int
        public var cores: Int
        public var extractSeconds: Double
        public var tuneSeconds: Double
        public var writeSeconds: Double
        public var totalSeconds: Double

        enum CodingKeys: String, CodingKey {
            case samples, methods, folds, resamples, cores
            case extractSeconds = "extract_seconds"
            case tuneSeconds = "tune_seconds"
            case writeSeconds = "write_seconds"
            case totalSeconds = "total_seconds"
        }
    }

    /// The methods of every synthetic record: the newest registered version of each of the
    /// five computed families (what feeds aggregation) plus depth/1, recorded beside
    /// depth/2 as a run records it, and attestation: 7 inputs. Following the registry
    /// keeps every aggregated column filled when a family gains a version.
    static let methods: [(key: String, family: MethodFamily, noise: Double)] = {
        let noise: [(MethodFamily, Double)] = [
            (.depth, 0.4), (.parallax, 0.7), (.moire, 0.5), (.texture, 0.8), (.artifacts, 0.9),
        ]
        let newest = MethodRegistry.standard.newestByFamily
        return [("depth/1", .depth, 0.6)]
            + noise.map { family, noise in (newest[family]?.description ?? "\(family.rawValue)/1", family, noise) }
    }()

    /// `count` synthetic evaluated records, deterministic for `seed`: half real scenes,
    /// the rest LCD, OLED and printed; groups of 4; 10 sources; each method scores 0.3 +
    /// 0.4 · bona fide + noise, unavailable 10% of the time; a few screen/print flags;
    /// attestation missing, TEE or Secure Enclave.
    public static func syntheticRecords(count: Int, seed: UInt64) -> [SampleRecord] {
        var rng = SplitMix64(seed: seed)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let attacks: [SampleLabel] = [.lcdScreen, .oledScreen, .printedPaper]
        let evidence: [AttestationEvidence] = [
            .missing, .init(status: .pass, method: .tee), .init(status: .pass, method: .secureEnclave),
        ]
        return (0..<count).map { i in
            let real = uniform() < 0.5
            let label: SampleLabel = real ? .realScene : attacks[Int(rng.bounded(3))]
            var inputs: [String: AggregationCandidate] = [:]
            for method in methods {
                let available = uniform() < 0.9
                let score = min(1, max(0, 0.3 + (real ? 0.4 : 0) + method.noise * (uniform() - 0.5)))
                inputs[method.key] = AggregationCandidate(
                    family: method.family, source: .computed, available: available, score: available ? score : nil,
                    screenDetected: !real && label != .printedPaper && uniform() < 0.05,
                    printDetected: label == .printedPaper && uniform() < 0.05)
            }
            return SampleRecord(
                id: "s\(i)", datasetIndex: 0, index: i, dataset: "bench-tune", label: .known(label), bonaFide: real,
                group: "g\(i / 4)", tags: ["source:owner/repo\(i / 4 % 10)"], attestation: .none, split: .test,
                data: .simulated, status: .evaluated, failure: nil, methods: [:], aggregate: nil, decision: nil,
                aggregationInputs: inputs, attestationEvidence: evidence[Int(rng.bounded(3))], latencyMs: [:],
                sha256: [:])
        }
    }

    /// Tunes `records` as `rial-bench tune --folds folds` would and times it.
    public static func run(
        records: [SampleRecord], folds: Int, resamples: Int, seed: UInt64
    ) throws(RunError) -> Timing {
        let clock = ContinuousClock()
        let start = clock.now
        let base = PipelineConfiguration.standard
        let problem = try TuningProblem.from(records: records, base: base, profileName: base.profile) { _ in
            "bench-tune"
        }
        let extracted = clock.now
        var options = TuningOptions()
        options.folds = folds
        options.seed = seed
        let tuner: Tuner
        do { tuner = try Tuner(problem: problem, options: options) } catch {
            throw RunError("configuration: key '\(error.key)': \(error.reason)")
        }
        let report = TuningReport.run(
            tuner: tuner, inputs: [], bootstrap: BootstrapSettings(resamples: resamples, seed: seed), created: "")
        let tuned = clock.now
        var configuration = report.final.applied(to: base, profile: base.profile)
        configuration.provenance = report.provenance
        _ = ConfigurationPrinter.yaml(configuration)
        _ = try? report.jsonData()
        _ = report.markdown()
        let end = clock.now
        func seconds(_ d: Duration) -> Double {
            Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        return Timing(
            samples: records.count, methods: methods.count + 1, folds: folds, resamples: resamples,
            cores: ProcessInfo.processInfo.activeProcessorCount, extractSeconds: seconds(extracted - start),
            tuneSeconds: seconds(tuned - extracted), writeSeconds: seconds(end - tuned),
            totalSeconds: seconds(end - start))
    }
}
