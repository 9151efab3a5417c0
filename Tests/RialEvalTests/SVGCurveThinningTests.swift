import Foundation
import RialMedia
import Testing

@testable import RialEval

/// Curve plots draw what can be seen: a point within `pixelTolerance` (in x and y) of the
/// last point drawn is left out, so a million-point curve gives a page of a few thousand.
@Suite struct SVGCurveThinningTests {
    @Test func aMillionPointStaircaseDrawsAFewThousand() {
        // A ROC staircase across the 360 px square: 500,000 steps right and 500,000 up.
        let n = 1_000_000
        let m = Double(n / 2)
        var points: [SVGPoint] = []
        points.reserveCapacity(n)
        for i in 0..<n {
            let x = Double((i + 1) / 2) / m, y = Double(i / 2) / m
            points.append(SVGPoint(64 + 360 * x, 404 - 360 * y))
        }
        let kept = SVGCurvePlot.visible(points)
        #expect(kept.first == points.first && kept.last == points.last)
        // Each kept point moves at least 0.1 px from the last (x and y span 360 px each).
        #expect(kept.count <= 2 * Int(360 / SVGCurvePlot.pixelTolerance) + 2)
        #expect(kept.count > 1_000)
        // Every point left out is within the tolerance of the last point drawn before it.
        var last = 0
        var k = 0
        for (i, p) in points.enumerated() {
            if k < kept.count && p == kept[k] {
                last = i
                k += 1
                continue
            }
            #expect(abs(p.x - points[last].x) < SVGCurvePlot.pixelTolerance)
            #expect(abs(p.y - points[last].y) < SVGCurvePlot.pixelTolerance)
            if abs(p.x - points[last].x) >= SVGCurvePlot.pixelTolerance { break }
        }
        #expect(k == kept.count)
    }

    @Test func shortCurvesAreDrawnWhole() {
        let points = [SVGPoint(0, 0), SVGPoint(0.01, 0.01), SVGPoint(100, 100)]
        #expect(SVGCurvePlot.visible(points) == [SVGPoint(0, 0), SVGPoint(100, 100)])
        #expect(SVGCurvePlot.visible(Array(points.prefix(2))) == Array(points.prefix(2)))
    }
}
