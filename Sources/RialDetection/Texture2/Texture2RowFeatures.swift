import Foundation

/// Groups 1, 2 and 5-7 of `Texture2Features` (tone, colour, gradients, local binary
/// patterns), accumulated one analysis row at a time as `Texture2AnalysisImage` writes
/// the rows, so that a photo still decoding has them before its last row instead of after
/// it (docs/end-to-end-latency.md). A row's gradients and patterns need the row below, so
/// they follow one row behind; the last row closes them.
///
/// Every sum and count is added in the order a pass over the finished image adds it
/// (rows top to bottom, left to right), so the values do not depend on when rows arrive.
/// `Texture2AnalysisImage` feeds it every row it writes, streamed or in memory alike.
///
/// - Complexity: O(width) per row; no per-row allocation.
final class Texture2RowFeatures {
    let width: Int
    let height: Int
    private(set) var rowsAdded = 0
    // Group 1.
    private var fine = [Int](repeating: 0, count: 1024), coarse = [Int](repeating: 0, count: 32)
    private var bright = 0, dark = 0, lumaSum = 0.0, lumaSquares = 0.0
    // Group 2.
    private var saturationHistogram = [Int](repeating: 0, count: 1024)
    private var saturationSum = 0.0, glare = 0
    private var rgSum = 0.0, rgSquares = 0.0, ybSum = 0.0, ybSquares = 0.0, cbSum = 0.0, crSum = 0.0
    // Groups 5 and 6.
    private var gradientX = 0.0, gradientY = 0.0, edges = 0
    private var orientation = [Double](repeating: 0, count: 8)
    private var tileSum = [Double](repeating: 0, count: 16), tileCount = [Int](repeating: 0, count: 16)
    private let tileColumn: [Int]
    // Group 7.
    private var patterns = [Int](repeating: 0, count: 10)

    init(width w: Int, height h: Int) {
        precondition(w > 0 && h > 0, "Texture2RowFeatures: empty image")
        width = w
        height = h
        tileColumn = (0..<w).map { Swift.min(3, ($0 * 4) / w) }
    }

    /// Adds row `rowsAdded` of the analysis planes (each `width x height`, rows up to
    /// this one written), and closes the gradients and patterns of the row above it
    /// (and of this one when it is the last).
    func addRow(
        red: UnsafeBufferPointer<Float>, green: UnsafeBufferPointer<Float>, blue: UnsafeBufferPointer<Float>,
        luma: UnsafeBufferPointer<Float>
    ) {
        let i = rowsAdded
        precondition(i < height, "Texture2RowFeatures: every row is in")
        addTone(luma, row: i)
        addColour(red, green, blue, luma, row: i)
        rowsAdded = i + 1
        if i > 0 { addNeighbourhoods(luma, row: i - 1) }
        if i == height - 1 { addNeighbourhoods(luma, row: i) }
    }

    private func addTone(_ y: UnsafeBufferPointer<Float>, row i: Int) {
        var hi = bright, lo = dark, sum = lumaSum, sum2 = lumaSquares
        fine.withUnsafeMutableBufferPointer { fine in
            coarse.withUnsafeMutableBufferPointer { coarse in
                for p in (i * width)..<((i + 1) * width) {
                    let v = y[p]
                    fine[Swift.min(1023, Swift.max(0, Int(v * 4)))] += 1
                    coarse[Swift.min(31, Swift.max(0, Int(v / 8)))] += 1
                    if v > 250 { hi += 1 }
                    if v < 5 { lo += 1 }
                    sum += Double(v)
                    sum2 += Double(v) * Double(v)
                }
            }
        }
        bright = hi
        dark = lo
        lumaSum = sum
        lumaSquares = sum2
    }

    private func addColour(
        _ r: UnsafeBufferPointer<Float>, _ g: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>,
        _ y: UnsafeBufferPointer<Float>, row i: Int
    ) {
        var satSum = saturationSum, glareCount = glare
        var rgS = rgSum, rgS2 = rgSquares, ybS = ybSum, ybS2 = ybSquares, cbS = cbSum, crS = crSum
        saturationHistogram.withUnsafeMutableBufferPointer { histogram in
            for p in (i * width)..<((i + 1) * width) {
                let mx = Swift.max(r[p], g[p], b[p]), mn = Swift.min(r[p], g[p], b[p])
                let sat = (mx - mn) / (mx + 1)
                satSum += Double(sat)
                histogram[Swift.min(1023, Swift.max(0, Int(sat * 1024)))] += 1
                if y[p] > 235 && sat < 0.1 { glareCount += 1 }
                let rg = Double(r[p] - g[p]), yb = Double(0.5 * (r[p] + g[p]) - b[p])
                rgS += rg
                rgS2 += rg * rg
                ybS += yb
                ybS2 += yb * yb
                cbS += Double(b[p] - y[p])
                crS += Double(r[p] - y[p])
            }
        }
        saturationSum = satSum
        glare = glareCount
        rgSum = rgS
        rgSquares = rgS2
        ybSum = ybS
        ybSquares = ybS2
        cbSum = cbS
        crSum = crS
    }

