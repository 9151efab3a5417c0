import Foundation

/// Special functions used by the analytic filters. Double precision: they run per
/// harmonic or per table entry, never per pixel.
enum SpecialFunctions {
    /// Normalised sinc: sin(pi t) / (pi t), 1 at t = 0. The Fourier transform of a unit
    /// box of width 1 evaluated at frequency t (cycles per box width).
    static func sinc(_ t: Double) -> Double {
        let a = Double.pi * t
        if abs(a) < 1e-6 { return 1 - a * a / 6 }
        return sin(a) / a
    }

    /// Bessel function of the first kind, order 1. Rational approximations of
    /// Numerical Recipes (2nd ed., sec. 6.5, `bessj1`), absolute error below 1e-8.
    static func besselJ1(_ x: Double) -> Double {
        let ax = abs(x)
        if ax < 8 {
            let y = x * x
            let n =
                x
                * (72362614232.0 + y
                    * (-7895059235.0 + y
                        * (242396853.1
                            + y * (-2972611.439 + y * (15704.48260 + y * (-30.16036606))))))
            let d =
                144725228442.0 + y
                * (2300535178.0 + y
                    * (18583304.74
                        + y * (99447.43394 + y * (376.9991397 + y))))
            return n / d
        }
        let z = 8 / ax, y = z * z, xx = ax - 2.356194491
        let p = 1 + y * (0.183105e-2 + y * (-0.3516396496e-4 + y * (0.2457520174e-5 + y * (-0.240337019e-6))))
        let q =
            0.04687499995 + y * (-0.2002690873e-3 + y * (0.8449199096e-5 + y * (-0.88228987e-6 + y * 0.105787412e-6)))
        let r = (0.636619772 / ax).squareRoot() * (cos(xx) * p - z * sin(xx) * q)
        return x < 0 ? -r : r
    }

    /// The Fourier transform of a uniform disc of unit area and radius `radius`,
    /// at radial frequency `rho` (cycles per unit): 2 J1(2 pi r rho) / (2 pi r rho).
    static func discTransform(radius: Double, rho: Double) -> Double {
        let a = 2 * Double.pi * radius * rho
        if a < 1e-6 { return 1 }
        return 2 * besselJ1(a) / a
    }
}

/// Per-pixel helpers in `Float`.
enum FastMath {
    /// floor(x) for |x| < 2^31 without a libm call (the baseline x86-64 target has no
    /// SSE4.1 rounding instruction, so `rounded(.down)` is a function call).
    @inline(__always) static func floor(_ x: Float) -> Float {
        let t = Float(Int32(truncatingIfNeeded: Int(min(max(x, -2e9), 2e9))))
        return t > x ? t - 1 : t
    }

    /// x - floor(x), in [0, 1).
    @inline(__always) static func fract(_ x: Float) -> Float { x - floor(x) }

    /// log2(x) for x > 0 to within 0.005 (exponent plus a quadratic in the mantissa); used
    /// for texture levels of detail, where that is far below visible.
    @inline(__always) static func log2(_ x: Float) -> Float {
        let bits = max(x, 1e-30).bitPattern
        let e = Float(Int((bits >> 23) & 0xFF) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000) // [1, 2)
        return e + (-0.34484843 * m + 2.02466578) * m - 1.67487759
    }

    /// cos(2 pi x) for any x, by reduction to a quarter period and the degree-8 Taylor
    /// polynomial (max error (pi/2)^10 / 10! = 2.5e-5 at the quarter period, plus the
    /// Float reduction of x).
    @inline(__always) static func cos2pi(_ x: Float) -> Float {
        var t = x - floor(x) // [0,1)
        if t > 0.5 { t = 1 - t } // cos symmetric about 0.5
        // cos(2 pi t) on [0, 0.5]; reflect to [0, 0.25] with sign flip.
        var sign: Float = 1
        if t > 0.25 {
            t = 0.5 - t
            sign = -1
        }
        let a = 2 * Float.pi * t
        let a2 = a * a
        let c = 1 + a2 * (-0.5 + a2 * (1.0 / 24 + a2 * (-1.0 / 720 + a2 * (1.0 / 40320))))
        return sign * c
    }

    /// (cos 2 pi x, sin 2 pi x) for any x by a 1024-entry table with linear
    /// interpolation (max error 5e-6).
    @inline(__always) static func sinCos2pi(_ x: Float) -> (Float, Float) {
        let t = (x - floor(x)) * 1024
        let i = min(Int(t), 1023)
        let f = t - Float(i)
        let p = sinCosTable + 2 * i
        return (p[0] + (p[2] - p[0]) * f, p[1] + (p[3] - p[1]) * f)
    }

    /// 1025 (cos, sin) pairs of 2 pi k / 1024; allocated once, never freed.
    nonisolated(unsafe) static let sinCosTable: UnsafePointer<Float> = {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 1025)
        for k in 0...1024 {
            p[2 * k] = Float(cos(2 * Double.pi * Double(k) / 1024))
            p[2 * k + 1] = Float(sin(2 * Double.pi * Double(k) / 1024))
        }
        return UnsafePointer(p)
    }()

    /// Standard normal deviate from one 64-bit random word: Irwin-Hall sum of four
    /// 16-bit uniforms, rescaled to unit variance. Tails are truncated at +-3.46 sigma,
    /// which is irrelevant for sensor noise and ~40x cheaper than Box-Muller.
    @inline(__always) static func normal(fromBits b: UInt64) -> Float {
        let s =
            Float(b & 0xFFFF) + Float((b >> 16) & 0xFFFF)
            + Float((b >> 32) & 0xFFFF) + Float(b >> 48)
        // Sum of 4 U(0,65536): mean 131070, variance 4 * 65536^2 / 12.
        return (s - 131070) * (1.7320508 / 65536)
    }

    /// Standard normal CDF, Abramowitz-Stegun 7.1.26 erf approximation (error 1.5e-7).
    @inline(__always) static func normalCDF(_ x: Float) -> Float {
        // Beyond 6 sigma the tails are below 1e-9 (and exp would underflow slowly).
        if x > 6 { return 1 }
        if x < -6 { return 0 }
        let z = abs(x) * 0.70710678
        let t = 1 / (1 + 0.3275911 * z)
        let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
        let erf = 1 - poly * exp(-z * z)
        return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf)
    }
}
