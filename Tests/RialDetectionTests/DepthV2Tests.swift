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
    static func tiltedPlane(degrees: Double, at centre: Double = 0.5) -> (normal: (Double, Double, Double), map: DepthMap) {
        let a = degrees * Double.pi / 180
        let n = (0.0, -sin(a), cos(a))
        return (n, DepthMap(width: width, height: height, metres: plane(normal: n, distance: centre * cos(a)))!)
    }

    /// Gaussian noise by Box-Muller from the seeded SplitMix64.
    static func addNoise(_ map: DepthMap, sigma: Double, seed: UInt64) -> DepthMap {
        var rng = SplitMix64(seed: seed)
        var metres = map.metres
        for i in metres.indices {
            let u1 = (Double(rng.next() >> 11) + 0.5) / 9007199254740992.0
            let u2 = Double(rng.next() >> 11) / 9007199254740992.0
            metres[i] += Float(sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
        }
        return DepthMap(width: width, height: height, metres: metres)!
    }

    /// Three fronto-parallel planes at 0.8, 2 and 4 m, one per vertical third.
    static func threePlanes() -> DepthMap {
        var metres = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { metres[y * width + x] = x < width / 3 ? 0.8 : (x < 2 * width / 3 ? 2 : 4) }
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

@Suite struct DepthV2Tests {
    let analyzer = DepthAnalyzerV2()

    /// Exact plane at 0.5 m, normal tilted 30 degrees: every pixel is on the plane, the
    /// tilt comes back as 30 degrees, one plane, and the verdict is "not real".
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
        #expect(r.isPlanarSubject == true)
        #expect(r.isLikelyRealScene == false)
        #expect(r.score! < 0.05)
        #expect(r.edgeAlignment == nil && r.depthEdgeCount == nil)
    }

    /// The same plane with Gaussian depth noise sigma 1.5 mm. Depth noise moves a point
    /// along its ray, so its perpendicular distance is |δz| |n · r| with r = (u, v, 1):
    /// expected rms = 1.5 mm * sqrt(mean over pixels of (n · r)²), computed here.
    @Test func noisyTiltedPlane() {
        let (n, exact) = DepthV2Scenes.tiltedPlane(degrees: 30)
        let map = DepthV2Scenes.addNoise(exact, sigma: 0.0015, seed: 42)
        var sum = 0.0
        for y in 0..<DepthV2Scenes.height {
            for x in 0..<DepthV2Scenes.width {
                let r = DepthV2Scenes.ray(x, y)
                let projection = n.0 * r.0 + n.1 * r.1 + n.2 * r.2
                sum += projection * projection
            }
        }
        let expected = 1.5 * (sum / Double(DepthV2Scenes.width * DepthV2Scenes.height)).squareRoot()
        let r = analyzer.analyze(map)
        #expect(r.status == .completed)
        #expect(abs(r.rmsResidualMm! - 1.5) < 0.3)
        #expect(abs(r.rmsResidualMm! - expected) < 0.1)
        #expect(r.dominantInlierFraction! > 0.98)
        #expect(r.planeCount == 1)
        #expect(abs(r.tiltDegrees! - 30) < 0.5)
        #expect(r.isLikelyRealScene == false)
        #expect(r.score! < 0.1)
    }

    /// depth/1's failure case (it counts 2 layers): three planes, each a third.
    @Test func threeFrontoParallelPlanes() {
        let r = analyzer.analyze(DepthV2Scenes.threePlanes())
        #expect(r.status == .completed)
        #expect(r.planeCount! >= 3)
        #expect(r.dominantInlierFraction! < 0.4)
        #expect(r.isPlanarSubject == false)
        #expect(r.isLikelyRealScene == true)
        #expect(r.score! > 0.9)
        let v1 = DepthAnalyzerV1().analyze(DepthV2Scenes.threePlanes())
        #expect(v1.depthLayers == 2 && v1.isLikelyRealScene == false)
    }

    @Test func boxAndFloor() {
        let map = DepthV2Scenes.boxAndFloor()
        let r = analyzer.analyze(map)
        #expect(r.status == .completed)
        #expect(r.planeCount! >= 2)
        #expect(r.dominantInlierFraction! < 0.7)
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

    @Test func garbagePixelsNeverCrash() {
        var rng = SplitMix64(seed: 7)
        let specials: [Float] = [.nan, .infinity, -.infinity, 0, -1, 25, 0.1, 20, .greatestFiniteMagnitude]
        let metres = (0..<(64 * 48)).map { _ in specials[Int(rng.bounded(UInt64(specials.count)))] }
        let r = analyzer.analyze(DepthMap(width: 64, height: 48, metres: metres)!)
        #expect(r.status == .completed || r.status == .unavailable)
        if let score = r.score { #expect(score >= 0 && score <= 1) }
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
        let k = DepthAnalyzerV2.CameraIntrinsics(fx: DepthV2Scenes.focal, fy: DepthV2Scenes.focal,
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
