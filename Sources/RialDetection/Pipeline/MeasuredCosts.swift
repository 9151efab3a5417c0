// swift-format-ignore-file
// Written by scripts/update-method-costs from `rial-bench bench --json`; do not edit.
// Release build, AMD EPYC; the benchmark's
// 12 MP capture (parallax: its 1600x1200 pair).

/// The median single-core time of each detection method in `rial-bench bench`,
/// milliseconds: the analyzer's scheduling order (longest first). Only their order
/// matters; a method missing here is scheduled last.
enum MeasuredCosts {
    static let milliseconds: [String: Double] = [
        "depth/1": 0.37,
        "depth/2": 4.03,
        "parallax/1": 14.26,
        "parallax/2": 13.34,
        "moire/1": 6.89,
        "moire/2": 13.61,
        "texture/1": 1.79,
        "texture/2": 7.44,
        "texture/3": 7.63,
        "artifacts/1": 5.80,
        "artifacts/2": 10.72,
        "temporal/1": 2.84,
        "temporal/2": 17.83,
    ]
}
