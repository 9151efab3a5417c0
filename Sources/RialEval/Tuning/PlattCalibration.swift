import Foundation
import RialDetection

/// Platt scaling fitted exactly as scikit-learn's `_sigmoid_calibration` defines it
/// (what `CalibratedClassifierCV(method="sigmoid")` calls), so the fit can be checked
/// against it (`scripts/check-tune-sklearn.py`).
///
/// Model: `p(s) = 1 / (1 + exp(a s + b))` (`ScoreCalibration.platt`), the probability
/// that a sample with raw score `s` is bona fide.
///
/// Targets: Platt's smoothing (Platt 1999, end of section 2.2): with `N+` bona fide and
/// `N-` attacks, a bona fide sample has target `t = (N+ + 1) / (N+ + 2)`, an attack
/// `t = 1 / (N- + 2)`. The fit minimises the cross-entropy
/// `L(a, b) = Σ_i -[t_i log p_i + (1 - t_i) log(1 - p_i)]`, which is strictly convex
/// and, thanks to the smoothing, has a finite minimum even on separable data.
///
/// Solver: Newton's method with a backtracking line search (Lin, Lin & Weng 2007,
/// "A note on Platt's probabilistic outputs for support vector machines", Algorithm 1):
/// start `a = 0`, `b = log((N- + 1) / (N+ + 1))` (scikit-learn's start), gradient
/// `g = (Σ s_i (t_i - p_i), Σ (t_i - p_i))`, Hessian `Σ p_i (1 - p_i) [s_i², s_i; s_i, 1]`
/// plus `1e-12 I`, step halved until the Armijo condition
/// `L(new) < L + 1e-4 · step · gᵀd` holds; stops when the gradient's largest component
/// is below `1e-11 · max(1, n)`, after 100 iterations, or when the line search cannot
/// decrease `L` (the minimum to machine precision). scikit-learn uses L-BFGS-B
/// (`gtol = 1e-6`) on the same loss, so the two agree to its tolerance, not bit for bit.
/// Every term is computed in the overflow-free form of Lin et al.
public enum PlattCalibration {
    /// The Platt fit of `scores` (finite) with truth `bonaFide` (same length). Nil without
    /// any sample.
    public static func fit(scores: [Double], bonaFide: [Bool]) -> ScoreCalibration? {
        let n = min(scores.count, bonaFide.count)
        guard n > 0 else { return nil }
        let positives = bonaFide.prefix(n).filter { $0 }.count
        let prior1 = Double(positives), prior0 = Double(n - positives)
        let hiTarget = (prior1 + 1) / (prior1 + 2), loTarget = 1 / (prior0 + 2)
        let targets = (0..<n).map { bonaFide[$0] ? hiTarget : loTarget }
        let f = Array(scores.prefix(n))
        var a = 0.0, b = log((prior0 + 1) / (prior1 + 1))
        var at = evaluate(f, targets, a, b)
        let tolerance = 1e-11 * Double(max(1, n))
        for _ in 0..<100 {
            if max(abs(at.g1), abs(at.g2)) < tolerance { break }
            let det = at.h11 * at.h22 - at.h21 * at.h21
            let da = -(at.h22 * at.g1 - at.h21 * at.g2) / det
            let db = -(-at.h21 * at.g1 + at.h11 * at.g2) / det
            let gd = at.g1 * da + at.g2 * db
            var step = 1.0
            var accepted = false
            while step >= 1e-10 {
                let na = a + step * da, nb = b + step * db
                let candidate = evaluate(f, targets, na, nb)
                if candidate.loss < at.loss + 1e-4 * step * gd {
                    (a, b, at) = (na, nb, candidate)
                    accepted = true
                    break
                }
                step /= 2
            }
            if !accepted { break }
        }
        return .platt(a: a, b: b)
    }

    /// The loss, its gradient `(g1, g2)` and its Hessian (plus `1e-12 I`) at `(a, b)`, in
    /// one pass (each accepted Newton step reuses them).
    static func evaluate(_ f: [Double], _ t: [Double], _ a: Double, _ b: Double) -> (
        loss: Double, g1: Double, g2: Double, h11: Double, h22: Double, h21: Double
    ) {
        var loss = 0.0, h11 = 1e-12, h22 = 1e-12, h21 = 0.0, g1 = 0.0, g2 = 0.0
        f.withUnsafeBufferPointer { f in
            t.withUnsafeBufferPointer { t in
                for i in 0..<f.count {
                    let z = f[i] * a + b
                    // p = 1 / (1 + e^z), q = 1 - p, without overflow.
                    let p: Double, q: Double
                    if z >= 0 {
                        let e = exp(-z)
                        p = e / (1 + e)
                        q = 1 / (1 + e)
                        loss += t[i] * z + log1p(e)
                    } else {
                        let e = exp(z)
                        p = 1 / (1 + e)
                        q = e / (1 + e)
                        loss += (t[i] - 1) * z + log1p(e)
                    }
                    let d2 = p * q
                    h11 += f[i] * f[i] * d2
                    h22 += d2
                    h21 += f[i] * d2
                    let d1 = t[i] - p
                    g1 += f[i] * d1
                    g2 += d1
                }
            }
        }
        return (loss, g1, g2, h11, h22, h21)
    }

    /// `Σ_i -[t_i log p_i + (1 - t_i) log(1 - p_i)]` with `p_i = 1 / (1 + exp(a s_i + b))`,
    /// in the form that never overflows: `t z + log(1 + e^{-z})` for `z = a s + b >= 0`,
    /// `(t - 1) z + log(1 + e^{z})` otherwise.
    public static func loss(_ scores: [Double], _ targets: [Double], _ a: Double, _ b: Double) -> Double {
        var total = 0.0
        for i in 0..<min(scores.count, targets.count) {
            let z = scores[i] * a + b
            total += z >= 0 ? targets[i] * z + log1p(exp(-z)) : (targets[i] - 1) * z + log1p(exp(z))
        }
        return total
    }
}
