import Foundation

/// Groups 3 and 4 of `Texture2Features` (band-pass residuals of luma and chroma at four
/// scales, cross-channel residual correlations), accumulated one analysis row at a time
/// as `Texture2AnalysisImage` writes the rows, as `Texture2RowFeatures` does for the other
/// groups: a photo still decoding then has them a few rows after its last row instead of
/// after a pass of fifteen box filters over the finished image
/// (docs/end-to-end-latency.md).
///
/// Each `box_k` (`RunningBox`) runs its horizontal pass four rows at a time as they
/// arrive and its vertical running sums as soon as the rows an output row reaches
/// (`k / 2` below it) are in; each residual energy is added as soon as both planes it
/// compares have the row. Every sum is added in the order the passes over the finished
/// image (fifteen whole-plane box filters, then the energies pixel by pixel: the code
/// until 2026-12-07, kept in `Texture2BandFeaturesTests` as the reference) add it, so the
/// values do not depend on when rows arrive. Rows are kept in rings of `k + 7` rows, not
/// whole planes.
///
/// - Complexity: O(width) per row per filter; no per-row allocation.
final class Texture2BandFeatures {
    let width: Int
    let height: Int
    private(set) var rowsAdded = 0
    /// `Cb = B - Y`, `Cr = R - Y`, written with each row (level 0 compares them with
    /// their blur).
    private var cb: [Float], cr: [Float]
    /// `box_{k_L}` of Y, Cb, Cr at `levels[L * 3 + c]`; then `box_3` of R, G, B.
    private let boxes: [RunningBox]
    private static let levels = 4
    // Group 3, per level.
    private var lumaEnergy = [Double](repeating: 0, count: levels)
    private var lumaFourth = [Double](repeating: 0, count: levels)
    private var chromaEnergy = [Double](repeating: 0, count: levels)
    // Group 4.
    private var rr = 0.0, gg = 0.0, bb = 0.0, rg = 0.0, gb = 0.0, rb = 0.0

    init(width w: Int, height h: Int) {
        precondition(w > 0 && h > 0, "Texture2BandFeatures: empty image")
        width = w
        height = h
        cb = [Float](repeating: 0, count: w * h)
        cr = cb
        var boxes: [RunningBox] = []
        for level in 0..<Self.levels {
            let k = (1 << (level + 1)) + 1
            for _ in 0..<3 { boxes.append(RunningBox(width: w, height: h, size: k)) }
        }
        for _ in 0..<3 { boxes.append(RunningBox(width: w, height: h, size: 3)) }
        self.boxes = boxes
    }

    /// Adds row `rowsAdded` of the analysis planes (each `width x height`, rows up to
    /// this one written).
    func addRow(
        red: UnsafeBufferPointer<Float>, green: UnsafeBufferPointer<Float>, blue: UnsafeBufferPointer<Float>,
        luma: UnsafeBufferPointer<Float>
    ) {
        let i = rowsAdded, w = width
        precondition(i < height, "Texture2BandFeatures: every row is in")
        cb.withUnsafeMutableBufferPointer { cb in
            cr.withUnsafeMutableBufferPointer { cr in
                for p in (i * w)..<((i + 1) * w) {
                    cb[p] = blue[p] - luma[p]
                    cr[p] = red[p] - luma[p]
                }
            }
        }
        rowsAdded = i + 1
        cb.withUnsafeBufferPointer { cb in
            cr.withUnsafeBufferPointer { cr in
                for index in boxes.indices {
                    let source: UnsafeBufferPointer<Float>
                    switch index < 3 * Self.levels ? index % 3 : 3 + index - 3 * Self.levels {
                    case 0: source = luma
                    case 1: source = cb
                    case 2: source = cr
                    case 3: source = red
                    case 4: source = green
                    default: source = blue
                    }
                    boxes[index].addRows(source, upTo: rowsAdded)
                }
                addEnergies(luma: luma, cb: cb, cr: cr)
                addCrossChannel(red: red, green: green, blue: blue)
            }
        }
    }

