import Foundation
import RialMedia

/// The synthetic capture generator: physically based renders of bona fide scenes and
/// of screen and print recaptures, with an ARKit-like depth map and an optional second
/// rectified view. Artifacts come out of the simulated optics and sampling; none is
/// painted on.
///
/// Pipeline of one capture (each step documented on its type):
/// 1. `ParameterSampler`: every parameter from `SynthRandom(seed:stream: index)`.
/// 2. `SceneBuilder`: the subject and bona fide surroundings in camera coordinates
///    (pinhole, horizontal FOV 65-70 degrees, f = W / 2 / tan(FOV / 2)).
/// 3. `SceneRenderer`: radiance per pixel by ray casting (nearest hit, Lambert +
///    occluded, bounce-tinted ambient + an area light with soft shadows, both on
///    6-8 px lighting cells upsampled bilaterally; mip-filtered textures, edge
///    supersampling);
///    displays through `FilteredPatternTable` (subpixel aperture convolved exactly
///    with the PSF and pixel box, then sampled: moire), `RollingShutter` (PWM seen by
///    row-wise exposure windows) and `GlareLight`; prints through `HalftonePrinter`.
/// 4. `CameraPipeline`: lens PSF, RGGB mosaic, Poisson-Gaussian noise, white balance,
///    Malvar-He-Cutler demosaicing, sharpening, sRGB.
/// 5. `DepthSensor`: 256 x 192 depth on the same optical axis, 3 x 3 rays per cell,
///    mixed pixels, smoothing, holes, calibrated noise, 1 mm quantisation.
/// 6. Optionally the same scene from `baseline_mm` to the right (rectified).
///
/// Everything is deterministic: the same arguments give the same bytes, on any number
/// of threads (each capture uses only its own `SynthRandom` streams). Captures are
/// independent, so callers parallelise over indices.
public enum SynthGenerator {
    /// Generator version recorded in every `SynthParameters`.
    /// rial-synth/4: screens and prints never show material scans (brick, grass, gravel).
    /// rial-synth/5: a desk never reaches between a camera below its top and the subject.
    public static let version = "rial-synth/5"

    /// Draws the parameters of sample `index` from `SynthRandom(seed: seed, stream: index)`
    /// and renders it.
    ///
    /// - Parameters:
    ///   - class: the label to generate.
    ///   - width, height: image size in px (each at least 32; depth is always 256 x 192).
    ///   - withSecondView: also render the second camera, `baseline_mm` to the right.
    ///   - textures: real photographs or textures (sRGB-encoded, 0...255 or 0...1, 1 or
    ///     3+ channels) used for surfaces and screen/print content; procedural textures
    ///     and rendered scenes are used when empty.
    /// - Complexity: O(width * height). 1600 x 1200 with depth, release build, one core
    ///   (thread CPU time, median over 8 captures, rial-synth/2): real scenes 0.27 s, LCD
    ///   0.32 s, OLED 0.33 s, prints 0.40 s (max 0.42 s); the second view adds 0.25-0.33 s.
    ///   rial-synth/3's soft shadows and occlusion add ~12 % (24 captures with second
    ///   view, 2 jobs: 19.7 s user CPU against 17.5 s for rial-synth/2, same load).
    public static func generate(
        index: Int, seed: UInt64, class synthClass: SynthClass,
        width: Int = 1600, height: Int = 1200, withSecondView: Bool = false,
        textures: [PlanarImage] = [], camera: SynthCameraProfile = .standard
    ) -> SynthCapture {
        let p = sampleParameters(
            index: index, seed: seed, class: synthClass, width: width, height: height,
            contentTextures: textures.indices.filter { !SceneBuilder.isMaterialScan(textures[$0]) }, camera: camera)
        return render(p, withSecondView: withSecondView, textures: textures)
    }

    /// The parameters `generate` would use.
    ///
    /// - Parameter contentTextures: indices of the textures a screen or print may show
    ///   (photographs and scanned pages; `generate` leaves out the tileable material scans,
    ///   which nobody puts on a screen or prints).
    public static func sampleParameters(
        index: Int, seed: UInt64, class synthClass: SynthClass,
        width: Int = 1600, height: Int = 1200,
        contentTextures: [Int] = [], camera: SynthCameraProfile = .standard
    ) -> SynthParameters {
        precondition(width >= 32 && height >= 32, "SynthGenerator: width and height must be at least 32 px")
        var p = ParameterSampler.sample(
            index: index, seed: seed, synthClass: synthClass, width: width, height: height,
            contentTextures: contentTextures)
        PhoneCamera.apply(camera, to: &p)
        return p
    }