    /// Gradients (central differences, 0 on the border) and the uniform rotation-invariant
    /// local binary pattern (threshold 2 levels, the nearest inside pixel beyond the
    /// border) of row `i`, which needs rows `i - 1` and `i + 1`.
    private func addNeighbourhoods(_ y: UnsafeBufferPointer<Float>, row i: Int) {
        let w = width, h = height
        var sx = gradientX, sy = gradientY, edgeCount = edges
        let tileRow = Swift.min(3, (i * 4) / h)
        let row = i * w
        let inner = i > 0 && i < h - 1
        let up = Swift.max(0, i - 1) * w, down = Swift.min(h - 1, i + 1) * w
        orientation.withUnsafeMutableBufferPointer { orientation in
            tileSum.withUnsafeMutableBufferPointer { tileSum in
                tileCount.withUnsafeMutableBufferPointer { tileCount in
                    tileColumn.withUnsafeBufferPointer { tileColumn in
                        for j in 0..<w {
                            let p = row + j
                            let gx: Double = j > 0 && j < w - 1 ? Double(y[p + 1] - y[p - 1]) / 2 : 0
                            let gy: Double = inner ? Double(y[p + w] - y[p - w]) / 2 : 0
                            let g2 = gx * gx + gy * gy
                            sx += gx * gx
                            sy += gy * gy
                            if g2 > 400 { edgeCount += 1 }
                            if g2 > 0 { orientation[Texture2Features.orientationBin(gx, gy)] += g2 }
                            let tile = tileRow * 4 + tileColumn[j]
                            tileSum[tile] += g2
                            tileCount[tile] += 1
                        }
                    }
                }
            }
        }
        gradientX = sx
        gradientY = sy
        edges = edgeCount
        // Neighbours in circular order (dy, dx): (0, 1), (1, 1), (1, 0), (1, -1), (0, -1),
        // (-1, -1), (-1, 0), (-1, 1).
        patterns.withUnsafeMutableBufferPointer { histogram in
            for j in 0..<w {
                let left = Swift.max(0, j - 1), right = Swift.min(w - 1, j + 1)
                let c = y[row + j]
                var pattern = 0
                if y[row + right] - c > 2 { pattern |= 1 }
                if y[down + right] - c > 2 { pattern |= 2 }
                if y[down + j] - c > 2 { pattern |= 4 }
                if y[down + left] - c > 2 { pattern |= 8 }
                if y[row + left] - c > 2 { pattern |= 16 }
                if y[up + left] - c > 2 { pattern |= 32 }
                if y[up + j] - c > 2 { pattern |= 64 }
                if y[up + right] - c > 2 { pattern |= 128 }
                histogram[Int(TextureFeatures.riu2Code[pattern])] += 1
            }
        }
    }

    /// Whether every row is in (and closed).
    var isComplete: Bool { rowsAdded == height }

    /// Group 1; returns the luma standard deviation. - Precondition: `isComplete`.
    func tone(into values: inout [Double]) -> Double {
        precondition(isComplete, "Texture2RowFeatures: rows missing")
        let n = width * height
        let p = [0.005, 0.05, 0.5, 0.95, 0.995].map {
            Texture2Features.percentile(fine, total: n, q: $0, top: 256) / 255
        }
        values += p
        values.append(p[4] - p[0])
        values.append(Double(bright) / Double(n))
        values.append(Double(dark) / Double(n))
        var entropy = 0.0
        for c in coarse where c > 0 {
            let share = Double(c) / Double(n)
            entropy -= share * log(share)
        }
        values.append(entropy)
        let mean = lumaSum / Double(n)
        return Swift.max(0, lumaSquares / Double(n) - mean * mean).squareRoot()
    }

    /// Group 2. - Precondition: `isComplete`.
    func colour(into values: inout [Double]) {
        precondition(isComplete, "Texture2RowFeatures: rows missing")
        let n = width * height
        let count = Double(n)
        let rgMean = rgSum / count, ybMean = ybSum / count
        let rgVar = Swift.max(0, rgSquares / count - rgMean * rgMean)
        let ybVar = Swift.max(0, ybSquares / count - ybMean * ybMean)
        values.append(saturationSum / count)
        values.append(Texture2Features.percentile(saturationHistogram, total: n, q: 0.95, top: 1))
        values.append(((rgVar + ybVar).squareRoot() + 0.3 * (rgMean * rgMean + ybMean * ybMean).squareRoot()) / 255)
        values.append(cbSum / count / 255)
        values.append(crSum / count / 255)
        values.append(Double(glare) / count)
    }

    /// Groups 5 and 6. - Precondition: `isComplete`.
    func gradients(into values: inout [Double]) {
        precondition(isComplete, "Texture2RowFeatures: rows missing")
        let n = Double(width * height), total = gradientX + gradientY
        values.append(log(total / n + 1e-3))
        values.append(log((gradientX + 1) / (gradientY + 1)))
        let shares = orientation.map { $0 / (total + 1e-6) }
        values.append(shares[0] + shares[4])
        values.append(-shares.reduce(0) { $1 > 0 ? $0 + $1 * log($1) : $0 })
        values.append(Double(edges) / n)
        let tiles = (0..<16).map { log(tileSum[$0] / Double(Swift.max(1, tileCount[$0])) + 1e-2) }
        let mean = tiles.reduce(0, +) / 16
        values.append((tiles.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 16).squareRoot())
        values.append((tiles.max() ?? 0) - (tiles.min() ?? 0))
    }

    /// Group 7. - Precondition: `isComplete`.
    func localBinaryPatterns(into values: inout [Double]) {
        precondition(isComplete, "Texture2RowFeatures: rows missing")
        for c in patterns { values.append(Double(c) / Double(width * height)) }
    }
}
