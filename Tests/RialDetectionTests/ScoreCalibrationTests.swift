import Foundation
import Testing

@testable import RialDetection

/// `ScoreCalibration`: expected values worked out by hand in the comments.
@Suite struct ScoreCalibrationTests {
    func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool { abs(a - b) <= tolerance }

    /// Platt with a = -4, b = 2: s = 0.5 gives t = 0, p = 1/2; s = 1 gives t = -2,
    /// p = 1/(1+e^-2) = 0.8807970779778823; s = 0 gives t = 2, p = 1/(1+e^2) = 0.11920292202211755.
    @Test func plattFollowsScikitLearnSign() {
        let c = ScoreCalibration.platt(a: -4, b: 2)
        #expect(approx(c.apply(0.5), 0.5))
        #expect(approx(c.apply(1), 0.8807970779778823))
        #expect(approx(c.apply(0), 0.11920292202211755))
    }

    /// exp(800) overflows a Double; both branches must stay finite: t = +-800 gives
    /// p = e^-800/(1+e^-800) ~ 0 and 1/(1+e^-800) ~ 1.
    @Test func plattDoesNotOverflow() {
        #expect(ScoreCalibration.platt(a: 800, b: 0).apply(1) == 0)
        #expect(ScoreCalibration.platt(a: -800, b: 0).apply(1) == 1)
    }

    /// Points (0.2, 0.1), (0.4, 0.5), (0.8, 0.9): s = 0.3 is halfway on the first segment,
    /// 0.1 + 0.5 * 0.4 = 0.3; s = 0.7 is 3/4 of the second, 0.5 + 0.75 * 0.4 = 0.8; below
    /// 0.2 clips to 0.1, above 0.8 to 0.9; a point itself gives its y.
    @Test func isotonicInterpolatesAndClips() {
        let c = ScoreCalibration.isotonic(x: [0.2, 0.4, 0.8], y: [0.1, 0.5, 0.9])
        #expect(approx(c.apply(0.3), 0.3))
        #expect(approx(c.apply(0.7), 0.8))
        #expect(c.apply(0) == 0.1)
        #expect(c.apply(1) == 0.9)
        #expect(c.apply(0.4) == 0.5)
        #expect(c.apply(.nan).isNaN)
    }

    @Test func validationNamesTheKey() {
        func key(_ c: ScoreCalibration) -> String? {
            do { try c.validate() } catch { return error.key }
            return nil
        }
        #expect(key(.platt(a: .nan, b: 0)) == "a")
        #expect(key(.isotonic(x: [], y: [])) == "x")
        #expect(key(.isotonic(x: [0, 1], y: [0.5])) == "y")
        #expect(key(.isotonic(x: [0, 0], y: [0.1, 0.2])) == "x[1]")
        #expect(key(.isotonic(x: [0, 1], y: [0.6, 0.2])) == "y[1]")
        #expect(key(.isotonic(x: [0, 1], y: [0.1, 1.2])) == "y[1]")
        #expect(key(.isotonic(x: [0, 1], y: [0.1, 0.9])) == nil)
    }

    @Test func jsonRoundTrip() throws {
        let json = #"{"kind":"isotonic","x":[0.25,0.75],"y":[0.125,0.875]}"#
        let decoded = try JSONDecoder().decode(ScoreCalibration.self, from: Data(json.utf8))
        #expect(decoded == .isotonic(x: [0.25, 0.75], y: [0.125, 0.875]))
        let platt = try JSONDecoder().decode(
            ScoreCalibration.self, from: Data(#"{"kind":"platt","a":-3,"b":1.5}"#.utf8))
        #expect(platt == .platt(a: -3, b: 1.5))
        let again = try JSONDecoder().decode(ScoreCalibration.self, from: try JSONEncoder().encode(decoded))
        #expect(again == decoded)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ScoreCalibration.self, from: Data(#"{"kind":"spline"}"#.utf8))
        }
    }
}
