import Foundation

// Screen tiles of `SceneRenderer`: which primitives each tile's rays can hit, and the
// per-tile constants of the display and the print.
extension SceneRenderer {
    /// Conservative pixel rectangle of a primitive's bounding sphere, or nil for
    /// "everywhere" (unbounded or straddling the camera plane).
    static func screenBounds(_ p: Primitive, view: CameraView) -> (Int, Int, Int, Int)? {
        guard p.boundRadius.isFinite else { return nil }
        let c = view.inViewAxes(p.boundCentre - view.origin), r = p.boundRadius
        if c.z - r < 0.01 { return nil }
        let zn = c.z - r, zf = c.z + r
        let xMin = min((c.x - r) / zn, (c.x - r) / zf), xMax = max((c.x + r) / zn, (c.x + r) / zf)
        let yMin = min((c.y - r) / zn, (c.y - r) / zf), yMax = max((c.y + r) / zn, (c.y + r) / zf)
        let w2 = Float(view.width) / 2, h2 = Float(view.height) / 2
        func clampInt(_ v: Float) -> Int { Int(min(max(v, -1e6), 1e6)) }
        return (
            clampInt((xMin * view.focal + w2).rounded(.down)) - 1,
            clampInt((yMin * view.focal + h2).rounded(.down)) - 1,
            clampInt((xMax * view.focal + w2).rounded(.up)) + 1, clampInt((yMax * view.focal + h2).rounded(.up)) + 1
        )
    }

    /// Which primitives the rays of each screen tile of `view` can hit, and every
    /// primitive that casts a shadow.
    ///
    /// A primitive goes to the tiles its conservative screen bounds touch, with the
    /// ray-parameter bound of its nearest point; an infinite plane to the tiles whose
    /// corner rays show it can be hit, bounded by its nearest corner hit when all four
    /// do; any other primitive without screen bounds (unbounded, or straddling the
    /// camera plane) to every tile.
    static func buildTiles(_ primitives: [Primitive], view: CameraView, tilesX: Int, tilesY: Int) -> TileTable {
        let n = tilesX * tilesY, ts = SceneRenderer.tileSize
        var lists = [[(Int32, Float)]](repeating: [], count: n)
        var casters = [Int32]()
        for (i, p) in primitives.enumerated() {
            if p.castsShadow { casters.append(Int32(i)) }
            let bound =
                if let axes = view.axes {
                    max(p.depthLowerBound(along: axes.forward) - view.origin.dot(axes.forward), 0)
                } else {
                    max(p.depthLowerBound - view.origin.z, 0)
                }
            if let b = screenBounds(p, view: view) {
                let tx0 = max(b.0 / ts, 0), tx1 = min(b.2 / ts, tilesX - 1)
                let ty0 = max(b.1 / ts, 0), ty1 = min(b.3 / ts, tilesY - 1)
                if b.2 < 0 || b.3 < 0 || tx0 > tx1 || ty0 > ty1 { continue }
                for ty in ty0...ty1 { for tx in tx0...tx1 { lists[ty * tilesX + tx].append((Int32(i), bound)) } }
            } else if p.shape == .plane {
                // An infinite plane is hit by ray d iff n . d has the sign of
                // num = n . (p0 - o). The tile's rays d = (x', y', 1) (turned by the
                // view's axes, a linear map) span a convex quadrilateral on which n . d is affine: if no corner ray hits, no ray
                // does; if all do, t = num / (n . d) is smallest at a corner.
                let num = p.frame.w.dot(p.frame.origin - view.origin)
                for ty in 0..<tilesY {
                    for tx in 0..<tilesX {
                        var hits = 0
                        var tLow = Float.infinity
                        for corner in 0..<4 {
                            let x = Float(min((tx + (corner & 1)) * ts, view.width))
                            let y = Float(min((ty + (corner >> 1)) * ts, view.height))
                            let dn = p.frame.w.dot(view.direction(x: x, y: y))
                            if dn != 0 && (dn > 0) == (num > 0) {
                                hits += 1
                                tLow = min(tLow, num / dn)
                            }
                        }
                        if hits == 0 { continue }
                        lists[ty * tilesX + tx].append((Int32(i), hits == 4 ? tLow * 0.999 : 0))
                    }
                }
            } else {
                for t in 0..<n { lists[t].append((Int32(i), bound)) }
            }
        }
        var start = [0], list = [Int32](), bounds = [Float]()
        for l in lists {
            for e in l.sorted(by: { $0.1 < $1.1 }) {
                list.append(e.0)
                bounds.append(e.1)
            }
            start.append(list.count)
        }
        return TileTable(
            view: view, tilesX: tilesX, tilesY: tilesY, start: start, list: list, bound: bounds,
            casters: casters)
    }

    /// The screen tiles of one view and the primitives their rays can hit: tile t's
    /// entries are `list[start[t]..<start[t + 1]]`, sorted by `bound`, a lower bound of
    /// the ray parameter of any hit of that primitive in that tile (so the nearest-hit
    /// search stops at the first bound beyond the best hit). `casters`: every
    /// primitive that casts a shadow.
    struct TileTable {
        let view: CameraView
        let tilesX: Int, tilesY: Int
        let start: [Int]
        let list: [Int32]
        let bound: [Float]
        let casters: [Int32]

