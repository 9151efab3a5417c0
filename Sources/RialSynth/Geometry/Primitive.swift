import Foundation

/// A renderable solid or surface in camera coordinates (metres).
///
/// Local frame: `frame.origin` is the centre, `frame.u`, `frame.v`, `frame.w` the
/// axes (w is the normal of planar shapes, v the axis of a cylinder). Half extents
/// `half` along u, v, w; a sphere's radius and a cylinder's radius are `half.x`.
struct Primitive: Sendable {
    enum Shape: UInt8, Sendable {
        /// Infinite plane through the origin with normal w.
        case plane
        /// Rectangle |u| <= half.x, |v| <= half.y in the plane w = 0.
        case rectangle
        /// Oriented box.
        case box
        case sphere
        /// Capped cylinder along v.
        case cylinder
        /// Rectangle bent into w = curvature / 2 * u^2 (a gently curved print).
        case sheet
    }

    var shape: Shape
    var frame: Frame
    var half: Vec3
    var curvature: Float = 0
    var material: Int
    /// Whether the primitive occludes the point light (shadow rays test these only).
    var castsShadow: Bool
    var boundCentre: Vec3 = .zero
    var boundRadius: Float = .infinity

    init(shape: Shape, frame: Frame, half: Vec3, curvature: Float = 0, material: Int, castsShadow: Bool) {
        self.shape = shape
        self.frame = frame
        self.half = half
        self.curvature = curvature
        self.material = material
        self.castsShadow = castsShadow
        boundCentre = frame.origin
        switch shape {
        case .plane: boundRadius = .infinity
        case .rectangle: boundRadius = (half.x * half.x + half.y * half.y).squareRoot() * 1.001
        case .sheet:
            let bulge = abs(curvature) * half.x * half.x / 2
            boundRadius = (half.x * half.x + half.y * half.y + bulge * bulge).squareRoot() * 1.001 + bulge
        case .box: boundRadius = half.length * 1.001
        case .sphere: boundRadius = half.x * 1.001
        case .cylinder: boundRadius = (half.x * half.x + half.y * half.y).squareRoot() * 1.001
        }
    }

    static let tMin: Float = 1e-4

    /// A lower bound of the depth (z) of any point of a bounded primitive; -inf for
    /// planes. Camera rays have d.z = 1, so no hit of a ray from a centre at z = 0 can
    /// have t below it.
    var depthLowerBound: Float {
        switch shape {
        case .plane: return -.infinity
        case .sphere: return frame.origin.z - half.x
        case .rectangle, .sheet, .box, .cylinder:
            let hz: Float = shape == .box ? half.z : (shape == .cylinder ? half.x : 0)
            let hx = half.x, hy = shape == .cylinder ? half.y : half.y
            let extent = abs(frame.u.z) * hx + abs(frame.v.z) * hy + abs(frame.w.z) * hz
            let bulge = shape == .sheet ? abs(curvature) * half.x * half.x / 2 : 0
            return frame.origin.z - extent - bulge
        }
    }

    /// A lower bound of the coordinate along the unit vector `axis` of any point of a
    /// bounded primitive (`depthLowerBound` for a turned view's optical axis); -inf for
    /// planes.
    func depthLowerBound(along axis: Vec3) -> Float {
        switch shape {
        case .plane: return -.infinity
        case .sphere: return frame.origin.dot(axis) - half.x
        case .rectangle, .sheet, .box, .cylinder:
            let hz: Float = shape == .box ? half.z : (shape == .cylinder ? half.x : 0)
            let extent = abs(frame.u.dot(axis)) * half.x + abs(frame.v.dot(axis)) * half.y + abs(frame.w.dot(axis)) * hz
            let bulge = shape == .sheet ? abs(curvature) * half.x * half.x / 2 : 0
            return frame.origin.dot(axis) - extent - bulge
        }
    }

