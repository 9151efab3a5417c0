import Foundation
import RialMedia
import Testing

@testable import RialEval

/// `CurveExport`'s rule, worked by hand (see the type's documentation).
@Suite struct CurveExportTests {
    // (x, y): (0, 0), (0, 0.1), (0.001, 0.1), (0.5, 0.6), (0.502, 0.6), (0.51, 0.6), (1, 1).
    static let x = [0, 0, 0.001, 0.5, 0.502, 0.51, 1]
    static let y = [0, 0.1, 0.1, 0.6, 0.6, 0.6, 1]

    @Test func keepsPointsThatMovedRelativeToTheirDistanceFromTheEnds() {
        let export = CurveExport(fullPoints: 3, tolerance: 0.01)
        // From (0, 0): y moved 0.1 > 0.01 * 0 -> written. From (0, 0.1): x moved 0.001 > 0 ->
        // written. From (0.001, 0.1): x moved 0.499 -> written. From (0.5, 0.6): x moved 0.002,
        // not > 0.01 * 0.5 = 0.005, and y did not move (0 > 0.004 fails) -> left out; 0.51 moved
        // 0.01 > 0.005 -> written. The last point always.
        #expect(export.kept(x: Self.x, y: Self.y) == [0, 1, 2, 3, 5, 6])
    }

    @Test func shortCurvesAndToleranceZeroKeepEveryPoint() {
        #expect(CurveExport(fullPoints: 7, tolerance: 0.01).kept(x: Self.x, y: Self.y) == Array(0..<7))
        #expect(CurveExport(fullPoints: 3, tolerance: 0).kept(x: Self.x, y: Self.y) == Array(0..<7))
        #expect(CurveExport.full.kept(x: Self.x, y: Self.y) == Array(0..<7))
        #expect(CurveExport.standard.kept(x: [], y: []) == [])
    }

    /// A long curve: the tails are kept whole, the middle thinned, and the count stays under
    /// the documented bound `4 (1 + ln(n tolerance / 2)) / tolerance`.
    @Test func aMillionPointCurveStaysSmallAndKeepsItsTails() {
        let n = 1_000_000
        // A staircase: alternate steps in x and y of 2/n each.
        var x = [0.0], y = [0.0]
        for i in 1...n {
            let step = Double((i + 1) / 2) * 2 / Double(n)
            x.append(i % 2 == 1 ? min(1, step) : x[i - 1])
            y.append(i % 2 == 0 ? min(1, step) : y[i - 1])
        }
        let export = CurveExport.standard
        let kept = export.kept(x: x, y: y)
        let bound = 4 * (1 + log(Double(n) * export.tolerance / 2)) / export.tolerance
        #expect(Double(kept.count) < bound)
        #expect(kept.count > 1_000)
        // The first 100 points (rates below 1e-4, where 0.005 of the rate is under one step) are all kept.
        #expect(Array(kept.prefix(100)) == Array(0..<100))
        #expect(kept.last == n)
    }
}

/// `CSVExport.append(_:to:)` (and `value(_:)`, built on it) writes a finite number as JSON does
/// (`JSONValue.numberText`) and the others as `nan`, `inf`, `-inf`, for every kind of number.
@Suite struct CSVNumberTextTests {
    @Test func appendWritesTheJSONTextOfFiniteNumbers() {
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, 0.1, 1e-300, 5e-324, 1e300, 0x1p53, -0x1p53, 0x1p53 + 2, 123_456_789,
            0.7142857142857143,
            .nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNormalMagnitude,
        ]
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2_000 { values.append(Double(bitPattern: rng.next())) }
        for _ in 0..<2_000 { values.append(Double(rng.next() >> 11) / Double(1 << 53)) }
        for v in values {
            var out = "x"
            CSVExport.append(v, to: &out)
            let expected = v.isNaN ? "nan" : v == .infinity ? "inf" : v == -.infinity ? "-inf" : JSONValue.numberText(v)
            #expect(out == "x" + expected, "\(v.bitPattern)")
            #expect(CSVExport.value(v) == expected, "\(v.bitPattern)")
        }
        // By hand: whole numbers without a fraction, the rest in shortest round-trip form.
        #expect(CSVExport.value(3) == "3" && CSVExport.value(-0.0) == "0" && CSVExport.value(0.25) == "0.25")
    }
}
