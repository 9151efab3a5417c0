import Foundation

/// The global tone curve and sRGB encoding of `ImageSignalProcessor` step 7 as one
/// table: entry k holds sRGB(y(x)) for x = (k / (size - 1))^2, so dark values get
/// fine steps.
struct ToneCurve {
    static let size = 4096
    let a: Float, d: Float, b: Float, c: Float
    let table: [Float]

    /// y(m) = midOut, y(1) = 1; midIn is kept below midOut's reach (m < 1).
    init(midIn: Float, midOut: Float, contrast: Float, shoulder: Float) {
        let m = min(max(midIn, 1e-3), 0.9)
        a = contrast
        d = shoulder
        var bb = (pow(m, a) / midOut - 1) / (pow(m, a * d) - 1)
        if !bb.isFinite { bb = 0 }
        b = bb
        c = 1 - bb
        let (a0, d0, b0, c0) = (a, d, b, c)
        table = (0..<ToneCurve.size).map { k in
            let s = Float(k) / Float(ToneCurve.size - 1)
            let x = s * s
            let y = x > 0 ? pow(x, a0) / (pow(x, a0 * d0) * b0 + c0) : 0
            return ColorScience.linearToSrgb(y)
        }
    }

    /// y(x) (linear), for tests.
    func callAsFunction(_ x: Float) -> Float { x > 0 ? pow(x, a) / (pow(x, a * d) * b + c) : 0 }
}
