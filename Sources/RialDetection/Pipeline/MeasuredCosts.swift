// swift-format-ignore-file
// Written by scripts/update-method-costs from `rial-bench bench --json`; do not edit.
// Release build, AMD EPYC; the benchmark's
// 12 MP capture (parallax: its 1600x1200 pair).

/// The median single-core time of each detection method in `rial-bench bench`,
/// milliseconds: the analyzer's scheduling order (longest first). Only their order
/// matters; a method missing here is scheduled last.
enum MeasuredCosts {
    static let milliseconds: [String: Double] = [
        "depth/1": 0.38,
        "depth/2": 4.24,
        "parallax/1": 15.35,
        "parallax/2": 14.18,
        "moire/1": 6.78,
        "moire/2": 11.59,
        "texture/1": 1.87,
        "texture/2": 7.58,
        "texture/3": 7.57,
        "texture/4": 7.57,
        "artifacts/1": 5.94,
        "artifacts/2": 7.51,
        "temporal/1": 2.90,
        "temporal/2": 18.30,
    ]
}
