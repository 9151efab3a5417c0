import Foundation

/// Rolling-shutter integration of a flickering emitter.
///
/// The emission is w(t) = 1 + m (s(t) / D - 1), where s is a PWM square wave of
/// frequency f that is 1 during the first D of each period (mean of w: 1). Row y of
/// the sensor integrates w over its own window [t_y, t_y + T] with
/// t_y = (phase + y * row_time * f) / f, so its gain is
///   g(y) = (1 / T) * integral_{t_y}^{t_y + T} w(t) dt
///        = 1 - m + (m / (D T)) (S(t_y + T) - S(t_y)),
/// with S(t) = integral_0^t s = (floor(f t) D + min(frac(f t), D)) / f.
/// Bands therefore repeat every 1 / (f * row_time) rows, and disappear when f T is an
/// integer (the window always spans whole periods).
enum RollingShutter {
    /// Per-row gains for `rows` rows. `phaseOffset` adds to the flicker phase (periods),
    /// e.g. for a second camera that starts its exposure at another time.
    static func rowGains(_ p: FlickerParameters, rows: Int, phaseOffset: Double = 0) -> [Float] {
        let f = Double(max(p.hz, 1e-3))
        let d = Double(min(max(p.dutyCycle, 0.01), 1))
        let m = Double(min(max(p.modulationDepth, 0), 1))
        let exposure = Double(max(p.exposureMs, 1e-3)) * 1e-3
        let rowTime = Double(max(p.rowTimeUs, 0)) * 1e-6
        // S(t) in units of periods: the on-time accumulated up to phase x = f t.
        func onTime(_ x: Double) -> Double {
            let fl = x.rounded(.down)
            return fl * d + min(x - fl, d)
        }
        var gains = [Float](repeating: 1, count: rows)
        for y in 0..<rows {
            let x0 = Double(p.phase) + phaseOffset + Double(y) * rowTime * f
            let x1 = x0 + exposure * f
            let onFraction = (onTime(x1) - onTime(x0)) / (x1 - x0) // mean of s over the window
            gains[y] = Float(1 - m + m * onFraction / d)
        }
        return gains
    }
}
