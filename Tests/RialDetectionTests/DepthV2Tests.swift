import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// Synthetic scenes for depth/2, built by ray casting through the documented assumed
/// intrinsics (65 degrees horizontal FOV over the width, principal point at
/// ((w-1)/2, (h-1)/2)), computed here independently of the analyzer.
enum DepthV2Scenes {
    static let width = 256, height = 192
    /// `f = w / (2 tan(32.5°))`.
    static let focal = Double(width) / (2 * tan(32.5 * Double.pi / 180))
    static let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2

    /// Ray of pixel (x, y) with unit z component.
    static func ray(_ x: Int, _ y: Int) -> (Double, Double, Double) {
        ((Double(x) - cx) / focal, (Double(y) - cy) / focal, 1)
    }

    /// Depth of the plane n · p = distance along each pixel ray (z = distance / (n · r)).
    static func plane(normal n: (Double, Double, Double), distance: Double) -> [Float] {
        var depth = [Float](repeating: .nan, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let r = ray(x, y)
                let denominator = n.0 * r.0 + n.1 * r.1 + n.2 * r.2
                if denominator > 1e-9 { depth[y * width + x] = Float(distance / denominator) }
            }
        }
        return depth
    }

    /// A plane through (0, 0, 0.5) whose normal is tilted by `degrees` from the optical axis about the x axis.
    static func tiltedPlane(degrees: Double, at centre: Double = 0.5) -> (
        normal: (Double, Double, Double), map: DepthMap
    ) {
        let a = degrees * Double.pi / 180
        let n = (0.0, -sin(a), cos(a))
        return (n, DepthMap(width: width, height: height, metres: plane(normal: n, distance: centre * cos(a)))!)
    }

    /// Standard normal deviates by Box-Muller from the seeded SplitMix64.
    static func gaussian(_ rng: inout SplitMix64) -> Double {
        let u1 = (Double(rng.next() >> 11) + 0.5) / 9007199254740992.0
        let u2 = Double(rng.next() >> 11) / 9007199254740992.0
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Adds Gaussian depth noise of standard deviation `sigma(z)` (z: the clean depth).
    static func addNoise(_ map: DepthMap, seed: UInt64, sigma: (Double) -> Double) -> DepthMap {
        var rng = SplitMix64(seed: seed)
        var metres = map.metres
        for i in metres.indices {
            metres[i] += Float(sigma(Double(metres[i])) * gaussian(&rng))
        }
        return DepthMap(width: width, height: height, metres: metres)!
    }

    /// Fronto-parallel depth `background` with the pixel rectangle `xs` x `ys` at `front`.
    static func rectangle(background: Float, front: Float, xs: Range<Int>, ys: Range<Int>) -> DepthMap {
        var metres = [Float](repeating: background, count: width * height)
        for y in ys { for x in xs { metres[y * width + x] = front } }
        return DepthMap(width: width, height: height, metres: metres)!
    }

    /// Three fronto-parallel planes at 0.8, 2 and 4 m, one per vertical third
    /// (x < 85, x < 170, the rest).
    static func threePlanes() -> DepthMap {
        var metres = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { metres[y * width + x] = x < width / 3 ? 0.8 : (x < 2 * width / 3 ? 2 : 4) }
        }
        return DepthMap(width: width, height: height, metres: metres)!
    }

    /// A sheet bent about the vertical axis, `Z = apex - k X² / 2` (its sides curl toward
    /// the camera), filling the frame: the depth along ray (u, v, 1) solves
    /// `(k u² / 2) t² + t - apex = 0`.
    static func curvedSheet(apex: Double, curvature k: Double) -> DepthMap {
        var metres = [Float](repeating: .nan, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let u = ray(x, y).0
                let a = k * u * u / 2
                let t = a < 1e-12 ? apex : (-1 + (1 + 4 * a * apex).squareRoot()) / (2 * a)
                metres[y * width + x] = Float(t)
            }
        }
        return DepthMap(width: width, height: height, metres: metres)!
    }

    /// A camera 1.2 m above a floor, pitched 35 degrees down, looking at a
    /// 0.8 x 0.6 x 0.8 m box standing on the floor 1.2 m ahead, wall at 4 m.
    static func boxAndFloor() -> DepthMap {
        let pitch = 35 * Double.pi / 180
        var metres = [Float](repeating: .nan, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let r = ray(x, y)
                // Camera (x right, y down, z forward) to world (x right, y up, z forward).
                let wx = r.0
                let wy = -r.1 * cos(pitch) - r.2 * sin(pitch)
                let wz = -r.1 * sin(pitch) + r.2 * cos(pitch)
                let origin = (0.0, 1.2, 0.0)
                var best = Double.infinity
                if wy < 0 { best = min(best, -origin.1 / wy) } // floor y = 0
                if wz > 0 { best = min(best, 4 / wz) } // wall z = 4
                // Slab test against the box [-0.4, 0.4] x [0, 0.6] x [1.2, 2.0].
                var tNear = -Double.infinity, tFar = Double.infinity
                for (o, d, lo, hi) in [(origin.0, wx, -0.4, 0.4), (origin.1, wy, 0, 0.6), (origin.2, wz, 1.2, 2.0)] {
                    if abs(d) < 1e-12 {
                        if o < lo || o > hi { tNear = .infinity }
                    } else {
                        let t1 = (lo - o) / d, t2 = (hi - o) / d
                        tNear = max(tNear, min(t1, t2))
                        tFar = min(tFar, max(t1, t2))
                    }
                }
                if tNear <= tFar && tNear > 0 { best = min(best, tNear) }
                // The ray's z component in camera frame is 1, so the parameter is the depth.
                if best.isFinite { metres[y * width + x] = Float(best) }
            }
        }
        return DepthMap(width: width, height: height, metres: metres)!
    }
}

