import Foundation

/// The emitting geometry of one display cell, as exact Fourier series per colour
/// channel, normalised so each channel's pattern has mean 1.
///
/// A channel's aperture m_c(u, v) (1 inside an emitter, 0 elsewhere; u, v in display
/// pixels) is periodic with the cell (Lu, Lv). Its series is
///   m_c(u, v) = sum_{k,l} C_c[k,l] exp(2 pi i (k u / Lu + l v / Lv)),
/// and the returned coefficient is C_c[k,l] / C_c[0,0].
///
/// - LCD `rgb_stripe`, cell 1 x 1: channel c is a rectangle of width w = fill / 3
///   centred at u = (c + 1/2) / 3, height h = vertical_fill centred at v = 1/2:
///   C[k,l] / C[0,0] = sinc(k w) sinc(l h) exp(-2 pi i (k (c + 1/2) / 3 + l / 2)).
/// - OLED `diamond_pentile`, cell 2 x 2: R discs at (1/2, 1/2) and (3/2, 3/2), B discs
///   at (3/2, 1/2) and (1/2, 3/2) (a checkerboard), G discs at the four integer points
///   (double density). A disc of radius r at c contributes
///   pi r^2 / (Lu Lv) * 2 J1(2 pi r rho) / (2 pi r rho) * exp(-2 pi i kappa . c),
///   rho = |kappa|, kappa = (k / Lu, l / Lv) cycles per display pixel.
///   R and B radius = fill / 2 (B 5 % larger, R 5 % smaller, as on real panels); G
///   radius 0.75 of that.
struct SubpixelLayout: Sendable {
    let layout: DisplayParameters.PanelLayout
    /// Cell size in display pixels.
    let cellU: Double
    let cellV: Double
    private let fill: Double
    private let verticalFill: Double

    init(parameters p: DisplayParameters) {
        layout = p.panelLayout
        switch p.panelLayout {
        case .rgbStripe:
            cellU = 1
            cellV = 1
            fill = Double(min(max(p.fillFactor, 0.05), 1))
            verticalFill = Double(min(max(p.verticalFill, 0.05), 1))
        case .diamondPentile:
            cellU = 2
            cellV = 2
            // Emitters must not overlap: R/B-to-G spacing is sqrt(2)/2.
            fill = Double(min(max(p.fillFactor, 0.05), 0.8))
            verticalFill = 1
        }
    }

    private struct Disc {
        var cu: Double
        var cv: Double
        var r: Double
    }

    private func discs(channel c: Int) -> [Disc] {
        let rb = fill / 2, rg = 0.75 * rb
        switch c {
        case 0: return [Disc(cu: 0.5, cv: 0.5, r: rb * 0.95), Disc(cu: 1.5, cv: 1.5, r: rb * 0.95)]
        case 2: return [Disc(cu: 1.5, cv: 0.5, r: rb * 1.05), Disc(cu: 0.5, cv: 1.5, r: rb * 1.05)]
        default:
            return [
                Disc(cu: 0, cv: 0, r: rg), Disc(cu: 1, cv: 0, r: rg),
                Disc(cu: 0, cv: 1, r: rg), Disc(cu: 1, cv: 1, r: rg),
            ]
        }
    }

    /// Area fraction of the cell covered by channel c's emitters (the DC term C[0,0]).
    func apertureFraction(channel c: Int) -> Double {
        switch layout {
        case .rgbStripe: return fill / 3 * verticalFill
        case .diamondPentile: return discs(channel: c).reduce(0) { $0 + Double.pi * $1.r * $1.r } / (cellU * cellV)
        }
    }

    /// C_c[k,l] / C_c[0,0] as (re, im).
    func normalisedCoefficient(channel c: Int, k: Int, l: Int) -> (Double, Double) {
        switch layout {
        case .rgbStripe:
            let w = fill / 3
            let amp = SpecialFunctions.sinc(Double(k) * w) * SpecialFunctions.sinc(Double(l) * verticalFill)
            let phase = -2 * Double.pi * (Double(k) * (Double(c) + 0.5) / 3 + Double(l) * 0.5)
            return (amp * cos(phase), amp * sin(phase))
        case .diamondPentile:
            let ku = Double(k) / cellU, kv = Double(l) / cellV
            let rho = (ku * ku + kv * kv).squareRoot()
            var re = 0.0, im = 0.0, dc = 0.0
            for d in discs(channel: c) {
                let a = Double.pi * d.r * d.r
                let amp = a * SpecialFunctions.discTransform(radius: d.r, rho: rho)
                let phase = -2 * Double.pi * (ku * d.cu + kv * d.cv)
                re += amp * cos(phase)
                im += amp * sin(phase)
                dc += a
            }
            return (re / dc, im / dc)
        }
    }
}

/// `SubpixelLayout.normalisedCoefficient` tabulated for |k|, |l| <= `maxHarmonic`
/// (computed once per display; the filtered tables only re-weight it).
final class SubpixelSpectrum: @unchecked Sendable {
    let layout: SubpixelLayout
    let maxHarmonic: Int
    /// [(l + K) * (2K + 1) + (k + K)] * 6 + 2 c + (0 re, 1 im).
    let values: [Double]

    init(layout: SubpixelLayout, maxHarmonic: Int = 31) {
        self.layout = layout
        self.maxHarmonic = maxHarmonic
        let side = 2 * maxHarmonic + 1
        var v = [Double](repeating: 0, count: side * side * 6)
        for l in -maxHarmonic...maxHarmonic {
            for k in -maxHarmonic...maxHarmonic {
                let base = ((l + maxHarmonic) * side + (k + maxHarmonic)) * 6
                for c in 0..<3 {
                    let z = layout.normalisedCoefficient(channel: c, k: k, l: l)
                    v[base + 2 * c] = z.0
                    v[base + 2 * c + 1] = z.1
                }
            }
        }
        values = v
    }

    @inline(__always) func coefficient(channel c: Int, k: Int, l: Int) -> (Double, Double) {
        let side = 2 * maxHarmonic + 1
        let base = ((l + maxHarmonic) * side + (k + maxHarmonic)) * 6 + 2 * c
        return (values[base], values[base + 1])
    }
}
