import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// texture/2's tone, colour, gradient and pattern groups accumulated one analysis row at a
/// time (`Texture2RowFeatures`), which lets them run while the photo decodes: the same
/// values to the last bit as the passes over the finished image (`WholeImage`, the code
/// the texture methods ran until 2026-11-28), on images of several sizes, and the same
/// whether the rows were fed while the analysis image was written or afterwards.
@Suite struct Texture2RowFeaturesTests {
    static func planes(width w: Int, height h: Int, seed: UInt64) -> (r: [Float], g: [Float], b: [Float], y: [Float]) {
        var rng = SplitMix64(seed: seed)
        func plane() -> [Float] { (0..<(w * h)).map { _ in Float(rng.next() % 1021) / 4 } }
        let r = plane(), g = plane(), b = plane()
        let y = (0..<(w * h)).map { 0.299 * r[$0] + 0.587 * g[$0] + 0.114 * b[$0] }
        return (r, g, b, y)
    }

    @Test(arguments: [(1, 1), (1, 5), (6, 1), (2, 2), (17, 9), (64, 48), (341, 256)])
    func rowByRowEqualsThePassesOverTheWholeImage(size: (Int, Int)) {
        let (w, h) = size
        let (r, g, b, y) = Self.planes(width: w, height: h, seed: UInt64(w * 7919 + h))
        let features = Texture2RowFeatures(width: w, height: h)
        r.withUnsafeBufferPointer { rp in
            g.withUnsafeBufferPointer { gp in
                b.withUnsafeBufferPointer { bp in
                    y.withUnsafeBufferPointer { yp in
                        for _ in 0..<h { features.addRow(red: rp, green: gp, blue: bp, luma: yp) }
                    }
                }
            }
        }
        #expect(features.isComplete)
        var streamed: [Double] = [], whole: [Double] = []
        let std = features.tone(into: &streamed)
        features.colour(into: &streamed)
        features.gradients(into: &streamed)
        features.localBinaryPatterns(into: &streamed)
        let cb = (0..<(w * h)).map { b[$0] - y[$0] }, cr = (0..<(w * h)).map { r[$0] - y[$0] }
        let wholeStd = WholeImage.tone(y, into: &whole)
        WholeImage.colour(r, g, b, y, cb, cr, into: &whole)
        WholeImage.gradients(y, width: w, height: h, into: &whole)
        WholeImage.localBinaryPatterns(y, width: w, height: h, into: &whole)
        #expect(std == wholeStd)
        #expect(streamed.count == whole.count)
        for (i, (s, o)) in zip(streamed, whole).enumerated() where !(s == o || (s.isNaN && o.isNaN)) {
            Issue.record("value \(i): \(s) row by row, \(o) over the whole image")
        }
    }

    /// The groups the analysis image accumulated while its rows were written equal those
    /// of its finished planes fed afterwards (every row was complete when it was added),
    /// and describing the rows equals describing the image.
    @Test func whileWritingEqualsAfterwards() {
        let image = ArtifactV2Tests.noise(width: 800, height: 600, period: 24, depth: 0.2)
        image.withRows { rows in
            let analysis = Texture2AnalysisImage(rows)
            #expect(analysis.width == 341 && analysis.height == 256)
            let afterwards = Texture2RowFeatures(width: analysis.width, height: analysis.height)
            analysis.red.withUnsafeBufferPointer { r in
                analysis.green.withUnsafeBufferPointer { g in
                    analysis.blue.withUnsafeBufferPointer { b in
                        analysis.luma.withUnsafeBufferPointer { y in
                            for _ in 0..<analysis.height { afterwards.addRow(red: r, green: g, blue: b, luma: y) }
                        }
                    }
                }
            }
            func groups(_ features: Texture2RowFeatures) -> [Double] {
                var values: [Double] = []
                _ = features.tone(into: &values)
                features.colour(into: &values)
                features.gradients(into: &values)
                features.localBinaryPatterns(into: &values)
                return values
            }
            #expect(groups(analysis.rowFeatures) == groups(afterwards))
            #expect(Texture2Features.describe(analysis).values == Texture2Features.describe(checkedRows: rows).values)
        }
    }

    /// The four groups as passes over the finished analysis image: the code of
    /// `Texture2Features` until 2026-11-28, kept here as the reference.
    enum WholeImage {
        static func tone(_ y: [Float], into values: inout [Double]) -> Double {
            let n = y.count
            var fine = [Int](repeating: 0, count: 1024), coarse = [Int](repeating: 0, count: 32)
            var hi = 0, lo = 0, sum = 0.0, sum2 = 0.0
            for v in y {
                fine[Swift.min(1023, Swift.max(0, Int(v * 4)))] += 1
                coarse[Swift.min(31, Swift.max(0, Int(v / 8)))] += 1
                if v > 250 { hi += 1 }
                if v < 5 { lo += 1 }
                sum += Double(v)
                sum2 += Double(v) * Double(v)
            }
            let p = [0.005, 0.05, 0.5, 0.95, 0.995].map {
                Texture2Features.percentile(fine, total: n, q: $0, top: 256) / 255
            }
            values += p
            values.append(p[4] - p[0])
            values.append(Double(hi) / Double(n))
            values.append(Double(lo) / Double(n))
            var entropy = 0.0
            for c in coarse where c > 0 {
                let share = Double(c) / Double(n)
                entropy -= share * log(share)
            }
            values.append(entropy)
            let mean = sum / Double(n)
            return Swift.max(0, sum2 / Double(n) - mean * mean).squareRoot()
        }

