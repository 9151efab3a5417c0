import Testing

@testable import RialDetection

/// `ThreePointRansac.needed`, the adaptive stop `log(1 - p) / log(1 - w³)`, against values worked
/// by hand (p = 0.99, so log(1 - p) = -4.605170).
@Suite struct ThreePointRansacTests {
    /// w = 0.5: log(1 - 0.125) = -0.133531, 4.605170 / 0.133531 = 34.49, rounded up to 35.
    @Test func halfInliersNeed35Draws() {
        #expect(
            ThreePointRansac.needed(current: 200, inlierShare: 0.5, confidence: 0.99, minimum: 32, maximum: 200) == 35)
    }

    /// w = 0.9: log(1 - 0.729) = -1.305636, 3.53 -> 4 draws, raised to the minimum 32.
    @Test func manyInliersStopAtTheMinimum() {
        #expect(
            ThreePointRansac.needed(current: 200, inlierShare: 0.9, confidence: 0.99, minimum: 32, maximum: 200) == 32)
    }

    /// w = 0.2: log(1 - 0.008) = -0.008032, 573.3 -> 574 draws, cut to the maximum 200.
    @Test func fewInliersStopAtTheMaximum() {
        #expect(
            ThreePointRansac.needed(current: 200, inlierShare: 0.2, confidence: 0.99, minimum: 32, maximum: 200) == 200)
    }

    /// Every point an inlier: the minimum, never more than the current need; none, or a
    /// share that is not a number: the current need unchanged.
    @Test func edgeShares() {
        #expect(
            ThreePointRansac.needed(current: 200, inlierShare: 1, confidence: 0.99, minimum: 32, maximum: 200) == 32)
        #expect(ThreePointRansac.needed(current: 20, inlierShare: 1, confidence: 0.99, minimum: 32, maximum: 200) == 20)
        #expect(ThreePointRansac.needed(current: 77, inlierShare: 0, confidence: 0.99, minimum: 32, maximum: 200) == 77)
        #expect(
            ThreePointRansac.needed(current: 77, inlierShare: .nan, confidence: 0.99, minimum: 32, maximum: 200) == 77)
    }
}
