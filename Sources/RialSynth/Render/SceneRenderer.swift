import Foundation

/// A rectified pinhole view: centre `origin`, looking along +z, x right, y down.
/// Pixel (i, j) covers [i, i+1) x [j, j+1); its centre ray is
/// d = ((i + 1/2 - W/2) / f, (j + 1/2 - H/2) / f, 1), so the ray parameter of a hit is
/// its depth along the optical axis.
///
/// With `axes` (a moving video camera, `VideoGenerator`), the view is turned: the ray
/// is a right + b down + forward for the (a, b, 1) above, the axes given in scene
/// coordinates (orthonormal), so the ray parameter is still the depth along the view's
/// own optical axis. Without, the photo simulator's unrotated view, computed as before.
struct CameraView: Sendable {
    var origin: Vec3
    var width: Int
    var height: Int
    var focal: Float
    var axes: CameraAxes? = nil

    @inline(__always) func direction(x: Float, y: Float) -> Vec3 {
        let a = (x - Float(width) / 2) / focal, b = (y - Float(height) / 2) / focal
        guard let axes else { return Vec3(a, b, 1) }
        return axes.right * a + axes.down * b + axes.forward
    }

    /// `p` (scene coordinates, relative to nothing) in this view's axes: unchanged
    /// without `axes`.
    @inline(__always) func inViewAxes(_ p: Vec3) -> Vec3 {
        guard let axes else { return p }
        return Vec3(p.dot(axes.right), p.dot(axes.down), p.dot(axes.forward))
    }
}

/// The image axes of a turned view in scene coordinates: x (right), y (down) and the
/// optical axis (forward), orthonormal.
struct CameraAxes: Sendable, Equatable {
    var right: Vec3
    var down: Vec3
    var forward: Vec3
}

/// Scene radiance as the sensor sees it before the lens blur is applied.
///
/// `base`: linear RGB radiance per pixel (3 planes), sampled at pixel centres with
/// prefiltered textures and 4x supersampling at geometric edges; the camera applies
/// the lens PSF to it. `detail`: the zero-mean subpixel structure of a display, already
/// integrated over the PSF and the pixel area (`FilteredPatternTable`), added after the
/// blur. `depth`: ray depth per pixel (m, +inf where nothing was hit).
struct RadianceImage {
    var width: Int
    var height: Int
    var base: [Float]
    var detail: [Float]
    var depth: [Float]
}

/// Ray casts a `Scene` from one `CameraView`.
///
/// 1. Per 32 x 32 tile: nearest hits of the pixel-centre rays among the primitives
///    whose conservative screen bounds touch the tile; the shadow casters that can
///    occlude the area light for any hit point of the tile (bounding sphere within
///    reach of the cone from the tile's hit-point sphere to the light rectangle); the
///    ambient occluders within `aoRadius` of that sphere.
/// 2. Lighting cells (`lightingCell` px): at the hit of each cell's centre pixel, light
///    visibility V = share of `shadowSamples`^2 stratified, jittered points of the
///    light rectangle that are unoccluded (soft shadows), and ambient openness A = share
///    of `aoSamples` cosine-weighted rays not blocked within `aoRadius` (contact
///    shadows, darker corners); then two 3 x 3 [1 2 1] passes over cells of the same
///    surface. Jitter comes from a hash of the cell index (deterministic).
/// 3. Shading: V and A of a pixel are the bilinear mix of the 4 nearest cells on the
///    same primitive with a similar normal (dot > 0.9) and depth (within 5 %),
///    computed directly at the pixel when none qualifies. Lambertian albedo x E with
///    E = A (sky (0.75 + 0.25 N.up) + bounce (0.75 - 0.25 N.up))
///      + V light cos(theta) (0.35 + 0.65 cos(theta_emitter)) / d^2
///    (+ Blinn-Phong on glossy materials), sky = ambient (1 - b), bounce = ambient b
///    tinted by the mean albedo of the surroundings; displays emit through their
///    subpixel pattern, prints reflect through their halftone.
/// 4. Pixels on geometric edges are re-rendered with 4 rotated-grid sub-samples.
final class SceneRenderer {
    let view: CameraView
    static let tileSize = 32
    let tilesX: Int
    let tilesY: Int
    let scene: Scene
    let prims: [Primitive]
    let materials: [Material]
    let textureViews: [TextureView]
    let lightPosition: Vec3
    let lightColour: Vec3
    let lightHalfU: Vec3
    let lightHalfV: Vec3
    let lightNormal: Vec3
    /// Radius of the light rectangle, m.
    let lightReach: Float
    /// Ambient from above (sky, ceiling) and bounced from below, linear RGB.
    let skyAmbient: Vec3
    let bounceAmbient: Vec3
    let shadowSamples: Int
    let aoSamples: Int
    let aoRadius: Float
    let cell: Int
    /// Primitives that occlude ambient light: shadow casters and planes.
    let aoCasters: [Int32]
    let up: Vec3
    let glare: GlareLight?
    let displayConstants: DisplayConstants?
    let printConstants: PrintConstants?
    let tileStart: [Int]
    let tileList: [Int32]
    /// Per tile entry: a lower bound of the ray parameter of any hit of that primitive
    /// in that tile; entries are sorted by it, so the nearest-hit search stops at the
    /// first bound beyond the best hit.
    let tileBound: [Float]
    let shadowCasters: [Int32]
    /// Per tile: the display's filtered pattern tables and content level of detail.
    let displayTiles: DisplayTiles
    /// Per tile: halftone constants, content and fibre level of detail of the print.
    let printTiles: PrintTiles
    /// Per image row: rolling-shutter gain of the display's emission.
    let rowGains: [Float]

