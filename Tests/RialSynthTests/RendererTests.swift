import Foundation
import Testing
import RialMedia
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