/// The documented score formula with the documented default constants, evaluated here
/// (not by the analyzer): `1 / (1 + exp(-(-2.565 - 0.725 free + 1.712 ln(1 + occ / 0.005))))`.
func depthV2ExpectedScore(freeEdge: Double, occluders: Double) -> Double {
    1 / (1 + exp(-(-2.565 - 0.725 * freeEdge + 1.712 * log(1 + occluders / 0.005))))
}

/// Cell counts on the default stride-2 grid of a 256 x 192 map: cells are pixels with
/// even coordinates; the content window is pixels 64 <= x < 192, 48 <= y < 144.
enum DepthV2Grid {
    static let columns = 128, rows = 96
    /// Grid cells whose pixel coordinate lies in `range`.
    static func cells(_ range: Range<Int>) -> Int { range.filter { $0 % 2 == 0 }.count }
    static let windowColumns = cells(64..<192), windowRows = cells(48..<144)
}

@Suite struct DepthV2Tests {
    let analyzer = DepthAnalyzerV2()

    /// Exact plane at 0.5 m, normal tilted 30 degrees: every pixel is on the plane, the
    /// tilt comes back as 30 degrees, one plane. The content surface is the whole map: no
    /// outline (free-edge share 0), nothing in front (occluders 0), so the score is the
    /// formula's intercept alone, `1 / (1 + e^2.565)`, and it is a planar subject.
    @Test func exactTiltedPlane() {
        let (n, map) = DepthV2Scenes.tiltedPlane(degrees: 30)
        let r = analyzer.analyze(map)
        #expect(r.status == .completed)
        #expect(r.intrinsicsSource == "assumed")
        #expect(abs(r.intrinsics!.fx - DepthV2Scenes.focal) < 1e-9)
        #expect(r.dominantInlierFraction! > 0.999)
        #expect(r.rmsResidualMm! < 0.01)
        #expect(r.planeCount == 1)
        #expect(abs(r.tiltDegrees! - 30) < 0.5)
        let plane = r.planes![0]
        #expect(abs(plane.distance - 0.5 * cos(30 * Double.pi / 180)) < 1e-4)
        #expect(abs(plane.normal[1] - n.1) < 1e-4 && abs(plane.normal[2] - n.2) < 1e-4)
        #expect(r.contentShare == 1 && r.contentWindowShare == 1)
        #expect(abs(r.contentTiltDegrees! - 30) < 0.5)
        #expect(r.freeEdgeShare == 0 && r.occluderShare == 0)
        #expect(abs(r.score! - depthV2ExpectedScore(freeEdge: 0, occluders: 0)) < 1e-9)
        #expect(abs(r.score! - 0.0714) < 1e-4)
        #expect(r.isPlanarSubject == true)
        #expect(r.isLikelyRealScene == false)
        #expect(r.edgeAlignment == nil && r.depthEdgeCount == nil)
    }