    init(scene: Scene, view: CameraView, rowGains: [Float]?) {
        self.scene = scene
        self.view = view
        prims = scene.primitives
        materials = scene.materials
        textureViews = scene.textures.map { $0.view }
        lightPosition = scene.lightPosition
        lightColour = scene.lightColour
        lightHalfU = scene.lightHalfU
        lightHalfV = scene.lightHalfV
        lightNormal = scene.lightNormal
        lightReach = (scene.lightHalfU + scene.lightHalfV).length
        // Bounce light carries the surroundings' colour, normalised to unit luminance
        // and desaturated by 30 % (several bounces mix toward grey).
        let rho = scene.surroundingAlbedo()
        let lum = max(0.2126 * rho.x + 0.7152 * rho.y + 0.0722 * rho.z, 1e-3)
        let tint = Vec3(1, 1, 1) * 0.3 + Vec3(rho.x / lum, rho.y / lum, rho.z / lum) * 0.7
        let b = min(max(scene.bounce, 0), 1)
        skyAmbient = scene.ambient * (1 - b)
        bounceAmbient = scene.ambient.scaled(by: tint) * b
        shadowSamples = min(max(scene.shadowSamples, 1), 8)
        aoSamples = min(max(scene.aoSamples, 0), 64)
        aoRadius = max(scene.aoRadius, 0.01)
        cell = min(max(scene.lightingCell, 1), 32)
        aoCasters = scene.primitives.indices.filter {
            scene.primitives[$0].castsShadow || scene.primitives[$0].shape == .plane
        }
        .map { Int32($0) }
        up = scene.up
        glare = scene.glare
        displayConstants = scene.display.map { DisplayConstants($0, scene: scene) }
        printConstants = scene.print.map { PrintConstants($0) }
        let tx = (view.width + SceneRenderer.tileSize - 1) / SceneRenderer.tileSize
        let ty = (view.height + SceneRenderer.tileSize - 1) / SceneRenderer.tileSize
        tilesX = tx
        tilesY = ty
        self.rowGains = rowGains ?? [Float](repeating: 1, count: view.height)
        let tiles = SceneRenderer.buildTiles(scene.primitives, view: view, tilesX: tx, tilesY: ty)
        tileStart = tiles.start
        tileList = tiles.list
        tileBound = tiles.bound
        shadowCasters = tiles.casters
        displayTiles =
            scene.display.map { DisplayTiles($0, primitives: scene.primitives, tiles: tiles) } ?? DisplayTiles()
        printTiles = scene.print.map { PrintTiles($0, primitives: scene.primitives, tiles: tiles) } ?? PrintTiles()
    }

