import Foundation
import RialMedia

/// Builds the 3D scene of a capture from its parameters: the subject (a 3D room, a
/// wall, a document, a display with its bezel, a print) and bona fide surroundings
/// (walls, floor, desk, boxes, spheres, cylinders) with textured Lambertian materials.
/// Layout randomness comes from `scene_seed` only.
struct SceneBuilder {
    let parameters: SynthParameters
    let userImages: [PlanarImage]
    private(set) var rng: SynthRandom
    let scene = Scene()
    private var albedoCache: [Int: MipTexture] = [:]
    /// Footprints (centre, radius) of objects already standing on a support.
    private var footprints: [(Vec3, Float)] = []
    private let tanHalf: Float
    private let aspect: Float
    /// Caller textures by role: grey square images are tileable material scans
    /// (brick, grass, gravel) and may cover surfaces; everything else (colour photos,
    /// the scanned text page) is only ever shown as a framed picture on a wall.
    private let materialImages: [Int]
    private let pictureImages: [Int]
    /// Whether framed pictures may hang on walls (off for the small renders used as
    /// screen and print content).
    private let allowPictures: Bool

    /// Whether a caller texture is a tileable material scan (brick, grass, gravel: grey
    /// and square) rather than a photograph or a scanned page.
    static func isMaterialScan(_ image: PlanarImage) -> Bool {
        image.channels == 1 && image.width == image.height
    }

    init(parameters: SynthParameters, textures: [PlanarImage], allowPictures: Bool = true) {
        self.parameters = parameters
        userImages = textures
        materialImages = textures.indices.filter { Self.isMaterialScan(textures[$0]) }
        pictureImages = textures.indices.filter { !Self.isMaterialScan(textures[$0]) }
        self.allowPictures = allowPictures
        rng = SynthRandom(seed: parameters.sceneSeed, stream: 0x5CE4E)
        tanHalf = tan(parameters.horizontalFovDeg * .pi / 360)
        aspect = Float(parameters.height) / Float(max(parameters.width, 1))
    }

    /// Frame width (m) at depth z.
    private func frameWidth(at z: Float) -> Float { 2 * z * tanHalf }

    // MARK: Materials

    private mutating func userAlbedo(_ i: Int) -> MipTexture {
        if let t = albedoCache[i] { return t }
        let t = MipTexture(image: userImages[i], linearize: true)
        albedoCache[i] = t
        return t
    }

    /// What a surface is, for plausible colours.
    enum Role { case wall, floor, desk, object }

    /// A textured Lambertian material: a caller material scan (a third of the time, when
    /// any and `scans`) or a procedural one from `kinds`, tinted for its role, scaled to
    /// `repeatM` metres per tile.
    private mutating func surface(
        _ kinds: [ProceduralTextures.Kind], repeatM: ClosedRange<Float>,
        tint: Vec3? = nil, specular: Float = 0, role: Role = .object,
        scans: Bool = true, outdoorWall: Bool = false
    ) -> Int {
        var m = Material()
        let tex: MipTexture
        var repeatRange = repeatM
        // The brick scan (skimage brick.png) is photographed with its courses vertical.
        var courseAngle: Float = 0
        // Material scans in library order: brick first, gravel last (grass between is
        // never used: indoors it reads as a shaggy rug). Brick may be any wall, gravel
        // (pebble-dash) only a bona fide wall subject.
        let scanChoices: [Int] =
            !scans || materialImages.isEmpty || role != .wall
            ? []
            : (outdoorWall && materialImages.count > 1
                ? [materialImages[0], materialImages[materialImages.count - 1]]
                : [materialImages[0]])
        if !scanChoices.isEmpty && rng.unit() < (outdoorWall ? 0.35 : 0.2) {
            let scan = scanChoices[Int(rng.next() % UInt64(scanChoices.count))]
            tex = userAlbedo(scan)
            if scan == materialImages[0] { courseAngle = Float.pi / 2 }
            // The brick and gravel scans cover roughly 0.6-1.4 m.
            repeatRange = 0.6...1.4
        } else {
            let kind = kinds[Int(rng.next() % UInt64(kinds.count))]
            tex = ProceduralTextures.bank[kind]
            // Procedural tiles have a physical scale: 16 brick courses of ~75 mm, 4
            // planks of 0.1-0.2 m, 4 x 4 floor tiles of 0.2-0.6 m.
            switch kind {
            case .bricks: repeatRange = 1.1...1.4
            // Desk and table tops: wide boards (0.25-0.5 m), not floorboards.
            case .woodPlanks: repeatRange = role == .desk ? 1.0...2.0 : 0.4...0.8
            case .tiles: repeatRange = 0.8...2.4
            default: break
            }
        }
        m.texture = scene.addTexture(tex)
        let base = tint ?? (tex.channels == 1 ? roleColour(role) : Vec3(1, 1, 1) * rng.uniform(0.8...1.1))
        // Grey textures average ~0.5-0.7; keep albedos in 0.05-0.9.
        m.tint = base
        m.metresPerRepeat = rng.uniform(repeatRange)
        // Walls keep their courses level, floors and desks run their boards or tiles
        // along one of the room's axes; objects take any orientation.
        let angle: Float
        switch role {
        case .object: angle = rng.uniform(0...(2 * Float.pi))
        case .wall: angle = courseAngle
        case .floor, .desk: angle = rng.unit() < 0.5 ? 0 : Float.pi / 2
        }
        m.rotationCos = cos(angle)
        m.rotationSin = sin(angle)
        m.offsetU = rng.unit()
        m.offsetV = rng.unit()
        m.specular = specular
        return scene.addMaterial(m)
    }

    /// A plausible tint of a grey texture: painted walls are light and barely
    /// saturated, floors and desks muted, objects anything.
    private mutating func roleColour(_ role: Role) -> Vec3 {
        switch role {
        case .wall: return hsv(rng.unit(), rng.uniform(0...0.22), rng.uniform(0.95...1.3))
        case .floor: return hsv(rng.uniform(0.02...0.14), rng.uniform(0.05...0.45), rng.uniform(0.6...1.2))
        case .desk: return hsv(rng.uniform(0.02...0.14), rng.uniform(0...0.4), rng.uniform(0.4...1.25))
        case .object: return randomColour() * 1.2
        }
    }

