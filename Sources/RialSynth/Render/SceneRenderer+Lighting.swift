import Foundation

// Lighting of `SceneRenderer` (steps 1-3 of its documentation): soft shadows from the
// area light, ambient occlusion, irradiance, and the lighting cells that carry them
// across the image.
extension SceneRenderer {
    // MARK: Visibility and irradiance at a point

    /// Two uniform numbers in [0, 1) from a hash of `seed` (Wellons' lowbias32).
    @inline(__always)
    static func hash2(_ seed: UInt32) -> (Float, Float) {
        var x = seed
        x ^= x >> 16
        x = x &* 0x7FEB_352D
        x ^= x >> 15
        x = x &* 0x846C_A68B
        x ^= x >> 16
        return (Float(x & 0xFFFF) * (1 / 65536), Float(x >> 16) * (1 / 65536))
    }

    /// Whether the segment from `origin` to `origin + direction` meets any of `list`
    /// other than primitive `skip` (the surface the segment starts on).
    @inline(__always)
    static func blocked(
        _ c: Context, by list: UnsafeBufferPointer<Int32>, skip: Int, origin o: Vec3,
        direction d: Vec3
    ) -> Bool {
        for ci in list where Int(ci) != skip {
            if c.prims[Int(ci)].occludes(origin: o, direction: d) { return true }
        }
        return false
    }

    /// Light visibility V in [0, 1] at P (normal N): the share of the shadow sample
    /// points (one jittered point per stratum of the light rectangle) in front of the
    /// surface whose segment from P hits no caster.
    @inline(__always)
    func lightVisibility(
        _ c: Context, casters: UnsafeBufferPointer<Int32>, from p: Vec3, normal n: Vec3,
        depth: Float, skip: Int, seed: UInt32
    ) -> Float {
        let o = p + n * (2e-4 * max(depth, 1))
        let s = shadowSamples
        let inv = 2 / Float(s)
        var lit = 0
        for b in 0..<s {
            for a in 0..<s {
                let j = SceneRenderer.hash2(seed &* 0x9E37_79B9 &+ UInt32(b * s + a))
                let q =
                    lightPosition + lightHalfU * ((Float(a) + j.0) * inv - 1) + lightHalfV
                    * ((Float(b) + j.1) * inv - 1)
                let d = q - o
                if n.dot(d) <= 0 { continue }
                if !Self.blocked(c, by: casters, skip: skip, origin: o, direction: d) { lit += 1 }
            }
        }
        return Float(lit) / Float(s * s)
    }