    /// Level `L`'s energies of every row both `b_{L-1}` and `b_L` have produced.
    private func addEnergies(
        luma: UnsafeBufferPointer<Float>, cb: UnsafeBufferPointer<Float>, cr: UnsafeBufferPointer<Float>
    ) {
        let w = width
        for level in 0..<Self.levels {
            let current = level * 3
            let blurY = boxes[current], blurCb = boxes[current + 1], blurCr = boxes[current + 2]
            var eY = lumaEnergy[level], eY4 = lumaFourth[level], eC = chromaEnergy[level]
            while blurY.consumed < blurY.produced {
                let i = blurY.consumed
                let by = blurY.outputRow(i), bb = blurCb.outputRow(i), br = blurCr.outputRow(i)
                // Level 0 compares the planes with their blur, level L > 0 the blur of level L - 1.
                let py: UnsafePointer<Float>, pb: UnsafePointer<Float>, pr: UnsafePointer<Float>
                if level == 0 {
                    (py, pb, pr) = (luma.baseAddress! + i * w, cb.baseAddress! + i * w, cr.baseAddress! + i * w)
                } else {
                    let previous = current - 3
                    py = boxes[previous].outputRow(i)
                    pb = boxes[previous + 1].outputRow(i)
                    pr = boxes[previous + 2].outputRow(i)
                }
                for x in 0..<w {
                    let d = Double(py[x] - by[x])
                    let d2 = d * d
                    eY += d2
                    eY4 += d2 * d2
                    let dCb = Double(pb[x] - bb[x]), dCr = Double(pr[x] - br[x])
                    eC += dCb * dCb + dCr * dCr
                }
                for c in current..<(current + 3) { boxes[c].consumed = i + 1 }
            }
            lumaEnergy[level] = eY
            lumaFourth[level] = eY4
            chromaEnergy[level] = eC
        }
    }

    /// The cross-channel sums of every row the three `box_3` filters have produced.
    private func addCrossChannel(
        red: UnsafeBufferPointer<Float>, green: UnsafeBufferPointer<Float>, blue: UnsafeBufferPointer<Float>
    ) {
        let w = width, first = 3 * Self.levels
        var srr = rr, sgg = gg, sbb = bb, srg = rg, sgb = gb, srb = rb
        while boxes[first].consumed < boxes[first].produced {
            let i = boxes[first].consumed
            let r = red.baseAddress! + i * w, g = green.baseAddress! + i * w, b = blue.baseAddress! + i * w
            let br = boxes[first].outputRow(i), bg = boxes[first + 1].outputRow(i), bb = boxes[first + 2].outputRow(i)
            for x in 0..<w {
                let hr = Double(r[x] - br[x]), hg = Double(g[x] - bg[x]), hb = Double(b[x] - bb[x])
                srr += hr * hr
                sgg += hg * hg
                sbb += hb * hb
                srg += hr * hg
                sgb += hg * hb
                srb += hr * hb
            }
            for c in first..<(first + 3) { boxes[c].consumed = i + 1 }
        }
        (rr, gg, bb, rg, gb, rb) = (srr, sgg, sbb, srg, sgb, srb)
    }

    /// Group 3 (12 values), once every row is in.
    func bandPass(into values: inout [Double]) {
        precondition(rowsAdded == height, "Texture2BandFeatures: rows are missing")
        let n = Double(width * height)
        for level in 0..<Self.levels {
            let energyY = lumaEnergy[level] / n + 1e-3, energyC = chromaEnergy[level] / n + 1e-3
            values.append(log(energyY))
            values.append(log(energyC / energyY))
            values.append(log(lumaFourth[level] / n / (energyY * energyY) + 1e-6))
        }
    }

    /// Group 4 (3 values), once every row is in.
    func crossChannel(into values: inout [Double]) {
        precondition(rowsAdded == height, "Texture2BandFeatures: rows are missing")
        values.append(rg / (rr * gg + 1e-9).squareRoot())
        values.append(gb / (gg * bb + 1e-9).squareRoot())
        values.append(rb / (rr * bb + 1e-9).squareRoot())
    }
}

/// `box_k` of `Texture2Features` (k x k mean, half-sample symmetric borders, `Double`
/// running sums, each output the sum times `1 / k` rounded to `Float`) over rows as they
/// arrive: the horizontal pass on four rows at a time (the last rows with the lanes past
/// the last row repeating it, as the whole-plane filter did), the vertical pass one
/// output row at a time as soon as its rows are in. Horizontal rows and output rows are
/// kept in rings of `k + 7` rows: an output row reads horizontal rows at most `k / 2 + 1`
/// above and `k / 2` (plus one pending batch) below it, and is read by the next level
/// within `k / 2` rows after it is produced.
final class RunningBox {
    let width: Int
    let height: Int
    let radius: Int
    private let inverse: Double
    private let ring: Int
    /// `ring` horizontal rows, `ring` output rows and one row of `Double` column sums, in
    /// allocations of their own that live as long as the filter, so a row can be lent as
    /// a plain pointer (`outputRow`).
    private let horizontal: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<Float>
    private let column: UnsafeMutablePointer<Double>
    /// Source rows whose horizontal pass is done.
    private var passed = 0
    /// Output rows `0..<produced` are computed (the ring holds the last `ring` of them).
    private(set) var produced = 0
    /// Output rows the caller has used (it advances this itself).
    var consumed = 0

