import Foundation

/// Everything the renderer needs, in camera coordinates of the main (left) camera.
final class Scene {
    var primitives: [Primitive] = []
    var materials: [Material] = []
    var textures: [MipTexture] = []
    /// Area light: centre (m), colour scaled so a white surface facing it at the
    /// subject receives irradiance ~1 (linear RGB), half-extent vectors spanning the
    /// emitting rectangle (m) and its unit normal (toward the subject).
    var lightPosition = Vec3(0, -2, 0)
    var lightColour = Vec3(1, 1, 1)
    var lightHalfU = Vec3(0.2, 0, 0)
    var lightHalfV = Vec3(0, 0, 0.2)
    var lightNormal = Vec3(0, 1, 0)
    /// Ambient irradiance (linear RGB) before occlusion; `SceneRenderer` splits it into
    /// sky/ceiling light from above and `bounce` of it reflected from below.
    var ambient = Vec3(0.3, 0.3, 0.3)
    var bounce: Float = 0.35
    /// Soft shadow strata per axis, ambient occlusion rays and reach (m), lighting cell
    /// size (px); see `LightingParameters`.
    var shadowSamples = 3
    var aoSamples = 12
    var aoRadius: Float = 0.4
    var lightingCell = 6
    /// World "up" in camera coordinates (unit).
    var up = Vec3(0, -1, 0)
    var display: DisplaySurface?
    var print: PrintSurface?
    var glare: GlareLight?

    @discardableResult
    func add(_ p: Primitive) -> Int {
        primitives.append(p)
        return primitives.count - 1
    }

    func addMaterial(_ m: Material) -> Int {
        var m = m
        if m.texture >= 0 {
            m.finalise(textureWidth: textures[m.texture].width, textureHeight: textures[m.texture].height)
        }
        materials.append(m)
        return materials.count - 1
    }

    /// Mean albedo (linear RGB) of the diffuse planes (walls, floor, ceiling): the
    /// colour of light bounced once off the surroundings; mid grey without planes.
    func surroundingAlbedo() -> Vec3 {
        var sum = Vec3(0, 0, 0), count: Float = 0
        for p in primitives where p.shape == .plane {
            let m = materials[p.material]
            guard m.kind == .diffuse else { continue }
            var a = m.tint
            if m.texture >= 0 {
                let t = textures[m.texture].mean
                a = a.scaled(by: Vec3(t.0, t.1, t.2))
            }
            sum = sum + a
            count += 1
        }
        return count > 0 ? sum * (1 / count) : Vec3(0.5, 0.5, 0.5)
    }

    func addTexture(_ t: MipTexture) -> Int {
        if let i = textures.firstIndex(where: { $0 === t }) { return i }
        textures.append(t)
        return textures.count - 1
    }
}

/// The active area of a display: a rectangle primitive whose (u, v) axes run along
/// display columns and rows.
final class DisplaySurface {
    let primitive: Int
    /// Display pixel pitch on the panel, m.
    let pitchM: Float
    /// Resolution in display pixels.
    let columns: Int
    let rows: Int
    /// Content, sRGB-encoded drive values, and content texels per display pixel.
    let content: MipTexture
    let contentScaleU: Float
    let contentScaleV: Float
    let parameters: DisplayParameters
    let layout: SubpixelLayout
    let patterns: FilteredPatternCache
    /// Linear colour of full white (the panel's white point, D65 = (1, 1, 1)) times
    /// brightness.
    let white: Vec3

    init(
        primitive: Int, pitchM: Float, columns: Int, rows: Int, content: MipTexture,
        parameters: DisplayParameters, lensSigma: Float, nominalPitchPx: Float
    ) {
        self.primitive = primitive
        self.pitchM = pitchM
        self.columns = columns
        self.rows = rows
        self.content = content
        contentScaleU = Float(content.width) / Float(max(columns, 1))
        contentScaleV = Float(content.height) / Float(max(rows, 1))
        self.parameters = parameters
        layout = SubpixelLayout(parameters: parameters)
        patterns = FilteredPatternCache(layout: layout, sigma: lensSigma, scale: 1 / max(nominalPitchPx, 0.1))
        white = Vec3(1, 1, 1) * max(parameters.brightness, 0)
    }
}

/// A printed sheet (halftone) or a bona fide document (solid toner).
final class PrintSurface {
    let primitive: Int
    let parameters: PrintParameters
    /// Content (sRGB-encoded) and content texels per metre of paper.
    let content: MipTexture
    let contentScaleU: Float
    let contentScaleV: Float
    let halftone: HalftonePrinter?
    /// Paper fibre texture (unit mean multiplier, see ProceduralTextures.paper) and the
    /// paper size one of its tiles spans, m.
    let fibres: MipTexture
    let fibreTileM: Float = 0.01
    /// Paper white (linear RGB reflectance).
    let paper: Vec3

    init(
        primitive: Int, parameters: PrintParameters, content: MipTexture, sheetSize: (Float, Float),
        periodM: Float, fibres: MipTexture
    ) {
        self.primitive = primitive
        self.parameters = parameters
        self.content = content
        contentScaleU = Float(content.width) / sheetSize.0
        contentScaleV = Float(content.height) / sheetSize.1
        halftone = parameters.process == .cmykHalftone ? HalftonePrinter(parameters: parameters, periodM: periodM) : nil
        self.fibres = fibres
        let rgb = parameters.paperReflectance
        paper = Vec3(rgb.0, rgb.1, rgb.2)
    }
}