    /// RGB of (hue, saturation, value) by the hexcone model: hue in turns (its
    /// fractional part counts), saturation in 0...1, value as given (may exceed 1).
    private func hsv(_ hue: Float, _ sat: Float, _ val: Float) -> Vec3 {
        let h6 = (hue - hue.rounded(.down)) * 6, f = h6 - h6.rounded(.down)
        let p = val * (1 - sat), q = val * (1 - sat * f), t = val * (1 - sat * (1 - f))
        switch Int(h6) % 6 {
        case 0: return Vec3(val, t, p)
        case 1: return Vec3(q, val, p)
        case 2: return Vec3(p, val, t)
        case 3: return Vec3(p, q, val)
        case 4: return Vec3(t, p, val)
        default: return Vec3(val, p, q)
        }
    }

    private mutating func plain(_ c: Vec3, specular: Float = 0, shininess: Float = 20) -> Int {
        var m = Material()
        m.tint = c
        m.specular = specular
        m.shininess = shininess
        return scene.addMaterial(m)
    }

    /// Any hue, saturation 0.1-0.8, value 0.15-0.85 (drawn in that order).
    private mutating func randomColour() -> Vec3 {
        let hue = rng.unit(), sat = rng.uniform(0.1...0.8), val = rng.uniform(0.15...0.85)
        return hsv(hue, sat, val)
    }

    // MARK: Lighting

    /// Puts the area light's centre at `distance_m` from `target`, `elevation_deg`
    /// above the plane orthogonal to `up`, `azimuth_deg` around `up` from the camera
    /// direction (kept 5 cm below a ceiling at height `ceiling` above the camera along
    /// `up`), facing the target, with irradiance 1 at the target for a surface facing
    /// it; copies size, sample counts, occlusion reach and bounce to the scene.
    private mutating func placeLight(target: Vec3, up: Vec3, ceiling: Float? = nil) {
        let l = parameters.lighting
        let toCamera = (-target).normalized
        var horizontal = toCamera - up * toCamera.dot(up)
        if horizontal.length < 1e-3 { horizontal = up.cross(Vec3(1, 0, 0)) }
        horizontal = horizontal.normalized
        let az = l.azimuthDeg * .pi / 180, el = l.elevationDeg * .pi / 180
        let dir = (horizontal.rotated(about: up, by: az) * cos(el) + up * sin(el)).normalized
        var position = target + dir * max(l.distanceM, 0.3)
        if let ceiling, position.dot(up) > ceiling - 0.05 {
            position = position - up * (position.dot(up) - (ceiling - 0.05))
        }
        let toTarget = target - position
        let dist = max(toTarget.length, 0.3)
        scene.lightPosition = position
        let normal = toTarget * (1 / max(toTarget.length, 1e-6))
        var across = normal.cross(up)
        if across.length < 1e-3 { across = normal.cross(Vec3(1, 0, 0)) }
        across = across.normalized
        let size = l.lightSizeM
        scene.lightHalfU = across * (max(size.first ?? 0.4, 0) / 2)
        scene.lightHalfV = normal.cross(across).normalized * (max(size.count > 1 ? size[1] : size.first ?? 0.4, 0) / 2)
        scene.lightNormal = normal
        let c = ColorScience.illuminant(kelvin: l.colorTemperatureK)
        let colour = Vec3(c.0, c.1, c.2)
        scene.lightColour = colour * (dist * dist)
        scene.ambient = colour * min(max(l.ambient, 0), 2)
        scene.bounce = l.bounce
        scene.shadowSamples = l.shadowSamples
        scene.aoSamples = l.aoSamples
        scene.aoRadius = l.aoRadiusM
        scene.lightingCell = l.lightingCellPx
        scene.up = up
    }

    // MARK: Subject pose

    /// The subject's frame (centre, u right along its width, v down along its height,
    /// w its normal facing the camera) and world up, in camera coordinates.
    ///
    /// w = (0, 0, -1) rotated by `tilt_deg` about the image-plane axis at
    /// `tilt_axis_deg`. Level up L = normalise(0, w.z, -w.y) (orthogonal to w and to the
    /// camera x axis, so an upright subject's horizontal edges are level), turned by
    /// `camera_roll_deg` about w (positive: the horizon turns clockwise in the image).
    /// up = cos(lean) L + sin(lean) w. v = -L and u = w x v, both turned by
    /// `rotation_deg` about w (positive: clockwise in the image).
    func subjectPose() -> (frame: Frame, up: Vec3) {
        let s = parameters.subject
        let d = max(s.distanceM, 0.05)
        let fw = frameWidth(at: d)
        let centre = Vec3(s.offsetX * fw, s.offsetY * fw * aspect, d)
        let phi = s.tiltAxisDeg * .pi / 180
        let w = Vec3(0, 0, -1).rotated(about: Vec3(cos(phi), sin(phi), 0), by: s.tiltDeg * .pi / 180)
        var level = Vec3(0, w.z, -w.y)
        level = level.length < 1e-3 ? Vec3(0, -1, 0) : level.normalized
        level = level.rotated(about: -w, by: s.cameraRollDeg * .pi / 180)
        let lean = min(max(s.leanDeg, 0), 90) * .pi / 180
        let up = (level * cos(lean) + w * sin(lean)).normalized
        let r = s.rotationDeg * .pi / 180
        let v = (-level).rotated(about: -w, by: r)
        let u = w.cross(v)
        return (Frame(origin: centre, u: u, v: v, w: w), up)
    }

    // MARK: Objects

