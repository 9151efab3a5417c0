import Foundation

// Steps 1 and 5-7 of `ImageSignalProcessor`: colour matrices and the per-pixel pass
// from demosaiced camera RGB to the encoded luma and chroma planes.
extension ImageSignalProcessor {
    /// 3 x 3 matrix in row-major order.
    struct Matrix3 {
        var m: (Float, Float, Float, Float, Float, Float, Float, Float, Float)

        func apply(_ v: Vec3) -> Vec3 {
            Vec3(
                m.0 * v.x + m.1 * v.y + m.2 * v.z, m.3 * v.x + m.4 * v.y + m.5 * v.z, m.6 * v.x + m.7 * v.y + m.8 * v.z)
        }

        /// Inverse by the adjugate (the crosstalk matrices are well conditioned for x <= 0.3).
        var inverse: Matrix3 {
            let (a, b, c, d, e, f, g, h, i) = m
            let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
            let det = a * A + b * B + c * C
            let s = 1 / det
            return Matrix3(
                m: (
                    A * s, -(b * i - c * h) * s, (b * f - c * e) * s,
                    B * s, (a * i - c * g) * s, -(a * f - c * d) * s,
                    C * s, -(a * h - b * g) * s, (a * e - b * d) * s
                ))
        }
    }

    /// M(x) of `ISPParameters.filterCrosstalk`.
    static func crosstalkMatrix(_ x: Float) -> Matrix3 {
        Matrix3(m: (1 - x, 0.75 * x, 0.25 * x, 0.5 * x, 1 - x, 0.5 * x, 0.25 * x, 0.75 * x, 1 - x))
    }

    /// `planes` (3 planes of n) multiplied by `matrix` per pixel.
    static func mix(_ planes: [Float], _ matrix: Matrix3, n: Int) -> [Float] {
        var out = [Float](repeating: 0, count: 3 * n)
        let m = matrix.m
        planes.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<n {
                    let r = s[i], g = s[n + i], b = s[2 * n + i]
                    o[i] = m.0 * r + m.1 * g + m.2 * b
                    o[n + i] = m.3 * r + m.4 * g + m.5 * b
                    o[2 * n + i] = m.6 * r + m.7 * g + m.8 * b
                }
            }
        }
        return out
    }

    /// Steps 5-7 per pixel, then the split of step 8: colour correction
    /// `colourCorrection`, gain (1 - v r^2) / (1 - s r^2) (`shadingCorrection` (v, s),
    /// r = 1 at the corners) times the local tone gain, `curve` (tone and sRGB
    /// encoding, looked up at sqrt(x) of x clipped to 0...1), then BT.601 luma per
    /// pixel and the sums of Cb = B - Y and Cr = R - Y over each 2 x 2 cell.
    /// `rgb`: 3 planes of width x height, camera RGB, clipped at 1 on the way in.
    static func encode(
        _ rgb: [Float], width w: Int, height h: Int, colourCorrection ccm: Matrix3,
        shadingCorrection: (Float, Float), localTone local: LocalToneMap,
        curve: ToneCurve
    ) -> EncodedPlanes {
        let n = w * h
        let (vignetting, shading) = shadingCorrection
        var planes = EncodedPlanes(width: w, height: h)
        let cw = planes.chromaWidth, ch = planes.chromaHeight
        let cx = Float(w) / 2, cy = Float(h) / 2
        let invR2 = 1 / (cx * cx + cy * cy)
        // Per-column constants: squared distance from the centre, local-tone cell index
        // and weight.
        var columnR2 = [Float](repeating: 0, count: w)
        var columnCell = [Int](repeating: 0, count: w)
        var columnWeight = [Float](repeating: 0, count: w)
        for x in 0..<w {
            let dx = Float(x) + 0.5 - cx
            columnR2[x] = dx * dx * invR2
            let u = local.coordinate(x, cells: local.columns, size: w)
            columnCell[x] = min(Int(u), local.columns - 1)
            columnWeight[x] = u - Float(columnCell[x])
        }
        var rowGain = [Float](repeating: 0, count: local.columns + 1)
        curve.table.withUnsafeBufferPointer { table in
            rgb.withUnsafeBufferPointer { src in
                planes.luma.withUnsafeMutableBufferPointer { lum in
                    planes.chroma.withUnsafeMutableBufferPointer { chr in
                        columnR2.withUnsafeBufferPointer { colR2 in
                            columnCell.withUnsafeBufferPointer { colCell in
                                columnWeight.withUnsafeBufferPointer { colW in
                                    rowGain.withUnsafeMutableBufferPointer { rg in
                                        let m = ccm.m
                                        let last = Float(ToneCurve.size - 1)
                                        let cols = local.columns
                                        for y in 0..<h {
                                            let dy = Float(y) + 0.5 - cy
                                            let rowR2 = dy * dy * invR2
                                            // Local-tone gains of this row at each cell column (vertical lerp).
                                            let v = local.coordinate(y, cells: local.rows, size: h)
                                            let j0 = min(Int(v), local.rows - 1), j1 = min(j0 + 1, local.rows - 1)
                                            let fv = v - Float(j0)
                                            for i in 0..<cols {
                                                rg[i] =
                                                    local.gain[j0 * cols + i]
                                                    + (local.gain[j1 * cols + i] - local.gain[j0 * cols + i]) * fv
                                            }
                                            rg[cols] = rg[cols - 1]
                                            let crow = (y / 2) * cw
                                            for x in 0..<w {
                                                let i = y * w + x
                                                let r0 = min(src[i], 1), g0 = min(src[n + i], 1),
                                                    b0 = min(src[2 * n + i], 1)
                                                let r2 = colR2[x] + rowR2
                                                let k = colCell[x]
                                                let lt = rg[k] + (rg[k + 1] - rg[k]) * colW[x]
                                                let gain = (1 - vignetting * r2) / (1 - shading * r2) * lt
                                                let r = (m.0 * r0 + m.1 * g0 + m.2 * b0) * gain
                                                let g = (m.3 * r0 + m.4 * g0 + m.5 * b0) * gain
                                                let b = (m.6 * r0 + m.7 * g0 + m.8 * b0) * gain
                                                let er = table[Int(min(max(r, 0), 1).squareRoot() * last + 0.5)]
                                                let eg = table[Int(min(max(g, 0), 1).squareRoot() * last + 0.5)]
                                                let eb = table[Int(min(max(b, 0), 1).squareRoot() * last + 0.5)]
                                                let yv = 0.299 * er + 0.587 * eg + 0.114 * eb
                                                lum[i] = yv
                                                let c = crow + (x >> 1)
                                                chr[c] += eb - yv
                                                chr[cw * ch + c] += er - yv
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return planes
    }
}
