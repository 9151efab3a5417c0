import Foundation

/// What a display's front surface adds to or changes in its light, for a view ray
/// meeting the panel at angle theta (cos = -v . N):
///
/// - Reflection of the room (`CoverGlassParameters`): Schlick's
///   F = F0 + (1 - F0) (1 - cos)^5 times the environment seen along the mirror
///   direction r = v - 2 (v . N) N:
///   L(r) = room (1 + g (r . up)) (1 - k exp(-phi^2 / (2 sigma^2))) + window coverage(r),
///   phi = the angle between r and the direction back to the camera (-v): the
///   photographer's dark silhouette, centred where the view is perpendicular to the
///   glass. The window is a rectangle in the tangent plane of its centre direction,
///   its edges blurred by Gaussians of `blur_rad` (Phi = normal CDF). Room and window
///   are smooth, so the reflection is low-contrast and out of focus, as on a phone
///   photo focused on the panel.
/// - Transmission: the emission is multiplied by 1 - F.
/// - Viewing angle (`ViewingAngleParameters`), s = 1 - cos^2: for the EOTF output e
///   (0...1 per channel), e' = e + wash s (e (2 - e) - e) (mid-tones lift: lower
///   contrast), then black' = black + leak s, emitted = (black' + (1 - black') e')
///   (1 + s tint).
struct CoverGlass: Sendable {
    var f0: Float
    var blur: Float
    var room: Vec3
    var gradient: Float
    var up: Vec3
    var window: Vec3
    var windowCentre: Vec3
    var windowAxisA: Vec3
    var windowAxisB: Vec3
    /// Half-extent of the window as tangents of its half-angles.
    var windowHalfA: Float
    var windowHalfB: Float
    var photographerDarkening: Float
    var inverseTwoSigma2: Float
    var leak: Float
    var wash: Float
    var tint: Vec3
    let reflects: Bool

    /// nil when the display has neither cover-glass nor viewing-angle parameters.
    /// `normal`: the panel's normal towards the camera; `up`: world up; `roomColour`:
    /// the room light's colour (linear RGB, green 1).
    init?(parameters d: DisplayParameters, normal: Vec3, up upDirection: Vec3, roomColour: Vec3) {
        if d.coverGlass == nil && d.viewingAngle == nil { return nil }
        let g = d.coverGlass
        reflects = g != nil
        f0 = min(max(g?.fresnelF0 ?? 0, 0), 1)
        blur = max(g?.blurRad ?? 0.1, 1e-3)
        room = roomColour * max(g?.roomRadiance ?? 0, 0)
        gradient = min(max(g?.gradient ?? 0, 0), 1)
        up = upDirection.normalized
        let daylight = ColorScience.illuminant(kelvin: 6500)
        window = Vec3(daylight.0, daylight.1, daylight.2) * max(g?.windowRadiance ?? 0, 0)
        // Window centre: azimuth around up from the panel normal, elevation above the horizon.
        var horizontal = normal - up * normal.dot(up)
        if horizontal.length < 1e-3 { horizontal = up.cross(Vec3(1, 0, 0)) }
        horizontal = horizontal.normalized
        let az = (g?.windowAzimuthDeg ?? 0) * .pi / 180, el = (g?.windowElevationDeg ?? 0) * .pi / 180
        windowCentre = (horizontal.rotated(about: up, by: az) * cos(el) + up * sin(el)).normalized
        var a = up.cross(windowCentre)
        if a.length < 1e-3 { a = Vec3(1, 0, 0).cross(windowCentre) }
        windowAxisA = a.normalized
        windowAxisB = windowCentre.cross(windowAxisA).normalized
        let size = g?.windowSizeDeg ?? [40, 40]
        windowHalfA = tan(min(max(size.first ?? 40, 1), 150) * .pi / 360)
        windowHalfB = tan(min(max(size.count > 1 ? size[1] : 40, 1), 150) * .pi / 360)
        photographerDarkening = min(max(g?.photographerDarkening ?? 0, 0), 1)
        let sigma = max(g?.photographerSizeDeg ?? 18, 1) * .pi / 180
        inverseTwoSigma2 = 1 / (2 * sigma * sigma)
        let v = d.viewingAngle
        leak = min(max(v?.blackLeak ?? 0, 0), 0.5)
        wash = min(max(v?.washout ?? 0, 0), 1)
        let t = v?.tint ?? [0, 0, 0]
        tint = t.count == 3 ? Vec3(t[0], t[1], t[2]) : .zero
    }

