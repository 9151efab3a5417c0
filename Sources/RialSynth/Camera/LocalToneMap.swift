import Foundation

/// Gain map of the local tone mapping (`ImageSignalProcessor` step 6): a grid of
/// 16 x 12 cells (or fewer on small images) holding (L_cell / L_mean)^-strength
/// (L: shading-corrected green, mean of log2 over cells),
/// clamped to 0.5...2, after 3 x 3 binomial smoothing of log L.
struct LocalToneMap {
    let columns: Int
    let rows: Int
    let gain: [Float]

    /// `shadingCorrection` (v, s): the cell means are taken after lens-shading
    /// correction, gain (1 - v r^2) / (1 - s r^2) at each sample.
    init(green rgb: [Float], width w: Int, height h: Int, strength: Float, shadingCorrection: (Float, Float)) {
        let n = w * h
        columns = max(min(16, w / 32), 1)
        rows = max(min(12, h / 32), 1)
        var logL = [Float](repeating: 0, count: columns * rows)
        var total: Float = 0
        let (cols, rws) = (columns, rows)
        let cx = Float(w) / 2, cy = Float(h) / 2
        let invR2 = 1 / (cx * cx + cy * cy)
        rgb.withUnsafeBufferPointer { s in
            for j in 0..<rws {
                let y0 = j * h / rws, y1 = (j + 1) * h / rws
                for i in 0..<cols {
                    let x0 = i * w / cols, x1 = (i + 1) * w / cols
                    var sum: Float = 0, count = 0
                    var y = y0
                    while y < y1 {
                        var x = x0
                        let dy = Float(y) + 0.5 - cy
                        while x < x1 {
                            let dx = Float(x) + 0.5 - cx
                            let r2 = (dx * dx + dy * dy) * invR2
                            let lsc = (1 - shadingCorrection.0 * r2) / (1 - shadingCorrection.1 * r2)
                            sum += max(s[n + y * w + x], 0) * lsc
                            count += 1
                            x += 2
                        }
                        y += 2
                    }
                    logL[j * cols + i] = log2(max(sum / Float(max(count, 1)), 1e-5))
                }
            }
        }
        var smooth = logL
        for j in 0..<rws {
            for i in 0..<cols {
                var acc: Float = 0, wsum: Float = 0
                for dj in -1...1 {
                    for di in -1...1 {
                        let jj = min(max(j + dj, 0), rws - 1), ii = min(max(i + di, 0), cols - 1)
                        let wt = Float((2 - abs(di)) * (2 - abs(dj)))
                        acc += wt * logL[jj * cols + ii]
                        wsum += wt
                    }
                }
                smooth[j * cols + i] = acc / wsum
                total += smooth[j * cols + i]
            }
        }
        let mean = total / Float(cols * rws)
        gain = smooth.map { min(max(exp2(-strength * ($0 - mean)), 0.5), 2) }
    }

    /// Continuous cell coordinate of pixel `p` (cell centres at integers).
    @inline(__always) func coordinate(_ p: Int, cells: Int, size: Int) -> Float {
        min(max((Float(p) + 0.5) * Float(cells) / Float(size) - 0.5, 0), Float(cells - 1))
    }
}
