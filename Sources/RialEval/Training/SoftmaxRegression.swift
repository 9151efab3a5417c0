import Foundation
import RialMedia

/// L2-regularised multinomial logistic (softmax) regression fitted by damped Newton
/// iterations: deterministic, and exact to the gradient tolerance on this convex problem.
///
/// Loss over `n` samples with standardised features `z_i` (length `d`) and classes
/// `y_i` in `0..<K`:
/// `L(W, b) = (1/n) Σ_i -ln softmax(W z_i + b)[y_i] + (λ/2) Σ_k ||W_k||²`
/// (biases are not penalised). Gradient `(1/n) Σ_i (p_i - e_{y_i}) [z_i; 1] + λ [W_k; 0]`;
/// Hessian blocks `(1/n) Σ_i p_ik (δ_kl - p_il) [z_i; 1][z_i; 1]ᵀ + λ δ_kl diag(1, ..., 1, 0)`.
/// Each iteration solves `(H + μ I) Δ = g` by Cholesky (`μ = 1e-8`: the softmax is
/// invariant to adding one constant to every bias, so H alone is singular) and steps
/// `θ - t Δ` with backtracking (`t` halves until the Armijo condition
/// `L(θ - tΔ) <= L(θ) - 1e-4 t gᵀΔ` holds). Stops when `max |g| < tolerance` or after
/// `maxIterations`. Weights start uniform in ±0.01 from `SplitMix64(seed)`, biases at 0.
///
/// - Complexity: per iteration O(n K² d² + (K d)³).
struct SoftmaxRegression {
    /// `K x d`, row-major.
    var weights: [Double]
    /// `K`.
    var biases: [Double]
    var iterations: Int
    /// Final penalised loss.
    var loss: Double

    static let damping = 1e-8

    /// Fits the model. `features` is `n x d` row-major (standardised), `labels` in `0..<classes`.
    static func fit(
        features: [Double], labels: [Int], featureCount d: Int, classes K: Int, l2: Double,
        maxIterations: Int, tolerance: Double, seed: UInt64
    ) -> SoftmaxRegression {
        let n = labels.count
        let stride = d + 1, p = K * stride
        var rng = SplitMix64(seed: seed)
        var theta = [Double](repeating: 0, count: p)
        for k in 0..<K {
            for j in 0..<d {
                theta[k * stride + j] = (Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1) * 0.01
            }
        }
        var iterations = 0
        var (loss, gradient) = lossAndGradient(theta, features: features, labels: labels, d: d, K: K, l2: l2)
        while iterations < maxIterations, (gradient.map(abs).max() ?? 0) >= tolerance, n > 0 {
            iterations += 1
            var hessian = self.hessian(theta, features: features, labels: labels, d: d, K: K, l2: l2)
            guard let step = solveCholesky(&hessian, gradient, size: p) else { break }
            let slope = zip(gradient, step).reduce(0) { $0 + $1.0 * $1.1 }
            var t = 1.0
            var accepted = false
            for _ in 0..<40 {
                let candidate = zip(theta, step).map { $0 - t * $1 }
                let (candidateLoss, candidateGradient) = lossAndGradient(
                    candidate, features: features, labels: labels,
                    d: d, K: K, l2: l2)
                if candidateLoss <= loss - 1e-4 * t * slope {
                    theta = candidate
                    loss = candidateLoss
                    gradient = candidateGradient
                    accepted = true
                    break
                }
                t *= 0.5
            }
            if !accepted { break }
        }
        var weights = [Double](repeating: 0, count: K * d), biases = [Double](repeating: 0, count: K)
        for k in 0..<K {
            for j in 0..<d { weights[k * d + j] = theta[k * stride + j] }
            biases[k] = theta[k * stride + d]
        }
        return SoftmaxRegression(weights: weights, biases: biases, iterations: iterations, loss: loss)
    }

    /// Class probabilities of every sample under `theta` (`n x K`, row-major).
    static func probabilities(_ theta: [Double], features: [Double], n: Int, d: Int, K: Int) -> [Double] {
        let stride = d + 1
        var out = [Double](repeating: 0, count: n * K)
        theta.withUnsafeBufferPointer { t in
            features.withUnsafeBufferPointer { x in
                out.withUnsafeMutableBufferPointer { o in
                    for i in 0..<n {
                        var top = -Double.infinity
                        for k in 0..<K {
                            var a = t[k * stride + d]
                            for j in 0..<d { a += t[k * stride + j] * x[i * d + j] }
                            o[i * K + k] = a
                            top = max(top, a)
                        }
                        var total = 0.0
                        for k in 0..<K {
                            o[i * K + k] = exp(o[i * K + k] - top)
                            total += o[i * K + k]
                        }
                        for k in 0..<K { o[i * K + k] /= total }
                    }
                }
            }
        }
        return out
    }

