// swift-format-ignore-file
// Written by scripts/update-method-costs from `rial-bench bench --json`; do not edit.
// Release build, AMD EPYC; the benchmark's
// 12 MP capture (parallax: its 1600x1200 pair).

/// The median single-core time of each detection method in `rial-bench bench`,
/// milliseconds: the analyzer's scheduling order (longest first). Only their order
/// matters; a method missing here is scheduled last.
enum MeasuredCosts {
    static let milliseconds: [String: Double] = [
        "depth/1": 0.39,
        "depth/2": 4.54,
        "parallax/1": 15.43,
        "parallax/2": 14.26,
        "moire/1": 7.21,
        "moire/2": 16.46,
        "texture/1": 1.90,
        "texture/2": 8.34,
        "texture/3": 8.34,
        "artifacts/1": 6.11,
        "temporal/1": 2.90,
        "temporal/2": 25.60,
    ]
}
