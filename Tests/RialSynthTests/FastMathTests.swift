import Foundation
import Testing

@testable import RialSynth

@Suite struct FastMathTests {
    /// The quadratic log2 is exact at powers of two to within its documented 0.005 and
    /// never further than that from libm's log2, including at the mantissa's ends.
    @Test func log2IsWithinItsBoundEverywhere() {
        var x: Float = 1.0 / 4096
        var worst: Float = 0
        while x < 65_536 {
            worst = max(worst, abs(FastMath.log2(x) - Foundation.log2(x)))
            x *= 1.0137
        }
        #expect(worst <= 0.0051, "worst error \(worst)")
        for k in -10...10 {
            let power = Float(pow(2.0, Double(k)))
            #expect(abs(FastMath.log2(power) - Float(k)) <= 0.0051)
        }
    }

    /// Bounds from the approximations themselves: the degree-8 Taylor cosine errs by at
    /// most (pi/2)^10 / 10! = 2.5e-5 at a quarter period; linear interpolation in a
    /// 1024-entry table by at most (2 pi / 1024)^2 / 8 = 4.7e-6. x stays in [-2, 2], where
    /// the Float reduction adds under 1.5e-6.
    @Test func cos2piAndSinCos2piMatchLibm() {
        for i in 0...4_000 {
            let x = Float(i) * 0.001 - 2
            let exact = 2 * Double.pi * Double(x)
            #expect(abs(FastMath.cos2pi(x) - Float(cos(exact))) <= 2.7e-5)
            let (c, s) = FastMath.sinCos2pi(x)
            #expect(abs(c - Float(cos(exact))) <= 6.5e-6)
            #expect(abs(s - Float(sin(exact))) <= 6.5e-6)
        }
    }
}