    /// The same plane with Gaussian depth noise at exactly the sensor model,
    /// `σ(z) = 1 mm + 1 mm/m² z²`: the inliers (within 3 σ) are the share
    /// `erf(3 / √2) = 0.99730` of the pixels and the rms of `residual / σ` over them is
    /// that of a standard normal truncated to ±3, `sqrt(1 - 6 φ(3) / erf(3 / √2)) =
    /// 0.98658`: `residual_ratio ≈ 1` means "noise at the model".
    @Test func noisyTiltedPlaneAtTheSensorModel() {
        let (_, exact) = DepthV2Scenes.tiltedPlane(degrees: 30)
        let map = DepthV2Scenes.addNoise(exact, seed: 42) { z in 0.001 + 0.001 * z * z }
        let inside = erf(3 / 2.0.squareRoot())
        let phi3 = exp(-4.5) / (2 * Double.pi).squareRoot()
        let truncatedRms = (1 - 6 * phi3 / inside).squareRoot()
        let r = analyzer.analyze(map)
        #expect(r.status == .completed)
        #expect(abs(r.dominantInlierFraction! - inside) < 0.002)
        #expect(abs(r.residualRatio! - truncatedRms) < 0.02)
        #expect(abs(r.contentResidualRatio! - truncatedRms) < 0.03)
        #expect(r.planeCount == 1)
        #expect(abs(r.tiltDegrees! - 30) < 0.5)
        // Noise never reaches the 15 mm occluder height; outliers on the map's border
        // can open a few outline pairs, so the score lies between the no-edge and the
        // all-free-edge values.
        #expect(r.occluderShare == 0)
        #expect(r.score! <= depthV2ExpectedScore(freeEdge: 0, occluders: 0) + 1e-9)
        #expect(r.score! >= depthV2ExpectedScore(freeEdge: 1, occluders: 0) - 1e-9)
        #expect(r.isPlanarSubject == true && r.isLikelyRealScene == false)
    }

    /// Noise twice the model gives a residual ratio near 2 (the 3 σ band now cuts at 1.5
    /// of the noise: the inliers are erf(1.5 / √2) = 0.8664 of the pixels and the rms of a
    /// standard normal truncated to ±1.5 is 0.7426, times 2 = 1.485).
    @Test func noiseAboveTheModelRaisesTheRatio() {
        let (_, exact) = DepthV2Scenes.tiltedPlane(degrees: 30)
        let map = DepthV2Scenes.addNoise(exact, seed: 7) { z in 2 * (0.001 + 0.001 * z * z) }
        let inside = erf(1.5 / 2.0.squareRoot())
        let phi = exp(-1.125) / (2 * Double.pi).squareRoot()
        let expected = 2 * (1 - 2 * 1.5 * phi / inside).squareRoot()
        let r = analyzer.analyze(map)
        #expect(abs(r.residualRatio! - expected) < 0.05)
        #expect(abs(r.dominantInlierFraction! - inside) < 0.01)
    }