        /// Group 2.
        static func colour(
            _ r: [Float], _ g: [Float], _ b: [Float], _ y: [Float], _ cb: [Float], _ cr: [Float],
            into values: inout [Double]
        ) {
            let n = r.count
            var satHistogram = [Int](repeating: 0, count: 1024)
            var satSum = 0.0, glare = 0
            var rgSum = 0.0, rgSum2 = 0.0, ybSum = 0.0, ybSum2 = 0.0, cbSum = 0.0, crSum = 0.0
            for p in 0..<n {
                let mx = Swift.max(r[p], g[p], b[p]), mn = Swift.min(r[p], g[p], b[p])
                let sat = (mx - mn) / (mx + 1)
                satSum += Double(sat)
                satHistogram[Swift.min(1023, Swift.max(0, Int(sat * 1024)))] += 1
                if y[p] > 235 && sat < 0.1 { glare += 1 }
                let rg = Double(r[p] - g[p]), yb = Double(0.5 * (r[p] + g[p]) - b[p])
                rgSum += rg
                rgSum2 += rg * rg
                ybSum += yb
                ybSum2 += yb * yb
                cbSum += Double(cb[p])
                crSum += Double(cr[p])
            }
            let count = Double(n)
            let rgMean = rgSum / count, ybMean = ybSum / count
            let rgVar = Swift.max(0, rgSum2 / count - rgMean * rgMean)
            let ybVar = Swift.max(0, ybSum2 / count - ybMean * ybMean)
            values.append(satSum / count)
            values.append(Texture2Features.percentile(satHistogram, total: n, q: 0.95, top: 1))
            values.append(((rgVar + ybVar).squareRoot() + 0.3 * (rgMean * rgMean + ybMean * ybMean).squareRoot()) / 255)
            values.append(cbSum / count / 255)
            values.append(crSum / count / 255)
            values.append(Double(glare) / count)
        }
        static func gradients(_ y: [Float], width w: Int, height h: Int, into values: inout [Double]) {
            var sx = 0.0, sy = 0.0, edges = 0
            var orientation = [Double](repeating: 0, count: 8)
            var tileSum = [Double](repeating: 0, count: 16), tileCount = [Int](repeating: 0, count: 16)
            let tileColumn = (0..<w).map { Swift.min(3, ($0 * 4) / w) }
            y.withUnsafeBufferPointer { y in
                tileColumn.withUnsafeBufferPointer { tileColumn in
                    for i in 0..<h {
                        let tileRow = Swift.min(3, (i * 4) / h)
                        let row = i * w
                        let inner = i > 0 && i < h - 1
                        for j in 0..<w {
                            let p = row + j
                            let gx: Double = j > 0 && j < w - 1 ? Double(y[p + 1] - y[p - 1]) / 2 : 0
                            let gy: Double = inner ? Double(y[p + w] - y[p - w]) / 2 : 0
                            let g2 = gx * gx + gy * gy
                            sx += gx * gx
                            sy += gy * gy
                            if g2 > 400 { edges += 1 }
                            if g2 > 0 { orientation[Texture2Features.orientationBin(gx, gy)] += g2 }
                            let tile = tileRow * 4 + tileColumn[j]
                            tileSum[tile] += g2
                            tileCount[tile] += 1
                        }
                    }
                }
            }
            let n = Double(w * h), total = sx + sy
            values.append(log(total / n + 1e-3))
            values.append(log((sx + 1) / (sy + 1)))
            let shares = orientation.map { $0 / (total + 1e-6) }
            values.append(shares[0] + shares[4])
            values.append(-shares.reduce(0) { $1 > 0 ? $0 + $1 * log($1) : $0 })
            values.append(Double(edges) / n)
            let tiles = (0..<16).map { log(tileSum[$0] / Double(Swift.max(1, tileCount[$0])) + 1e-2) }
            let mean = tiles.reduce(0, +) / 16
            values.append((tiles.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 16).squareRoot())
            values.append((tiles.max() ?? 0) - (tiles.min() ?? 0))
        }

        /// Group 7.
        static func localBinaryPatterns(_ y: [Float], width w: Int, height h: Int, into values: inout [Double]) {
            // Neighbours in circular order (dy, dx): (0, 1), (1, 1), (1, 0), (1, -1), (0, -1),
            // (-1, -1), (-1, 0), (-1, 1); outside the image the nearest inside pixel.
            var histogram = [Int](repeating: 0, count: 10)
            y.withUnsafeBufferPointer { p in
                for i in 0..<h {
                    let up = Swift.max(0, i - 1) * w, row = i * w, down = Swift.min(h - 1, i + 1) * w
                    for j in 0..<w {
                        let left = Swift.max(0, j - 1), right = Swift.min(w - 1, j + 1)
                        let c = p[row + j]
                        var pattern = 0
                        if p[row + right] - c > 2 { pattern |= 1 }
                        if p[down + right] - c > 2 { pattern |= 2 }
                        if p[down + j] - c > 2 { pattern |= 4 }
                        if p[down + left] - c > 2 { pattern |= 8 }
                        if p[row + left] - c > 2 { pattern |= 16 }
                        if p[up + left] - c > 2 { pattern |= 32 }
                        if p[up + j] - c > 2 { pattern |= 64 }
                        if p[up + right] - c > 2 { pattern |= 128 }
                        histogram[Int(TextureFeatures.riu2Code[pattern])] += 1
                    }
                }
            }
            for c in histogram { values.append(Double(c) / Double(w * h)) }
        }
    }
}
