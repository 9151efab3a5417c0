import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// artifacts/2's analysis-scale cues accumulated one block row at a time
/// (`ArtifactCuesV2.LumaCues`), which lets them run while the photo decodes: hand values
/// on small images, and the same values to the last bit as passes over the finished
/// image (`WholeImage`, the code artifacts/2 ran until 2026-11-28) whatever the size.
@Suite struct ArtifactLumaCuesTests {
    /// Gray planes (red = green = blue) from `value(x, y)`.
    static func gray(width w: Int, height h: Int, _ value: (Int, Int) -> Float) -> [Float] {
        var planes = [Float](repeating: 0, count: 3 * w * h)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 { planes[c * w * h + y * w + x] = value(x, y) }
            }
        }
        return planes
    }

    static func cues(_ planes: [Float], width: Int, height: Int, box: Int = 9) -> ArtifactCuesV2.LumaCues {
        var c = ArtifactAnalyzerV2.Configuration.standard
        c.detailBox = box
        let cues = ArtifactCuesV2.LumaCues(width: width, height: height, configuration: c)
        planes.withUnsafeBufferPointer { p in
            for _ in 0..<height { cues.addRow(of: p) }
        }
        return cues
    }

    /// Luma = y on 10 x 5, box 3: the 3 x 3 mean equals y inside; the top row's is
    /// (0 + 0 + 1) / 3 (the edge repeats), the bottom's (3 + 4 + 4) / 3, so the residuals
    /// are -1/3 and +1/3 on two of the five rows: variance 2 (1/9) / 5 = 2/45. Row
    /// profile 0...4, every column's mean 2.
    @Test func aVerticalRampHasDetailOnlyAtItsEdgeRows() {
        let cues = Self.cues(Self.gray(width: 10, height: 5) { _, y in Float(y) }, width: 10, height: 5, box: 3)
        #expect(cues.isComplete)
        #expect(abs(cues.detailVariance - 2.0 / 45) < 1e-5)
        for (y, mean) in cues.rowProfile.enumerated() { #expect(abs(mean - Double(y)) < 1e-5) }
        for mean in cues.columnProfile { #expect(abs(mean - 2) < 1e-5) }
        #expect(abs(Double(cues.lowest)) < 1e-5 && abs(Double(cues.highest) - 4) < 1e-5)
    }

    /// 40 x 20, 200 in the centre half (x 10..<30, y 5..<15), 0 elsewhere: the ring
    /// (outer 10%: 2 rows, 4 columns) is all 0, the centre window all 200, so the ratio
    /// is (0 + 5) / (200 + 5) at the default offset.
    @Test func aBrightCentreInADarkRingHasASmallSurroundRatio() {
        let planes = Self.gray(width: 40, height: 20) { x, y in (10..<30).contains(x) && (5..<15).contains(y) ? 200 : 0
        }
        let cues = Self.cues(planes, width: 40, height: 20)
        #expect(abs(cues.surroundRatio(offset: 5) - 5.0 / 205) < 1e-6)
    }

    /// Seeded random planes of many sizes (thinner than the box, one row, one column,
    /// wider than tall), every box: the same bits as the passes over the whole image.
    @Test(arguments: [(1, 1), (1, 7), (7, 1), (3, 2), (12, 5), (5, 40), (64, 48), (97, 31)])
    func rowByRowEqualsThePassesOverTheWholeImage(size: (Int, Int)) {
        let (w, h) = size
        var rng = SplitMix64(seed: UInt64(w * 1000 + h))
        let planes = (0..<(3 * w * h)).map { _ in Float(rng.next() % 256) }
        for box in [3, 9, 63] {
            let cues = Self.cues(planes, width: w, height: h, box: box)
            let luma = WholeImage.luma(planes, plane: w * h)
            #expect(cues.lowest == luma.min()! && cues.highest == luma.max()!)
            #expect(cues.detailVariance == WholeImage.detailVariance(luma, width: w, height: h, box: box))
            #expect(cues.rowProfile == WholeImage.rowMeans(luma, width: w, height: h))
            #expect(cues.columnProfile == WholeImage.columnMeans(luma, width: w, height: h))
            for margin in [0.1, 0.25] {
                var c = ArtifactAnalyzerV2.Configuration.standard
                c.surroundMargin = margin
                let ring = ArtifactCuesV2.LumaCues(width: w, height: h, configuration: c)
                planes.withUnsafeBufferPointer { p in
                    for _ in 0..<h { ring.addRow(of: p) }
                }
                #expect(
                    ring.surroundRatio(offset: 5)
                        == WholeImage.surroundRatio(
                            luma, width: w, height: h, margin: margin, centreSide: 0.5, offset: 5))
            }
        }
    }

    /// A photo so narrow for its length that the analysis scale has no column (64 x
    /// 200,000: k = 260, 0 columns) is unavailable, and says so, instead of reading an
    /// empty image.
    @Test func aPhotoWithNoColumnAtTheAnalysisScaleIsUnavailable() {
        let image = Image8(
            width: 64, height: 200_000, channels: 1, samples: [UInt8](repeating: 90, count: 64 * 200_000))!
        let result = ArtifactAnalyzerV2().analyze(image)
        #expect(result.status == .unavailable)
        #expect(result.unavailableReason == "image 64 x 200000 is 0 x 769 at the analysis scale (1/260)")
    }

    /// artifacts/2's cues as passes over the finished analysis image: the code the
    /// method ran until 2026-11-28, kept here as the reference for the accumulation.
    enum WholeImage {
        static func luma(_ p: [Float], plane: Int) -> [Float] {
            (0..<plane).map { i in 0.299 * p[i] + 0.587 * p[plane + i] + 0.114 * p[2 * plane + i] }
        }

        static func rowMeans(_ l: [Float], width w: Int, height h: Int) -> [Double] {
            (0..<h).map { y in
                var s = 0.0
                for x in 0..<w { s += Double(l[y * w + x]) }
                return s / Double(w)
            }
        }

        static func columnMeans(_ l: [Float], width w: Int, height h: Int) -> [Double] {
            var out = [Double](repeating: 0, count: w)
            for y in 0..<h {
                for x in 0..<w { out[x] += Double(l[y * w + x]) }
            }
            for x in 0..<w { out[x] /= Double(h) }
            return out
        }

        static func detailVariance(_ l: [Float], width w: Int, height h: Int, box: Int) -> Double {
            let r = box / 2
            var horizontal = [Float](repeating: 0, count: w * h)
            var prefix = [Float](repeating: 0, count: w + 2 * r + 1)
            for y in 0..<h {
                let row = y * w
                prefix[0] = 0
                for i in 0..<(w + 2 * r) { prefix[i + 1] = prefix[i] + l[row + min(w - 1, max(0, i - r))] }
                let scale = 1 / Float(box)
                for x in 0..<w { horizontal[row + x] = (prefix[x + 2 * r + 1] - prefix[x]) * scale }
            }
            var columnSum = [Double](repeating: 0, count: w)
            var sum = 0.0, sumSquares = 0.0
            let scale = 1 / Double(box)
            for j in -r...r {
                let row = min(h - 1, max(0, j)) * w
                for x in 0..<w { columnSum[x] += Double(horizontal[row + x]) }
            }
            for y in 0..<h {
                let row = y * w
                for x in 0..<w {
                    let d = Double(l[row + x]) - columnSum[x] * scale
                    sum += d
                    sumSquares += d * d
                }
                let add = min(h - 1, y + r + 1) * w, drop = max(0, y - r) * w
                for x in 0..<w { columnSum[x] += Double(horizontal[add + x]) - Double(horizontal[drop + x]) }
            }
            let n = Double(w * h)
            let mean = sum / n
            return max(0, sumSquares / n - mean * mean)
        }

        static func surroundRatio(
            _ l: [Float], width w: Int, height h: Int, margin: Double, centreSide: Double, offset: Double
        ) -> Double {
            let mh = max(1, Int(Double(h) * margin)), mw = max(1, Int(Double(w) * margin))
            let cy = Int(Double(h) * (1 - centreSide) / 2), cx = Int(Double(w) * (1 - centreSide) / 2)
            var ring = 0.0, ringCount = 0, centre = 0.0, centreCount = 0
            for y in 0..<h {
                let inY = y >= mh && y < h - mh
                let centreY = y >= cy && y < h - cy
                for x in 0..<w {
                    let v = Double(l[y * w + x])
                    if !(inY && x >= mw && x < w - mw) {
                        ring += v
                        ringCount += 1
                    }
                    if centreY && x >= cx && x < w - cx {
                        centre += v
                        centreCount += 1
                    }
                }
            }
            let ringMean = ringCount > 0 ? ring / Double(ringCount) : 0
            let centreMean = centreCount > 0 ? centre / Double(centreCount) : ringMean
            return (ringMean + offset) / (centreMean + offset)
        }
    }
}
