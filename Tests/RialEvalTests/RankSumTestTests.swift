import Testing

@testable import RialEval

/// `RankSumTest` against hand-counted permutation distributions and, for the normal
/// approximation and a larger exact case, SciPy 1.17's `scipy.stats.mannwhitneyu` (an
/// independent implementation; values copied from its output).
@Suite struct RankSumTestTests {
    /// Complete separation has the smallest two-sided p: 2 of the C(6, 3) = 20 choices of
    /// three ranks (1 2 3 and 4 5 6) are as extreme, p = 0.1; with 4 and 4, 2 / 70.
    @Test func completeSeparationGivesTwoOverTheChoices() {
        let three = RankSumTest(first: [1, 2, 3], second: [4, 5, 6])
        #expect(three.rankSum == 6)
        #expect(three.u == 0)
        #expect(abs(three.pValue - 0.1) < 1e-12)
        #expect(three.method == .exact)
        let four = RankSumTest(first: [8, 7, 6, 5], second: [1, 2, 3, 4])
        #expect(four.u == 16)
        #expect(abs(four.pValue - 2.0 / 70) < 1e-12)
        #expect(abs(RankSumTest.smallestPValue(firstCount: 3, secondCount: 3) - 0.1) < 1e-12)
        #expect(abs(RankSumTest.smallestPValue(firstCount: 4, secondCount: 4) - 2.0 / 70) < 1e-12)
        #expect(abs(RankSumTest.smallestPValue(firstCount: 5, secondCount: 5) - 2.0 / 252) < 1e-12)
        #expect(RankSumTest.smallestPValue(firstCount: 1, secondCount: 1) == 1)
    }

    /// Ranks 1 3 5 against 2 4 6: sum 9, mean 10.5. Of the 20 sums of three ranks from 1-6
    /// (6:1 7:1 8:2 9:3 10:3 11:3 12:3 13:2 14:1 15:1), 14 lie 1.5 or more from 10.5.
    @Test func interleavedRanksByHand() {
        let test = RankSumTest(first: [1, 3, 5], second: [2, 4, 6])
        #expect(test.rankSum == 9)
        #expect(abs(test.pValue - 14.0 / 20) < 1e-12)
    }

    /// Values 1 2 | 2 3 have midranks 1 2.5 | 2.5 4: sum 3.5 against a mean of 5. Of the
    /// six pairs of midranks (3.5 3.5 5 5 6.5 6.5), four lie 1.5 or more from 5.
    @Test func tiesUseMidranksAndTheirOwnDistribution() {
        let test = RankSumTest(first: [1, 2], second: [2, 3])
        #expect(test.rankSum == 3.5)
        #expect(test.u == 0.5)
        #expect(abs(test.pValue - 4.0 / 6) < 1e-12)
        #expect(RankSumTest(first: [5, 5], second: [5, 5, 5]).pValue == 1)
        #expect(RankSumTest(first: [2], second: [2]).pValue == 1)
    }

    /// SciPy: `mannwhitneyu(x, y, method='exact')`, U = 15, p = 0.09073426573426574.
    @Test func exactMatchesSciPyWithoutTies() {
        let test = RankSumTest(
            first: [1.1, 2.5, 3.0, 4.7, 8.2, 9.0, 12.5], second: [3.3, 5.1, 6.0, 7.7, 10.4, 11.1, 13.0, 14.2, 15.5])
        #expect(test.u == 15)
        #expect(abs(test.pValue - 0.09073426573426574) < 1e-12)
    }

    /// SciPy: `mannwhitneyu(x, y, method='asymptotic', use_continuity=True)`; the second
    /// case has every value twice (tie-corrected variance).
    @Test func normalApproximationMatchesSciPy() {
        let test = RankSumTest(first: (0..<25).map(Double.init), second: (0..<25).map { Double($0) + 3.5 })
        #expect(test.method == .normal)
        #expect(test.u == 231)
        #expect(abs(test.pValue - 0.11603618751300343) < 1e-12)
        let tied = RankSumTest(first: (0..<30).map { Double($0 / 2) }, second: (0..<30).map { Double($0 / 2 + 2) })
        #expect(tied.method == .normal)
        #expect(tied.u == 338)
        #expect(abs(tied.pValue - 0.09862818532933314) < 1e-12)
    }

    /// At the exact limit (20 and 20) the distribution is still counted; one value more and
    /// the approximation takes over. SciPy: `method='exact'`, U = 105, p =
    /// 0.009483607191205003; then `method='asymptotic'`, U = 120, p = 0.01957785382225964.
    @Test func theLimitSwitchesMethods() {
        #expect(RankSumTest.exactLimit == 40)
        let shifted = (0..<20).map { Double($0) + 5.5 }
        let exact = RankSumTest(first: (0..<20).map(Double.init), second: shifted)
        #expect(exact.method == .exact)
        #expect(exact.u == 105)
        #expect(abs(exact.pValue - 0.009483607191205003) < 1e-12)
        let normal = RankSumTest(first: (0...20).map(Double.init), second: shifted)
        #expect(normal.method == .normal)
        #expect(normal.u == 120)
        #expect(abs(normal.pValue - 0.01957785382225964) < 1e-12)
    }

    @Test func emptyOrNonFiniteSamplesHaveNoPValue() {
        #expect(RankSumTest(first: [], second: [1, 2]).pValue.isNaN)
        #expect(RankSumTest(first: [1, .nan], second: [1, 2]).pValue.isNaN)
        #expect(RankSumTest(first: [1, 2], second: [.infinity]).pValue.isNaN)
    }
}