    /// depth/1's failure case (it counts 2 layers): three planes, each a third. The
    /// middle plane holds most of the window (42 of its 64 cell columns) and is the
    /// content surface; its outline is the 96-row column pair to the 0.8 m plane (in
    /// front) and the one to the 4 m plane (behind): free-edge share exactly 1/2. The
    /// 0.8 m plane's window cells (11 columns x 48 rows) are occluders, over the window
    /// plus the surface: 64 x 48 + 42 x 96 - 42 x 48 cells.
    @Test func threeFrontoParallelPlanes() {
        let r = analyzer.analyze(DepthV2Scenes.threePlanes())
        #expect(r.status == .completed)
        #expect(r.planeCount! == 3)
        #expect(r.dominantInlierFraction! < 0.4)
        let middleColumns = DepthV2Grid.cells(85..<170), nearWindowColumns = DepthV2Grid.cells(64..<85)
        #expect(middleColumns == 42 && nearWindowColumns == 11)
        let g = DepthV2Grid.self
        let region = g.windowColumns * g.windowRows + middleColumns * g.rows - middleColumns * g.windowRows
        let occluders = Double(nearWindowColumns * g.windowRows) / Double(region)
        #expect(abs(r.contentShare! - Double(middleColumns) / Double(g.columns)) < 1e-12)
        #expect(abs(r.contentWindowShare! - Double(middleColumns) / Double(g.windowColumns)) < 1e-12)
        #expect(r.freeEdgeShare == 0.5)
        #expect(abs(r.occluderShare! - occluders) < 1e-12)
        #expect(abs(r.occluderShare! - 0.10377) < 1e-5)
        #expect(abs(r.score! - depthV2ExpectedScore(freeEdge: 0.5, occluders: occluders)) < 1e-9)
        #expect(abs(r.score! - 0.9125) < 1e-4)
        #expect(r.isPlanarSubject == false)
        #expect(r.isLikelyRealScene == true)
        let v1 = DepthAnalyzerV1().analyze(DepthV2Scenes.threePlanes())
        #expect(v1.depthLayers == 2 && v1.isLikelyRealScene == false)
    }

    /// A box face 0.5 m in front of a wall at 2 m, pixels 88 <= x < 168, 64 <= y < 128:
    /// 40 x 32 grid cells, 10.4% of the map (a second plane) and 41.7% of the window (so
    /// the wall, 58.3%, is the content surface). The box is enclosed by the wall: no
    /// outline pair, and its cells are occluders over the whole map.
    @Test func boxInFrontOfAWall() {
        let map = DepthV2Scenes.rectangle(background: 2, front: 1.5, xs: 88..<168, ys: 64..<128)
        let r = analyzer.analyze(map)
        let g = DepthV2Grid.self
        let box = DepthV2Grid.cells(88..<168) * DepthV2Grid.cells(64..<128)
        #expect(box == 1280)
        let share = Double(box) / Double(g.columns * g.rows)
        #expect(r.planeCount == 2)
        #expect(abs(r.planes![1].inlierFraction - share) < 1e-12)
        #expect(abs(r.planes![1].distance - 1.5) < 1e-6)
        #expect(abs(r.dominantInlierFraction! - (1 - Double(80 * 64) / Double(256 * 192))) < 1e-12)
        #expect(abs(r.contentShare! - (1 - share)) < 1e-12)
        #expect(abs(r.contentWindowShare! - (1 - Double(box) / Double(g.windowColumns * g.windowRows))) < 1e-12)
        #expect(r.freeEdgeShare == 0)
        #expect(abs(r.occluderShare! - share) < 1e-12)
        #expect(abs(r.score! - depthV2ExpectedScore(freeEdge: 0, occluders: share)) < 1e-9)
        #expect(abs(r.score! - 0.9378) < 1e-4)
        #expect(r.isLikelyRealScene == true && r.isPlanarSubject == false)
    }

