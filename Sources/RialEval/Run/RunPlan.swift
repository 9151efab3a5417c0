import Foundation
import RialDetection
import RialMedia

/// What a run evaluates and how (`rial-bench run` options, resolved).
public struct RunPlan: Sendable {
    /// Manifests, in order.
    public var manifests: [String]
    public var configuration: PipelineConfiguration
    /// Worker threads (>= 1).
    public var jobs: Int
    /// Evaluate at most this many samples (after split and shard selection): a test run.
    public var limit: Int?
    /// Only samples of this split.
    public var split: DatasetSplit?
    /// Only samples carrying every one of these tags (e.g. `source:OWNER/NAME`, to run a
    /// held-out source with its fold model); empty: no tag filter.
    public var tags: [String] = []
    /// How the curve CSVs are written (`CurveExport`; `run --full-curves`: every point).
    public var curveExport: CurveExport = .standard
    /// Bootstrap seed.
    public var seed: UInt64
    /// Bootstrap resamples for confidence intervals.
    public var resamples: Int
    /// This process evaluates shard `index` (1-based) of `count`: samples whose
    /// position in the selection is `index - 1` modulo `count`.
    public var shard: (index: Int, count: Int)?
    /// Recorded in `results.json`: latency numbers of a debug build mean nothing.
    public var buildConfiguration: String
    /// Evaluate JPEGs that decode with libjpeg warnings, recording the warnings in the
    /// sample's `decode_warnings`, instead of failing them (`CaptureFiles.acceptJPEGWarnings`).
    public var acceptJPEGWarnings: Bool

    public init(
        manifests: [String], configuration: PipelineConfiguration = .standard, jobs: Int = 1,
        limit: Int? = nil, split: DatasetSplit? = nil, seed: UInt64 = 42, resamples: Int = 1000,
        shard: (index: Int, count: Int)? = nil, buildConfiguration: String = "release",
        acceptJPEGWarnings: Bool = false
    ) {
        self.manifests = manifests
        self.configuration = configuration
        self.jobs = max(1, jobs)
        self.limit = limit
        self.split = split
        self.seed = seed
        self.resamples = resamples
        self.shard = shard
        self.buildConfiguration = buildConfiguration
        self.acceptJPEGWarnings = acceptJPEGWarnings
    }
}

/// One dataset of a run: its manifest, hash, and the samples selected from it.
public struct RunDataset: Sendable, Equatable, Codable {
    public var path: String
    public var name: String
    public var manifestSHA256: String
    /// Samples in the manifest.
    public var original: Int
    /// Samples selected for this run (split, limit, shard).
    public var selected: Int
    /// Samples that scored (written by the runner).
    public var evaluated: Int
    public var failed: Int
    /// `real`, `simulated` or `mixed`.
    public var data: String

    enum CodingKeys: String, CodingKey {
        case path, name
        case manifestSHA256 = "manifest_sha256"
        case original, selected, evaluated, failed, data
    }
}
