import Foundation
import RialMedia

/// The `texture/2` analysis image: the stored frame resampled to a fixed scale, R, G, B
/// and BT.601 luma as `Float` planes (0...255, gamma-encoded as stored).
///
/// With `short = min(W, H)`, the scale is `s = short / 256` source px per analysis px
/// and the size `floor(W / s) x floor(H / s)`, the shorter side set to exactly 256 px (the aspect
/// ratio kept, so pixel statistics do not depend on the capture's resolution). Analysis
/// pixel (i, j) is the mean of `t x t` source pixels, `t = clamp(ceil(s), 1, 4)`, at
/// `x = min(W - 1, floor((j + (kx + 0.5) / t) s))`, `y` likewise (kx, ky = 0..<t): a box
/// filter over the pixel's footprint with at most 16 taps, so a 12 MP capture reads about
/// 1.4 M of its 12 M pixels. Luma `Y = 0.299 R + 0.587 G + 0.114 B`, written with each
/// row.
struct Texture2AnalysisImage {
    /// Analysis size, px.
    let width: Int
    let height: Int
    var red: [Float]
    var green: [Float]
    var blue: [Float]
    var luma: [Float]

    /// Shorter side of the analysis image, px.
    static let shortSide = 256
    /// Largest number of taps per axis.
    static let maximumTaps = 4

    /// Groups 1, 2 and 5-7 of `Texture2Features`, accumulated as the rows were written
    /// (`Texture2RowFeatures`), so a photo still decoding has them before its last row.
    let rowFeatures: Texture2RowFeatures
    /// Groups 3 and 4 likewise (`Texture2BandFeatures`), a few rows behind (their box
    /// filters reach up to 8 rows below).
    let bandFeatures: Texture2BandFeatures

    /// Resamples `rows` (at least 3 channels), waiting for each source row band as it
    /// is needed, and adds each analysis row to `rowFeatures` and `bandFeatures` once it
    /// is written.
    init(_ rows: ImageRows) {
        let sourceWidth = rows.width, sourceHeight = rows.height, channels = rows.channels
        let s = Double(Swift.min(sourceWidth, sourceHeight)) / Double(Self.shortSide)
        let w = sourceWidth <= sourceHeight ? Self.shortSide : Swift.max(Self.shortSide, Int(Double(sourceWidth) / s))
        let h = sourceHeight < sourceWidth ? Self.shortSide : Swift.max(Self.shortSide, Int(Double(sourceHeight) / s))
        let t = Swift.max(1, Swift.min(Self.maximumTaps, Int(s.rounded(.up))))
        width = w
        height = h
        var xs = [Int](repeating: 0, count: w * t)
        for j in 0..<w {
            for k in 0..<t {
                let x = Int(((Double(j) + (Double(k) + 0.5) / Double(t)) * s).rounded(.down))
                xs[j * t + k] = Swift.min(sourceWidth - 1, x) * channels
            }
        }
        var r = [Float](repeating: 0, count: w * h)
        var g = r, b = r, y = r
        let features = Texture2RowFeatures(width: w, height: h)
        let bands = Texture2BandFeatures(width: w, height: h)
        let samples = rows.samples
        let taps = Float(t * t)
        var ys = [Int](repeating: 0, count: t)
        r.withUnsafeMutableBufferPointer { rp in
            g.withUnsafeMutableBufferPointer { gp in
                b.withUnsafeMutableBufferPointer { bp in
                    y.withUnsafeMutableBufferPointer { yp in
                        xs.withUnsafeBufferPointer { xp in
                            for i in 0..<h {
                                for k in 0..<t {
                                    ys[k] = Swift.min(
                                        sourceHeight - 1,
                                        Int(((Double(i) + (Double(k) + 0.5) / Double(t)) * s).rounded(.down)))
                                }
                                rows.waitForRows(ys[t - 1] + 1)
                                for j in 0..<w {
                                    // Integer sums (at most 16 x 255, exact in Float as well).
                                    var sr = 0, sg = 0, sb = 0
                                    for ky in 0..<t {
                                        let base = ys[ky] * sourceWidth * channels
                                        for kx in 0..<t {
                                            let p = base + xp[j * t + kx]
                                            sr &+= Int(samples[p])
                                            sg &+= Int(samples[p + 1])
                                            sb &+= Int(samples[p + 2])
                                        }
                                    }
                                    rp[i * w + j] = Float(sr) / taps
                                    gp[i * w + j] = Float(sg) / taps
                                    bp[i * w + j] = Float(sb) / taps
                                }
                                for p in (i * w)..<((i + 1) * w) {
                                    yp[p] = 0.299 * rp[p] + 0.587 * gp[p] + 0.114 * bp[p]
                                }
                                let (red, green, blue, luma) = (
                                    UnsafeBufferPointer(rp), UnsafeBufferPointer(gp), UnsafeBufferPointer(bp),
                                    UnsafeBufferPointer(yp)
                                )
                                features.addRow(red: red, green: green, blue: blue, luma: luma)
                                bands.addRow(red: red, green: green, blue: blue, luma: luma)
                            }
                        }
                    }
                }
            }
        }
        rowFeatures = features
        bandFeatures = bands
        red = r
        green = g
        blue = b
        luma = y
    }
}
