import Foundation

/// A rectified pinhole view: centre `origin`, looking along +z, x right, y down.
/// Pixel (i, j) covers [i, i+1) x [j, j+1); its centre ray is
/// d = ((i + 1/2 - W/2) / f, (j + 1/2 - H/2) / f, 1), so the ray parameter of a hit is
/// its depth along the optical axis.
struct CameraView: Sendable {
    var origin: Vec3
    var width: Int
    var height: Int
    var focal: Float

    @inline(__always) func direction(x: Float, y: Float) -> Vec3 {
        Vec3((x - Float(width) / 2) / focal, (y - Float(height) / 2) / focal, 1)
    }
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
    private let scene: Scene
    private let prims: [Primitive]
    private let materials: [Material]
    private let textureViews: [TextureView]
    private let lightPosition: Vec3
    private let lightColour: Vec3
    private let lightHalfU: Vec3
    private let lightHalfV: Vec3
    private let lightNormal: Vec3
    /// Radius of the light rectangle, m.
    private let lightReach: Float
    /// Ambient from above (sky, ceiling) and bounced from below, linear RGB.
    private let skyAmbient: Vec3
    private let bounceAmbient: Vec3
    private let shadowSamples: Int
    private let aoSamples: Int
    private let aoRadius: Float
    private let cell: Int
    /// Primitives that occlude ambient light: shadow casters and planes.
    private let aoCasters: [Int32]
    private let up: Vec3
    private let glare: GlareLight?
    private let displayConstants: DisplayConstants?
    private let printConstants: PrintConstants?
    private let tileStart: [Int]
    private let tileList: [Int32]
    /// Per tile entry: a lower bound of the ray parameter of any hit of that primitive
    /// in that tile; entries are sorted by it, so the nearest-hit search stops at the
    /// first bound beyond the best hit.
    private let tileBound: [Float]
    private let shadowCasters: [Int32]
    /// Per tile: filtered pattern table index of the display (-1 none) and content
    /// level of detail.
    private let displayTable: [Int32]
    private let displayLod: [Float]
    /// All filtered pattern tables, flattened: values, offsets, sizes and scales.
    private let lutData: [Float]
    private let lutOffset: [Int]
    private let lutSize: [Int]
    private let lutScale: [Float]
    /// Per tile: halftone constants, content and fibre level of detail.
    private let printTile: [Float]
    private let printLod: [Float]
    private let fibreLod: [Float]
    /// Per image row: rolling-shutter gain of the display's emission.
    private let rowGains: [Float]
    /// Display EOTF table: x^gamma on 1025 points.
    private let eotf: [Float]

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
        aoCasters = scene.primitives.indices.filter { scene.primitives[$0].castsShadow || scene.primitives[$0].shape == .plane }
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

        func tileContains(_ tile: Int, _ primitive: Int) -> Bool {
            for k in tiles.start[tile]..<tiles.start[tile + 1] where Int(tiles.list[k]) == primitive { return true }
            return false
        }
        let n = tx * ty
        let ts = Float(SceneRenderer.tileSize)
        var dTable = [Int32](), dLod = [Float](), table = [Float]()
        var lOffset = [Int](), lSize = [Int](), lScale = [Float](), curve = [Float]()
        if let d = scene.display {
            dTable = [Int32](repeating: -1, count: n)
            dLod = [Float](repeating: 0, count: n)
            let p = scene.primitives[d.primitive]
            let inv = 1 / d.pitchM
            for j in 0..<ty {
                for i in 0..<tx {
                    let t = j * tx + i
                    guard tileContains(t, d.primitive) else { continue }
                    let cx = min((Float(i) + 0.5) * ts, Float(view.width) - 0.5)
                    let cy = min((Float(j) + 0.5) * ts, Float(view.height) - 0.5)
                    guard let h = SceneRenderer.planeJacobian(p, view: view, x: cx, y: cy) else { continue }
                    let jac = (h.j.0 * inv, h.j.1 * inv, h.j.2 * inv, h.j.3 * inv)
                    dTable[t] = Int32(d.patterns.tableIndex(for: jac))
                    let det = abs(jac.0 * jac.3 - jac.1 * jac.2).squareRoot()
                    dLod[t] = log2(max(det * max(d.contentScaleU, d.contentScaleV), 1e-6))
                }
            }
            for tb in d.patterns.tables {
                lOffset.append(table.count)
                lSize.append(tb.n)
                lScale.append(tb.scaleU); lScale.append(tb.scaleV)
                table.append(contentsOf: tb.values)
            }
            let g = d.parameters.gamma
            curve = (0...1024).map { pow(Float($0) / 1024, g) }
        }
        displayTable = dTable
        displayLod = dLod
        lutData = table
        lutOffset = lOffset
        lutSize = lSize
        lutScale = lScale
        eotf = curve

