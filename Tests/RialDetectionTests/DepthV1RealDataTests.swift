import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// depth/1 on real captures from the public data mirror, against an independent numpy
/// re-implementation of the spec text (not of this Swift code), reproduced at the end
/// of this file. `DepthReader` gives `Float(mm) / 1000`; the numpy run below feeds the
/// same float32 values (`raw.astype(np.float32) / np.float32(1000)`, then float64), so
/// the expectations hold to rounding of the final sums. With float64 `mm / 1000`
/// instead the statistics move by ~1e-8 (PromptDA std 0.46716355647923263 vs
/// 0.46716355663452347) and no verdict changes.
@Suite struct DepthV1RealDataTests {
    func read(_ relative: String) throws -> DepthMap {
        try DepthReader.read(path: Fixtures.real(relative), format: .u16PngMm)
    }

    /// PromptDA's ARKit depth (a real indoor scene, 256x192, depth 1.566...3.512 m).
    /// numpy: std 0.46716355663452347, min 1.565999984741211, max 3.51200008392334,
    /// coverage 1.0, mean 2.6012970982143693, layers 4, edges 1012 of 48260 interior
    /// pixels (ratio 0.0209697472026523, coherence 0.4669246078217648), median
    /// 2.6540000438690186, uniformity 0.07511393229166667, screen False, quadrant stds
    /// [0.3392, 0.2207, 0.4664, 0.4497] passes True, real False, score 0.2.
    /// depth/1 judges this real scene NOT real: std 0.467 m <= 0.5 (layers 4 >= 3 and
    /// coherence 0.467 > 0.3 pass).
    @Test func promptDA() throws {
        let r = try DepthAnalyzerV1(configuration: .reference).evaluate(read("promptda/arkit_depth.png"))
        #expect(r.status == .completed)
        #expect(abs(r.depthVariance! - 0.46716355663452347) < 1e-12)
        #expect(r.minDepth == 1.565999984741211)
        #expect(r.maxDepth == 3.51200008392334)
        #expect(r.coverage == 1)
        #expect(abs(r.meanDepth! - 2.6012970982143693) < 1e-12)
        #expect(r.depthLayers == 4)
        #expect(abs(r.edgeRatio! - 1012.0 / 48260) < 1e-15)
        #expect(abs(r.edgeCoherence! - 0.4669246078217648) < 1e-12)
        #expect(r.medianDepth == 2.6540000438690186)
        #expect(abs(r.uniformity! - 0.07511393229166667) < 1e-15)
        #expect(r.isScreenPattern == false)
        let stds = r.quadrantCheck!.quadrantStds.map { $0! }
        for (got, want) in zip(stds, [0.3391606, 0.2207367, 0.4664422, 0.4497014]) { #expect(abs(got - want) < 1e-6) }
        #expect(r.quadrantCheck!.passes == true)
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0.2)
        // Continuous margin: capped by the std term σ((0.46716 - 0.5) / 0.1) = σ(-0.32836).
        #expect(abs(r.margin! - 1 / (1 + exp(0.32836443365476534))) < 1e-9)
    }

    /// ARKitScenes 41069021 frame 305.244: a flat poster on a floor, 0.408...0.736 m.
    /// numpy: std 0.0513018774627248, min 0.40799999237060547, max 0.7360000014305115,
    /// coverage 1.0, mean 0.6669130655088035, layers 8, edges 59 of 48260 (coherence
    /// 0.036011907388432185), median 0.6759999990463257, uniformity 0.8599446614583334,
    /// screen False (range 0.328 >= 0.15), quadrant stds [0.0815, 0.0546, 0.0131,
    /// 0.0134] passes False, real False, score 0.2 (std < 0.2 but 8 layers > 2, so not
    /// the flat 0.1).
    @Test func arkitScenesPoster() throws {
        let r = try DepthAnalyzerV1().evaluate(read("arkitscenes/41069021_305.244_depth.png"))
        #expect(abs(r.depthVariance! - 0.0513018774627248) < 1e-12)
        #expect(r.minDepth == 0.40799999237060547)
        #expect(r.maxDepth == 0.7360000014305115)
        #expect(r.coverage == 1)
        #expect(r.depthLayers == 8)
        #expect(abs(r.edgeRatio! - 59.0 / 48260) < 1e-15)
        #expect(abs(r.edgeCoherence! - 0.036011907388432185) < 1e-12)
        #expect(r.medianDepth == 0.6759999990463257)
        #expect(abs(r.uniformity! - 0.8599446614583334) < 1e-15)
        #expect(r.isScreenPattern == false)
        #expect(r.quadrantCheck!.passes == false)
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0.2)
    }
}

// The reference, run from the mirror root as
//   python3 depth_v1_ref.py promptda/arkit_depth.png arkitscenes/41069021_305.244_depth.png
// with d = (raw.astype(np.float32) / np.float32(1000)).astype(np.float64), raw == 0 -> NaN:
//
// def depth_v1(d):
//     h, w = d.shape
//     valid = np.isfinite(d) & (d >= 0.1) & (d <= 20.0)
//     v = d[valid]
//     if v.size == 0: return "unavailable"
//     std = v.std(); mn = v.min(); mx = v.max(); mean = v.mean()
//     if mx <= mn: layers = 0
//     else:
//         hist = np.zeros(50)
//         np.add.at(hist, np.minimum(((v - mn) / (mx - mn) * 50).astype(np.int64), 49), 1)
//         p = np.concatenate([hist[:1], hist, hist[-1:]])   # edges reuse the bin itself
//         s = (p[:-2] + p[1:-1] + p[2:]) / 3
//         t = 0.05 * s.max(); layers = 0
//         for i in range(50):
//             if not s[i] > t: continue
//             if i == 0: layers += s[0] > s[1]
//             elif i == 49: layers += s[49] > s[48]
//             else: layers += s[i] > s[i-1] and s[i] > s[i+1]
//     L, R, U, D = d[1:-1, :-2], d[1:-1, 2:], d[:-2, 1:-1], d[2:, 1:-1]
//     okx = np.isfinite(L) & np.isfinite(R) & (L > 0.1) & (R > 0.1)
//     oky = np.isfinite(U) & np.isfinite(D) & (U > 0.1) & (D > 0.1)
//     gx = np.where(okx, (R - L) / 2, 0.0); gy = np.where(oky, (D - U) / 2, 0.0)
//     edge = (np.sqrt(gx**2 + gy**2) > 0.1) & valid[1:-1, 1:-1]
//     nvi = valid[1:-1, 1:-1].sum(); ratio = edge.sum() / nvi if nvi > 0 else 0.0
//     coh = float(np.clip(1 - np.exp(-30 * ratio), 0, 1))
//     med = np.sort(v)[v.size // 2]; rng = mx - mn; uni = np.mean(np.abs(v - med) <= 0.05)
//     screen = rng < 0.15 and uni > 0.85 and 0.2 <= mean <= 1.5
//     qs = [d[qy, qx][valid[qy, qx]] for qy in (slice(0, h//2), slice(h//2, h))
//                                    for qx in (slice(0, w//2), slice(w//2, w))]
//     qs = [q.std() if q.size >= 10 else None for q in qs]
//     real = (not screen) and std > 0.5 and layers >= 3 and coh > 0.3
//     score = 1.0 if real else (0.1 if std < 0.2 and layers <= 2 else 0.2)