    // MARK: Per-pixel work

    /// Pointers to the immutable state, captured once per render.
    struct Context {
        var prims: UnsafeBufferPointer<Primitive>
        var materials: UnsafeBufferPointer<Material>
        var textures: UnsafeBufferPointer<TextureView>
        var tileStart: UnsafeBufferPointer<Int>
        var tileList: UnsafeBufferPointer<Int32>
        var tileBound: UnsafeBufferPointer<Float>
        var printTile: UnsafeBufferPointer<Float>
        var lut: UnsafeBufferPointer<Float>
        var eotf: UnsafeBufferPointer<Float>
        var rowGains: UnsafeBufferPointer<Float>
    }

    @inline(__always)
    func withContext<R>(_ body: (Context) -> R) -> R {
        prims.withUnsafeBufferPointer { p in
            materials.withUnsafeBufferPointer { m in
                textureViews.withUnsafeBufferPointer { tv in
                    tileStart.withUnsafeBufferPointer { ts in
                        tileList.withUnsafeBufferPointer { tl in
                            tileBound.withUnsafeBufferPointer { tb in
                                printTiles.halftone.withUnsafeBufferPointer { pt in
                                    displayTiles.lutData.withUnsafeBufferPointer { lut in
                                        displayTiles.eotf.withUnsafeBufferPointer { e in
                                            rowGains.withUnsafeBufferPointer { rg in
                                                body(
                                                    Context(
                                                        prims: p, materials: m, textures: tv, tileStart: ts,
                                                        tileList: tl, tileBound: tb, printTile: pt,
                                                        lut: lut, eotf: e, rowGains: rg))
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Nearest hit along o + t d among the tile's primitives: (t, index) or (inf, -1).
    @inline(__always)
    func nearest(_ c: Context, tile: Int, origin o: Vec3, direction d: Vec3) -> (Float, Int) {
        var best = Float.infinity, index = -1
        for k in c.tileStart[tile]..<c.tileStart[tile + 1] {
            if c.tileBound[k] >= best { break }
            let i = Int(c.tileList[k])
            let t = c.prims[i].intersect(origin: o, direction: d, tMax: best)
            if t < best {
                best = t
                index = i
            }
        }
        return (best, index)
    }

    // MARK: Image

    /// Renders radiance at every pixel: steps 1-4 of the type's documentation.
    func render() -> RadianceImage {
        let w = view.width, h = view.height, n = w * h
        var base = [Float](repeating: 0, count: 3 * n)
        var detail = [Float](repeating: 0, count: scene.display != nil ? 3 * n : 0)
        var depth = [Float]()
        withContext { c in
            let primary = tracePrimaryRays(c)
            depth = primary.depth
            primary.occluders.withLists { lists in
                let cells = lightingCells(c, primary: primary, lists: lists)
                let keys = shadePixels(c, primary: primary, cells: cells, lists: lists, base: &base, detail: &detail)
                let edges = edgePixels(keys: keys, depth: primary.depth)
                supersampleEdges(c, edges: edges, cells: cells, lists: lists, base: &base, detail: &detail)
            }
        }
        return RadianceImage(width: w, height: h, base: base, detail: detail, depth: depth)
    }

    /// Step 1's result: per pixel, the nearest primitive of the pixel-centre ray (-1
    /// for none) and its ray depth (+inf for none); per tile, the shadow casters and
    /// ambient occluders the tile's hit points can need.
    struct PrimaryHits {
        var index: [Int32]
        var depth: [Float]
        var occluders: TileOccluders
    }

    /// Step 1: nearest hits of the pixel-centre rays, tile by tile, and each tile's
    /// caster and occluder lists for the bounding sphere of its hit points (half the
    /// box diagonal plus 10 % and 1 cm: a margin for the edge sub-samples).
    func tracePrimaryRays(_ c: Context) -> PrimaryHits {
        let w = view.width, h = view.height, n = w * h
        let ts = SceneRenderer.tileSize
        var depth = [Float](repeating: .infinity, count: n)
        var hits = [Int32](repeating: -1, count: n)
        var lists = TileOccluders(tileCount: tilesX * tilesY)
        var local = [Int32]()
        depth.withUnsafeMutableBufferPointer { z in
            hits.withUnsafeMutableBufferPointer { hit in
                for ty in 0..<tilesY {
                    for tx in 0..<tilesX {
                        let tile = ty * tilesX + tx
                        let y0 = ty * ts, y1 = min(y0 + ts, h), x0 = tx * ts, x1 = min(x0 + ts, w)
                        var lo = Vec3(.infinity, .infinity, .infinity), hi = -lo
                        for y in y0..<y1 {
                            for x in x0..<x1 {
                                let d = view.direction(x: Float(x) + 0.5, y: Float(y) + 0.5)
                                let (t, index) = nearest(c, tile: tile, origin: view.origin, direction: d)
                                hit[y * w + x] = Int32(index)
                                z[y * w + x] = t
                                if index >= 0 {
                                    let p = view.origin + d * t
                                    lo = Vec3(min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z))
                                    hi = Vec3(max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z))
                                }
                            }
                        }
                        if lo.x.isFinite {
                            let centre = (lo + hi) * 0.5, radius = (hi - lo).length * 0.55 + 0.01
                            casters(near: centre, radius: radius, into: &local)
                            lists.casters.append(contentsOf: local)
                            occluders(near: centre, radius: radius, into: &local)
                            lists.occluders.append(contentsOf: local)
                        }
                        lists.casterStart[tile + 1] = lists.casters.count
                        lists.occluderStart[tile + 1] = lists.occluders.count
                    }
                }
            }
        }
        return PrimaryHits(index: hits, depth: depth, occluders: lists)
    }

    /// Step 3: shades every pixel centre into `base` and `detail` (3 planes each;
    /// `detail` is empty without a display). Returns each pixel's surface key: the
    /// primitive shaded, -1 for none.
    func shadePixels(
        _ c: Context, primary: PrimaryHits, cells: LightingCells, lists: TileOccluderLists,
        base: inout [Float], detail: inout [Float]
    ) -> [Int32] {
        let w = view.width, h = view.height, n = w * h
        let ts = SceneRenderer.tileSize
        let hasDetail = scene.display != nil
        var keys = [Int32](repeating: -1, count: n)
        base.withUnsafeMutableBufferPointer { b in
            detail.withUnsafeMutableBufferPointer { dt in
                keys.withUnsafeMutableBufferPointer { key in
                    for y in 0..<h {
                        for x in 0..<w {
                            let i = y * w + x
                            let index = Int(primary.index[i])
                            let tile = (y / ts) * tilesX + x / ts
                            let px = Float(x) + 0.5, py = Float(y) + 0.5
                            let l =
                                index >= 0
                                ? lighting(
                                    c, cells: cells, lists: lists, x: px, y: py, t: primary.depth[i],
                                    index: index, seed: 0x8000_0000 | UInt32(truncatingIfNeeded: i)) : (1, 1)
                            let s = shade(
                                c, x: px, y: py, row: y, tile: tile, t: primary.depth[i], index: index,
                                visibility: l.0, openness: l.1)
                            b[i] = s.r
                            b[n + i] = s.g
                            b[2 * n + i] = s.b
                            if hasDetail {
                                dt[i] = s.dr
                                dt[n + i] = s.dg
                                dt[2 * n + i] = s.db
                            }
                            key[i] = s.key
                        }
                    }
                }
            }
        }
        return keys
    }

    /// Step 4, which pixels: those on a geometric edge, where the right or lower
    /// neighbour has another surface key or a depth more than 2 % of the nearer depth
    /// away (both pixels of such a pair are marked).
    func edgePixels(keys: [Int32], depth: [Float]) -> [Bool] {
        let w = view.width, h = view.height
        var edge = [Bool](repeating: false, count: w * h)
        keys.withUnsafeBufferPointer { key in
            depth.withUnsafeBufferPointer { z in
                for y in 0..<h {
                    for x in 0..<w {
                        let i = y * w + x
                        if x + 1 < w && (key[i] != key[i + 1] || abs(z[i] - z[i + 1]) > 0.02 * min(z[i], z[i + 1])) {
                            edge[i] = true
                            edge[i + 1] = true
                        }
                        if y + 1 < h && (key[i] != key[i + w] || abs(z[i] - z[i + w]) > 0.02 * min(z[i], z[i + w])) {
                            edge[i] = true
                            edge[i + w] = true
                        }
                    }
                }
            }
        }
        return edge
    }

    /// Step 4: re-renders each pixel marked in `edges` as the mean of 4 rotated-grid
    /// sub-samples (offsets (-1/8, -3/8), (3/8, -1/8), (1/8, 3/8), (-3/8, 1/8) px),
    /// each traced, lit and shaded on its own.
    func supersampleEdges(
        _ c: Context, edges: [Bool], cells: LightingCells, lists: TileOccluderLists,
        base: inout [Float], detail: inout [Float]
    ) {
        let w = view.width, h = view.height, n = w * h
        let ts = SceneRenderer.tileSize
        let hasDetail = scene.display != nil
        let offsets: [(Float, Float)] = [(-0.125, -0.375), (0.375, -0.125), (0.125, 0.375), (-0.375, 0.125)]
        base.withUnsafeMutableBufferPointer { b in
            detail.withUnsafeMutableBufferPointer { dt in
                for y in 0..<h {
                    for x in 0..<w where edges[y * w + x] {
                        let i = y * w + x
                        let tile = (y / ts) * tilesX + x / ts
                        var acc = Sample()
                        for (m, o) in offsets.enumerated() {
                            let px = Float(x) + 0.5 + o.0, py = Float(y) + 0.5 + o.1
                            let (t, index) = nearest(
                                c, tile: tile, origin: view.origin, direction: view.direction(x: px, y: py))
                            let l =
                                index >= 0
                                ? lighting(
                                    c, cells: cells, lists: lists, x: px, y: py, t: t, index: index,
                                    seed: 0x4000_0000 ^ UInt32(truncatingIfNeeded: i * 4 + m)) : (1, 1)
                            let s = shade(
                                c, x: px, y: py, row: y, tile: tile, t: t, index: index, visibility: l.0, openness: l.1)
                            acc.r += s.r
                            acc.g += s.g
                            acc.b += s.b
                            acc.dr += s.dr
                            acc.dg += s.dg
                            acc.db += s.db
                        }
                        b[i] = acc.r * 0.25
                        b[n + i] = acc.g * 0.25
                        b[2 * n + i] = acc.b * 0.25
                        if hasDetail {
                            dt[i] = acc.dr * 0.25
                            dt[n + i] = acc.dg * 0.25
                            dt[2 * n + i] = acc.db * 0.25
                        }
                    }
                }
            }
        }
    }

    // MARK: Depth

    /// Ray depths for a depth grid of `columns` x `rows` cells covering the image, each
    /// sampled by `sub` x `sub` stratified rays: result[(j * columns + i) * sub^2 + k].
    func depthSamples(columns: Int, rows: Int, sub: Int) -> [Float] {
        var out = [Float](repeating: .infinity, count: columns * rows * sub * sub)
        let sx = Float(view.width) / Float(columns), sy = Float(view.height) / Float(rows)
        let ts = SceneRenderer.tileSize
        withContext { c in
            var k = 0
            for j in 0..<rows {
                for i in 0..<columns {
                    for b in 0..<sub {
                        for a in 0..<sub {
                            let x = (Float(i) + (Float(a) + 0.5) / Float(sub)) * sx
                            let y = (Float(j) + (Float(b) + 0.5) / Float(sub)) * sy
                            let tx = min(Int(x) / ts, tilesX - 1), ty = min(Int(y) / ts, tilesY - 1)
                            out[k] =
                                nearest(
                                    c, tile: ty * tilesX + tx, origin: view.origin,
                                    direction: view.direction(x: x, y: y)
                                ).0
                            k += 1
                        }
                    }
                }
            }
        }
        return out
    }
}