    /// A screen: a fronto-parallel panel at 0.8 m over the middle 60% of the width and
    /// height, the wall 2.5 m away around it. The panel holds the whole window and ends
    /// everywhere at a step down to the wall: free-edge share 1, no occluders, score
    /// `1 / (1 + e^(2.565 + 0.725))`.
    @Test func panelInFrontOfAWall() {
        let map = DepthV2Scenes.rectangle(background: 2.5, front: 0.8, xs: 51..<205, ys: 38..<154)
        let r = analyzer.analyze(map)
        let panel = DepthV2Grid.cells(51..<205) * DepthV2Grid.cells(38..<154)
        #expect(abs(r.contentShare! - Double(panel) / Double(DepthV2Grid.columns * DepthV2Grid.rows)) < 1e-12)
        #expect(r.contentWindowShare == 1)
        #expect(r.freeEdgeShare == 1 && r.occluderShare == 0)
        #expect(abs(r.score! - 0.0359) < 1e-4)
        #expect(r.isLikelyRealScene == false && r.isPlanarSubject == false)
    }

    /// A photo lying on a table: a sheet 10 mm proud of a wall at 0.5 m (3 σ = 3.75 mm, so
    /// not on the wall's surface) but thinner than the 15 mm occluder height: a hole in
    /// the surface, neither an occluder nor an edge. The scene stays a planar subject.
    @Test func thinSheetIsNotAnOccluder() throws {
        let map = DepthV2Scenes.rectangle(background: 0.5, front: 0.49, xs: 100..<156, ys: 70..<122)
        let r = analyzer.analyze(map)
        let sheet = DepthV2Grid.cells(100..<156) * DepthV2Grid.cells(70..<122)
        #expect(abs(r.contentShare! - (1 - Double(sheet) / Double(DepthV2Grid.columns * DepthV2Grid.rows))) < 1e-12)
        #expect(r.occluderShare == 0 && r.freeEdgeShare == 0)
        #expect(r.isPlanarSubject == true)
        #expect(abs(r.score! - depthV2ExpectedScore(freeEdge: 0, occluders: 0)) < 1e-9)
        var thick = analyzer.configuration
        thick.minOccluderHeight = 0.005
        let r2 = try DepthAnalyzerV2(configuration: thick).analyze(map)
        #expect(r2.occluderShare! > 0 && r2.isPlanarSubject == false)
    }

    /// A print bent to 0.5 /m (its edges 25 mm nearer than its middle at 0.5 m, far
    /// beyond the 3.75 mm band) is one sheet once the quadric is fitted: the content
    /// surface covers the map and its curvature comes back. With the plane only
    /// (`sheetRounds` 0) it breaks into a strip.
    @Test func curvedSheetIsOneSurface() throws {
        let map = DepthV2Scenes.curvedSheet(apex: 0.5, curvature: 0.5)
        let r = analyzer.analyze(map)
        #expect(r.contentShare! > 0.99)
        #expect(abs(r.contentCurvature! - 0.5) < 0.1)
        #expect(r.occluderShare == 0)
        #expect(r.isPlanarSubject == true && r.isLikelyRealScene == false)
        var flat = analyzer.configuration
        flat.sheetRounds = 0
        let plane = try DepthAnalyzerV2(configuration: flat).analyze(map)
        #expect(plane.contentShare! < 0.6)
        #expect(plane.contentCurvature == 0)
    }

    @Test func boxAndFloor() {
        let map = DepthV2Scenes.boxAndFloor()
        let r = analyzer.analyze(map)
        #expect(r.status == .completed)
        #expect(r.planeCount! >= 2)
        #expect(r.dominantInlierFraction! < 0.7)
        #expect(r.occluderShare! > 0.05)
        #expect(r.isLikelyRealScene == true)
    }

    @Test func deterministic() {
        let map = DepthV2Scenes.boxAndFloor()
        #expect(analyzer.evaluate(map) == analyzer.evaluate(map))
    }

    @Test(arguments: [(2, 2), (256, 192)])
    func unavailableWithoutValidPixels(width: Int, height: Int) {
        let map = DepthMap(width: width, height: height, metres: [Float](repeating: .nan, count: width * height))!
        let r = analyzer.analyze(map)
        #expect(r.status == .unavailable)
        #expect(r.score == nil && r.unavailableReason != nil && r.isLikelyRealScene == nil)
        #expect(r.coverage == 0 && r.validPixels == 0)
        #expect(r.analysisTimeMs >= 0)
    }