    /// Schlick's Fresnel reflectance for `cosine` = -v . N.
    @inline(__always) func fresnel(_ cosine: Float) -> Float {
        let m = 1 - min(max(cosine, 0), 1)
        let m2 = m * m
        return f0 + (1 - f0) * m2 * m2 * m
    }

    /// Emission leaving the glass for EOTF outputs `e` (0...1 per channel) and the
    /// panel's black level, relative to the panel white (multiply by white and gain).
    @inline(__always) func emitted(_ e: Vec3, black: Float, cosine: Float) -> Vec3 {
        let s = max(1 - cosine * cosine, 0)
        let k = wash * s
        let lifted = Vec3(e.x + k * e.x * (1 - e.x), e.y + k * e.y * (1 - e.y), e.z + k * e.z * (1 - e.z))
        let b = min(black + leak * s, 1)
        let transmitted = reflects ? 1 - fresnel(cosine) : 1
        let colour = Vec3(1 + s * tint.x, 1 + s * tint.y, 1 + s * tint.z) * transmitted
        return Vec3(b + (1 - b) * lifted.x, b + (1 - b) * lifted.y, b + (1 - b) * lifted.z).scaled(by: colour)
    }

    /// Reflected room radiance for the view direction `v` (unit, camera to point) and
    /// panel normal `n` (unit, facing the camera).
    @inline(__always) func reflected(view v: Vec3, normal n: Vec3) -> Vec3 {
        if !reflects { return .zero }
        let vn = v.dot(n)
        let r = v - n * (2 * vn)
        // Angle between r and -v: |r + v| = 2 sin(phi / 2) ~ phi.
        let back = r + v
        let phi2 = back.dot(back)
        let person = 1 - photographerDarkening * exp(-phi2 * inverseTwoSigma2)
        var l = room * (max(1 + gradient * r.dot(up), 0) * person)
        let depth = r.dot(windowCentre)
        if depth > 0.05 && window.y > 0 {
            let inv = 1 / depth
            let a = r.dot(windowAxisA) * inv, b = r.dot(windowAxisB) * inv
            let w = blur * (1 + a * a).squareRoot()
            let invW = 1 / w
            let ca = FastMath.normalCDF((windowHalfA - a) * invW) - FastMath.normalCDF((-windowHalfA - a) * invW)
            if ca > 1e-4 {
                let cb = FastMath.normalCDF((windowHalfB - b) * invW) - FastMath.normalCDF((-windowHalfB - b) * invW)
                l = l + window * (ca * cb)
            }
        }
        return l * fresnel(-vn)
    }

    /// Draws cover-glass and viewing-angle parameters: glossy glass (55 %), AR-coated
    /// (25 %) or matte (20 %); a window in half of the rooms; LCDs with IPS/VA-like
    /// angular washout, OLEDs with little.
    static func sampleParameters(oled: Bool, rng: inout SynthRandom) -> (CoverGlassParameters, ViewingAngleParameters) {
        let u = rng.unit()
        let f0: Float, blur: Float
        if u < 0.55 {
            f0 = rng.uniform(0.04...0.05)
            blur = rng.uniform(0.05...0.15)
        } else if u < 0.8 {
            f0 = rng.uniform(0.005...0.015)
            blur = rng.uniform(0.05...0.15)
        } else {
            f0 = rng.uniform(0.02...0.04)
            blur = rng.uniform(0.2...0.35)
        }
        let hasWindow = rng.unit() < 0.5
        let glass = CoverGlassParameters(
            fresnelF0: f0, blurRad: blur, roomRadiance: rng.uniform(0.2...0.6), gradient: rng.uniform(0.2...0.6),
            windowRadiance: hasWindow ? rng.uniform(2...12) : 0, windowAzimuthDeg: rng.uniform(-70...70),
            windowElevationDeg: rng.uniform(-10...40), windowSizeDeg: [rng.uniform(20...60), rng.uniform(20...50)],
            photographerDarkening: rng.uniform(0.3...0.8), photographerSizeDeg: rng.uniform(10...25))
        let t: Float = oled ? 0.05 : 0.15
        let viewing = ViewingAngleParameters(
            blackLeak: oled ? 0 : rng.uniform(0.01...0.04),
            washout: oled ? rng.uniform(0...0.08) : rng.uniform(0.2...0.6),
            tint: [rng.uniform(-t...t), rng.uniform(-t...t) * 0.5, rng.uniform(-t...t)])
        return (glass, viewing)
    }
}
