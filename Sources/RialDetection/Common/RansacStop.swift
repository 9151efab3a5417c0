import Foundation

/// The adaptive stop of a three-point RANSAC (Fischler & Bolles 1981): after a hypothesis
/// whose inliers are the share `w` of the points, enough draws that an all-inlier triple
/// was seen with probability `confidence`, `log(1 - confidence) / log(1 - w³)`, within
/// `minimum...maximum`. Shared by `depth/2`'s plane and `parallax/1`'s affine fit.
enum RansacStop {
    /// The number of draws needed, given the `current` need: `min(current, minimum)` when
    /// every point is an inlier, `current` when none is (or `w` is not finite), otherwise
    /// the formula clamped to `minimum...maximum`.
    static func needed(current: Int, inlierShare w: Double, confidence: Double, minimum: Int, maximum: Int) -> Int {
        let miss = 1 - w * w * w
        if miss <= 0 { return Swift.min(current, minimum) }
        guard miss < 1 else { return current }
        let draws = (log(1 - confidence) / log(miss)).rounded(.up)
        return Swift.min(maximum, Swift.max(minimum, Int(Swift.min(draws, 1e9))))
    }
}
