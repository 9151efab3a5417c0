import Foundation

// Shading of `SceneRenderer` (step 3 of its documentation): radiance of a hit by
// material, with the per-capture constants of the display and the print.
extension SceneRenderer {
    /// Per-capture constants of the display, without reference counting.
    struct DisplayConstants {
        var pitchM: Float, contentScaleU: Float, contentScaleV: Float
        var content: TextureView
        var falloff: Float, black: Float, white: Vec3
        var glass: CoverGlass?
        init(_ d: DisplaySurface, scene: Scene) {
            pitchM = d.pitchM
            contentScaleU = d.contentScaleU
            contentScaleV = d.contentScaleV
            content = d.content.view
            falloff = d.parameters.viewFalloffExponent
            black = d.parameters.blackLevel
            white = d.white
            let a = scene.ambient
            glass = CoverGlass(
                parameters: d.parameters, normal: scene.primitives[d.primitive].frame.w, up: scene.up,
                roomColour: a.y > 0 ? a * (1 / a.y) : Vec3(1, 1, 1))
        }
    }

    /// Per-capture constants of the print, without reference counting.
    struct PrintConstants {
        var contentScaleU: Float, contentScaleV: Float
        var content: TextureView, fibres: TextureView
        var fibreScale: Float, paperTexture: Float, paper: Vec3, tonerBlack: Float
        var halftone: HalftonePrinter?
        init(_ p: PrintSurface) {
            contentScaleU = p.contentScaleU
            contentScaleV = p.contentScaleV
            content = p.content.view
            fibres = p.fibres.view
            fibreScale = Float(p.fibres.width) / p.fibreTileM
            paperTexture = p.parameters.paperTexture
            paper = p.paper
            tonerBlack = p.parameters.inkBlack / max(p.parameters.paperWhite, 0.01)
            halftone = p.halftone
        }
    }

    /// Radiance of one sample: base (r, g, b), display detail (dr, dg, db), surface key.
    struct Sample {
        var r: Float = 0, g: Float = 0, b: Float = 0
        var dr: Float = 0, dg: Float = 0, db: Float = 0
        /// Primitive index; -1 for no hit.
        var key: Int32 = -1
    }

    /// A ray's hit on a surface, as the material shaders need it.
    struct SurfaceHit {
        /// Ray direction through the image point (unnormalised, z = 1) and its length.
        var direction: Vec3
        var directionLength: Float
        /// Ray parameter of the hit (its depth along the optical axis).
        var depth: Float
        var point: Vec3
        /// Unit normal facing the camera and the cosine between it and the ray.
        var normal: Vec3
        var cosine: Float
        /// Surface coordinates (`Primitive.surface(at:)`), m.
        var s: Float
        var t: Float
    }

    /// Radiance of the hit (t, index) of the ray through image point (x, y).
    @inline(__always)
    func shade(
        _ c: Context, x: Float, y: Float, row: Int, tile: Int, t: Float, index: Int,
        visibility: Float, openness: Float
    ) -> Sample {
        if index < 0 { return Sample() }
        let o = view.origin
        let d = view.direction(x: x, y: y)
        let prim = c.prims[index]
        let p = o + d * t
        let surf = prim.surface(at: p)
        var n = surf.normal
        let dLen = d.length
        var cosine = n.dot(d) / dLen
        if cosine > 0 { n = -n } else { cosine = -cosine }
        let hit = SurfaceHit(
            direction: d, directionLength: dLen, depth: t, point: p, normal: n, cosine: cosine,
            s: surf.s, t: surf.t)
        let material = c.materials[prim.material]
        let out: Sample?
        switch material.kind {
        case .diffuse:
            out = shadeDiffuse(c, hit, material: material, visibility: visibility, openness: openness)
        case .display:
            out = shadeDisplay(c, hit, primitive: prim, row: row, tile: tile)
        case .print:
            out = shadePrint(c, hit, primitive: prim, tile: tile, visibility: visibility, openness: openness)
        }
        guard var sample = out else { return Sample() }
        sample.key = Int32(index)
        return sample
    }