    /// Renders a capture from explicit parameters (e.g. a dataset's `"synth"` block).
    /// `textures` must be the list the parameters were drawn with when any
    /// `texture_index` refers to it; out-of-range indices fall back to rendered content.
    public static func render(
        _ parameters: SynthParameters, withSecondView: Bool = false,
        textures: [PlanarImage] = []
    ) -> SynthCapture {
        renderDetailed(parameters, withSecondView: withSecondView, textures: textures).capture
    }

    /// `render` plus the left view's scene radiance (for tests and diagnostics).
    static func renderDetailed(
        _ output: SynthParameters, withSecondView: Bool,
        textures: [PlanarImage]
    ) -> (capture: SynthCapture, radiance: RadianceImage) {
        precondition(
            output.width >= 32 && output.height >= 32, "SynthGenerator: width and height must be at least 32 px")
        // The phone camera renders and develops at its sensor's size, then downscales.
        let p = PhoneCamera.sensorParameters(output)
        let scene = buildScene(p, textures: textures)
        var noise = SynthRandom(seed: p.noiseSeed, stream: 1)
        var depthNoise = SynthRandom(seed: p.noiseSeed, stream: 2)
        var rightNoise = SynthRandom(seed: p.noiseSeed, stream: 3)

        let gains = p.display?.flicker.map { RollingShutter.rowGains($0, rows: p.height) }
        let left = CameraView(origin: .zero, width: p.width, height: p.height, focal: p.focalPx)
        let leftRenderer = SceneRenderer(scene: scene, view: left, rowGains: gains)
        let radiance = leftRenderer.render()
        let light = ColorScience.illuminant(kelvin: p.lighting.colorTemperatureK)
        let illuminant = Vec3(light.0, light.1, light.2)
        let image = PhoneCamera.output(
            CameraPipeline.develop(radiance, sensor: p.sensor, illuminant: illuminant, rng: &noise), output)
        let samples = leftRenderer.depthSamples(
            columns: DepthSensor.columns, rows: DepthSensor.rows,
            sub: DepthSensor.raysPerAxis)
        let depth = DepthSensor.measure(samples: samples, parameters: p.depthSensor, rng: &depthNoise)

        var right: Image8? = nil
        if withSecondView {
            // The second module starts its exposure at an unrelated time.
            let offset = Double(rightNoise.unit())
            let rightGains = p.display?.flicker.map { RollingShutter.rowGains($0, rows: p.height, phaseOffset: offset) }
            let view = CameraView(
                origin: Vec3(p.baselineMm * 1e-3, 0, 0), width: p.width, height: p.height, focal: p.focalPx)
            let rightRadiance = SceneRenderer(scene: scene, view: view, rowGains: rightGains).render()
            right = PhoneCamera.output(
                CameraPipeline.develop(rightRadiance, sensor: p.sensor, illuminant: illuminant, rng: &rightNoise),
                output)
        }
        let capture = SynthCapture(
            label: output.synthClass, image: image, depth: depth, right: right,
            parameters: output, tags: output.tags)
        return (capture, radiance)
    }

    static func buildScene(_ p: SynthParameters, textures: [PlanarImage]) -> Scene {
        var builder = SceneBuilder(parameters: p, textures: textures)
        switch p.synthClass {
        case .realScene:
            switch p.subjectKind {
            case .wall: builder.buildWall()
            case .document:
                let content = ContentFactory.make(
                    p.content ?? ContentParameters(kind: .text), aspect: 0.707,
                    maxWidth: 512, textures: textures)
                builder.buildSheet(content: content)
            default: builder.buildRealScene(tabletop: p.subjectKind == .tabletop)
            }
        case .lcdScreen, .oledScreen:
            let size = p.display?.panelSizeM ?? [1, 1]
            let res = p.display?.resolution ?? [512, 384]
            let content = ContentFactory.make(
                p.content ?? ContentParameters(kind: .scene), aspect: size[0] / max(size[1], 1e-3),
                maxWidth: res[0], textures: textures)
            builder.buildDisplay(content: content)
        case .printedPaper:
            let size = p.print?.sheetSizeM ?? [0.297, 0.21]
            // A halftone cannot reproduce detail finer than its cell: content needs
            // about one texel per cell across the sheet (sheet px / period px).
            let cells = Float(p.width) * p.subject.fillFraction / max(p.print?.periodPx ?? 2, 1)
            let content = ContentFactory.make(
                p.content ?? ContentParameters(kind: .scene), aspect: size[0] / max(size[1], 1e-3),
                maxWidth: Int(min(max(cells, 64), 512)), textures: textures)
            builder.buildSheet(content: content)
        }
        return builder.scene
    }
}