    init(width w: Int, height h: Int, size k: Int) {
        width = w
        height = h
        radius = k / 2
        inverse = 1 / Double(k)
        ring = k + 7
        horizontal = .allocate(capacity: ring * w)
        horizontal.initialize(repeating: 0, count: ring * w)
        output = .allocate(capacity: ring * w)
        output.initialize(repeating: 0, count: ring * w)
        column = .allocate(capacity: w)
        column.initialize(repeating: 0, count: w)
    }

    deinit {
        horizontal.deallocate()
        output.deallocate()
        column.deallocate()
    }

    @inline(__always) private static func reflect(_ i: Int, _ n: Int) -> Int {
        var i = i
        while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
        return i
    }

    /// Source rows `0..<rows` of `source` (a `width x height` plane) are written: runs
    /// the passes they allow.
    func addRows(_ source: UnsafeBufferPointer<Float>, upTo rows: Int) {
        precondition(rows <= height, "RunningBox: more rows than the plane has")
        repeat {
            while produced < height && passed >= Swift.min(height, produced + radius + 1) {
                passVertically(row: produced)
                produced += 1
            }
            guard passed + 4 <= rows || (rows == height && passed < rows) else { return }
            passHorizontally(source, from: passed)
            passed = Swift.min(height, passed + 4)
        } while true
    }

    /// Output row `i` (`width` values), valid until `ring - 1` more rows are produced
    /// (the caller reads it before it adds the next row).
    func outputRow(_ i: Int) -> UnsafePointer<Float> {
        precondition(i < produced && i + ring > produced, "RunningBox: row \(i) is not in the ring")
        return UnsafePointer(output + (i % ring) * width)
    }

    /// Rows `first..<first + 4` (those past the last row repeat it) into the ring.
    private func passHorizontally(_ src: UnsafeBufferPointer<Float>, from first: Int) {
        let w = width, r = radius, ring = ring, inverse = inverse
        let last = height - 1
        let rowsIn = (first, Swift.min(first + 1, last), Swift.min(first + 2, last), Swift.min(first + 3, last))
        let b0 = rowsIn.0 * w, b1 = rowsIn.1 * w, b2 = rowsIn.2 * w, b3 = rowsIn.3 * w
        let o0 = (rowsIn.0 % ring) * w, o1 = (rowsIn.1 % ring) * w
        let o2 = (rowsIn.2 % ring) * w, o3 = (rowsIn.3 % ring) * w
        let dst = horizontal
        var s = SIMD4<Double>(repeating: 0)
        for d in -r...r {
            let c = Self.reflect(d, w)
            s += SIMD4(Double(src[b0 + c]), Double(src[b1 + c]), Double(src[b2 + c]), Double(src[b3 + c]))
        }
        var o = s * inverse
        dst[o0] = Float(o[0])
        dst[o1] = Float(o[1])
        dst[o2] = Float(o[2])
        dst[o3] = Float(o[3])
        guard w > 1 else { return }
        for j in 1..<w {
            let add = j + r, drop = j - r - 1
            let a = add < w ? add : Self.reflect(add, w), q = drop >= 0 ? drop : Self.reflect(drop, w)
            let entering = SIMD4(
                Double(src[b0 &+ a]), Double(src[b1 &+ a]), Double(src[b2 &+ a]), Double(src[b3 &+ a]))
            let leaving = SIMD4(
                Double(src[b0 &+ q]), Double(src[b1 &+ q]), Double(src[b2 &+ q]), Double(src[b3 &+ q]))
            s += entering - leaving
            o = s * inverse
            dst[o0 &+ j] = Float(o[0])
            dst[o1 &+ j] = Float(o[1])
            dst[o2 &+ j] = Float(o[2])
            dst[o3 &+ j] = Float(o[3])
        }
    }

    /// Output row `i` from the horizontal rows in the ring.
    private func passVertically(row i: Int) {
        let w = width, h = height, r = radius, ring = ring, inverse = inverse
        let source = horizontal, column = column, target = output + (i % ring) * w
        if i == 0 {
            for j in 0..<w { column[j] = 0 }
            for d in -r...r {
                let row = source + (Self.reflect(d, h) % ring) * w
                for j in 0..<w { column[j] += Double(row[j]) }
            }
            for j in 0..<w { target[j] = Float(column[j] * inverse) }
        } else {
            let add = i + r, drop = i - r - 1
            let a = source + ((add < h ? add : Self.reflect(add, h)) % ring) * w
            let q = source + ((drop >= 0 ? drop : Self.reflect(drop, h)) % ring) * w
            for j in 0..<w {
                column[j] += Double(a[j]) - Double(q[j])
                target[j] = Float(column[j] * inverse)
            }
        }
    }
}
