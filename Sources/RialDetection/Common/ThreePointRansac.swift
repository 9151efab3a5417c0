import Foundation
import RialMedia

/// The hypothesis loop of a three-point RANSAC with the adaptive stop of Fischler & Bolles
/// (1981), shared by `depth/2`'s planes (and `temporal/2`, which calls them) and
/// `parallax/1`'s affine fit: the model, the points and how inliers are counted are the
/// caller's.
enum ThreePointRansac {
    /// The hypothesis with the most inliers. Each draw takes three positions in
    /// `0..<count` from `rng`, in that order; distinct positions whose `model` is proper
    /// are scored by `inliers`, and a score strictly above the best so far makes that
    /// hypothesis the best and sets the draws still `needed` from its inlier share
    /// `score / scoredCount`. Draws stop after `needed` (at first `maximum`). Nil when no
    /// hypothesis is proper.
    static func best<Model>(
        count: Int, scoredCount: Int, rng: inout SplitMix64, maximum: Int, minimum: Int, confidence: Double,
        model: (Int, Int, Int) -> Model?, inliers: (Model) -> Int
    ) -> Model? {
        var best: Model?
        var bestScore = -1
        var needed = maximum
        var iteration = 0
        while iteration < needed {
            iteration += 1
            let a = Int(rng.bounded(UInt64(count)))
            let b = Int(rng.bounded(UInt64(count)))
            let e = Int(rng.bounded(UInt64(count)))
            guard a != b, a != e, b != e, let m = model(a, b, e) else { continue }
            let score = inliers(m)
            guard score > bestScore else { continue }
            bestScore = score
            best = m
            needed = Self.needed(
                current: needed, inlierShare: Double(score) / Double(scoredCount), confidence: confidence,
                minimum: minimum, maximum: maximum)
        }
        return best
    }

    /// The adaptive stop: after a hypothesis whose inliers are the share `w` of the
    /// points, enough draws that an all-inlier triple was seen with probability
    /// `confidence`, `log(1 - confidence) / log(1 - w³)`. Given the `current` need:
    /// `min(current, minimum)` when every point is an inlier, `current` when none is (or
    /// `w` is not finite), otherwise the formula clamped to `minimum...maximum`.
    static func needed(current: Int, inlierShare w: Double, confidence: Double, minimum: Int, maximum: Int) -> Int {
        let miss = 1 - w * w * w
        if miss <= 0 { return Swift.min(current, minimum) }
        guard miss < 1 else { return current }
        let draws = (log(1 - confidence) / log(miss)).rounded(.up)
        return Swift.min(maximum, Swift.max(minimum, Int(Swift.min(draws, 1e9))))
    }
}