    /// Lambertian albedo (tint times the prefiltered texture, level of detail from the
    /// pixel footprint) times irradiance, plus on glossy materials a Blinn-Phong
    /// highlight of the area light and the mirrored glare light.
    @inline(__always)
    func shadeDiffuse(
        _ c: Context, _ hit: SurfaceHit, material: Material, visibility: Float,
        openness: Float
    ) -> Sample {
        let p = hit.point, n = hit.normal, d = hit.direction, dLen = hit.directionLength
        var albedo = material.tint
        if material.texture >= 0 {
            let tex = c.textures[material.texture]
            // Texels per metre along each axis; the rotation is folded in.
            let kx = material.rotationCos * material.texelsPerMetreU,
                ky = material.rotationSin * material.texelsPerMetreU
            let kx2 = material.rotationSin * material.texelsPerMetreV,
                ky2 = material.rotationCos * material.texelsPerMetreV
            let su = hit.s * kx - hit.t * ky + material.offsetU
            let sv = hit.s * kx2 + hit.t * ky2 + material.offsetV
            // Footprint t |d| / (f sqrt(cos)) in texels, as a level of detail.
            let lod =
                FastMath.log2(hit.depth * dLen * material.texelsPerMetreU / view.focal)
                - 0.5 * FastMath.log2(max(hit.cosine, 0.02))
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
                radiance =
                    radiance + lightColour * (visibility * material.specular * pow(nh, material.shininess) * nl / d2)
            }
            if let g = glare {
                radiance = radiance + g.reflected(at: p, normal: n, cameraOrigin: view.origin) * material.specular
            }
        }
        return Sample(r: radiance.x, g: radiance.y, b: radiance.z)
    }

    /// Display emission: content through the EOTF (and the cover glass's viewing-angle
    /// model), times white, angular falloff and the row's rolling-shutter gain; plus a
    /// little scattered room light, the cover glass reflection and glare. The subpixel
    /// detail of the tile's filtered pattern table goes to the detail channels. nil
    /// without display constants.
    @inline(__always)
    func shadeDisplay(_ c: Context, _ hit: SurfaceHit, primitive prim: Primitive, row: Int, tile: Int) -> Sample? {
        guard let disp = displayConstants else { return nil }
        let p = hit.point, n = hit.normal, cosine = hit.cosine
        let u = (hit.s + prim.half.x) / disp.pitchM, v = (hit.t + prim.half.y) / disp.pitchM
        let lod = displayTiles.lod.isEmpty ? 0 : displayTiles.lod[tile]
        let e = disp.content.sample(u: u * disp.contentScaleU, v: v * disp.contentScaleV, lod: lod, wrap: false)
        // cos^k by its binomial series (cos >= 0.6 for tilts up to ~50 degrees).
        let k = disp.falloff, oneMinus = 1 - cosine
        let falloff = max(1 - k * oneMinus + 0.5 * k * (k - 1) * oneMinus * oneMinus, 0)
        let gain = falloff * c.rowGains[min(max(row, 0), c.rowGains.count - 1)]
        let black = disp.black
        let em: Vec3
        if let glass = disp.glass {
            em =
                glass.emitted(
                    Vec3(lookupEOTF(c, e.0), lookupEOTF(c, e.1), lookupEOTF(c, e.2)), black: black,
                    cosine: cosine
                ).scaled(by: disp.white) * gain
        } else {
            em =
                Vec3(
                    black + (1 - black) * lookupEOTF(c, e.0), black + (1 - black) * lookupEOTF(c, e.1),
                    black + (1 - black) * lookupEOTF(c, e.2)
                ).scaled(by: disp.white) * gain
        }
        // Matte glass scatters a little room light; glare adds the mirrored light.
        var radiance = em + irradiance(at: p, normal: n, visibility: 1, openness: 1) * 0.012
        if let glass = disp.glass {
            radiance = radiance + glass.reflected(view: hit.direction * (1 / hit.directionLength), normal: n)
        }
        if let g = glare { radiance = radiance + g.reflected(at: p, normal: n, cameraOrigin: view.origin) }
        var out = Sample(r: radiance.x, g: radiance.y, b: radiance.z)
        let table = displayTiles.table.isEmpty ? -1 : Int(displayTiles.table[tile])
        if table >= 0 {
            let det = patternDetail(c, table: table, u: u, v: v)
            out.dr = em.x * det.0
            out.dg = em.y * det.1
            out.db = em.z * det.2
        }
        return out
    }

    /// Print reflectance: the tile's halftone (or solid toner between toner black and
    /// paper) times paper colour, fibre texture and irradiance, plus glare. nil without
    /// print constants.
    @inline(__always)
    func shadePrint(
        _ c: Context, _ hit: SurfaceHit, primitive prim: Primitive, tile: Int, visibility: Float,
        openness: Float
    ) -> Sample? {
        guard let pr = printConstants else { return nil }
        let p = hit.point, n = hit.normal
        let s = hit.s + prim.half.x, tt = hit.t + prim.half.y
        let lod = printTiles.lod.isEmpty ? 0 : printTiles.lod[tile]
        let e = pr.content.sample(u: s * pr.contentScaleU, v: tt * pr.contentScaleV, lod: lod, wrap: false)
        var rho: Vec3
        if let h = pr.halftone {
            rho = h.reflectance(
                s: s, t: tt, content: h.separation((e.0, e.1, e.2)), tile: c.printTile,
                at: tile * HalftonePrinter.tileStride)
        } else {
            // Solid toner: reflectance between toner black and paper, linear in coverage.
            let k = pr.tonerBlack
            rho = Vec3(
                k + (1 - k) * ColorScience.srgbToLinear(min(max(e.0, 0), 1)),
                k + (1 - k) * ColorScience.srgbToLinear(min(max(e.1, 0), 1)),
                k + (1 - k) * ColorScience.srgbToLinear(min(max(e.2, 0), 1)))
        }
        // Fibres: one mip level per tile (their 1-5 % contrast hides level steps).
        let f = pr.fibres.sample(
            u: s * pr.fibreScale, v: tt * pr.fibreScale,
            level: printTiles.fibreLod.isEmpty ? 0 : Int(printTiles.fibreLod[tile] + 0.5), wrap: true)
        let fibre = 1 + pr.paperTexture * (f.0 - 0.5) * 4
        var radiance =
            rho.scaled(by: pr.paper).scaled(
                by: irradiance(
                    at: p, normal: n, visibility: visibility,
                    openness: openness)) * fibre
        if let g = glare { radiance = radiance + g.reflected(at: p, normal: n, cameraOrigin: view.origin) }
        return Sample(r: radiance.x, g: radiance.y, b: radiance.z)
    }

    /// Display EOTF at x (clamped to 0...1), linearly interpolated in the table.
    @inline(__always)
    func lookupEOTF(_ c: Context, _ x: Float) -> Float {
        let f = min(max(x, 0), 1) * 1024
        let i = min(Int(f), 1023)
        let w = f - Float(i)
        return c.eotf[i] + (c.eotf[i + 1] - c.eotf[i]) * w
    }

    /// Bilinear read of filtered pattern table `table` at display coordinates (u, v).
    @inline(__always)
    func patternDetail(_ c: Context, table: Int, u: Float, v: Float) -> (Float, Float, Float) {
        let n = displayTiles.lutSize[table], base = displayTiles.lutOffset[table]
        let x = u * displayTiles.lutScale[2 * table], y = v * displayTiles.lutScale[2 * table + 1]
        let xf = FastMath.floor(x), yf = FastMath.floor(y)
        let fx = x - xf, fy = y - yf
        let mask = n - 1
        let x0 = Int(xf) & mask, y0 = Int(yf) & mask
        let x1 = (x0 + 1) & mask, y1 = (y0 + 1) & mask
        let i00 = base + (y0 * n + x0) * 3, i10 = base + (y0 * n + x1) * 3
        let i01 = base + (y1 * n + x0) * 3, i11 = base + (y1 * n + x1) * 3
        let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
        let l = c.lut
        return (
            w00 * l[i00] + w10 * l[i10] + w01 * l[i01] + w11 * l[i11],
            w00 * l[i00 + 1] + w10 * l[i10 + 1] + w01 * l[i01 + 1] + w11 * l[i11 + 1],
            w00 * l[i00 + 2] + w10 * l[i10 + 2] + w01 * l[i01 + 2] + w11 * l[i11 + 2]
        )
    }
}