    /// Ray parameter of the nearest hit with t in (tMin, tMax), or +infinity.
    /// Rays are o + t d; camera rays have d.z = 1, so t is the depth along the axis.
    @inline(__always)
    func intersect(origin o: Vec3, direction d: Vec3, tMax: Float) -> Float {
        let oc = o - frame.origin
        if shape == .box || shape == .cylinder || shape == .sheet {
            // Early out: the ray misses the bounding sphere, |oc x d|^2 > r^2 |d|^2.
            let cr = oc.cross(d)
            if cr.dot(cr) > boundRadius * boundRadius * d.dot(d) { return .infinity }
        }
        switch shape {
        case .plane, .rectangle:
            let dw = d.dot(frame.w)
            if abs(dw) < 1e-12 { return .infinity }
            let t = -oc.dot(frame.w) / dw
            if !(t > Primitive.tMin && t < tMax) { return .infinity }
            if shape == .plane { return t }
            let p = oc + d * t
            if abs(p.dot(frame.u)) > half.x || abs(p.dot(frame.v)) > half.y { return .infinity }
            return t
        case .sphere:
            let a = d.dot(d), b = oc.dot(d), c = oc.dot(oc) - half.x * half.x
            let disc = b * b - a * c
            if disc < 0 { return .infinity }
            let s = disc.squareRoot()
            var t = (-b - s) / a
            if t <= Primitive.tMin { t = (-b + s) / a }
            return t > Primitive.tMin && t < tMax ? t : .infinity
        case .box:
            let ou = oc.dot(frame.u), ov = oc.dot(frame.v), ow = oc.dot(frame.w)
            let du = d.dot(frame.u), dv = d.dot(frame.v), dw = d.dot(frame.w)
            var tNear = -Float.infinity, tFar = Float.infinity
            func slab(_ o: Float, _ d: Float, _ h: Float) -> Bool {
                if abs(d) < 1e-12 { return abs(o) <= h }
                let inv = 1 / d
                var t1 = (-h - o) * inv, t2 = (h - o) * inv
                if t1 > t2 { swap(&t1, &t2) }
                tNear = max(tNear, t1)
                tFar = min(tFar, t2)
                return tNear <= tFar
            }
            if !slab(ou, du, half.x) || !slab(ov, dv, half.y) || !slab(ow, dw, half.z) { return .infinity }
            let t = tNear > Primitive.tMin ? tNear : tFar
            return t > Primitive.tMin && t < tMax ? t : .infinity
        case .cylinder:
            let ou = oc.dot(frame.u), ov = oc.dot(frame.v), ow = oc.dot(frame.w)
            let du = d.dot(frame.u), dv = d.dot(frame.v), dw = d.dot(frame.w)
            var best = Float.infinity
            let a = du * du + dw * dw
            if a > 1e-12 {
                let b = ou * du + ow * dw, c = ou * ou + ow * ow - half.x * half.x
                let disc = b * b - a * c
                if disc >= 0 {
                    let s = disc.squareRoot()
                    let t1 = (-b - s) / a, t2 = (-b + s) / a
                    if t1 > Primitive.tMin && abs(ov + t1 * dv) <= half.y {
                        best = t1
                    } else if t2 > Primitive.tMin && abs(ov + t2 * dv) <= half.y {
                        best = t2
                    }
                }
            }
            if abs(dv) > 1e-12 {
                var cap = -half.y
                for _ in 0..<2 {
                    let t = (cap - ov) / dv
                    if t > Primitive.tMin && t < best {
                        let pu = ou + t * du, pw = ow + t * dw
                        if pu * pu + pw * pw <= half.x * half.x { best = t }
                    }
                    cap = half.y
                }
            }
            return best < tMax ? best : .infinity
        case .sheet:
            let ou = oc.dot(frame.u), ov = oc.dot(frame.v), ow = oc.dot(frame.w)
            let du = d.dot(frame.u), dv = d.dot(frame.v), dw = d.dot(frame.w)
            let k = curvature
            // (ow + t dw) = k/2 (ou + t du)^2
            let a = 0.5 * k * du * du, b = k * du * ou - dw, c = 0.5 * k * ou * ou - ow
            var roots: (Float, Float)
            let disc = b * b - 4 * a * c
            if disc < 0 { return .infinity }
            // Numerically stable roots (no cancellation when a is tiny): q = -(b +
            // sign(b) sqrt(disc)) / 2, t = q / a and c / q.
            let q = -0.5 * (b + (b >= 0 ? disc.squareRoot() : -disc.squareRoot()))
            let t1 = q != 0 ? c / q : Float.infinity
            let t2 = abs(a) > 1e-20 ? q / a : Float.infinity
            roots = (min(t1, t2), max(t1, t2))
            var t = roots.0
            for _ in 0..<2 {
                if t > Primitive.tMin && t < tMax && abs(ou + t * du) <= half.x && abs(ov + t * dv) <= half.y {
                    return t
                }
                t = roots.1
            }
            return .infinity
        }
    }

