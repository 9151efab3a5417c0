import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// texture/2's band-pass and cross-channel groups accumulated one analysis row at a time
/// (`Texture2BandFeatures`, its box filters `RunningBox` running on rows as they
/// arrive), which lets them run while the photo decodes: the same values to the last bit
/// as the fifteen box filters over the finished image and the energies after them
/// (`WholeImage`, the code the texture methods ran until 2026-12-07), on images of
/// several sizes, including images shorter than a filter's reach and than its rings.
@Suite struct Texture2BandFeaturesTests {
    static func feed(_ features: Texture2BandFeatures, _ p: (r: [Float], g: [Float], b: [Float], y: [Float])) {
        p.r.withUnsafeBufferPointer { rp in
            p.g.withUnsafeBufferPointer { gp in
                p.b.withUnsafeBufferPointer { bp in
                    p.y.withUnsafeBufferPointer { yp in
                        for _ in 0..<features.height { features.addRow(red: rp, green: gp, blue: bp, luma: yp) }
                    }
                }
            }
        }
    }

    @Test(arguments: [(1, 1), (1, 5), (6, 1), (2, 2), (3, 7), (17, 9), (9, 30), (64, 48), (256, 341), (341, 256)])
    func rowByRowEqualsThePassesOverTheWholeImage(size: (Int, Int)) {
        let (w, h) = size
        let p = Texture2RowFeaturesTests.planes(width: w, height: h, seed: UInt64(w * 104_729 + h))
        let features = Texture2BandFeatures(width: w, height: h)
        Self.feed(features, p)
        var streamed: [Double] = [], whole: [Double] = []
        features.bandPass(into: &streamed)
        features.crossChannel(into: &streamed)
        let cb = (0..<(w * h)).map { p.b[$0] - p.y[$0] }, cr = (0..<(w * h)).map { p.r[$0] - p.y[$0] }
        WholeImage.bandPass(p.y, cb, cr, width: w, height: h, into: &whole)
        WholeImage.crossChannel(p.r, p.g, p.b, width: w, height: h, into: &whole)
        #expect(streamed.count == 15 && whole.count == 15)
        for (i, (s, o)) in zip(streamed, whole).enumerated() where s.bitPattern != o.bitPattern {
            Issue.record("\(w) x \(h) value \(i): \(s) row by row, \(o) over the whole image")
        }
    }

    /// Each running box's output rows are the box filter over the whole plane, bit for
    /// bit, every row read while it is still in the ring, and the mean of the `k x k`
    /// window with half-sample symmetric reflection (`x[-1] = x[0]`, `x[n] = x[n - 1]`)
    /// summed here directly: every small size, so the four-row horizontal pass meets
    /// every remainder (height 1 to 9) and the reflection windows wider than the image.
    @Test func runningBoxIsTheWindowMean() {
        func reflect(_ i: Int, _ n: Int) -> Int {
            var i = i
            while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
            return i
        }
        for w in 1...9 {
            for h in Array(1...9) + [17, 40] {
                let x = (0..<(w * h)).map { Float(($0 * 37 + 11) % 251) }
                for k in [3, 5, 9, 17] {
                    let whole = WholeImage.box(x, width: w, height: h, size: k)
                    let box = RunningBox(width: w, height: h, size: k)
                    var streamed = [Float](repeating: -1, count: w * h)
                    x.withUnsafeBufferPointer { source in
                        for rows in 1...h {
                            box.addRows(source, upTo: rows)
                            while box.consumed < box.produced {
                                let i = box.consumed
                                let row = box.outputRow(i)
                                for j in 0..<w { streamed[i * w + j] = row[j] }
                                box.consumed += 1
                            }
                        }
                    }
                    #expect(box.produced == h)
                    #expect(streamed.map(\.bitPattern) == whole.map(\.bitPattern), "w \(w) h \(h) k \(k)")
                    let r = k / 2
                    var worst: Float = 0
                    for i in 0..<h {
                        for j in 0..<w {
                            var sum = 0.0
                            for di in -r...r {
                                for dj in -r...r { sum += Double(x[reflect(i + di, h) * w + reflect(j + dj, w)]) }
                            }
                            worst = Swift.max(worst, abs(streamed[i * w + j] - Float(sum / Double(k * k))))
                        }
                    }
                    // Two roundings to Float (after each pass) of values up to 250.
                    #expect(worst < 1e-4, "w \(w) h \(h) k \(k): off by \(worst)")
                }
            }
        }
        // By hand: a 1 x 3 row (0, 3, 6), k = 3: windows (0, 0, 3), (0, 3, 6), (3, 6, 6).
        let box = RunningBox(width: 3, height: 1, size: 3)
        [Float]([0, 3, 6]).withUnsafeBufferPointer { box.addRows($0, upTo: 1) }
        let row = box.outputRow(0)
        #expect([row[0], row[1], row[2]] == [1, 3, 5])
    }

