import Foundation
import RialMedia
import Testing

@testable import RialEval

/// `RankedScores.descendingOrder`: the radix sort of large inputs gives the order its
/// definition states (descending score, ties by ascending index, `-0.0 == 0.0`), checked
/// against a plain comparison sort of the same inputs.
@Suite struct RankedScoresTests {
    static func reference(_ scores: [Double]) -> [Int32] {
        (0..<Int32(scores.count)).sorted {
            scores[Int($0)] > scores[Int($1)] || (scores[Int($0)] == scores[Int($1)] && $0 < $1)
        }
    }

    @Test(arguments: [0, 1, 7, 4_095, 4_096, 20_011, 150_000])
    func equalsTheComparisonSort(count: Int) {
        var random = SplitMix64(seed: UInt64(count) + 3)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        let special: [Double] = [
            0.0, -0.0, 1, -1, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.5, 0.5.nextUp, 0.5.nextDown,
        ]
        let scores = (0..<count).map { i -> Double in
            switch random.next() % 4 {
            case 0: return special[Int(random.next() % UInt64(special.count))]
            case 1: return Double(Int(random.next() % 50)) / 49 // many ties
            case 2: return uniform() * 2 - 1
            default: return (uniform() - 0.5) * 1e300
            }
        }
        let order = RankedScores.descendingOrder(scores)
        #expect(order == Self.reference(scores))
        if count >= RankedScores.radixMinimum {
            // The radix path ran, and ties are kept by index (signed zeros included).
            let zeros = order.filter { scores[Int($0)] == 0 }
            #expect(zeros.count > 1 && zeros == zeros.sorted())
        }
    }

    /// The ranking built on it: scores in descending order with their truth, blocks at
    /// every change of score.
    @Test func rankingOfALargeInput() {
        var random = SplitMix64(seed: 9)
        let scores = (0..<10_000).map { _ in Double(random.next() % 100) / 10 }
        let truth = (0..<10_000).map { _ in random.next() % 3 == 0 }
        let ranked = RankedScores(finiteScores: scores, bonaFide: truth)
        let order = Self.reference(scores)
        #expect(ranked.order == order)
        #expect(ranked.scores == order.map { scores[Int($0)] })
        #expect(ranked.positive == order.map { truth[Int($0)] ? 1 : 0 })
        #expect(ranked.blockEnds.count == Set(scores).count)
        #expect(ranked.positiveCount == truth.count { $0 })
    }
}