    /// Unit normal (not yet flipped toward the viewer) and surface coordinates in
    /// metres at the hit point `p` (camera coordinates).
    @inline(__always)
    func surface(at p: Vec3) -> (normal: Vec3, s: Float, t: Float) {
        let q = p - frame.origin
        let lu = q.dot(frame.u), lv = q.dot(frame.v), lw = q.dot(frame.w)
        switch shape {
        case .plane, .rectangle:
            return (frame.w, lu, lv)
        case .sheet:
            return ((frame.w - frame.u * (curvature * lu)).normalized, lu, lv)
        case .sphere:
            let n = q * (1 / half.x)
            let phi = atan2(lw, lu)
            let theta = acos(min(max(lv / half.x, -1), 1))
            return (n, half.x * phi, half.x * theta)
        case .box:
            let ru = abs(lu) / half.x, rv = abs(lv) / half.y, rw = abs(lw) / half.z
            if ru >= rv && ru >= rw { return (frame.u * (lu > 0 ? 1 : -1), lw + 3 * half.z, lv) }
            if rv >= rw { return (frame.v * (lv > 0 ? 1 : -1), lu, lw + 5 * half.z) }
            return (frame.w * (lw > 0 ? 1 : -1), lu, lv)
        case .cylinder:
            let radial = (lu * lu + lw * lw).squareRoot()
            if abs(lv) >= half.y * 0.9999 && radial < half.x * 0.9999 {
                return (frame.v * (lv > 0 ? 1 : -1), lu, lw)
            }
            let n = (frame.u * lu + frame.w * lw).normalized
            return (n, half.x * atan2(lw, lu), lv)
        }
    }

    /// Whether the segment o + t d, t in (tMin, 1), hits this primitive (shadow rays).
    @inline(__always)
    func occludes(origin o: Vec3, direction d: Vec3) -> Bool {
        if boundRadius.isFinite {
            // Distance from the bound centre to the segment.
            let oc = boundCentre - o
            let dd = d.dot(d)
            let s = min(max(oc.dot(d) / dd, 0), 1)
            let closest = oc - d * s
            if closest.dot(closest) > boundRadius * boundRadius { return false }
        }
        return intersect(origin: o, direction: d, tMax: 1 - 1e-4).isFinite
    }
}

/// What a surface is made of.
struct Material: Sendable {
    enum Kind: UInt8, Sendable {
        /// Lambertian with an optional Blinn-Phong highlight.
        case diffuse
        /// The active area of the display (emits through its subpixel pattern).
        case display
        /// The print or document sheet (paper, inks).
        case print
    }

    var kind: Kind = .diffuse
    /// Index into the scene's textures, or -1 for a plain colour.
    var texture: Int = -1
    /// Linear albedo multiplier (RGB).
    var tint: Vec3 = Vec3(0.6, 0.6, 0.6)
    /// Size of one texture repeat on the surface, m.
    var metresPerRepeat: Float = 1
    /// Texture rotation (cos, sin) and offset in repeats.
    var rotationCos: Float = 1
    var rotationSin: Float = 0
    var offsetU: Float = 0
    var offsetV: Float = 0
    /// Texture texels per metre along the surface (texture size / metresPerRepeat) and
    /// the offset in texels; set by `finalise(textureWidth:height:)`.
    var texelsPerMetreU: Float = 1
    var texelsPerMetreV: Float = 1

    /// Precomputes the texel scales for a texture of the given size (offsets become texels).
    mutating func finalise(textureWidth: Int, textureHeight: Int) {
        texelsPerMetreU = Float(textureWidth) / metresPerRepeat
        texelsPerMetreV = Float(textureHeight) / metresPerRepeat
        offsetU *= Float(textureWidth)
        offsetV *= Float(textureHeight)
    }

    /// Blinn-Phong specular coefficient and exponent.
    var specular: Float = 0
    var shininess: Float = 20
}