    /// The analysis image's band groups, accumulated while it was written, equal a fresh
    /// accumulator fed its finished planes, and `describe` reads them.
    @Test func whileWritingEqualsAfterwards() {
        let image = ArtifactV2Tests.noise(width: 800, height: 600, period: 24, depth: 0.2)
        image.withRows { rows in
            let analysis = Texture2AnalysisImage(rows)
            let afterwards = Texture2BandFeatures(width: analysis.width, height: analysis.height)
            Self.feed(afterwards, (analysis.red, analysis.green, analysis.blue, analysis.luma))
            func groups(_ features: Texture2BandFeatures) -> [Double] {
                var values: [Double] = []
                features.bandPass(into: &values)
                features.crossChannel(into: &values)
                return values
            }
            let values = Texture2Features.describe(analysis).values
            #expect(groups(analysis.bandFeatures) == groups(afterwards))
            #expect(Array(values[15..<30]) == groups(afterwards))
        }
    }

    /// Groups 3 and 4 as passes over the finished analysis image: the code of
    /// `Texture2Features` until 2026-12-07, kept here as the reference.
    enum WholeImage {
        /// `box_k` of `x` (k odd), half-sample symmetric borders, separable running sums
        /// (rows, then columns with one running sum per column, swept row by row so memory is
        /// read in order).
        static func box(_ x: [Float], width w: Int, height h: Int, size k: Int) -> [Float] {
            var out = [Float](repeating: 0, count: x.count), rows = out
            var sums = [Double](repeating: 0, count: w)
            box(x, width: w, height: h, size: k, into: &out, rows: &rows, sums: &sums)
            return out
        }