    /// Ambient openness A in [0, 1] at P (normal N): the share of `aoSamples`
    /// cosine-weighted directions (stratified in cos^2 theta, jittered azimuth) not
    /// blocked by an occluder within `aoRadius`.
    @inline(__always)
    func ambientOpenness(
        _ c: Context, occluders: UnsafeBufferPointer<Int32>, from p: Vec3, normal n: Vec3,
        depth: Float, skip: Int, seed: UInt32
    ) -> Float {
        let m = aoSamples
        if m == 0 || occluders.isEmpty { return 1 }
        let o = p + n * (2e-4 * max(depth, 1))
        let t1 = (abs(n.x) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 1, 0)).cross(n).normalized
        let t2 = n.cross(t1)
        let base = SceneRenderer.hash2(seed &* 0x85EB_CA6B &+ 0x1234_5678)
        var open = 0
        for k in 0..<m {
            let j = SceneRenderer.hash2(seed &* 0xC2B2_AE35 &+ UInt32(k))
            // Cosine-weighted: sin^2 theta = u1 uniform, azimuth 2 pi u2.
            let u1 = (Float(k) + j.0) / Float(m)
            let u2 = FastMath.fract(base.0 + Float(k) * 0.618_034 + 0.25 * j.1)
            let r = u1.squareRoot(), phi = 2 * Float.pi * u2
            let dir = t1 * (r * cos(phi)) + t2 * (r * sin(phi)) + n * max(1 - u1, 0).squareRoot()
            if !Self.blocked(c, by: occluders, skip: skip, origin: o, direction: dir * aoRadius) { open += 1 }
        }
        return Float(open) / Float(m)
    }

    /// Irradiance at P with unit normal N (see the type's documentation), with light
    /// visibility V and ambient openness A.
    @inline(__always)
    func irradiance(at p: Vec3, normal n: Vec3, visibility: Float, openness: Float) -> Vec3 {
        let h = 0.25 * n.dot(up)
        var e = (skyAmbient * (0.75 + h) + bounceAmbient * (0.75 - h)) * openness
        if visibility > 0 {
            let l = lightPosition - p
            let d2 = l.dot(l)
            let inv = 1 / d2.squareRoot()
            let cosine = n.dot(l) * inv
            if cosine > 0 {
                let emitter = 0.35 + 0.65 * max(-lightNormal.dot(l) * inv, 0)
                e = e + lightColour * (visibility * cosine * emitter / d2)
            }
        }
        return e
    }

    /// Shadow casters whose bounding sphere comes within reach of the segments from any
    /// point of the sphere (centre, radius) to any point of the light rectangle (a cone
    /// from the sphere to the light's bounding sphere).
    func casters(near centre: Vec3, radius: Float, into out: inout [Int32]) {
        out.removeAll(keepingCapacity: true)
        let l = lightPosition
        let seg = l - centre
        let len2 = max(seg.dot(seg), 1e-12)
        for ci in shadowCasters {
            let p = prims[Int(ci)]
            if !p.boundRadius.isFinite {
                out.append(ci)
                continue
            }
            let q = p.boundCentre - centre
            let s = min(max(q.dot(seg) / len2, 0), 1)
            let dist = (q - seg * s).length
            if dist < p.boundRadius + radius * (1 - s) + lightReach * s { out.append(ci) }
        }
    }

    /// Ambient occluders within `aoRadius` of the sphere (centre, radius): bounding
    /// spheres that close, planes that close to the centre.
    func occluders(near centre: Vec3, radius: Float, into out: inout [Int32]) {
        out.removeAll(keepingCapacity: true)
        let reach = radius + aoRadius
        for ci in aoCasters {
            let p = prims[Int(ci)]
            if p.shape == .plane {
                if abs((centre - p.frame.origin).dot(p.frame.w)) < reach { out.append(ci) }
                continue
            }
            if !p.boundRadius.isFinite {
                out.append(ci)
                continue
            }
            if (p.boundCentre - centre).length < p.boundRadius + reach { out.append(ci) }
        }
    }

    // MARK: Steps 2 and 3: lighting cells and their lookup

    /// Step 1's shadow casters and ambient occluders per tile, flattened: tile t's
    /// entries are `casters[casterStart[t]..<casterStart[t + 1]]`, and likewise for
    /// the occluders.
    struct TileOccluders {
        var casterStart: [Int]
        var casters: [Int32] = []
        var occluderStart: [Int]
        var occluders: [Int32] = []

        /// Empty lists for `tileCount` tiles.
        init(tileCount: Int) {
            casterStart = [Int](repeating: 0, count: tileCount + 1)
            occluderStart = [Int](repeating: 0, count: tileCount + 1)
        }

        /// Calls `body` with buffer views of the lists, valid during the call.
        func withLists<R>(_ body: (TileOccluderLists) -> R) -> R {
            casters.withUnsafeBufferPointer { allCasters in
                occluders.withUnsafeBufferPointer { allOccluders in
                    body(
                        TileOccluderLists(
                            casterStart: casterStart, occluderStart: occluderStart, allCasters: allCasters,
                            allOccluders: allOccluders))
                }
            }
        }
    }

    /// `TileOccluders` as buffer views (see `TileOccluders.withLists`).
    struct TileOccluderLists {
        let casterStart: [Int]
        let occluderStart: [Int]
        let allCasters: UnsafeBufferPointer<Int32>
        let allOccluders: UnsafeBufferPointer<Int32>

        /// The shadow casters and the ambient occluders of `tile`.
        @inline(__always)
        func lists(_ tile: Int) -> (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>) {
            (
                UnsafeBufferPointer(rebasing: allCasters[casterStart[tile]..<casterStart[tile + 1]]),
                UnsafeBufferPointer(rebasing: allOccluders[occluderStart[tile]..<occluderStart[tile + 1]])
            )
        }
    }

    /// Step 2's result: a grid of `columns` x `rows` lighting cells of `size` x `size`
    /// px. Per cell, from the hit of its centre pixel: primitive (-1 for none), ray
    /// depth, normal facing the camera (3 values per cell), and light visibility V and
    /// ambient openness A (1 where nothing was hit).
    struct LightingCells {
        let size: Int, columns: Int, rows: Int
        var index: [Int32]
        var depth: [Float]
        var normal: [Float]
        var visibility: [Float]
        var openness: [Float]

        /// Empty cells of `size` px covering a width x height image.
        init(size: Int, width w: Int, height h: Int) {
            self.size = size
            columns = (w + size - 1) / size
            rows = (h + size - 1) / size
            let cn = columns * rows
            index = [Int32](repeating: -1, count: cn)
            depth = [Float](repeating: .infinity, count: cn)
            normal = [Float](repeating: 0, count: 3 * cn)
            visibility = [Float](repeating: 1, count: cn)
            openness = [Float](repeating: 1, count: cn)
        }

        /// Whether cell k lies on the same surface: same primitive, depth within 5 %
        /// and, on faceted primitives (boxes, cylinders; `normal` given), a similar
        /// normal (dot > 0.9).
        @inline(__always) func compatible(_ k: Int, index: Int, t: Float, normal: Vec3?) -> Bool {
            guard Int(self.index[k]) == index && abs(depth[k] - t) <= 0.05 * t else { return false }
            guard let normal else { return true }
            return self.normal[3 * k] * normal.x + self.normal[3 * k + 1] * normal.y + self.normal[3 * k + 2] * normal.z
                > 0.9
        }

        /// Two [1 2 1] x [1 2 1] passes of V and A over compatible cells (together
        /// [1 4 6 4 1]: they hide the sampling noise of 9 shadow and 12 occlusion
        /// rays). Cells without a hit keep their values.
        mutating func smooth() {
            for _ in 0..<2 {
                let inV = visibility, inA = openness
                for j in 0..<rows {
                    for i in 0..<columns {
                        let k = j * columns + i
                        let index = Int(self.index[k])
                        guard index >= 0 else { continue }
                        let nk = Vec3(normal[3 * k], normal[3 * k + 1], normal[3 * k + 2])
                        var sv: Float = 0, sa: Float = 0, sw: Float = 0
                        for b in max(j - 1, 0)...min(j + 1, rows - 1) {
                            for a in max(i - 1, 0)...min(i + 1, columns - 1) {
                                let q = b * columns + a
                                guard compatible(q, index: index, t: depth[k], normal: nk) else { continue }
                                let wt: Float = (a == i ? 2 : 1) * (b == j ? 2 : 1)
                                sv += wt * inV[q]
                                sa += wt * inA[q]
                                sw += wt
                            }
                        }
                        visibility[k] = sv / sw
                        openness[k] = sa / sw
                    }
                }
            }
        }
    }

    /// Hit point and normal (facing the camera) of the ray through (x, y) at ray
    /// parameter `t` on primitive `index`.
    @inline(__always)
    func surfacePoint(_ c: Context, x: Float, y: Float, t: Float, index: Int) -> (Vec3, Vec3) {
        let d = view.direction(x: x, y: y)
        let p = view.origin + d * t
        var nrm = c.prims[index].surface(at: p).normal
        if nrm.dot(d) > 0 { nrm = -nrm }
        return (p, nrm)
    }

    /// V and A computed at the hit point itself, with the lists of the tile holding
    /// (x, y); (1, 1) on a display.
    @inline(__always)
    func directLighting(
        _ c: Context, lists: TileOccluderLists, x: Float, y: Float, t: Float, index: Int,
        seed: UInt32
    ) -> (Float, Float) {
        if c.materials[c.prims[index].material].kind == .display { return (1, 1) }
        let ts = SceneRenderer.tileSize
        let tile = min(Int(y) / ts, tilesY - 1) * tilesX + min(Int(x) / ts, tilesX - 1)
        let (pc, po) = lists.lists(tile)
        let (p, nrm) = surfacePoint(c, x: x, y: y, t: t, index: index)
        return (
            lightVisibility(c, casters: pc, from: p, normal: nrm, depth: t, skip: index, seed: seed),
            ambientOpenness(c, occluders: po, from: p, normal: nrm, depth: t, skip: index, seed: seed)
        )
    }

    /// Step 2: V and A at the centre pixel of every lighting cell (seeded by the cell
    /// index), then smoothed over compatible cells.
    func lightingCells(_ c: Context, primary: PrimaryHits, lists: TileOccluderLists) -> LightingCells {
        let w = view.width, h = view.height
        var cells = LightingCells(size: cell, width: w, height: h)
        let cs = cells.size, cw = cells.columns, ch = cells.rows
        for j in 0..<ch {
            for i in 0..<cw {
                let k = j * cw + i
                let x = min(i * cs + cs / 2, w - 1), y = min(j * cs + cs / 2, h - 1)
                let index = Int(primary.index[y * w + x])
                guard index >= 0 else { continue }
                let t = primary.depth[y * w + x]
                let (_, nrm) = surfacePoint(c, x: Float(x) + 0.5, y: Float(y) + 0.5, t: t, index: index)
                let l = directLighting(
                    c, lists: lists, x: Float(x) + 0.5, y: Float(y) + 0.5, t: t, index: index,
                    seed: UInt32(truncatingIfNeeded: k))
                cells.index[k] = Int32(index)
                cells.depth[k] = t
                cells.normal[3 * k] = nrm.x
                cells.normal[3 * k + 1] = nrm.y
                cells.normal[3 * k + 2] = nrm.z
                cells.visibility[k] = l.0
                cells.openness[k] = l.1
            }
        }
        cells.smooth()
        return cells
    }

    /// Step 3's lighting: V and A at image point (x, y) on the hit (t, index), the
    /// bilinear mix of the 4 nearest compatible cells (weights + 1e-4), else computed
    /// directly (`seed`). Displays only scatter a little unshadowed room light: (1, 1).
    @inline(__always)
    func lighting(
        _ c: Context, cells: LightingCells, lists: TileOccluderLists, x: Float, y: Float, t: Float,
        index: Int, seed: UInt32
    ) -> (Float, Float) {
        if c.materials[c.prims[index].material].kind == .display { return (1, 1) }
        let cs = cells.size, cw = cells.columns, ch = cells.rows
        let shape = c.prims[index].shape
        let nrm: Vec3? = shape == .box || shape == .cylinder ? surfacePoint(c, x: x, y: y, t: t, index: index).1 : nil
        let half = Float(cs / 2) + 0.5
        let fx = (x - half) / Float(cs), fy = (y - half) / Float(cs)
        let ix = Int(FastMath.floor(fx)), iy = Int(FastMath.floor(fy))
        let wx = fx - Float(ix), wy = fy - Float(iy)
        var sv: Float = 0, sa: Float = 0, sw: Float = 0
        for b in 0..<2 {
            let cy = iy + b
            guard cy >= 0 && cy < ch else { continue }
            for a in 0..<2 {
                let cx = ix + a
                guard cx >= 0 && cx < cw else { continue }
                let q = cy * cw + cx
                guard cells.compatible(q, index: index, t: t, normal: nrm) else { continue }
                let wt = (a == 0 ? 1 - wx : wx) * (b == 0 ? 1 - wy : wy) + 1e-4
                sv += wt * cells.visibility[q]
                sa += wt * cells.openness[q]
                sw += wt
            }
        }
        if sw > 0 { return (sv / sw, sa / sw) }
        return directLighting(c, lists: lists, x: x, y: y, t: t, index: index, seed: seed)
    }
}