    static func lossAndGradient(
        _ theta: [Double], features: [Double], labels: [Int], d: Int, K: Int,
        l2: Double
    ) -> (Double, [Double]) {
        let n = labels.count, stride = d + 1
        let prob = probabilities(theta, features: features, n: n, d: d, K: K)
        var loss = 0.0
        var gradient = [Double](repeating: 0, count: K * stride)
        gradient.withUnsafeMutableBufferPointer { g in
            features.withUnsafeBufferPointer { x in
                for i in 0..<n {
                    loss -= log(max(prob[i * K + labels[i]], 1e-300))
                    for k in 0..<K {
                        let r = prob[i * K + k] - (labels[i] == k ? 1 : 0)
                        for j in 0..<d { g[k * stride + j] += r * x[i * d + j] }
                        g[k * stride + d] += r
                    }
                }
            }
        }
        let scale = 1 / Double(max(n, 1))
        loss *= scale
        for k in 0..<K {
            for j in 0..<stride { gradient[k * stride + j] *= scale }
            for j in 0..<d {
                let w = theta[k * stride + j]
                gradient[k * stride + j] += l2 * w
                loss += 0.5 * l2 * w * w
            }
        }
        return (loss, gradient)
    }

    /// The penalised Hessian plus `damping` on the diagonal (`p x p`, row-major).
    static func hessian(_ theta: [Double], features: [Double], labels: [Int], d: Int, K: Int, l2: Double) -> [Double] {
        let n = labels.count, stride = d + 1, p = K * stride
        let prob = probabilities(theta, features: features, n: n, d: d, K: K)
        var h = [Double](repeating: 0, count: p * p)
        var augmented = [Double](repeating: 1, count: stride)
        let scale = 1 / Double(max(n, 1))
        h.withUnsafeMutableBufferPointer { h in
            augmented.withUnsafeMutableBufferPointer { z in
                for i in 0..<n {
                    for j in 0..<d { z[j] = features[i * d + j] }
                    for k in 0..<K {
                        let pk = prob[i * K + k]
                        for l in k..<K {
                            let c = scale * pk * ((k == l ? 1 : 0) - prob[i * K + l])
                            if c == 0 { continue }
                            for j in 0..<stride {
                                let cj = c * z[j]
                                let row = (k * stride + j) * p + l * stride
                                for m in 0..<stride { h[row + m] += cj * z[m] }
                            }
                        }
                    }
                }
                // Mirror the upper blocks (l > k) into the lower ones.
                for k in 0..<K {
                    for l in (k + 1)..<max(K, k + 1) {
                        for j in 0..<stride {
                            for m in 0..<stride {
                                h[(l * stride + m) * p + k * stride + j] = h[(k * stride + j) * p + l * stride + m]
                            }
                        }
                    }
                    for j in 0..<d { h[(k * stride + j) * p + k * stride + j] += l2 }
                }
                for q in 0..<p { h[q * p + q] += damping }
            }
        }
        return h
    }

    /// Solves `A x = b` for symmetric positive definite `A` (`size x size`, overwritten
    /// by its Cholesky factor); nil when `A` is not positive definite.
    static func solveCholesky(_ a: inout [Double], _ b: [Double], size n: Int) -> [Double]? {
        var x = b
        let ok = a.withUnsafeMutableBufferPointer { l -> Bool in
            for j in 0..<n {
                var diagonal = l[j * n + j]
                for k in 0..<j { diagonal -= l[j * n + k] * l[j * n + k] }
                guard diagonal > 0, diagonal.isFinite else { return false }
                let root = diagonal.squareRoot()
                l[j * n + j] = root
                for i in (j + 1)..<max(n, j + 1) {
                    var s = l[i * n + j]
                    for k in 0..<j { s -= l[i * n + k] * l[j * n + k] }
                    l[i * n + j] = s / root
                }
            }
            return true
        }
        guard ok else { return nil }
        a.withUnsafeBufferPointer { l in
            x.withUnsafeMutableBufferPointer { x in
                for i in 0..<n {
                    var s = x[i]
                    for k in 0..<i { s -= l[i * n + k] * x[k] }
                    x[i] = s / l[i * n + i]
                }
                for i in stride(from: n - 1, through: 0, by: -1) {
                    var s = x[i]
                    for k in (i + 1)..<max(n, i + 1) { s -= l[k * n + i] * x[k] }
                    x[i] = s / l[i * n + i]
                }
            }
        }
        return x
    }
}