        /// `box(_:width:height:size:)` into `out` with caller-owned scratch buffers (`rows`:
        /// `x.count` values, `sums`: `w` values), so repeated filtering allocates nothing.
        ///
        /// Sums are `Double` and each output the sum times `1 / k` (rounded to `Float`). The
        /// horizontal pass runs four rows at once (four independent running sums, the same
        /// additions in the same order per row) and the vertical pass one running sum per
        /// column, so both keep the cores' pipelines full without changing what is summed.
        static func box(
            _ x: [Float], width w: Int, height h: Int, size k: Int, into out: inout [Float], rows: inout [Float],
            sums: inout [Double]
        ) {
            let radius = k / 2
            @inline(__always) func reflect(_ i: Int, _ n: Int) -> Int {
                var i = i
                while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
                return i
            }
            let inverse = 1 / Double(k)
            x.withUnsafeBufferPointer { src in
                rows.withUnsafeMutableBufferPointer { dst in
                    var i = 0
                    while i < h {
                        // Rows i..<i + 4; past the last row a lane repeats it (the same values
                        // written twice).
                        let last = h - 1
                        let b0 = i * w, b1 = Swift.min(i + 1, last) * w
                        let b2 = Swift.min(i + 2, last) * w, b3 = Swift.min(i + 3, last) * w
                        var s = SIMD4<Double>(repeating: 0)
                        for d in -radius...radius {
                            let c = reflect(d, w)
                            s += SIMD4(
                                Double(src[b0 + c]), Double(src[b1 + c]), Double(src[b2 + c]), Double(src[b3 + c]))
                        }
                        var o = s * inverse
                        dst[b0] = Float(o[0])
                        dst[b1] = Float(o[1])
                        dst[b2] = Float(o[2])
                        dst[b3] = Float(o[3])
                        if w > 1 {
                            for j in 1..<w {
                                let add = j + radius, drop = j - radius - 1
                                let a = add < w ? add : reflect(add, w), r = drop >= 0 ? drop : reflect(drop, w)
                                let entering = SIMD4(
                                    Double(src[b0 &+ a]), Double(src[b1 &+ a]), Double(src[b2 &+ a]),
                                    Double(src[b3 &+ a]))
                                let leaving = SIMD4(
                                    Double(src[b0 &+ r]), Double(src[b1 &+ r]), Double(src[b2 &+ r]),
                                    Double(src[b3 &+ r]))
                                s += entering - leaving
                                o = s * inverse
                                dst[b0 &+ j] = Float(o[0])
                                dst[b1 &+ j] = Float(o[1])
                                dst[b2 &+ j] = Float(o[2])
                                dst[b3 &+ j] = Float(o[3])
                            }
                        }
                        i += 4
                    }
                }
            }
            rows.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    sums.withUnsafeMutableBufferPointer { acc in
                        guard let source = src.baseAddress, let target = dst.baseAddress, let column = acc.baseAddress
                        else { return }
                        for j in 0..<w { column[j] = 0 }
                        for d in -radius...radius {
                            let row = source + reflect(d, h) * w
                            for j in 0..<w { column[j] += Double(row[j]) }
                        }
                        for j in 0..<w { target[j] = Float(column[j] * inverse) }
                        if h > 1 {
                            for i in 1..<h {
                                let add = i + radius, drop = i - radius - 1
                                let a = source + (add < h ? add : reflect(add, h)) * w
                                let r = source + (drop >= 0 ? drop : reflect(drop, h)) * w
                                let o = target + i * w
                                for j in 0..<w {
                                    column[j] += Double(a[j]) - Double(r[j])
                                    o[j] = Float(column[j] * inverse)
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Group 3.
        static func bandPass(
            _ y: [Float], _ cb: [Float], _ cr: [Float], width w: Int, height h: Int, into values: inout [Double]
        ) {
            let count = y.count
            var previous = (y, cb, cr)
            var blurred = (
                [Float](repeating: 0, count: count), [Float](repeating: 0, count: count),
                [Float](repeating: 0, count: count)
            )
            var rows = [Float](repeating: 0, count: count)
            var sums = [Double](repeating: 0, count: w)
            let n = Double(count)
            for level in 0..<4 {
                let k = (1 << (level + 1)) + 1
                box(y, width: w, height: h, size: k, into: &blurred.0, rows: &rows, sums: &sums)
                box(cb, width: w, height: h, size: k, into: &blurred.1, rows: &rows, sums: &sums)
                box(cr, width: w, height: h, size: k, into: &blurred.2, rows: &rows, sums: &sums)
                var eY = 0.0, eY4 = 0.0, eC = 0.0
                withPointers(previous.0, previous.1, previous.2) { py, pb, pr in
                    withPointers(blurred.0, blurred.1, blurred.2) { by, bb, br in
                        for p in 0..<count {
                            let d = Double(py[p] - by[p])
                            let d2 = d * d
                            eY += d2
                            eY4 += d2 * d2
                            let dCb = Double(pb[p] - bb[p]), dCr = Double(pr[p] - br[p])
                            eC += dCb * dCb + dCr * dCr
                        }
                    }
                }
                let energyY = eY / n + 1e-3, energyC = eC / n + 1e-3
                values.append(log(energyY))
                values.append(log(energyC / energyY))
                values.append(log(eY4 / n / (energyY * energyY) + 1e-6))
                swap(&previous, &blurred)
            }
        }

        /// Runs `body` with three equally long planes as buffer pointers (in release builds
        /// their subscripts are not bounds-checked, unlike the arrays' in the per-pixel loops).
        @inline(__always) static func withPointers<R>(
            _ a: [Float], _ b: [Float], _ c: [Float],
            _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>) -> R
        ) -> R {
            precondition(a.count == b.count && b.count == c.count, "Texture2Features: planes differ in size")
            return a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in c.withUnsafeBufferPointer { pc in body(pa, pb, pc) } }
            }
        }

        /// Group 4.
        static func crossChannel(
            _ r: [Float], _ g: [Float], _ b: [Float], width w: Int, height h: Int, into values: inout [Double]
        ) {
            let br = box(r, width: w, height: h, size: 3), bg = box(g, width: w, height: h, size: 3)
            let bb = box(b, width: w, height: h, size: 3)
            var rr = 0.0, gg = 0.0, bbs = 0.0, rg = 0.0, gb = 0.0, rb = 0.0
            let n = r.count
            withPointers(r, g, b) { r, g, b in
                withPointers(br, bg, bb) { br, bg, bb in
                    for p in 0..<n {
                        let hr = Double(r[p] - br[p]), hg = Double(g[p] - bg[p]), hb = Double(b[p] - bb[p])
                        rr += hr * hr
                        gg += hg * hg
                        bbs += hb * hb
                        rg += hr * hg
                        gb += hg * hb
                        rb += hr * hb
                    }
                }
            }
            values.append(rg / (rr * gg + 1e-9).squareRoot())
            values.append(gb / (gg * bbs + 1e-9).squareRoot())
            values.append(rb / (rr * bbs + 1e-9).squareRoot())
        }

    }
}