    /// Adds a random box, book, sphere or cylinder standing on the plane through `base`
    /// with normal `up`, of size `scale` m (roughly its height).
    @discardableResult
    private mutating func addObject(at base: Vec3, up: Vec3, scale: Float) -> Bool {
        // Objects must not interpenetrate: a box's footprint reaches 1.13 scale.
        let radius = scale * 1.15
        for f in footprints where (f.0 - base).length < f.1 + radius && abs((f.0 - base).dot(up)) < 0.01 {
            return false
        }
        footprints.append((base, radius))
        var side = up.cross(Vec3(0, 0, 1))
        if side.length < 1e-3 { side = up.cross(Vec3(1, 0, 0)) }
        side = side.normalized.rotated(about: up, by: rng.uniform(0...Float.pi))
        let fwd = side.cross(up).normalized
        let kind = rng.unit()
        let textured = rng.unit() < 0.4
        let material: Int
        if textured {
            material = surface(
                [.woodPlanks, .fabric, .stone, .plaster], repeatM: (scale * 0.5)...(scale * 2),
                role: .object, scans: false)
        } else {
            material = plain(
                randomColour(), specular: rng.unit() < 0.4 ? rng.uniform(0.1...0.5) : 0,
                shininess: rng.uniform(10...80))
        }
        if kind < 0.35 {
            let hx = scale * rng.uniform(0.3...0.8), hy = scale * rng.uniform(0.25...0.6),
                hz = scale * rng.uniform(0.3...0.8)
            let f = Frame(origin: base + up * hy, u: side, v: up, w: fwd)
            scene.add(Primitive(shape: .box, frame: f, half: Vec3(hx, hy, hz), material: material, castsShadow: true))
        } else if kind < 0.55 {
            // A book or a stack of two: flat boxes.
            var h: Float = 0
            for _ in 0..<(rng.unit() < 0.4 ? 2 : 1) {
                let hx = scale * rng.uniform(0.55...0.8), hz = scale * rng.uniform(0.4...0.55),
                    hy = scale * rng.uniform(0.06...0.15)
                let s2 = side.rotated(about: up, by: rng.uniform(-0.3...0.3))
                let f = Frame(origin: base + up * (h + hy), u: s2, v: up, w: s2.cross(up).normalized)
                let mat = plain(randomColour(), specular: rng.uniform(0...0.2), shininess: 30)
                scene.add(Primitive(shape: .box, frame: f, half: Vec3(hx, hy, hz), material: mat, castsShadow: true))
                h += 2 * hy
            }
        } else if kind < 0.7 {
            let r = scale * rng.uniform(0.25...0.5)
            let f = Frame(origin: base + up * r, u: side, v: up, w: fwd)
            scene.add(Primitive(shape: .sphere, frame: f, half: Vec3(r, r, r), material: material, castsShadow: true))
        } else {
            let r = scale * rng.uniform(0.15...0.35), hh = scale * rng.uniform(0.3...0.8)
            let f = Frame(origin: base + up * hh, u: side, v: up, w: fwd)
            scene.add(
                Primitive(shape: .cylinder, frame: f, half: Vec3(r, hh, r), material: material, castsShadow: true))
        }
        return true
    }

    /// Where the camera ray through normalised image point (nx, ny) in [-1, 1] meets
    /// the plane through `point` with normal `normal`, if in front.
    private func rayHit(nx: Float, ny: Float, point: Vec3, normal: Vec3) -> Vec3? {
        let d = Vec3(nx * tanHalf, ny * tanHalf * aspect, 1)
        let dn = d.dot(normal)
        if abs(dn) < 1e-6 { return nil }
        let t = point.dot(normal) / dn
        return t > 0.05 ? d * t : nil
    }

    /// Normalised image point of a camera-space point, if in front.
    private func project(_ p: Vec3) -> (Float, Float)? {
        guard p.z > 0.02 else { return nil }
        return (p.x / p.z / tanHalf, p.y / p.z / (tanHalf * aspect))
    }

    /// Scatters `count` objects on the support plane at image points outside the
    /// normalised image rectangle `avoid` (x0, y0, x1, y1), sized relative to distance.
    private mutating func scatterObjects(
        count: Int, support: Vec3, up: Vec3, avoid: (Float, Float, Float, Float)?,
        size: ClosedRange<Float>, maxDistance: Float
    ) {
        var placed = 0, attempts = 0
        while placed < count && attempts < count * 12 {
            attempts += 1
            let nx = rng.uniform(-1.1...1.1), ny = rng.uniform(-1.1...1.1)
            if let a = avoid, nx > a.0 - 0.15, nx < a.2 + 0.15, ny > a.1 - 0.15, ny < a.3 + 0.15 { continue }
            guard let p = rayHit(nx: nx, ny: ny, point: support, normal: up), p.z < maxDistance else { continue }
            if addObject(at: p, up: up, scale: rng.uniform(size)) { placed += 1 }
        }
    }

    /// Scatters `count` objects on a finite top (a desk or table: centre of its top
    /// face, axes `side` and `fwd` in it, half sizes), so nothing overhangs or floats,
    /// keeping clear of the image rectangle `avoid`.
    private mutating func scatterOnTop(
        count: Int, centre: Vec3, side: Vec3, fwd: Vec3, up: Vec3,
        halfW: Float, halfD: Float, avoid: (Float, Float, Float, Float)?,
        size: ClosedRange<Float>
    ) {
        var placed = 0, attempts = 0
        while placed < count && attempts < count * 15 {
            attempts += 1
            let scale = rng.uniform(size)
            let margin = scale * 1.2
            guard halfW > margin, halfD > margin else { continue }
            let p =
                centre + side * rng.uniform(-(halfW - margin)...(halfW - margin))
                + fwd * rng.uniform(-(halfD - margin)...(halfD - margin))
            guard let q = project(p) else { continue }
            if let a = avoid, q.0 > a.0 - 0.1, q.0 < a.2 + 0.1, q.1 > a.1 - 0.1, q.1 < a.3 + 0.1 { continue }
            if addObject(at: p, up: up, scale: scale) { placed += 1 }
        }
    }

    /// The smallest `axis . p` over the 8 corners of a slab: the frame's rectangle (half
    /// sizes hu, hv) at its face z = 0 and at its back z = -thickness (the lowest point of
    /// a panel along `up`, where a desk or a stand meets it).
    static func lowestCorner(of f: Frame, hu: Float, hv: Float, thickness: Float, along axis: Vec3) -> Float {
        var lowest = Float.infinity
        for (a, b) in [(-hu, -hv), (hu, -hv), (-hu, hv), (hu, hv)] {
            lowest = min(lowest, f.point(a, b, 0).dot(axis), f.point(a, b, -thickness).dot(axis))
        }
        return lowest
    }

    /// Normalised image rectangle covered by the projection of a frame's rectangle
    /// (half sizes hu, hv), for keeping clutter off the subject.
    private func imageRect(of f: Frame, hu: Float, hv: Float) -> (Float, Float, Float, Float) {
        var x0 = Float.infinity, y0 = Float.infinity, x1 = -Float.infinity, y1 = -Float.infinity
        for (a, b) in [(-hu, -hv), (hu, -hv), (-hu, hv), (hu, hv)] {
            let p = f.point(a, b, 0)
            guard p.z > 0.01 else { return (-2, -2, 2, 2) }
            let nx = p.x / p.z / tanHalf, ny = p.y / p.z / (tanHalf * aspect)
            x0 = min(x0, nx)
            x1 = max(x1, nx)
            y0 = min(y0, ny)
            y1 = max(y1, ny)
        }
        return (x0, y0, x1, y1)
    }

    private func overlaps(_ a: (Float, Float, Float, Float), _ b: (Float, Float, Float, Float), margin: Float) -> Bool {
        a.0 < b.2 + margin && a.2 > b.0 - margin && a.1 < b.3 + margin && a.3 > b.1 - margin
    }

    // MARK: Furniture and pictures

