import Foundation

/// Colour conversions. Linear values are relative radiance in linear sRGB (BT.709)
/// primaries; encoded values are sRGB (IEC 61966-2-1) in 0...1.
enum ColorScience {
    /// IEC 61966-2-1 decoding: e <= 0.04045 ? e / 12.92 : ((e + 0.055) / 1.055)^2.4.
    @inline(__always) static func srgbToLinear(_ e: Float) -> Float {
        e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4)
    }

    /// IEC 61966-2-1 encoding, input clamped to 0...1.
    @inline(__always) static func linearToSrgb(_ l: Float) -> Float {
        let x = min(max(l, 0), 1)
        return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
    }

    /// 8-bit sRGB code for linear values, by table: index = round(linear * 16383).
    /// The table's step (6e-5 linear) is below one code value everywhere.
    static let encodeTable: [UInt8] = (0...16383).map { i in
        UInt8(min(max((linearToSrgb(Float(i) / 16383) * 255).rounded(), 0), 255))
    }

    /// Relative linear-sRGB colour of a black body of temperature `kelvin`
    /// (1000-40000 K), normalised to green = 1. Planck's law integrated against
    /// Gaussian fits of the CIE 1931 colour matching functions (Wyman, Sloan and
    /// Shirley 2013, single-lobe fits), then XYZ -> linear sRGB.
    static func blackBodyRGB(kelvin: Float) -> (Float, Float, Float) {
        let t = Double(min(max(kelvin, 1000), 40000))
        var X = 0.0, Y = 0.0, Z = 0.0
        var lambda = 380.0
        while lambda <= 780 {
            let l = lambda * 1e-9
            let planck = 1 / (pow(l, 5) * (exp(0.014387769 / (l * t)) - 1))
            func g(_ x: Double, _ mu: Double, _ s1: Double, _ s2: Double) -> Double {
                let s = x < mu ? s1 : s2
                return exp(-0.5 * pow((x - mu) / s, 2))
            }
            let xb =
                1.056 * g(lambda, 599.8, 37.9, 31.0) + 0.362 * g(lambda, 442.0, 16.0, 26.7)
                - 0.065 * g(lambda, 501.1, 20.4, 26.2)
            let yb = 0.821 * g(lambda, 568.8, 46.9, 40.5) + 0.286 * g(lambda, 530.9, 16.3, 31.1)
            let zb = 1.217 * g(lambda, 437.0, 11.8, 36.0) + 0.681 * g(lambda, 459.0, 26.0, 13.8)
            X += planck * xb
            Y += planck * yb
            Z += planck * zb
            lambda += 5
        }
        let r = 3.2406 * X - 1.5372 * Y - 0.4986 * Z
        let gg = -0.9689 * X + 1.8758 * Y + 0.0415 * Z
        let b = 0.0557 * X - 0.2040 * Y + 1.0570 * Z
        // Normalise so D65-ish (6504 K) is near white: divide by the 6504 K values.
        return (Float(max(r, 0) / gg), 1, Float(max(b, 0) / gg))
    }

    /// White-point-relative light colour: black body at `kelvin` divided by the black
    /// body at 6504 K (so 6504 K is (1, 1, 1)); green = 1.
    static func illuminant(kelvin: Float) -> (Float, Float, Float) {
        let c = blackBodyRGB(kelvin: kelvin), d = d65
        return (c.0 / d.0, 1, c.2 / d.2)
    }

    private static let d65 = blackBodyRGB(kelvin: 6504)

    /// BT.601 luma weights (the moire reference pipeline's grayscale).
    static let luma601: (Float, Float, Float) = (0.299, 0.587, 0.114)
}