    @Test func tinyValidMapIsUnavailable() {
        let r = analyzer.analyze(DepthMap(width: 2, height: 2, metres: [1, 2, 3, 4])!)
        #expect(r.status == .unavailable)
        #expect(r.validPixels == 4 && r.coverage == 1)
    }

    /// Valid pixels only outside the content window (the centre too near, as when a
    /// screen is held closer than 0.1 m): the whole map serves as the window.
    @Test func emptyWindowFallsBackToTheMap() {
        var metres = DepthV2Scenes.tiltedPlane(degrees: 20).map.metres
        for y in 40..<152 { for x in 56..<200 { metres[y * DepthV2Scenes.width + x] = 0.05 } }
        let r = analyzer.analyze(DepthMap(width: DepthV2Scenes.width, height: DepthV2Scenes.height, metres: metres)!)
        #expect(r.status == .completed)
        #expect(r.contentShare! > 0.99)
    }

    @Test func garbagePixelsNeverCrash() {
        var rng = SplitMix64(seed: 7)
        let specials: [Float] = [.nan, .infinity, -.infinity, 0, -1, 25, 0.1, 20, .greatestFiniteMagnitude]
        for size in [(64, 48), (256, 192), (3, 300)] {
            let metres = (0..<(size.0 * size.1)).map { _ in specials[Int(rng.bounded(UInt64(specials.count)))] }
            let r = analyzer.analyze(DepthMap(width: size.0, height: size.1, metres: metres)!)
            #expect(r.status == .completed || r.status == .unavailable)
            if let score = r.score { #expect(score >= 0 && score <= 1) }
        }
    }

    @Test func invalidIntrinsicsArgumentIsUnavailable() {
        let (_, map) = DepthV2Scenes.tiltedPlane(degrees: 30)
        let r = analyzer.analyze(map, intrinsics: .init(fx: 0, fy: 200, cx: 128, cy: 96))
        #expect(r.status == .unavailable)
        #expect(r.unavailableReason!.contains("intrinsics.fx"))
    }

    /// Intrinsics that differ from the assumed ones change the recovered tilt: a plane
    /// built with the assumed focal length but analysed with the same values passed
    /// explicitly gives the same answer, tagged `argument`.
    @Test func explicitIntrinsics() {
        let (_, map) = DepthV2Scenes.tiltedPlane(degrees: 30)
        let k = DepthAnalyzerV2.CameraIntrinsics(
            fx: DepthV2Scenes.focal, fy: DepthV2Scenes.focal,
            cx: DepthV2Scenes.cx, cy: DepthV2Scenes.cy)
        let r = analyzer.analyze(map, intrinsics: k)
        #expect(r.intrinsicsSource == "argument")
        #expect(abs(r.tiltDegrees! - 30) < 0.5)
    }

    /// Edge alignment: three planes with a luma image whose brightness changes exactly at
    /// the plane borders (aligned), and a uniform image (nothing aligns).
    @Test func edgeAlignment() {
        let map = DepthV2Scenes.threePlanes()
        // Luma at twice the depth resolution, area-averaged down by the analyzer.
        let w = 512, h = 384
        var data = [Float](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { data[y * w + x] = x / 2 < 256 / 3 ? 40 : (x / 2 < 2 * 256 / 3 ? 140 : 230) } }
        let aligned = analyzer.analyze(map, luma: PlanarImage(width: w, height: h, channels: 1, data: data)!)
        #expect(aligned.depthEdgeCount == 2 * 192)
        #expect(aligned.edgeAlignment == 1)
        #expect(aligned.lumaEdgeDensity! < 0.05)
        let flat = analyzer.analyze(map, luma: PlanarImage(width: 64, height: 48, channels: 1))
        #expect(flat.edgeAlignment == 0 && flat.lumaEdgeDensity == 0)
        #expect(flat.score == aligned.score)
    }
}
