import Foundation
import RialMedia
import Testing

@testable import RialSynth

/// The renderer's acceleration (per-tile candidate lists, plane culling by corner
/// rays, depth-sorted early exit) must never change which surface a ray hits.
@Suite struct RendererTests {
    @Test(arguments: [SynthClass.realScene, .lcdScreen, .printedPaper])
    func acceleratedNearestHitEqualsBruteForce(_ c: SynthClass) {
        for index in 0..<3 {
            let p = SynthGenerator.sampleParameters(index: index, seed: 123, class: c, width: 160, height: 120)
            let scene = SynthGenerator.buildScene(p, textures: [])
            for origin in [Vec3.zero, Vec3(p.baselineMm * 1e-3, 0, 0)] {
                let view = CameraView(origin: origin, width: p.width, height: p.height, focal: p.focalPx)
                let renderer = SceneRenderer(scene: scene, view: view, rowGains: nil)
                let columns = 40, rows = 30, sub = 2
                let fast = renderer.depthSamples(columns: columns, rows: rows, sub: sub)
                var k = 0, mismatches = 0
                for j in 0..<rows {
                    for i in 0..<columns {
                        for b in 0..<sub {
                            for a in 0..<sub {
                                let x = (Float(i) + (Float(a) + 0.5) / Float(sub)) * Float(p.width) / Float(columns)
                                let y = (Float(j) + (Float(b) + 0.5) / Float(sub)) * Float(p.height) / Float(rows)
                                let d = view.direction(x: x, y: y)
                                var best = Float.infinity
                                for prim in scene.primitives {
                                    best = min(best, prim.intersect(origin: origin, direction: d, tMax: .infinity))
                                }
                                if !(best == fast[k] || (best.isInfinite && fast[k].isInfinite)) { mismatches += 1 }
                                k += 1
                            }
                        }
                    }
                }
                #expect(mismatches == 0, "\(c) index \(index): \(mismatches) rays differ")
            }
        }
    }

    /// A screen on a desk is seen, not the desk, the wall or its support: rays from the
    /// camera to the centre and to points 80 % of the way to each corner of the active
    /// area meet nothing nearer (whatever the camera height, including below the desk
    /// top, and however the panel is turned), and every box and rectangle has an
    /// orthonormal frame.
    @Test func screensOnDesksAreNotHiddenByTheDesk() {
        var checked = 0, hidden: [String] = []
        for index in 0..<80 {
            for c in [SynthClass.lcdScreen, .oledScreen] {
                let p = SynthGenerator.sampleParameters(
                    index: index, seed: 20_261_121, class: c, width: 160, height: 120)
                guard p.subject.placement == .desk else { continue }
                let scene = SynthGenerator.buildScene(p, textures: [])
                guard let display = scene.primitives.first(where: { scene.materials[$0.material].kind == .display })
                else {
                    continue
                }
                checked += 1
                // Ray-box and ray-rectangle tests assume orthonormal frames.
                for prim in scene.primitives where prim.shape == .box || prim.shape == .rectangle {
                    let f = prim.frame
                    let err = max(
                        abs(f.u.length - 1), abs(f.v.length - 1), abs(f.w.length - 1),
                        abs(f.u.dot(f.v)), abs(f.v.dot(f.w)), abs(f.u.dot(f.w)))
                    if err > 1e-4 { hidden.append("\(c) \(index): \(prim.shape) frame not orthonormal (\(err))") }
                }
                for (a, b) in [(Float(0), Float(0)), (-0.8, -0.8), (0.8, -0.8), (-0.8, 0.8), (0.8, 0.8)] {
                    let target = display.frame.point(a * display.half.x, b * display.half.y, 0)
                    let distance = target.length
                    let d = target * (1 / distance)
                    var nearest = Float.infinity
                    for prim in scene.primitives {
                        nearest = min(nearest, prim.intersect(origin: .zero, direction: d, tMax: .infinity))
                    }
                    if nearest < distance - 0.002 { hidden.append("\(c) \(index) (\(a), \(b))") }
                }
            }
        }
        #expect(checked >= 10)
        #expect(hidden.isEmpty, "hidden: \(hidden)")
    }

    /// Box-filtered texture levels: every level's mean equals the level-0 mean.
    @Test func mipPyramidPreservesMean() {
        var data = [Float](repeating: 0, count: 64 * 64)
        for i in data.indices { data[i] = Float((i * 7919) % 101) / 100 }
        let t = MipTexture(width: 64, height: 64, channels: 1, level0: data)
        let mean = data.reduce(0, +) / Float(data.count)
        #expect(abs(t.mean.0 - mean) < 1e-5)
        // A sample at a level of detail past the top returns the mean anywhere.
        let s = t.sample(u: 13.3, v: 40.1, lod: 20, wrap: true)
        #expect(abs(s.0 - mean) < 1e-5)
    }
}
