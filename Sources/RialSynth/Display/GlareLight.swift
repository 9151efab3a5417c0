import Foundation

/// A rectangular area light seen in the mirror direction of a smooth surface
/// (screen glass, glossy print): specular glare that follows the real geometry.
///
/// For a surface point P with unit normal N seen from camera centre O:
///   view v = (P - O) / |P - O|, mirror r = v - 2 (v . N) N,
///   Q = P + s r on the light's plane (s > 0), (a, b) = Q's coordinates in the light,
///   coverage = [Phi((A - a) / w) - Phi((-A - a) / w)] [Phi((B - b) / w) - Phi((-B - b) / w)],
///   with w = s * roughness (the Gaussian specular lobe projected onto the light) and
///   Phi the standard normal CDF; radiance = F(cos) * L * coverage, with Schlick's
///   F(cos) = F0 + (1 - F0) (1 - cos)^5, cos = -v . N.
/// Because r depends on O, the glare moves between the two cameras as a real
/// reflection does (it is not attached to the surface).
struct GlareLight: Sendable {
    var centre: Vec3
    var normal: Vec3
    var axisA: Vec3
    var axisB: Vec3
    var halfA: Float
    var halfB: Float
    /// Radiance (linear RGB, relative to a white Lambertian surface under the room light).
    var radiance: Vec3
    var fresnelF0: Float
    var roughness: Float

    /// Places the light so that, from `cameraOrigin`, its centre is mirrored at the
    /// surface point `spot` with normal `surfaceNormal` (facing the camera).
    init(
        parameters g: GlareParameters, spot: Vec3, surfaceNormal n: Vec3, cameraOrigin: Vec3,
        up: Vec3, colour: Vec3
    ) {
        let v = (spot - cameraOrigin).normalized
        let r = (v - n * (2 * v.dot(n))).normalized
        centre = spot + r * max(g.lightDistanceM, 0.1)
        normal = -r
        var a = up.cross(normal)
        if a.length < 1e-3 { a = Vec3(1, 0, 0).cross(normal) }
        axisA = a.normalized
        axisB = normal.cross(axisA).normalized
        halfA = max(g.lightSizeM.first ?? 0.5, 0.01) / 2
        halfB = max(g.lightSizeM.count > 1 ? g.lightSizeM[1] : 0.5, 0.01) / 2
        radiance = colour * max(g.radiance, 0)
        fresnelF0 = min(max(g.fresnelF0, 0), 1)
        roughness = max(g.roughnessRad, 1e-4)
    }

    /// Reflected radiance at P (normal N, unit, facing the camera at O).
    @inline(__always)
    func reflected(at p: Vec3, normal n: Vec3, cameraOrigin o: Vec3) -> Vec3 {
        let v = (p - o).normalized
        let vn = v.dot(n)
        let r = v - n * (2 * vn)
        let denom = r.dot(normal)
        if denom >= -1e-6 { return .zero }
        let s = (centre - p).dot(normal) / denom
        if s <= 0 { return .zero }
        let q = p + r * s - centre
        let a = q.dot(axisA), b = q.dot(axisB)
        let w = s * roughness
        let inv = 1 / w
        let ca = FastMath.normalCDF((halfA - a) * inv) - FastMath.normalCDF((-halfA - a) * inv)
        if ca < 1e-5 { return .zero }
        let cb = FastMath.normalCDF((halfB - b) * inv) - FastMath.normalCDF((-halfB - b) * inv)
        let cosine = min(max(-vn, 0), 1)
        let m = 1 - cosine
        let m2 = m * m
        let fresnel = fresnelF0 + (1 - fresnelF0) * m2 * m2 * m
        return radiance * (fresnel * ca * cb)
    }
}
