import Foundation

/// Demosaicing of an RGGB Bayer mosaic (R at even x, even y). Input: one value per
/// pixel; output: planar linear RGB (3 planes of width x height), unclipped.
/// White-balance gains are applied per CFA site on the way in. Borders are handled by
/// mirroring the mosaic by two pixels, which keeps the CFA phase.
enum Demosaic {
    /// Demosaics with the algorithm `method` names.
    static func run(
        _ method: SensorParameters.Demosaic, _ raw: [Float], width w: Int, height h: Int,
        gains: (Float, Float, Float)
    ) -> [Float] {
        switch method {
        case .malvarHeCutler: malvarHeCutler(raw, width: w, height: h, gains: gains)
        case .bilinear: bilinear(raw, width: w, height: h, gains: gains)
        }
    }

    /// Mosaic times gains, padded by 2 px on each side: (w + 4) x (h + 4).
    private static func padded(
        _ raw: [Float], width w: Int, height h: Int,
        gains: (Float, Float, Float)
    ) -> [Float] {
        let pw = w + 4, ph = h + 4
        var out = [Float](repeating: 0, count: pw * ph)
        @inline(__always) func mirror(_ i: Int, _ n: Int) -> Int {
            i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i)
        }
        raw.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for py in 0..<ph {
                    let y = mirror(py - 2, h)
                    for px in 0..<pw {
                        let x = mirror(px - 2, w)
                        let c = (y & 1) + (x & 1)
                        let g = c == 0 ? gains.0 : (c == 1 ? gains.1 : gains.2)
                        dst[py * pw + px] = src[y * w + x] * g
                    }
                }
            }
        }
        return out
    }

    /// Malvar, He and Cutler, "High-quality linear interpolation for demosaicing of
    /// Bayer-patterned color images", ICASSP 2004: bilinear interpolation corrected by
    /// the Laplacian of the known channel. Filters (all / 8):
    /// - G at R or B: centre 4, axial neighbours at distance 1: +2, at distance 2: -1.
    /// - R (B) at G with R (B) horizontal neighbours: centre 5, horizontal d1 +4,
    ///   horizontal d2 -1, vertical d2 +1/2, diagonals -1; the vertical case is the
    ///   transpose.
    /// - B at R (R at B): centre 6, diagonals +2, axial d2 -3/2.
    static func malvarHeCutler(
        _ raw: [Float], width w: Int, height h: Int,
        gains: (Float, Float, Float)
    ) -> [Float] {
        interpolate(raw, width: w, height: h, gains: gains) { s, i, pw, oy, ox in
            let c = s[i]
            let n1 = s[i - pw], s1 = s[i + pw], e1 = s[i + 1], w1 = s[i - 1]
            let n2 = s[i - 2 * pw], s2 = s[i + 2 * pw], e2 = s[i + 2], w2 = s[i - 2]
            let diag = s[i - pw - 1] + s[i - pw + 1] + s[i + pw - 1] + s[i + pw + 1]
            let axial2 = n2 + s2 + e2 + w2
            var r: Float, g: Float, b: Float
            if oy == 0 && ox == 0 { // R site
                r = c
                g = (4 * c + 2 * (n1 + s1 + e1 + w1) - axial2) * 0.125
                b = (6 * c + 2 * diag - 1.5 * axial2) * 0.125
            } else if oy == 1 && ox == 1 { // B site
                b = c
                g = (4 * c + 2 * (n1 + s1 + e1 + w1) - axial2) * 0.125
                r = (6 * c + 2 * diag - 1.5 * axial2) * 0.125
            } else {
                g = c
                let horizontal = (5 * c + 4 * (e1 + w1) - (e2 + w2) + 0.5 * (n2 + s2) - diag) * 0.125
                let vertical = (5 * c + 4 * (n1 + s1) - (n2 + s2) + 0.5 * (e2 + w2) - diag) * 0.125
                if oy == 0 { // G in an R row: R left/right, B above/below
                    r = horizontal
                    b = vertical
                } else { // G in a B row
                    b = horizontal
                    r = vertical
                }
            }
            return (r, g, b)
        }
    }

    /// Bilinear demosaicing: each missing colour is the mean of its nearest samples.
    static func bilinear(
        _ raw: [Float], width w: Int, height h: Int,
        gains: (Float, Float, Float)
    ) -> [Float] {
        interpolate(raw, width: w, height: h, gains: gains) { s, i, pw, oy, ox in
            let c = s[i]
            let cross = (s[i - pw] + s[i + pw] + s[i - 1] + s[i + 1]) * 0.25
            let diag = (s[i - pw - 1] + s[i - pw + 1] + s[i + pw - 1] + s[i + pw + 1]) * 0.25
            let horizontal = (s[i - 1] + s[i + 1]) * 0.5, vertical = (s[i - pw] + s[i + pw]) * 0.5
            if oy == 0 && ox == 0 { return (c, cross, diag) }
            if oy == 1 && ox == 1 { return (diag, cross, c) }
            if oy == 0 { return (horizontal, c, vertical) }
            return (vertical, c, horizontal)
        }
    }

    /// The pixel loop both algorithms share: pads the mosaic times `gains` (`padded`),
    /// calls `site(s, i, pw, oy, ox)` for every pixel, with s the padded mosaic, i the
    /// pixel's index in it, pw its row length and (oy, ox) = (y & 1, x & 1) the CFA
    /// phase, and stores the returned (R, G, B) in planar output.
    @inline(__always)
    private static func interpolate(
        _ raw: [Float], width w: Int, height h: Int, gains: (Float, Float, Float),
        _ site: (UnsafeBufferPointer<Float>, Int, Int, Int, Int) -> (Float, Float, Float)
    )
        -> [Float]
    {
        let p = padded(raw, width: w, height: h, gains: gains)
        let pw = w + 4, n = w * h
        var out = [Float](repeating: 0, count: 3 * n)
        p.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    for x in 0..<w {
                        let (r, g, b) = site(s, (y + 2) * pw + x + 2, pw, y & 1, x & 1)
                        let j = y * w + x
                        o[j] = r
                        o[n + j] = g
                        o[2 * n + j] = b
                    }
                }
            }
        }
        return out
    }
}