    /// A table: a top box (top face through `topCentre`) on four legs down to the floor
    /// `height` m below. Returns its material.
    @discardableResult
    private mutating func addTable(
        topCentre: Vec3, side: Vec3, fwd: Vec3, up: Vec3, halfW: Float, halfD: Float,
        height: Float, material: Int? = nil
    ) -> Int {
        let mat = material ?? deskMaterial()
        let thick: Float = rng.uniform(0.015...0.025)
        scene.add(
            Primitive(
                shape: .box, frame: Frame(origin: topCentre - up * thick, u: side, v: up, w: fwd),
                half: Vec3(halfW, thick, halfD), material: mat, castsShadow: true))
        let legH = (height - 2 * thick) / 2
        if legH > 0.02 {
            let leg: Float = 0.02
            for (a, b): (Float, Float) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                let c = topCentre + side * (a * (halfW - 0.05)) + fwd * (b * (halfD - 0.05)) - up * (2 * thick + legH)
                scene.add(
                    Primitive(
                        shape: .box, frame: Frame(origin: c, u: side, v: up, w: fwd),
                        half: Vec3(leg, legH, leg), material: mat, castsShadow: true))
            }
        }
        return mat
    }

    /// A desk or table top: 40 % plain laminate (white, black, grey, beige), else wood
    /// boards or a cloth.
    private mutating func deskMaterial() -> Int {
        if rng.unit() < 0.4 {
            let laminates = [Vec3(0.75, 0.74, 0.7), Vec3(0.06, 0.06, 0.06), Vec3(0.4, 0.4, 0.39), Vec3(0.6, 0.5, 0.38)]
            return plain(
                laminates[Int(rng.next() % 4)] * rng.uniform(0.9...1.05), specular: rng.uniform(0.02...0.15),
                shininess: rng.uniform(20...60))
        }
        return surface(
            [.woodPlanks, .woodPlanks, .woodPlanks, .fabric], repeatM: 0.4...1.5,
            specular: rng.uniform(0...0.15), role: .desk, scans: false)
    }

    /// A skirting board along the foot of a wall (wall point at floor level, in-plane
    /// horizontal axis `along`, normal `normal`).
    private mutating func addSkirting(at floorOnWall: Vec3, along: Vec3, normal: Vec3, up: Vec3) {
        let h = rng.uniform(0.04...0.09)
        let c = rng.unit() < 0.6 ? Vec3(0.8, 0.8, 0.78) : Vec3(0.35, 0.22, 0.12)
        let mat = plain(c, specular: 0.1, shininess: 30)
        scene.add(
            Primitive(
                shape: .box, frame: Frame(origin: floorOnWall + up * h + normal * 0.008, u: along, v: up, w: normal),
                half: Vec3(30, h, 0.008), material: mat, castsShadow: false))
    }

    /// The image a framed picture shows: a caller photo (or the text page), else a
    /// small rendered room.
    private mutating func pictureTexture() -> MipTexture? {
        if !pictureImages.isEmpty {
            return userAlbedo(pictureImages[Int(rng.next() % UInt64(pictureImages.count))])
        }
        return ContentFactory.renderedScene(seed: rng.next(), aspect: 1.4, maxWidth: 96, albedo: true)
    }

    /// Hangs up to `count` framed pictures on a wall (point `origin`, horizontal axis
    /// `along` pointing right as seen from the camera, `normal` toward the camera):
    /// centres at `along` offsets in `lateral`, heights above `origin` in `heights`,
    /// widths in `widths`, clear of the image rectangle `avoid` and of each other.
    private mutating func hangPictures(
        count: Int, origin: Vec3, along: Vec3, normal: Vec3, up: Vec3,
        lateral: ClosedRange<Float>, heights: ClosedRange<Float>,
        widths: ClosedRange<Float>, avoid: (Float, Float, Float, Float)?
    ) {
        guard allowPictures else { return }
        var rects: [(Float, Float, Float, Float)] = []
        var placed = 0, attempts = 0
        while placed < count && attempts < count * 6 {
            attempts += 1
            let w = rng.uniform(widths)
            let centre = origin + along * rng.uniform(lateral) + up * rng.uniform(heights)
            guard let tex = pictureTexture() else { return }
            let aspectTex = Float(tex.height) / Float(max(tex.width, 1))
            let hu = w / 2, hv = hu * aspectTex
            let border = rng.uniform(0.012...0.04)
            let matBorder: Float = rng.unit() < 0.5 ? hu * rng.uniform(0.08...0.2) : 0
            let outer = Frame(origin: centre + normal * 0.012, u: along, v: -up, w: normal)
            let r = imageRect(of: outer, hu: hu + matBorder + border, hv: hv + matBorder + border)
            if let a = avoid, overlaps(r, a, margin: 0.05) { continue }
            if rects.contains(where: { overlaps($0, r, margin: 0.05) }) { continue }
            if r.2 < -1 || r.0 > 1 || r.3 < -1 || r.1 > 1 { continue }
            rects.append(r)
            placed += 1
            let frameColour: Vec3 = [
                Vec3(0.03, 0.03, 0.03), Vec3(0.8, 0.8, 0.78), Vec3(0.3, 0.18, 0.08),
                Vec3(0.55, 0.45, 0.25),
            ][Int(rng.next() % 4)]
            let frameMat = plain(frameColour, specular: rng.uniform(0.05...0.3), shininess: 40)
            scene.add(
                Primitive(
                    shape: .box, frame: Frame(origin: centre + normal * 0.012, u: along, v: -up, w: normal),
                    half: Vec3(hu + matBorder + border, hv + matBorder + border, 0.012),
                    material: frameMat, castsShadow: true))
            if matBorder > 0 {
                let m = plain(Vec3(0.85, 0.84, 0.8))
                scene.add(
                    Primitive(
                        shape: .rectangle, frame: Frame(origin: centre + normal * 0.0245, u: along, v: -up, w: normal),
                        half: Vec3(hu + matBorder, hv + matBorder, 0), material: m, castsShadow: false))
            }
            var m = Material()
            m.texture = scene.addTexture(tex)
            m.tint = Vec3(1, 1, 1) * rng.uniform(0.8...0.95)
            m.specular = rng.uniform(0...0.1)
            m.shininess = 60
            let index = scene.addMaterial(m)
            // One texture repeat exactly spans the picture.
            scene.materials[index].texelsPerMetreU = Float(tex.width) / (2 * hu)
            scene.materials[index].texelsPerMetreV = Float(tex.height) / (2 * hv)
            scene.materials[index].offsetU = Float(tex.width) / 2
            scene.materials[index].offsetV = Float(tex.height) / 2
            scene.add(
                Primitive(
                    shape: .rectangle, frame: Frame(origin: centre + normal * 0.025, u: along, v: -up, w: normal),
                    half: Vec3(hu, hv, 0), material: index, castsShadow: false))
        }
    }

    // MARK: Surroundings

    private static let wallKinds: [ProceduralTextures.Kind] = [.plaster, .plaster, .plaster, .bricks, .tiles]
    private static let floorKinds: [ProceduralTextures.Kind] = [.woodPlanks, .woodPlanks, .tiles, .fabric]

    /// Bona fide surroundings of a flat subject (frame `f`, half sizes, `thickness`
    /// behind its face) with world `up`: a back wall and/or desk and floor, and
    /// clutter on the support, according to `placement`. On a desk, the desk top is
    /// `deskGap` m below the subject's lowest point (a monitor's stand height; 0 when
    /// it rests on the desk); a subject lying flat (up . w > 0.85) lies on it, one
    /// leaning back gets a support behind it.
    private mutating func addSurroundings(
        subject f: Frame, up: Vec3, hu: Float, hv: Float, thickness: Float,
        placement: SubjectPlacement.Placement, deskGap: Float = 0
    ) {
        let avoid = imageRect(of: f, hu: hu, hv: hv)
        let d = f.origin.z
        switch placement {
        case .wall:
            // The subject hangs on (or stands against) a wall; the floor is below.
            let wallMat = surface(Self.wallKinds, repeatM: 0.6...2.5, role: .wall)
            let wallPoint = f.origin - f.w * (thickness + rng.uniform(0.001...0.03))
            let along = up.cross(f.w).normalized
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: wallPoint, u: along, v: -up, w: f.w),
                    half: Vec3(0, 0, 0), material: wallMat, castsShadow: false))
            let floorDrop = hv + rng.uniform(0.3...1.2)
            let floorMat = surface(Self.floorKinds, repeatM: 0.5...2, role: .floor, scans: false)
            let floorPoint = f.origin - up * floorDrop
            let fwd = up.cross(along).normalized
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: floorPoint, u: along, v: fwd, w: up),
                    half: .zero, material: floorMat, castsShadow: false))
            addSkirting(at: wallPoint - up * floorDrop, along: along, normal: f.w, up: up)
            let fw = frameWidth(at: d)
            hangPictures(
                count: Int(rng.uniform(0...2.5)), origin: wallPoint, along: along, normal: f.w, up: up,
                lateral: (-fw)...fw, heights: (-hv)...(hv + 0.3), widths: (0.15 * fw)...(0.3 * fw), avoid: avoid)
            scatterObjects(
                count: Int(rng.uniform(0...3)), support: floorPoint, up: up, avoid: avoid,
                size: 0.08...0.4, maxDistance: d + 3)
        case .desk:
            // On a desk: a desk-top box under the subject (a display stands on it, a
            // sheet lies on it), a wall behind, the floor 0.7-0.8 m below the desk top.
            let lying = up.dot(f.w) > 0.85
            let lowest = Self.lowestCorner(of: f, hu: hu, hv: hv, thickness: thickness, along: up)
            let top =
                lying
                ? f.origin - up * 0.0003
                : f.origin - up * (f.origin.dot(up) - lowest + max(deskGap, 0.0005))
            var towardCamera = -f.origin - up * (-f.origin).dot(up)
            if towardCamera.length < 1e-3 { towardCamera = f.v }
            towardCamera = towardCamera.normalized
            let side = up.cross(towardCamera).normalized
            let halfW = rng.uniform(0.6...1.2)
            var halfD = rng.uniform(0.35...0.6)
            // Back edge behind the subject, front edge toward the camera; a camera less
            // than 0.3 m above the desk top stays in front of it (depth >= ~0.15 m), and
            // a camera at or below the top level (looking up at a tilted screen) would
            // see the desk's front face across the subject, so the desk then ends 5 cm
            // in front of the subject.
            let back = halfD * (lying ? rng.uniform(0.7...1.3) : 0.4)
            var front = 2 * halfD - back
            let cameraHeight = -top.dot(up), cameraAlong = (-top).dot(towardCamera)
            if cameraHeight < 0.3 { front = max(min(front, cameraAlong - 0.15), 0.05) }
            if cameraHeight < 0.05 { front = 0.05 }
            halfD = (front + back) / 2
            let deskCentre = top + towardCamera * ((front - back) / 2)
            let deskHeight = rng.uniform(0.7...0.8)
            addTable(
                topCentre: deskCentre, side: side, fwd: towardCamera, up: up, halfW: halfW, halfD: halfD,
                height: deskHeight)
            let floorMat = surface(Self.floorKinds, repeatM: 0.5...2, role: .floor, scans: false)
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: top - up * deskHeight, u: side, v: towardCamera, w: up),
                    half: .zero, material: floorMat, castsShadow: false))
            let wallMat = surface([.plaster, .plaster, .bricks], repeatM: 0.8...3, role: .wall)
            // The wall stands behind the desk's back edge and behind every corner of the
            // subject (a screen tilted back can reach past the desk).
            var reach = halfD
            for (a, b) in [(-hu, -hv), (hu, -hv), (-hu, hv), (hu, hv)] {
                reach = max(reach, (deskCentre - f.point(a, b, -thickness)).dot(towardCamera) + 0.01)
            }
            let wallPoint = deskCentre - towardCamera * (reach + rng.uniform(0...0.4))
            let along = up.cross(towardCamera).normalized
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: wallPoint, u: along, v: -up, w: towardCamera),
                    half: .zero, material: wallMat, castsShadow: false))
            addSkirting(at: wallPoint - up * deskHeight, along: -side, normal: towardCamera, up: up)
            if !lying && deskGap < 0.01 && up.dot(f.w) > 0.1 {
                // Leaning back: a block (books, a box) behind, touching the back face
                // 40 % of the way up.
                let rise = -(f.v.dot(up))
                let along2 = (f.u - up * f.u.dot(up)).normalized
                let height = 0.4 * 2 * hv * rise
                let bottomBack = f.point(0, hv, -thickness)
                let contact = bottomBack - f.v * (0.4 * 2 * hv)
                let blockDepth = rng.uniform(0.03...0.08)
                // An orthonormal box frame: width along the panel's horizontal edge,
                // depth square to it, toward the camera's side.
                var depthAxis = along2.cross(up).normalized
                if depthAxis.dot(towardCamera) < 0 { depthAxis = depthAxis * -1 }
                var c =
                    contact - up * (contact.dot(up) - top.dot(up)) + up * (height / 2) - depthAxis * (blockDepth / 2)
                let mat = plain(randomColour(), specular: rng.uniform(0...0.2), shininess: 30)
                let half = Vec3(hu * rng.uniform(0.5...0.9), height / 2, blockDepth / 2)
                // Behind the panel's back face everywhere: push the block back until its
                // nearest front corner just touches (f.w points out of the panel's front).
                var penetration: Float = 0
                for (x, y) in [(-half.x, -half.y), (half.x, -half.y), (-half.x, half.y), (half.x, half.y)] {
                    let corner = c + along2 * x + up * y + depthAxis * half.z
                    penetration = max(penetration, (corner - bottomBack).dot(f.w))
                }
                let approach = max(depthAxis.dot(f.w), 0.1)
                if penetration > 0 { c = c - depthAxis * (penetration / approach + 0.001) }
                scene.add(
                    Primitive(
                        shape: .box, frame: Frame(origin: c, u: along2, v: up, w: depthAxis),
                        half: half, material: mat, castsShadow: true))
            }
            hangPictures(
                count: Int(rng.uniform(0...2.5)), origin: wallPoint, along: along,
                normal: towardCamera, up: up, lateral: (-1.2)...1.2, heights: 0.25...0.8,
                widths: 0.2...0.6, avoid: avoid)
            scatterOnTop(
                count: Int(rng.uniform(1...6)), centre: deskCentre, side: side, fwd: towardCamera, up: up,
                halfW: halfW, halfD: halfD, avoid: avoid, size: 0.03...0.1)
        case .handheld:
            // Free in a room: a wall 1-4 m behind, a floor below.
            let wallMat = surface(Self.wallKinds, repeatM: 0.8...3, role: .wall)
            var facing = f.w - up * f.w.dot(up)
            facing = facing.length < 1e-3 ? up.cross(Vec3(1, 0, 0)).normalized : facing.normalized
            let back = facing.rotated(about: up, by: rng.uniform(-0.4...0.4))
            let wallPoint = f.origin - back * rng.uniform(1...4)
            let along = up.cross(back).normalized
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: wallPoint, u: up.cross(back).normalized, v: -up, w: back),
                    half: .zero, material: wallMat, castsShadow: false))
            let floorDrop = rng.uniform(0.8...1.5)
            let floorPoint = f.origin - up * floorDrop
            let floorMat = surface(Self.floorKinds, repeatM: 0.5...2, role: .floor, scans: false)
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: floorPoint, u: along, v: up.cross(along).normalized, w: up),
                    half: .zero, material: floorMat, castsShadow: false))
            addSkirting(at: wallPoint - up * floorDrop, along: along, normal: back, up: up)
            hangPictures(
                count: Int(rng.uniform(0...2.5)), origin: wallPoint, along: along, normal: back, up: up,
                lateral: (-2)...2, heights: 0...0.6, widths: 0.3...0.8, avoid: avoid)
            if rng.unit() < 0.6 {
                // A table or sideboard in the room.
                let tableFwd = back
                let tHalfW = rng.uniform(0.4...0.8), tHalfD = rng.uniform(0.25...0.45)
                let tableHeight = rng.uniform(0.45...0.8)
                let c = wallPoint + back * (tHalfD + rng.uniform(0...0.6)) + along * rng.uniform(-1.5...1.5)
                let topCentre = c - up * floorDrop + up * tableHeight
                if let q = project(topCentre),
                    !(q.0 > avoid.0 - 0.2 && q.0 < avoid.2 + 0.2 && q.1 > avoid.1 - 0.2 && q.1 < avoid.3 + 0.2)
                {
                    addTable(
                        topCentre: topCentre, side: along, fwd: tableFwd, up: up, halfW: tHalfW, halfD: tHalfD,
                        height: tableHeight)
                    scatterOnTop(
                        count: Int(rng.uniform(1...4)), centre: topCentre, side: along, fwd: tableFwd, up: up,
                        halfW: tHalfW, halfD: tHalfD, avoid: avoid, size: 0.05...0.15)
                }
            }
            scatterObjects(
                count: Int(rng.uniform(0...3)), support: floorPoint, up: up, avoid: avoid,
                size: 0.1...0.4, maxDistance: d + 5)
        }
        placeLight(target: f.origin, up: up)
    }

    // MARK: Bona fide 3D scenes

    /// A room seen from standing height (camera 1.1-1.7 m above the floor, pitched down
    /// 5-35 degrees), or a table top seen from 0.35-0.8 m above it (pitched 25-50): floor, walls with a
    /// skirting board and framed pictures, furniture, and objects standing on the table
    /// or floor.
    mutating func buildRealScene(tabletop: Bool) {
        let pitch = (tabletop ? rng.uniform(25...50) : rng.uniform(5...35)) * .pi / 180
        let roll = rng.uniform(-4...4) * .pi / 180
        var up = Vec3(0, -cos(pitch), -sin(pitch))
        up = up.rotated(about: Vec3(0, 0, 1), by: roll).normalized
        var forward = Vec3(0, 0, 1) - up * up.dot(Vec3(0, 0, 1))
        forward = forward.normalized
        let right = forward.cross(up).normalized * -1
        let height = tabletop ? rng.uniform(0.35...0.8) : rng.uniform(1.1...1.7)
        let floorPoint = up * -height
        // Walls: back and one side.
        let backDistance = tabletop ? rng.uniform(1.2...3) : rng.uniform(2.5...6)
        let wallMat = surface(Self.wallKinds, repeatM: 0.8...3, role: .wall)
        let yaw = rng.uniform(-0.5...0.5)
        let backNormal = (-forward).rotated(about: up, by: yaw)
        let backOrigin = forward * backDistance
        scene.add(
            Primitive(
                shape: .plane, frame: Frame(origin: backOrigin, u: right, v: -up, w: backNormal),
                half: .zero, material: wallMat, castsShadow: false))
        let backAlong = up.cross(backNormal).normalized
        let sideMat = rng.unit() < 0.6 ? wallMat : surface([.plaster, .bricks, .tiles], repeatM: 0.8...3, role: .wall)
        let sideOffset = rng.uniform(1.2...3) * (rng.unit() < 0.5 ? -1 : 1)
        let sideNormal = right * (sideOffset > 0 ? -1 : 1)
        scene.add(
            Primitive(
                shape: .plane, frame: Frame(origin: right * sideOffset, u: forward, v: -up, w: sideNormal),
                half: .zero, material: sideMat, castsShadow: false))
        let roomFloor = tabletop ? floorPoint - up * 0.75 : floorPoint
        let floorHeight = tabletop ? height + 0.75 : height
        let floorMat = surface(Self.floorKinds, repeatM: 0.6...2.5, role: .floor, scans: false)
        scene.add(
            Primitive(
                shape: .plane, frame: Frame(origin: roomFloor, u: right, v: forward, w: up),
                half: .zero, material: floorMat, castsShadow: false))
        // The back wall meets the floor where the floor plane crosses it.
        let backFoot = backOrigin - up * floorHeight
        addSkirting(at: backFoot, along: backAlong, normal: backNormal, up: up)
        addSkirting(at: right * sideOffset - up * floorHeight, along: forward, normal: sideNormal, up: up)
        var ceilingHeight: Float? = nil
        if !tabletop {
            let ceiling = surface([.plaster], repeatM: 1...3, tint: Vec3(0.85, 0.85, 0.83), role: .wall, scans: false)
            let h = rng.uniform(0.9...1.3)
            ceilingHeight = h
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: up * h, u: right, v: forward, w: -up),
                    half: .zero, material: ceiling, castsShadow: false))
        }
        // Pictures at eye height on the back wall.
        hangPictures(
            count: Int(rng.uniform(0...3.5)), origin: backFoot, along: backAlong, normal: backNormal, up: up,
            lateral: (-2.5)...2.5, heights: 1.2...1.8, widths: 0.25...0.9, avoid: nil)
        if tabletop {
            // A table filling the lower frame, objects on it.
            let halfW = rng.uniform(0.5...1.0), halfD = rng.uniform(0.4...0.7)
            let centre = floorPoint + forward * (height / tan(pitch) * rng.uniform(0.8...1.4))
            addTable(topCentre: centre, side: right, fwd: forward, up: up, halfW: halfW, halfD: halfD, height: 0.75)
            scatterOnTop(
                count: Int(rng.uniform(3...8.99)), centre: centre, side: right, fwd: forward, up: up,
                halfW: halfW, halfD: halfD, avoid: nil, size: 0.04...0.12)
        } else {
            // Furniture: a table with things on it, maybe a sideboard against the wall,
            // and a few larger objects on the floor.
            // Nearest floor distance in view: the lower frame edge is pitch + half the
            // vertical field of view below the horizon.
            let tHalfW = rng.uniform(0.4...0.9), tHalfD = rng.uniform(0.3...0.6)
            let nearest = (height - 0.5) / tan(min(pitch + atan(tanHalf * aspect), 1.5)) + tHalfD
            let farthest = backDistance - tHalfD - 0.3
            let lo = min(max(nearest, 1.0), farthest - 0.2)
            let tableDist = rng.uniform(lo...max(min(lo + 1.5, farthest), lo + 0.1))
            let tableHeight = rng.uniform(0.45...0.8)
            let tableCentre = floorPoint + forward * tableDist + right * rng.uniform(-0.8...0.8) + up * tableHeight
            addTable(
                topCentre: tableCentre, side: right, fwd: forward, up: up, halfW: tHalfW, halfD: tHalfD,
                height: tableHeight)
            scatterOnTop(
                count: Int(rng.uniform(2...6.99)), centre: tableCentre, side: right, fwd: forward, up: up,
                halfW: tHalfW, halfD: tHalfD, avoid: nil, size: 0.04...0.12)
            footprints.append((tableCentre - up * tableHeight, max(tHalfW, tHalfD) * 1.3))
            if rng.unit() < 0.6 {
                let sHalfW = rng.uniform(0.4...1.0), sHalfD = rng.uniform(0.2...0.3), sHalfH = rng.uniform(0.2...0.45)
                let c = backFoot + backNormal * (sHalfD + 0.01) + backAlong * rng.uniform(-1.5...1.5)
                let mat = surface([.woodPlanks, .plaster], repeatM: 0.4...1.2, role: .desk, scans: false)
                scene.add(
                    Primitive(
                        shape: .box, frame: Frame(origin: c + up * sHalfH, u: backAlong, v: up, w: backNormal),
                        half: Vec3(sHalfW, sHalfH, sHalfD), material: mat, castsShadow: true))
                footprints.append((c, max(sHalfW, sHalfD) * 1.2))
                scatterOnTop(
                    count: Int(rng.uniform(1...3.99)), centre: c + up * (2 * sHalfH), side: backAlong,
                    fwd: backNormal, up: up, halfW: sHalfW, halfD: sHalfD, avoid: nil, size: 0.04...0.12)
            }
            let count = Int(rng.uniform(1...4.99))
            var placed = 0, attempts = 0
            while placed < count && attempts < 60 {
                attempts += 1
                let nx = rng.uniform(-1...1), ny = rng.uniform(-0.6...1)
                guard let p = rayHit(nx: nx, ny: ny, point: floorPoint, normal: up) else { continue }
                let dist = p.length
                if dist > backDistance * 0.9 || dist < height * 0.8 { continue }
                let scale = rng.uniform(0.12...0.4)
                guard addObject(at: p, up: up, scale: scale) else { continue }
                placed += 1
                // Sometimes stack a smaller object on top of the last box.
                if let last = scene.primitives.last, last.shape == .box, rng.unit() < 0.3 {
                    addObject(at: last.frame.origin + up * last.half.y, up: up, scale: scale * 0.5)
                }
            }
        }
        let target = forward * (tabletop ? height / tan(pitch) : min(backDistance * 0.5, 2.5)) + floorPoint
        placeLight(target: target, up: up, ceiling: ceilingHeight)
    }

    // MARK: Bona fide flat subjects

    /// A wall in front of the camera filling the frame (60 %) or with a floor at the
    /// lower edge (40 %). Its courses are level with the world (the procedural bricks
    /// and tiles are irregular enough not to form display-like spectral peaks).
    mutating func buildWall() {
        let (f, up) = subjectPose()
        let wallMat = surface([.bricks, .plaster, .stone, .tiles], repeatM: 0.5...2.5, role: .wall, outdoorWall: true)
        let along = up.cross(f.w).normalized
        scene.add(
            Primitive(
                shape: .plane, frame: Frame(origin: f.origin, u: along, v: -up, w: f.w), half: .zero,
                material: wallMat, castsShadow: false))
        if rng.unit() < 0.4 {
            let fw = frameWidth(at: f.origin.z)
            let floorMat = surface(Self.floorKinds, repeatM: 0.5...2, role: .floor, scans: false)
            let floorPoint = f.origin - up * (fw * aspect * rng.uniform(0.35...0.7))
            scene.add(
                Primitive(
                    shape: .plane, frame: Frame(origin: floorPoint, u: along, v: up.cross(along).normalized, w: up),
                    half: .zero, material: floorMat, castsShadow: false))
        }
        if rng.unit() < 0.3 {
            // A switch plate or a small shelf: a thin box on the wall.
            let fw = frameWidth(at: f.origin.z)
            let p = f.point(rng.uniform(-0.4...0.4) * fw, rng.uniform(-0.3...0.3) * fw * aspect, 0.004)
            let s = fw * rng.uniform(0.03...0.08)
            scene.add(
                Primitive(
                    shape: .box, frame: Frame(origin: p, u: along, v: -up, w: f.w),
                    half: Vec3(s, s * 1.5, 0.004), material: plain(Vec3(0.8, 0.8, 0.78), specular: 0.2),
                    castsShadow: true))
        }
        placeLight(target: f.origin, up: up)
    }

    /// A sheet: a rectangle, or a gently curved sheet when `curvature_per_m` > 0.
    private mutating func addSheet(frame f: Frame, hu: Float, hv: Float, material: Int) -> Int {
        let k = parameters.subject.curvaturePerM
        if abs(k) > 1e-4 {
            // The centre line rests on the support plane; the side edges curl up toward
            // the camera by k hu^2 / 2.
            return scene.add(
                Primitive(
                    shape: .sheet, frame: f, half: Vec3(hu, hv, 0), curvature: abs(k),
                    material: material, castsShadow: false))
        }
        return scene.add(
            Primitive(shape: .rectangle, frame: f, half: Vec3(hu, hv, 0), material: material, castsShadow: false))
    }

    // MARK: Prints and documents

    /// A print (halftone) or bona fide document (toner) and its surroundings.
    mutating func buildSheet(content: MipTexture) {
        guard let pp = parameters.print else { return }
        let (f, up) = subjectPose()
        let hu = pp.sheetSizeM[0] / 2, hv = pp.sheetSizeM[1] / 2
        var m = Material()
        m.kind = .print
        let mat = scene.addMaterial(m)
        let index = addSheet(frame: f, hu: hu, hv: hv, material: mat)
        let period = pp.periodPx * f.origin.z / parameters.focalPx
        scene.print = PrintSurface(
            primitive: index, parameters: pp, content: content,
            sheetSize: (pp.sheetSizeM[0], pp.sheetSizeM[1]), periodM: period,
            fibres: ProceduralTextures.bank[.paperFibres])
        let placement = parameters.subject.placement
        addSurroundings(subject: f, up: up, hu: hu, hv: hv, thickness: 0.0002, placement: placement)
        addGlare(frame: f, hu: hu, hv: hv)
    }

    // MARK: Displays

    /// A display: body box (bezel), active area, maybe a stand, and surroundings.
    mutating func buildDisplay(content: MipTexture) {
        guard let dp = parameters.display else { return }
        let (f, up) = subjectPose()
        let hu = dp.panelSizeM[0] / 2, hv = dp.panelSizeM[1] / 2
        let bezel = dp.bezelMm * 1e-3
        let thickness: Float
        switch parameters.subjectKind {
        case .phone: thickness = 0.008
        case .tablet: thickness = 0.007
        case .television: thickness = rng.uniform(0.03...0.06)
        default: thickness = rng.uniform(0.015...0.05)
        }
        let bodyGrey = rng.uniform(0.02...0.12)
        let bodyMat = plain(
            Vec3(bodyGrey, bodyGrey, bodyGrey * 1.05), specular: rng.uniform(0.05...0.4),
            shininess: rng.uniform(20...120))
        let bodyCentre = f.origin - f.w * (thickness / 2 + 0.0005)
        scene.add(
            Primitive(
                shape: .box, frame: Frame(origin: bodyCentre, u: f.u, v: f.v, w: f.w),
                half: Vec3(hu + bezel, hv + bezel, thickness / 2), material: bodyMat, castsShadow: true))
        var m = Material()
        m.kind = .display
        let mat = scene.addMaterial(m)
        let index = scene.add(
            Primitive(shape: .rectangle, frame: f, half: Vec3(hu, hv, 0), material: mat, castsShadow: false))
        let pitch = dp.pixelPitchMm * 1e-3
        scene.display = DisplaySurface(
            primitive: index, pitchM: pitch, columns: dp.resolution[0], rows: dp.resolution[1],
            content: content, parameters: dp, lensSigma: parameters.sensor.lensBlurSigmaPx,
            nominalPitchPx: dp.pixelPitchPx)
        let placement = parameters.subject.placement
        var deskGap: Float = 0
        if placement == .desk, parameters.subjectKind == .monitor || parameters.subjectKind == .television {
            // Stand: a vertical neck from the body's back down to a foot on the desk,
            // which is `deskGap` below the body's lowest point.
            deskGap = rng.uniform(0.04...0.18)
            let lowest = Self.lowestCorner(of: f, hu: hu + bezel, hv: hv + bezel, thickness: thickness, along: up)
            let deskLevel = lowest - deskGap
            let across = (f.u - up * f.u.dot(up)).normalized
            let depthAxis = up.cross(across).normalized
            let neckTop = bodyCentre - f.w * (thickness / 2 + 0.012)
            let neckHeight = neckTop.dot(up) - deskLevel
            let neckBottom = neckTop - up * neckHeight
            let neckHalfWidth = min(rng.uniform(0.025...0.05), hu * 0.3)
            scene.add(
                Primitive(
                    shape: .box, frame: Frame(origin: neckTop - up * (neckHeight / 2), u: across, v: up, w: depthAxis),
                    half: Vec3(neckHalfWidth, neckHeight / 2, 0.012), material: bodyMat, castsShadow: true))
            let footHalf = Vec3(min(hu * 0.45, rng.uniform(0.1...0.2)), 0.008, rng.uniform(0.07...0.12))
            // The foot reaches forward under the screen.
            let footCentre = neckBottom + up * footHalf.y + f.w * (footHalf.z * 0.5 - thickness / 2)
            let footOrigin = footCentre - up * (footCentre.dot(up) - deskLevel - footHalf.y)
            scene.add(
                Primitive(
                    shape: .box, frame: Frame(origin: footOrigin, u: across, v: up, w: depthAxis),
                    half: footHalf, material: bodyMat, castsShadow: true))
        }
        addSurroundings(
            subject: f, up: up, hu: hu + bezel, hv: hv + bezel, thickness: thickness, placement: placement,
            deskGap: deskGap)
        addGlare(frame: f, hu: hu, hv: hv)
    }

    private mutating func addGlare(frame f: Frame, hu: Float, hv: Float) {
        guard let g = parameters.glare else { return }
        let sx = (g.spot.first ?? 0.5) - 0.5, sy = (g.spot.count > 1 ? g.spot[1] : 0.5) - 0.5
        let spot = f.point(sx * 2 * hu, sy * 2 * hv, 0)
        let c = ColorScience.illuminant(kelvin: rng.uniform(4500...6500))
        scene.glare = GlareLight(
            parameters: g, spot: spot, surfaceNormal: f.w, cameraOrigin: .zero,
            up: subjectPose().up, colour: Vec3(c.0, c.1, c.2))
    }
}