        /// Calls `body(tile, jacobian)` for every tile whose list holds `primitive`, in
        /// row-major order, with the Jacobian (`planeJacobian`) of that primitive's
        /// plane at the tile's centre, clamped to the last pixel centre of the image;
        /// tiles where the plane is not in front of the camera are skipped.
        func forEachTile(
            listing primitive: Int, of primitives: [Primitive],
            _ body: (Int, (Float, Float, Float, Float)) -> Void
        ) {
            func tileContains(_ tile: Int) -> Bool {
                for k in start[tile]..<start[tile + 1] where Int(list[k]) == primitive { return true }
                return false
            }
            let p = primitives[primitive]
            let ts = Float(SceneRenderer.tileSize)
            for j in 0..<tilesY {
                for i in 0..<tilesX {
                    let t = j * tilesX + i
                    guard tileContains(t) else { continue }
                    let cx = min((Float(i) + 0.5) * ts, Float(view.width) - 0.5)
                    let cy = min((Float(j) + 0.5) * ts, Float(view.height) - 0.5)
                    guard let h = SceneRenderer.planeJacobian(p, view: view, x: cx, y: cy) else { continue }
                    body(t, h.j)
                }
            }
        }
    }

    /// Jacobian d(s, t) / d(x, y) (surface metres per px) of the plane of `p` at pixel
    /// position (x, y) by central differences; nil if the plane is not in front.
    static func planeJacobian(_ p: Primitive, view: CameraView, x: Float, y: Float) -> (
        s: Float, t: Float, j: (Float, Float, Float, Float)
    )? {
        func hit(_ x: Float, _ y: Float) -> (Float, Float)? {
            let d = view.direction(x: x, y: y)
            let dw = d.dot(p.frame.w)
            if abs(dw) < 1e-9 { return nil }
            let t = (p.frame.origin - view.origin).dot(p.frame.w) / dw
            if t <= 0 { return nil }
            let q = view.origin + d * t - p.frame.origin
            return (q.dot(p.frame.u), q.dot(p.frame.v))
        }
        guard let c = hit(x, y), let ex = hit(x + 0.5, y), let wx = hit(x - 0.5, y),
            let sy = hit(x, y + 0.5), let ny = hit(x, y - 0.5)
        else { return nil }
        return (c.0, c.1, (ex.0 - wx.0, sy.0 - ny.0, ex.1 - wx.1, sy.1 - ny.1))
    }

    /// The display's per-tile state: which filtered pattern table serves each tile and
    /// the level of detail of the content there, all tables flattened for the
    /// per-pixel lookup, and the display's EOTF. Empty without a display.
    struct DisplayTiles {
        /// Per tile: filtered pattern table index (-1 none) and content level of detail
        /// log2(sqrt(|det J|) max(content scale)), J the Jacobian in display pixels per
        /// sensor pixel.
        var table: [Int32] = []
        var lod: [Float] = []
        /// All filtered pattern tables, flattened: values, offsets, sizes and scales
        /// (u, v per table).
        var lutData: [Float] = []
        var lutOffset: [Int] = []
        var lutSize: [Int] = []
        var lutScale: [Float] = []
        /// Display EOTF table: x^gamma on 1025 points.
        var eotf: [Float] = []

        init() {}

        init(_ d: DisplaySurface, primitives: [Primitive], tiles: TileTable) {
            let n = tiles.tilesX * tiles.tilesY
            var dTable = [Int32](repeating: -1, count: n)
            var dLod = [Float](repeating: 0, count: n)
            let inv = 1 / d.pitchM
            tiles.forEachTile(listing: d.primitive, of: primitives) { t, j in
                let jac = (j.0 * inv, j.1 * inv, j.2 * inv, j.3 * inv)
                dTable[t] = Int32(d.patterns.tableIndex(for: jac))
                let det = abs(jac.0 * jac.3 - jac.1 * jac.2).squareRoot()
                dLod[t] = log2(max(det * max(d.contentScaleU, d.contentScaleV), 1e-6))
            }
            table = dTable
            lod = dLod
            for tb in d.patterns.tables {
                lutOffset.append(lutData.count)
                lutSize.append(tb.n)
                lutScale.append(tb.scaleU)
                lutScale.append(tb.scaleV)
                lutData.append(contentsOf: tb.values)
            }
            let g = d.parameters.gamma
            eotf = (0...1024).map { pow(Float($0) / 1024, g) }
        }
    }

    /// The print's per-tile state: halftone constants (`HalftonePrinter.prepareTile`,
    /// `HalftonePrinter.tileStride` values per tile) and the levels of detail of the
    /// content and of the paper fibres. Empty without a print.
    struct PrintTiles {
        var halftone: [Float] = []
        var lod: [Float] = []
        var fibreLod: [Float] = []

        init() {}

        init(_ pr: PrintSurface, primitives: [Primitive], tiles: TileTable) {
            let n = tiles.tilesX * tiles.tilesY
            let stride = HalftonePrinter.tileStride
            var pTile = [Float](repeating: 0, count: n * stride)
            var pLod = [Float](repeating: 0, count: n)
            var fLod = [Float](repeating: 0, count: n)
            let fibreScale = Float(pr.fibres.width) / pr.fibreTileM
            pTile.withUnsafeMutableBufferPointer { buf in
                tiles.forEachTile(listing: pr.primitive, of: primitives) { t, j in
                    pr.halftone?.prepareTile(jacobian: j, into: buf, at: t * stride)
                    let det = abs(j.0 * j.3 - j.1 * j.2).squareRoot()
                    pLod[t] = log2(max(det * max(pr.contentScaleU, pr.contentScaleV), 1e-6))
                    fLod[t] = log2(max(det * fibreScale, 1e-6))
                }
            }
            halftone = pTile
            lod = pLod
            fibreLod = fLod
        }
    }
}
