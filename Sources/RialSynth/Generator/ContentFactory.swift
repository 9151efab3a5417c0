import Foundation
import RialMedia

/// Produces the image a display shows or a print reproduces, as sRGB-encoded values
/// in 0...1.
enum ContentFactory {
    /// - Parameters:
    ///   - aspect: width / height of the surface showing the content.
    ///   - maxWidth: content width cap in texels (the display resolution, at most 512).
    static func make(_ c: ContentParameters, aspect: Float, maxWidth: Int, textures: [PlanarImage]) -> MipTexture {
        switch c.kind {
        case .flat:
            let col = c.color.count >= 3 ? c.color : [0.5, 0.5, 0.5]
            var data = [Float](repeating: 0, count: 3 * 16)
            for ch in 0..<3 { for i in 0..<16 { data[ch * 16 + i] = min(max(col[ch], 0), 1) } }
            return MipTexture(width: 4, height: 4, channels: 3, level0: data)
        case .photo:
            if c.textureIndex >= 0 && c.textureIndex < textures.count {
                return MipTexture(image: textures[c.textureIndex], linearize: false)
            }
            return renderedScene(seed: c.seed, aspect: aspect, maxWidth: maxWidth)
        case .scene:
            return renderedScene(seed: c.seed, aspect: aspect, maxWidth: maxWidth)
        case .text:
            return c.seed % 2 == 0 ? ProceduralTextures.bank[.textPage] : ProceduralTextures.bank[.textPageColor]
        }
    }

    /// A noise-free render of a bona fide room or table top (what a phone photo shown
    /// on a screen or printed looks like), exposed to a mean of 0.18 and sRGB encoded.
    /// With `albedo`, returns linear reflectance (0.9 times the linear image) instead,
    /// for a photo print hung in another scene.
    static func renderedScene(seed: UInt64, aspect: Float, maxWidth: Int, albedo: Bool = false) -> MipTexture {
        let w = max(32, min(maxWidth, 512))
        let h = max(24, Int((Float(w) / max(aspect, 0.2)).rounded()))
        var rng = SynthRandom(seed: seed, stream: 0xC0)
        var p = SynthParameters(
            synthClass: .realScene, subjectKind: rng.unit() < 0.5 ? .room : .tabletop,
            width: w, height: h, horizontalFovDeg: rng.uniform(60...75))
        p.sceneSeed = rng.next()
        p.lighting = LightingParameters(
            colorTemperatureK: rng.uniform(2800...6500), ambient: rng.uniform(0.2...0.6),
            elevationDeg: rng.uniform(20...80), azimuthDeg: rng.uniform(-120...120),
            distanceM: rng.uniform(1...3))
        var builder = SceneBuilder(parameters: p, textures: [], allowPictures: false)
        builder.buildRealScene(tabletop: p.subjectKind == .tabletop)
        let view = CameraView(origin: .zero, width: w, height: h, focal: p.focalPx)
        let radiance = SceneRenderer(scene: builder.scene, view: view, rowGains: nil).render()
        let n = w * h
        var mean: Float = 0
        for i in 0..<n { mean += radiance.base[n + i] }
        mean /= Float(n)
        let k = 0.18 / max(mean, 1e-6)
        // White balance the render (grey world) like the phone that took the photo.
        var sums = (Float(0), Float(0), Float(0))
        for i in 0..<n {
            sums.0 += radiance.base[i]
            sums.1 += radiance.base[n + i]
            sums.2 += radiance.base[2 * n + i]
        }
        let gr = sums.1 / max(sums.0, 1e-6), gb = sums.1 / max(sums.2, 1e-6)
        var data = [Float](repeating: 0, count: 3 * n)
        if albedo {
            for i in 0..<n {
                data[i] = min(radiance.base[i] * k * gr, 1) * 0.9
                data[n + i] = min(radiance.base[n + i] * k, 1) * 0.9
                data[2 * n + i] = min(radiance.base[2 * n + i] * k * gb, 1) * 0.9
            }
            return MipTexture(width: w, height: h, channels: 3, level0: data)
        }
        for i in 0..<n {
            data[i] = ColorScience.linearToSrgb(radiance.base[i] * k * gr)
            data[n + i] = ColorScience.linearToSrgb(radiance.base[n + i] * k)
            data[2 * n + i] = ColorScience.linearToSrgb(radiance.base[2 * n + i] * k * gb)
        }
        return MipTexture(width: w, height: h, channels: 3, level0: data)
    }
}
