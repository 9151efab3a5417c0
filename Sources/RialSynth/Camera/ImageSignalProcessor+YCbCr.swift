import Foundation
import RialMedia

/// The image after `ImageSignalProcessor` step 7 in the encoded (sRGB) domain, split
/// for steps 8 and 9: BT.601 luma Y per pixel, and the chroma planes Cb = B - Y then
/// Cr = R - Y on a grid of 2 x 2 pixel cells (`chromaWidth` x `chromaHeight` each;
/// the last row or column of cells covers one pixel when the size is odd).
struct EncodedPlanes {
    let width: Int
    let height: Int
    var luma: [Float]
    let chromaWidth: Int
    let chromaHeight: Int
    var chroma: [Float]

    /// Zero planes for a width x height image.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        luma = [Float](repeating: 0, count: width * height)
        chromaWidth = (width + 1) / 2
        chromaHeight = (height + 1) / 2
        chroma = [Float](repeating: 0, count: 2 * chromaWidth * chromaHeight)
    }
}

// Steps 8 and 9 of `ImageSignalProcessor`.
extension ImageSignalProcessor {
    /// Step 8: turns the chroma sums of `encode` into means over the pixels each cell
    /// covers, then box-filters both planes twice in each direction with radius
    /// round(`radiusPx` / 2) cells (no filtering when that is 0 or less).
    static func reduceChromaNoise(_ planes: inout EncodedPlanes, radiusPx: Float) {
        let w = planes.width, h = planes.height
        let cw = planes.chromaWidth, ch = planes.chromaHeight
        planes.chroma.withUnsafeMutableBufferPointer { chr in
            for j in 0..<ch {
                let rowsIn = (2 * j + 1 < h) ? 2 : 1
                for i in 0..<cw {
                    let colsIn = (2 * i + 1 < w) ? 2 : 1
                    let inv = 1 / Float(rowsIn * colsIn)
                    chr[j * cw + i] *= inv
                    chr[cw * ch + j * cw + i] *= inv
                }
            }
        }
        let radius = max(Int((radiusPx / 2).rounded()), 0)
        if radius > 0 {
            var scratch = [Float](repeating: 0, count: max(cw, ch))
            for plane in 0..<2 {
                for _ in 0..<2 {
                    BoxFilter.rows(
                        &planes.chroma, offset: plane * cw * ch, width: cw, height: ch, radius: radius,
                        scratch: &scratch)
                    BoxFilter.columns(
                        &planes.chroma, offset: plane * cw * ch, width: cw, height: ch, radius: radius,
                        scratch: &scratch)
                }
            }
        }
    }

    /// Step 9: luma Y' = Y + d (n tau^2 - a d^2) / (tau^2 + d^2) with d = B3 Y - Y
    /// (B3 the 3 x 3 binomial blur, clamped edges), tau = `luma_denoise_threshold`,
    /// n = `luma_denoise`, a = `sharpen`; chroma bilinearly upsampled from the cell
    /// centres (2 i + 1/2 px); R = Y' + Cr, B = Y' + Cb, G from the BT.601 luma
    /// equation; each clipped to 0...1 and rounded to 8 bits.
    static func output(_ planes: EncodedPlanes, isp: ISPParameters, sharpen: Float) -> Image8 {
        let w = planes.width, h = planes.height, n = w * h
        let cw = planes.chromaWidth, ch = planes.chromaHeight
        var out = Image8(width: w, height: h, channels: 3, samples: [UInt8](repeating: 0, count: 3 * n))!
        let tau = max(isp.lumaDenoiseThreshold, 1e-4), tau2 = tau * tau
        let nr = min(max(isp.lumaDenoise, 0), 1) * tau2
        // Chroma sample centres at 2 i + 1/2 px: bilinear cells and weights per column.
        var chromaCell = [Int](repeating: 0, count: 2 * w)
        var chromaWeight = [Float](repeating: 0, count: w)
        for x in 0..<w {
            let fx = min(max((Float(x) - 0.5) * 0.5, 0), Float(cw - 1))
            let i0 = min(Int(fx), cw - 1)
            chromaCell[2 * x] = i0
            chromaCell[2 * x + 1] = min(i0 + 1, cw - 1)
            chromaWeight[x] = fx - Float(i0)
        }
        planes.luma.withUnsafeBufferPointer { lum in
            planes.chroma.withUnsafeBufferPointer { chr in
                chromaCell.withUnsafeBufferPointer { cc in
                    chromaWeight.withUnsafeBufferPointer { cwt in
                        out.samples.withUnsafeMutableBufferPointer { dst in
                            let crPlane = cw * ch
                            for y in 0..<h {
                                let ym = max(y - 1, 0) * w, y0 = y * w, yp = min(y + 1, h - 1) * w
                                let fy = min(max((Float(y) - 0.5) * 0.5, 0), Float(ch - 1))
                                let j0 = min(Int(fy), ch - 1), j1 = min(j0 + 1, ch - 1)
                                let wy = fy - Float(j0)
                                let r0 = j0 * cw, r1 = j1 * cw
                                for x in 0..<w {
                                    let xm = max(x - 1, 0), xp = min(x + 1, w - 1)
                                    let c = lum[y0 + x]
                                    let blur =
                                        (lum[ym + xm] + 2 * lum[ym + x] + lum[ym + xp]
                                            + 2 * lum[y0 + xm] + 4 * c + 2 * lum[y0 + xp]
                                            + lum[yp + xm] + 2 * lum[yp + x] + lum[yp + xp]) * (1 / 16)
                                    let d = blur - c
                                    let d2 = d * d
                                    let yv = c + d * (nr - sharpen * d2) / (tau2 + d2)
                                    let i0 = cc[2 * x], i1 = cc[2 * x + 1]
                                    let wx = cwt[x]
                                    let cbTop = chr[r0 + i0] + (chr[r0 + i1] - chr[r0 + i0]) * wx
                                    let cbBottom = chr[r1 + i0] + (chr[r1 + i1] - chr[r1 + i0]) * wx
                                    let crTop =
                                        chr[crPlane + r0 + i0] + (chr[crPlane + r0 + i1] - chr[crPlane + r0 + i0]) * wx
                                    let crBottom =
                                        chr[crPlane + r1 + i0] + (chr[crPlane + r1 + i1] - chr[crPlane + r1 + i0]) * wx
                                    let cb = cbTop + (cbBottom - cbTop) * wy
                                    let cr = crTop + (crBottom - crTop) * wy
                                    let r = yv + cr, b = yv + cb
                                    let g = (yv - 0.299 * r - 0.114 * b) * (1 / 0.587)
                                    let o = 3 * (y0 + x)
                                    dst[o] = UInt8(min(max(r, 0), 1) * 255 + 0.5)
                                    dst[o + 1] = UInt8(min(max(g, 0), 1) * 255 + 0.5)
                                    dst[o + 2] = UInt8(min(max(b, 0), 1) * 255 + 0.5)
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
