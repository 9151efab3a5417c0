import RialDetection

/// The latency targets that runs and the benchmark check (median <= target): each
/// detection method's own (`DetectionMethod.summary`), and these for the steps around
/// the methods. One table, so a run's report and `rial-bench bench` never disagree.
public enum LatencyTargets {
    /// Steps that are not a detection method, by latency key.
    public static let pipeline: [String: LatencyTarget] = [
        "sha256": LatencyTarget(milliseconds: 10, source: "methods.md §9"),
        "aggregation": LatencyTarget(milliseconds: 1, source: "issue 4 (methods.md §9: 15)"),
        "total": LatencyTarget(milliseconds: 50, source: "methods.md §9"),
        "all_methods_concurrent": LatencyTarget(milliseconds: 50, source: "methods.md §9"),
        "bundle_hkdf": LatencyTarget(milliseconds: 1, source: "birthmark-ios-readme.md Performance Targets"),
        "bundle_aes_gcm": LatencyTarget(milliseconds: 1, source: "birthmark-ios-readme.md Performance Targets"),
        "bundle_seal": LatencyTarget(milliseconds: 20, source: "birthmark-ios-readme.md Performance Targets"),
        // Per frame: real time at the product's 30 fps (PRD 1.1 FR47).
        "video_decode_1080p": LatencyTarget(
            milliseconds: 1000.0 / 30, source: "issue 15: 1080p decode >= real time on one core"),
    ]

    /// The target of latency key `key` (`moire/1`, `aggregation`), nil when it has none.
    public static func target(for key: String, registry: MethodRegistry = .standard) -> LatencyTarget? {
        registry.method(named: key)?.summary.latencyTarget ?? pipeline[key]
    }
}