        var pTile = [Float](), pLod = [Float](), fLod = [Float]()
        if let pr = scene.print {
            let stride = HalftonePrinter.tileStride
            pTile = [Float](repeating: 0, count: n * stride)
            pLod = [Float](repeating: 0, count: n)
            fLod = [Float](repeating: 0, count: n)
            let p = scene.primitives[pr.primitive]
            let fibreScale = Float(pr.fibres.width) / pr.fibreTileM
            pTile.withUnsafeMutableBufferPointer { buf in
                for j in 0..<ty {
                    for i in 0..<tx {
                        let t = j * tx + i
                        guard tileContains(t, pr.primitive) else { continue }
                        let cx = min((Float(i) + 0.5) * ts, Float(view.width) - 0.5)
                        let cy = min((Float(j) + 0.5) * ts, Float(view.height) - 0.5)
                        guard let h = SceneRenderer.planeJacobian(p, view: view, x: cx, y: cy) else { continue }
                        pr.halftone?.prepareTile(jacobian: h.j, into: buf, at: t * stride)
                        let det = abs(h.j.0 * h.j.3 - h.j.1 * h.j.2).squareRoot()
                        pLod[t] = log2(max(det * max(pr.contentScaleU, pr.contentScaleV), 1e-6))
                        fLod[t] = log2(max(det * fibreScale, 1e-6))
                    }
                }
            }
        }
        printTile = pTile
        printLod = pLod
        fibreLod = fLod
    }

    /// Per-capture constants of the display, without reference counting.
    private struct DisplayConstants {
        var pitchM: Float, contentScaleU: Float, contentScaleV: Float
        var content: TextureView
        var falloff: Float, black: Float, white: Vec3
        var glass: CoverGlass?
        init(_ d: DisplaySurface, scene: Scene) {
            pitchM = d.pitchM; contentScaleU = d.contentScaleU; contentScaleV = d.contentScaleV
            content = d.content.view
            falloff = d.parameters.viewFalloffExponent; black = d.parameters.blackLevel; white = d.white
            let a = scene.ambient
            glass = CoverGlass(parameters: d.parameters, normal: scene.primitives[d.primitive].frame.w, up: scene.up,
                               roomColour: a.y > 0 ? a * (1 / a.y) : Vec3(1, 1, 1))
        }
    }

    /// Per-capture constants of the print, without reference counting.
    private struct PrintConstants {
        var contentScaleU: Float, contentScaleV: Float
        var content: TextureView, fibres: TextureView
        var fibreScale: Float, paperTexture: Float, paper: Vec3, tonerBlack: Float
        var halftone: HalftonePrinter?
        init(_ p: PrintSurface) {
            contentScaleU = p.contentScaleU; contentScaleV = p.contentScaleV
            content = p.content.view; fibres = p.fibres.view
            fibreScale = Float(p.fibres.width) / p.fibreTileM
            paperTexture = p.parameters.paperTexture; paper = p.paper
            tonerBlack = p.parameters.inkBlack / max(p.parameters.paperWhite, 0.01)
            halftone = p.halftone
        }
    }

    // MARK: Tiles

    /// Conservative pixel rectangle of a primitive's bounding sphere, or nil for
    /// "everywhere" (unbounded or straddling the camera plane).
    private static func screenBounds(_ p: Primitive, view: CameraView) -> (Int, Int, Int, Int)? {
        guard p.boundRadius.isFinite else { return nil }
        let c = p.boundCentre - view.origin, r = p.boundRadius
        if c.z - r < 0.01 { return nil }
        let zn = c.z - r, zf = c.z + r
        let xMin = min((c.x - r) / zn, (c.x - r) / zf), xMax = max((c.x + r) / zn, (c.x + r) / zf)
        let yMin = min((c.y - r) / zn, (c.y - r) / zf), yMax = max((c.y + r) / zn, (c.y + r) / zf)
        let w2 = Float(view.width) / 2, h2 = Float(view.height) / 2
        func clampInt(_ v: Float) -> Int { Int(min(max(v, -1e6), 1e6)) }
        return (clampInt((xMin * view.focal + w2).rounded(.down)) - 1, clampInt((yMin * view.focal + h2).rounded(.down)) - 1,
                clampInt((xMax * view.focal + w2).rounded(.up)) + 1, clampInt((yMax * view.focal + h2).rounded(.up)) + 1)
    }

    private static func buildTiles(_ primitives: [Primitive], view: CameraView, tilesX: Int, tilesY: Int)
        -> (start: [Int], list: [Int32], bound: [Float], casters: [Int32]) {
        let n = tilesX * tilesY, ts = SceneRenderer.tileSize
        var lists = [[(Int32, Float)]](repeating: [], count: n)
        var casters = [Int32]()
        for (i, p) in primitives.enumerated() {
            if p.castsShadow { casters.append(Int32(i)) }
            let bound = max(p.depthLowerBound - view.origin.z, 0)
            if let b = screenBounds(p, view: view) {
                let tx0 = max(b.0 / ts, 0), tx1 = min(b.2 / ts, tilesX - 1)
                let ty0 = max(b.1 / ts, 0), ty1 = min(b.3 / ts, tilesY - 1)
                if b.2 < 0 || b.3 < 0 || tx0 > tx1 || ty0 > ty1 { continue }
                for ty in ty0...ty1 { for tx in tx0...tx1 { lists[ty * tilesX + tx].append((Int32(i), bound)) } }
            } else if p.shape == .plane {
                // An infinite plane is hit by ray d iff n . d has the sign of
                // num = n . (p0 - o). The tile's rays d = (x', y', 1) span a convex
                // quadrilateral on which n . d is affine: if no corner ray hits, no ray
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
                            if dn != 0 && (dn > 0) == (num > 0) { hits += 1; tLow = min(tLow, num / dn) }
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
            for e in l.sorted(by: { $0.1 < $1.1 }) { list.append(e.0); bounds.append(e.1) }
            start.append(list.count)
        }
        return (start, list, bounds, casters)
    }

    /// Jacobian d(s, t) / d(x, y) (surface metres per px) of the plane of `p` at pixel
    /// position (x, y) by central differences; nil if the plane is not in front.
    static func planeJacobian(_ p: Primitive, view: CameraView, x: Float, y: Float) -> (s: Float, t: Float, j: (Float, Float, Float, Float))? {
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
              let sy = hit(x, y + 0.5), let ny = hit(x, y - 0.5) else { return nil }
        return (c.0, c.1, (ex.0 - wx.0, sy.0 - ny.0, ex.1 - wx.1, sy.1 - ny.1))
    }

    // MARK: Per-pixel work

    /// Pointers to the immutable state, captured once per render.
    private struct Context {
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
    private func withContext<R>(_ body: (Context) -> R) -> R {
        prims.withUnsafeBufferPointer { p in
        materials.withUnsafeBufferPointer { m in
        textureViews.withUnsafeBufferPointer { tv in
        tileStart.withUnsafeBufferPointer { ts in
        tileList.withUnsafeBufferPointer { tl in
        tileBound.withUnsafeBufferPointer { tb in
        printTile.withUnsafeBufferPointer { pt in
        lutData.withUnsafeBufferPointer { lut in
        eotf.withUnsafeBufferPointer { e in
        rowGains.withUnsafeBufferPointer { rg in
            body(Context(prims: p, materials: m, textures: tv, tileStart: ts, tileList: tl, tileBound: tb, printTile: pt,
                         lut: lut, eotf: e, rowGains: rg))
        } } } } } } } } } }
    }

    /// Nearest hit along o + t d among the tile's primitives: (t, index) or (inf, -1).
    @inline(__always)
    private func nearest(_ c: Context, tile: Int, origin o: Vec3, direction d: Vec3) -> (Float, Int) {
        var best = Float.infinity, index = -1
        for k in c.tileStart[tile]..<c.tileStart[tile + 1] {
            if c.tileBound[k] >= best { break }
            let i = Int(c.tileList[k])
            let t = c.prims[i].intersect(origin: o, direction: d, tMax: best)
            if t < best { best = t; index = i }
        }
        return (best, index)
    }

    private struct Sample {
        var r: Float = 0, g: Float = 0, b: Float = 0
        var dr: Float = 0, dg: Float = 0, db: Float = 0
        /// Primitive index; -1 for no hit.
        var key: Int32 = -1
    }

    /// Two uniform numbers in [0, 1) from a hash of `seed` (Wellons' lowbias32).
    @inline(__always)
    private static func hash2(_ seed: UInt32) -> (Float, Float) {
        var x = seed
        x ^= x >> 16; x = x &* 0x7FEB_352D
        x ^= x >> 15; x = x &* 0x846C_A68B
        x ^= x >> 16
        return (Float(x & 0xFFFF) * (1 / 65536), Float(x >> 16) * (1 / 65536))
    }

    /// Whether the segment from `origin` to `origin + direction` meets any of `list`
    /// other than primitive `skip` (the surface the segment starts on).
    @inline(__always)
    private static func blocked(_ c: Context, by list: UnsafeBufferPointer<Int32>, skip: Int, origin o: Vec3,
                                direction d: Vec3) -> Bool {
        for ci in list where Int(ci) != skip {
            if c.prims[Int(ci)].occludes(origin: o, direction: d) { return true }
        }
        return false
    }

    /// Light visibility V in [0, 1] at P (normal N): the share of the shadow sample
    /// points (one jittered point per stratum of the light rectangle) in front of the
    /// surface whose segment from P hits no caster.
    @inline(__always)
    private func lightVisibility(_ c: Context, casters: UnsafeBufferPointer<Int32>, from p: Vec3, normal n: Vec3,
                                 depth: Float, skip: Int, seed: UInt32) -> Float {
        let o = p + n * (2e-4 * max(depth, 1))
        let s = shadowSamples
        let inv = 2 / Float(s)
        var lit = 0
        for b in 0..<s {
            for a in 0..<s {
                let j = SceneRenderer.hash2(seed &* 0x9E37_79B9 &+ UInt32(b * s + a))
                let q = lightPosition + lightHalfU * ((Float(a) + j.0) * inv - 1) + lightHalfV * ((Float(b) + j.1) * inv - 1)
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
    private func ambientOpenness(_ c: Context, occluders: UnsafeBufferPointer<Int32>, from p: Vec3, normal n: Vec3,
                                 depth: Float, skip: Int, seed: UInt32) -> Float {
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
    private func irradiance(at p: Vec3, normal n: Vec3, visibility: Float, openness: Float) -> Vec3 {
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

    @inline(__always)
    private func lookupEOTF(_ c: Context, _ x: Float) -> Float {
        let f = min(max(x, 0), 1) * 1024
        let i = min(Int(f), 1023)
        let w = f - Float(i)
        return c.eotf[i] + (c.eotf[i + 1] - c.eotf[i]) * w
    }

    /// Radiance of the hit (t, index) of the ray through image point (x, y).
    @inline(__always)
    private func shade(_ c: Context, x: Float, y: Float, row: Int, tile: Int, t: Float, index: Int,
                       visibility: Float, openness: Float) -> Sample {
        var out = Sample()
        if index < 0 { return out }
        let o = view.origin
        let d = view.direction(x: x, y: y)
        let prim = c.prims[index]
        let p = o + d * t
        let surf = prim.surface(at: p)
        var n = surf.normal
        let dLen = d.length
        var cosine = n.dot(d) / dLen
        if cosine > 0 { n = -n } else { cosine = -cosine }
        let material = c.materials[prim.material]
        switch material.kind {
        case .diffuse:
            var albedo = material.tint
            if material.texture >= 0 {
                let tex = c.textures[material.texture]
                // Texels per metre along each axis; the rotation is folded in.
                let kx = material.rotationCos * material.texelsPerMetreU, ky = material.rotationSin * material.texelsPerMetreU
                let kx2 = material.rotationSin * material.texelsPerMetreV, ky2 = material.rotationCos * material.texelsPerMetreV
                let su = surf.s * kx - surf.t * ky + material.offsetU
                let sv = surf.s * kx2 + surf.t * ky2 + material.offsetV
                // Footprint t |d| / (f sqrt(cos)) in texels, as a level of detail.
                let lod = FastMath.log2(t * dLen * material.texelsPerMetreU / view.focal) - 0.5 * FastMath.log2(max(cosine, 0.02))
                let s = tex.sample(u: su, v: sv, lod: lod, wrap: true)
                albedo = albedo.scaled(by: Vec3(s.0, s.1, s.2))
            }
            var radiance = albedo.scaled(by: irradiance(at: p, normal: n, visibility: visibility, openness: openness))
            if material.specular > 0 {
                if visibility > 0 {
                    let l = lightPosition - p
                    let d2 = l.dot(l)
                    let invL = 1 / d2.squareRoot()
                    let h = (l * invL - d * (1 / dLen)).normalized
                    let nh = max(n.dot(h), 0)
                    let nl = max(n.dot(l) * invL, 0)
                    radiance = radiance + lightColour * (visibility * material.specular * pow(nh, material.shininess) * nl / d2)
                }
                if let g = glare {
                    radiance = radiance + g.reflected(at: p, normal: n, cameraOrigin: o) * material.specular
                }
            }
            out.r = radiance.x; out.g = radiance.y; out.b = radiance.z
            out.key = Int32(index)
        case .display:
            guard let disp = displayConstants else { break }
            let u = (surf.s + prim.half.x) / disp.pitchM, v = (surf.t + prim.half.y) / disp.pitchM
            let lod = displayLod.isEmpty ? 0 : displayLod[tile]
            let e = disp.content.sample(u: u * disp.contentScaleU, v: v * disp.contentScaleV, lod: lod, wrap: false)
            // cos^k by its binomial series (cos >= 0.6 for tilts up to ~50 degrees).
            let k = disp.falloff, oneMinus = 1 - cosine
            let falloff = max(1 - k * oneMinus + 0.5 * k * (k - 1) * oneMinus * oneMinus, 0)
            let gain = falloff * c.rowGains[min(max(row, 0), c.rowGains.count - 1)]
            let black = disp.black
            let em: Vec3
            if let glass = disp.glass {
                em = glass.emitted(Vec3(lookupEOTF(c, e.0), lookupEOTF(c, e.1), lookupEOTF(c, e.2)), black: black,
                                   cosine: cosine).scaled(by: disp.white) * gain
            } else {
                em = Vec3(black + (1 - black) * lookupEOTF(c, e.0), black + (1 - black) * lookupEOTF(c, e.1),
                          black + (1 - black) * lookupEOTF(c, e.2)).scaled(by: disp.white) * gain
            }
            // Matte glass scatters a little room light; glare adds the mirrored light.
            var radiance = em + irradiance(at: p, normal: n, visibility: 1, openness: 1) * 0.012
            if let glass = disp.glass { radiance = radiance + glass.reflected(view: d * (1 / dLen), normal: n) }
            if let g = glare { radiance = radiance + g.reflected(at: p, normal: n, cameraOrigin: o) }
            out.r = radiance.x; out.g = radiance.y; out.b = radiance.z
            let table = displayTable.isEmpty ? -1 : Int(displayTable[tile])
            if table >= 0 {
                let det = patternDetail(c, table: table, u: u, v: v)
                out.dr = em.x * det.0; out.dg = em.y * det.1; out.db = em.z * det.2
            }
            out.key = Int32(index)
        case .print:
            guard let pr = printConstants else { break }
            let s = surf.s + prim.half.x, tt = surf.t + prim.half.y
            let lod = printLod.isEmpty ? 0 : printLod[tile]
            let e = pr.content.sample(u: s * pr.contentScaleU, v: tt * pr.contentScaleV, lod: lod, wrap: false)
            var rho: Vec3
            if let h = pr.halftone {
                rho = h.reflectance(s: s, t: tt, content: h.separation((e.0, e.1, e.2)), tile: c.printTile,
                                    at: tile * HalftonePrinter.tileStride)
            } else {
                // Solid toner: reflectance between toner black and paper, linear in coverage.
                let k = pr.tonerBlack
                rho = Vec3(k + (1 - k) * ColorScience.srgbToLinear(min(max(e.0, 0), 1)),
                           k + (1 - k) * ColorScience.srgbToLinear(min(max(e.1, 0), 1)),
                           k + (1 - k) * ColorScience.srgbToLinear(min(max(e.2, 0), 1)))
            }
            // Fibres: one mip level per tile (their 1-5 % contrast hides level steps).
            let f = pr.fibres.sample(u: s * pr.fibreScale, v: tt * pr.fibreScale,
                                     level: fibreLod.isEmpty ? 0 : Int(fibreLod[tile] + 0.5), wrap: true)
            let fibre = 1 + pr.paperTexture * (f.0 - 0.5) * 4
            var radiance = rho.scaled(by: pr.paper).scaled(by: irradiance(at: p, normal: n, visibility: visibility,
                                                                          openness: openness)) * fibre
            if let g = glare { radiance = radiance + g.reflected(at: p, normal: n, cameraOrigin: o) }
            out.r = radiance.x; out.g = radiance.y; out.b = radiance.z
            out.key = Int32(index)
        }
        return out
    }

    /// Bilinear read of filtered pattern table `table` at display coordinates (u, v).
    @inline(__always)
    private func patternDetail(_ c: Context, table: Int, u: Float, v: Float) -> (Float, Float, Float) {
        let n = lutSize[table], base = lutOffset[table]
        let x = u * lutScale[2 * table], y = v * lutScale[2 * table + 1]
        let xf = FastMath.floor(x), yf = FastMath.floor(y)
        let fx = x - xf, fy = y - yf
        let mask = n - 1
        let x0 = Int(xf) & mask, y0 = Int(yf) & mask
        let x1 = (x0 + 1) & mask, y1 = (y0 + 1) & mask
        let i00 = base + (y0 * n + x0) * 3, i10 = base + (y0 * n + x1) * 3
        let i01 = base + (y1 * n + x0) * 3, i11 = base + (y1 * n + x1) * 3
        let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
        let l = c.lut
        return (w00 * l[i00] + w10 * l[i10] + w01 * l[i01] + w11 * l[i11],
                w00 * l[i00 + 1] + w10 * l[i10 + 1] + w01 * l[i01 + 1] + w11 * l[i11 + 1],
                w00 * l[i00 + 2] + w10 * l[i10 + 2] + w01 * l[i01 + 2] + w11 * l[i11 + 2])
    }

    /// Shadow casters whose bounding sphere comes within reach of the segments from any
    /// point of the sphere (centre, radius) to any point of the light rectangle (a cone
    /// from the sphere to the light's bounding sphere).
    private func casters(near centre: Vec3, radius: Float, into out: inout [Int32]) {
        out.removeAll(keepingCapacity: true)
        let l = lightPosition
        let seg = l - centre
        let len2 = max(seg.dot(seg), 1e-12)
        for ci in shadowCasters {
            let p = prims[Int(ci)]
            if !p.boundRadius.isFinite { out.append(ci); continue }
            let q = p.boundCentre - centre
            let s = min(max(q.dot(seg) / len2, 0), 1)
            let dist = (q - seg * s).length
            if dist < p.boundRadius + radius * (1 - s) + lightReach * s { out.append(ci) }
        }
    }

    /// Ambient occluders within `aoRadius` of the sphere (centre, radius): bounding
    /// spheres that close, planes that close to the centre.
    private func occluders(near centre: Vec3, radius: Float, into out: inout [Int32]) {
        out.removeAll(keepingCapacity: true)
        let reach = radius + aoRadius
        for ci in aoCasters {
            let p = prims[Int(ci)]
            if p.shape == .plane {
                if abs((centre - p.frame.origin).dot(p.frame.w)) < reach { out.append(ci) }
                continue
            }
            if !p.boundRadius.isFinite { out.append(ci); continue }
            if (p.boundCentre - centre).length < p.boundRadius + reach { out.append(ci) }
        }
    }

    // MARK: Image

    /// Renders radiance at every pixel (see the type's documentation).
    func render() -> RadianceImage {
        let w = view.width, h = view.height, n = w * h
        var base = [Float](repeating: 0, count: 3 * n)
        var detail = [Float](repeating: 0, count: scene.display != nil ? 3 * n : 0)
        var depth = [Float](repeating: .infinity, count: n)
        var keys = [Int32](repeating: -1, count: n)
        var hits = [Int32](repeating: -1, count: n)
        let hasDetail = scene.display != nil
        let ts = SceneRenderer.tileSize
        let tileCount = tilesX * tilesY
        var casterStart = [Int](repeating: 0, count: tileCount + 1)
        var casterList = [Int32]()
        var occluderStart = [Int](repeating: 0, count: tileCount + 1)
        var occluderList = [Int32]()
        var local = [Int32]()
        // Lighting cells: centre pixel hit, normal, light visibility and openness.
        let cs = cell
        let cw = (w + cs - 1) / cs, ch = (h + cs - 1) / cs, cn = cw * ch
        withContext { c in
        depth.withUnsafeMutableBufferPointer { z in
        hits.withUnsafeMutableBufferPointer { hit in
            // 1. Primary rays and per-tile caster and occluder lists.
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
                    // Margin for edge sub-samples.
                    if lo.x.isFinite {
                        let centre = (lo + hi) * 0.5, radius = (hi - lo).length * 0.55 + 0.01
                        casters(near: centre, radius: radius, into: &local)
                        casterList.append(contentsOf: local)
                        occluders(near: centre, radius: radius, into: &local)
                        occluderList.append(contentsOf: local)
                    }
                    casterStart[tile + 1] = casterList.count
                    occluderStart[tile + 1] = occluderList.count
                }
            }
        } }
        let hitIndex = hits, hitDepth = depth
        let casterStarts = casterStart, occluderStarts = occluderStart
        casterList.withUnsafeBufferPointer { allCasters in
        occluderList.withUnsafeBufferPointer { allOccluders in
            @inline(__always) func lists(_ tile: Int) -> (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>) {
                (UnsafeBufferPointer(rebasing: allCasters[casterStarts[tile]..<casterStarts[tile + 1]]),
                 UnsafeBufferPointer(rebasing: allOccluders[occluderStarts[tile]..<occluderStarts[tile + 1]]))
            }
            /// Hit point and normal (facing the camera) of the ray through (x, y).
            @inline(__always) func surfacePoint(x: Float, y: Float, t: Float, index: Int) -> (Vec3, Vec3) {
                let d = view.direction(x: x, y: y)
                let p = view.origin + d * t
                var nrm = c.prims[index].surface(at: p).normal
                if nrm.dot(d) > 0 { nrm = -nrm }
                return (p, nrm)
            }
            /// V and A computed at the point itself.
            @inline(__always) func direct(x: Float, y: Float, t: Float, index: Int, seed: UInt32) -> (Float, Float) {
                if c.materials[c.prims[index].material].kind == .display { return (1, 1) }
                let tile = min(Int(y) / ts, tilesY - 1) * tilesX + min(Int(x) / ts, tilesX - 1)
                let (pc, po) = lists(tile)
                let (p, nrm) = surfacePoint(x: x, y: y, t: t, index: index)
                return (lightVisibility(c, casters: pc, from: p, normal: nrm, depth: t, skip: index, seed: seed),
                        ambientOpenness(c, occluders: po, from: p, normal: nrm, depth: t, skip: index, seed: seed))
            }
            // 2. Lighting cells.
            var cellIndex = [Int32](repeating: -1, count: cn)
            var cellDepth = [Float](repeating: .infinity, count: cn)
            var cellNormal = [Float](repeating: 0, count: 3 * cn)
            var cellV = [Float](repeating: 1, count: cn)
            var cellA = [Float](repeating: 1, count: cn)
            for j in 0..<ch {
                for i in 0..<cw {
                    let k = j * cw + i
                    let x = min(i * cs + cs / 2, w - 1), y = min(j * cs + cs / 2, h - 1)
                    let index = Int(hitIndex[y * w + x])
                    guard index >= 0 else { continue }
                    let t = hitDepth[y * w + x]
                    let (_, nrm) = surfacePoint(x: Float(x) + 0.5, y: Float(y) + 0.5, t: t, index: index)
                    let l = direct(x: Float(x) + 0.5, y: Float(y) + 0.5, t: t, index: index, seed: UInt32(truncatingIfNeeded: k))
                    cellIndex[k] = Int32(index); cellDepth[k] = t
                    cellNormal[3 * k] = nrm.x; cellNormal[3 * k + 1] = nrm.y; cellNormal[3 * k + 2] = nrm.z
                    cellV[k] = l.0; cellA[k] = l.1
                }
            }
            let cIndex = cellIndex, cDepth = cellDepth, cNormal = cellNormal
            /// Whether cell k lies on the same surface: same primitive, depth within 5 %
            /// and, on faceted primitives (boxes, cylinders), a similar normal.
            @inline(__always) func compatible(_ k: Int, index: Int, t: Float, normal: Vec3?) -> Bool {
                guard Int(cIndex[k]) == index && abs(cDepth[k] - t) <= 0.05 * t else { return false }
                guard let normal else { return true }
                return cNormal[3 * k] * normal.x + cNormal[3 * k + 1] * normal.y + cNormal[3 * k + 2] * normal.z > 0.9
            }
            // Two [1 2 1] x [1 2 1] passes over compatible cells (together [1 4 6 4 1]:
            // hide the sampling noise of 9 shadow and 12 occlusion rays).
            var smoothV = cellV, smoothA = cellA
            for _ in 0..<2 {
                let inV = smoothV, inA = smoothA
                for j in 0..<ch {
                    for i in 0..<cw {
                        let k = j * cw + i
                        let index = Int(cellIndex[k])
                        guard index >= 0 else { continue }
                        let nk = Vec3(cellNormal[3 * k], cellNormal[3 * k + 1], cellNormal[3 * k + 2])
                        var sv: Float = 0, sa: Float = 0, sw: Float = 0
                        for b in max(j - 1, 0)...min(j + 1, ch - 1) {
                            for a in max(i - 1, 0)...min(i + 1, cw - 1) {
                                let q = b * cw + a
                                guard compatible(q, index: index, t: cellDepth[k], normal: nk) else { continue }
                                let wt: Float = (a == i ? 2 : 1) * (b == j ? 2 : 1)
                                sv += wt * inV[q]; sa += wt * inA[q]; sw += wt
                            }
                        }
                        smoothV[k] = sv / sw; smoothA[k] = sa / sw
                    }
                }
            }
            let cellVisibility = smoothV, cellOpenness = smoothA
            /// V and A at image point (x, y) on the hit (t, index): bilinear over the
            /// compatible cells, else computed directly.
            @inline(__always) func lighting(x: Float, y: Float, t: Float, index: Int, seed: UInt32) -> (Float, Float) {
                // Displays only scatter a little unshadowed room light.
                if c.materials[c.prims[index].material].kind == .display { return (1, 1) }
                let shape = c.prims[index].shape
                let nrm: Vec3? = shape == .box || shape == .cylinder ? surfacePoint(x: x, y: y, t: t, index: index).1 : nil
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
                        guard compatible(q, index: index, t: t, normal: nrm) else { continue }
                        let wt = (a == 0 ? 1 - wx : wx) * (b == 0 ? 1 - wy : wy) + 1e-4
                        sv += wt * cellVisibility[q]; sa += wt * cellOpenness[q]; sw += wt
                    }
                }
                if sw > 0 { return (sv / sw, sa / sw) }
                return direct(x: x, y: y, t: t, index: index, seed: seed)
            }
            // 3. Shading.
            base.withUnsafeMutableBufferPointer { b in
            detail.withUnsafeMutableBufferPointer { dt in
            keys.withUnsafeMutableBufferPointer { key in
                for y in 0..<h {
                    for x in 0..<w {
                        let i = y * w + x
                        let index = Int(hitIndex[i])
                        let tile = (y / ts) * tilesX + x / ts
                        let px = Float(x) + 0.5, py = Float(y) + 0.5
                        let l = index >= 0 ? lighting(x: px, y: py, t: hitDepth[i], index: index,
                                                      seed: 0x8000_0000 | UInt32(truncatingIfNeeded: i)) : (1, 1)
                        let s = shade(c, x: px, y: py, row: y, tile: tile, t: hitDepth[i], index: index,
                                      visibility: l.0, openness: l.1)
                        b[i] = s.r; b[n + i] = s.g; b[2 * n + i] = s.b
                        if hasDetail { dt[i] = s.dr; dt[n + i] = s.dg; dt[2 * n + i] = s.db }
                        key[i] = s.key
                    }
                }
                // 4. Edge pixels: a different primitive next door, or a depth step.
                let offsets: [(Float, Float)] = [(-0.125, -0.375), (0.375, -0.125), (0.125, 0.375), (-0.375, 0.125)]
                var edge = [Bool](repeating: false, count: n)
                hitDepth.withUnsafeBufferPointer { z in
                    for y in 0..<h {
                        for x in 0..<w {
                            let i = y * w + x
                            if x + 1 < w && (key[i] != key[i + 1] || abs(z[i] - z[i + 1]) > 0.02 * min(z[i], z[i + 1])) {
                                edge[i] = true; edge[i + 1] = true
                            }
                            if y + 1 < h && (key[i] != key[i + w] || abs(z[i] - z[i + w]) > 0.02 * min(z[i], z[i + w])) {
                                edge[i] = true; edge[i + w] = true
                            }
                        }
                    }
                }
                for y in 0..<h {
                    for x in 0..<w where edge[y * w + x] {
                        let i = y * w + x
                        let tile = (y / ts) * tilesX + x / ts
                        var acc = Sample()
                        for (m, o) in offsets.enumerated() {
                            let px = Float(x) + 0.5 + o.0, py = Float(y) + 0.5 + o.1
                            let (t, index) = nearest(c, tile: tile, origin: view.origin, direction: view.direction(x: px, y: py))
                            let l = index >= 0 ? lighting(x: px, y: py, t: t, index: index,
                                                          seed: 0x4000_0000 ^ UInt32(truncatingIfNeeded: i * 4 + m)) : (1, 1)
                            let s = shade(c, x: px, y: py, row: y, tile: tile, t: t, index: index, visibility: l.0, openness: l.1)
                            acc.r += s.r; acc.g += s.g; acc.b += s.b
                            acc.dr += s.dr; acc.dg += s.dg; acc.db += s.db
                        }
                        b[i] = acc.r * 0.25; b[n + i] = acc.g * 0.25; b[2 * n + i] = acc.b * 0.25
                        if hasDetail { dt[i] = acc.dr * 0.25; dt[n + i] = acc.dg * 0.25; dt[2 * n + i] = acc.db * 0.25 }
                    }
                }
            } } }
        } }
        }
        return RadianceImage(width: w, height: h, base: base, detail: detail, depth: depth)
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
                            out[k] = nearest(c, tile: ty * tilesX + tx, origin: view.origin, direction: view.direction(x: x, y: y)).0
                            k += 1
                        }
                    }
                }
            }
        }
        return out
    }
}
