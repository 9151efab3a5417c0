import Foundation

/// A monotone map from a method's raw score to a calibrated one, applied before
/// aggregation (a tuned configuration's `calibration` section, fitted by `rial-bench tune`).
///
/// Two kinds, with scikit-learn's conventions so a fit can be checked against it:
/// - `platt`: `p = 1 / (1 + exp(a * s + b))` (scikit-learn's `_SigmoidCalibration`,
///   which predicts `expit(-(a * s + b))`; `a < 0` makes the map increasing).
/// - `isotonic`: the piecewise-linear function through the points `(x[i], y[i])`, `x`
///   strictly increasing and `y` non-decreasing, constant beyond the ends
///   (`IsotonicRegression(out_of_bounds="clip")`, which interpolates linearly).
///
/// JSON/YAML: `{kind: platt, a: -6.1, b: 3.2}` or `{kind: isotonic, x: [...], y: [...]}`.
/// A non-finite input maps to itself (NaN stays NaN: the method did not score).
public enum ScoreCalibration: Sendable, Equatable, Codable {
    case platt(a: Double, b: Double)
    case isotonic(x: [Double], y: [Double])

    /// The calibrated score, clamped into 0...1.
    public func apply(_ score: Double) -> Double {
        guard score.isFinite else { return score }
        let value: Double
        switch self {
        case .platt(let a, let b):
            let t = a * score + b
            // Both branches are the same number; each avoids overflowing exp.
            value = t >= 0 ? exp(-t) / (1 + exp(-t)) : 1 / (1 + exp(t))
        case .isotonic(let x, let y):
            value = Self.interpolate(score, x: x, y: y)
        }
        return Swift.min(Swift.max(value, 0), 1)
    }

    /// Linear interpolation through `(x, y)`, clipped to `y.first` / `y.last` outside.
    static func interpolate(_ s: Double, x: [Double], y: [Double]) -> Double {
        guard let first = x.first, let last = x.last, x.count == y.count else { return .nan }
        if s <= first { return y[0] }
        if s >= last { return y[y.count - 1] }
        // The first index whose x exceeds s (binary search: x is strictly increasing).
        var low = 0, high = x.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if x[mid] <= s { low = mid } else { high = mid }
        }
        let t = (s - x[low]) / (x[high] - x[low])
        return y[low] + t * (y[high] - y[low])
    }

    /// Checks the parameters: finite `a` and `b`; for isotonic at least one point,
    /// `x` and `y` of equal length, all finite, `x` strictly increasing, `y`
    /// non-decreasing and in 0...1.
    ///
    /// - Throws: `ConfigurationError` naming the key (`a`, `x`, `y[3]`, ...).
    public func validate() throws(ConfigurationError) {
        switch self {
        case .platt(let a, let b):
            for (key, value) in [("a", a), ("b", b)] where !value.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(value)")
            }
        case .isotonic(let x, let y):
            guard !x.isEmpty else { throw ConfigurationError(key: "x", "must have at least one point") }
            guard x.count == y.count else {
                throw ConfigurationError(key: "y", "must have as many values as x (\(x.count)), got \(y.count)")
            }
            for i in x.indices {
                guard x[i].isFinite else { throw ConfigurationError(key: "x[\(i)]", "must be finite, got \(x[i])") }
                guard y[i].isFinite, (0...1).contains(y[i]) else {
                    throw ConfigurationError(key: "y[\(i)]", "must be a finite number in 0...1, got \(y[i])")
                }
                if i > 0, !(x[i] > x[i - 1]) {
                    throw ConfigurationError(
                        key: "x[\(i)]", "must be greater than x[\(i - 1)] (\(x[i - 1])), got \(x[i])")
                }
                if i > 0, y[i] < y[i - 1] {
                    throw ConfigurationError(
                        key: "y[\(i)]", "must not be less than y[\(i - 1)] (\(y[i - 1])), got \(y[i])")
                }
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case kind, a, b, x, y
    }

    /// The `kind` values.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case platt, isotonic
    }

    public var kind: Kind {
        switch self {
        case .platt: .platt
        case .isotonic: .isotonic
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(Kind.self, forKey: .kind) {
        case .platt:
            self = .platt(a: try c.decode(Double.self, forKey: .a), b: try c.decode(Double.self, forKey: .b))
        case .isotonic:
            self = .isotonic(x: try c.decode([Double].self, forKey: .x), y: try c.decode([Double].self, forKey: .y))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .platt(let a, let b):
            try c.encode(a, forKey: .a)
            try c.encode(b, forKey: .b)
        case .isotonic(let x, let y):
            try c.encode(x, forKey: .x)
            try c.encode(y, forKey: .y)
        }
    }
}
