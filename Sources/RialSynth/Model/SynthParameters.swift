import Foundation

/// Every parameter of one synthetic capture. `SynthGenerator.render(_:)` is a pure
/// function of these values (and of the texture list), so the `"synth"` block of a
/// dataset sample reproduces its files byte for byte.
///
/// Units: metres, degrees, sensor pixels (px) of the output image, seconds where named
/// `_s`, microseconds `_us`, millimetres `_mm`. Coordinates: camera frame, x right,
/// y down, z along the optical axis. JSON keys are snake_case.
public struct SynthParameters: Codable, Sendable, Equatable {
    /// Generator version; bumped whenever the same parameters would give other pixels.
    public var generator: String
    /// Dataset label.
    public var synthClass: SynthClass
    public var subjectKind: SubjectKind
    /// Dataset seed and sample index the parameters were drawn from
    /// (`SynthRandom(seed:stream:)`).
    public var seed: UInt64
    public var index: Int
    /// Output image size in px.
    public var width: Int
    public var height: Int
    /// Horizontal field of view of the main camera, degrees (phones: 65-70).
    public var horizontalFovDeg: Float
    /// Focal length in px: `width / 2 / tan(horizontal_fov_deg / 2)`.
    public var focalPx: Float
    /// Second camera offset to the right, mm (10-20). Rectified: same intrinsics.
    public var baselineMm: Float
    /// Seed of the scene layout (surroundings, objects, textures, procedural content).
    public var sceneSeed: UInt64
    /// Seed of sensor noise (image and depth).
    public var noiseSeed: UInt64
    /// Where the subject is and how it is oriented.
    public var subject: SubjectPlacement
    public var lighting: LightingParameters
    /// What a display or print shows (nil for bona fide subjects other than documents).
    public var content: ContentParameters?
    /// Set for `lcd_screen` and `oled_screen`.
    public var display: DisplayParameters?
    /// Set for `printed_paper` (halftone) and bona fide documents (solid toner).
    public var print: PrintParameters?
    /// Specular reflection of an area light on the subject (screen glass, glossy print).
    public var glare: GlareParameters?
    public var sensor: SensorParameters
    public var depthSensor: DepthSensorParameters
    /// JPEG quality the dataset writer should use (80-95).
    public var jpegQuality: Int
    /// Dataset tags: always `synthetic`; `flat_subject` for bona fide flat subjects;
    /// `pwm_flicker`, `glare`, `curved`, the subject kind.
    public var tags: [String]

    public init(generator: String = SynthGenerator.version, synthClass: SynthClass,
                subjectKind: SubjectKind, seed: UInt64 = 0, index: Int = 0,
                width: Int, height: Int, horizontalFovDeg: Float = 67,
                baselineMm: Float = 15, sceneSeed: UInt64 = 1, noiseSeed: UInt64 = 2,
                subject: SubjectPlacement = SubjectPlacement(),
                lighting: LightingParameters = LightingParameters(),
                content: ContentParameters? = nil, display: DisplayParameters? = nil,
                print: PrintParameters? = nil, glare: GlareParameters? = nil,
                sensor: SensorParameters = SensorParameters(),
                depthSensor: DepthSensorParameters = DepthSensorParameters(),
                jpegQuality: Int = 90, tags: [String] = ["synthetic"]) {
        self.generator = generator
        self.synthClass = synthClass
        self.subjectKind = subjectKind
        self.seed = seed
        self.index = index
        self.width = width
        self.height = height
        self.horizontalFovDeg = horizontalFovDeg
        self.focalPx = SynthParameters.focal(width: width, horizontalFovDeg: horizontalFovDeg)
        self.baselineMm = baselineMm
        self.sceneSeed = sceneSeed
        self.noiseSeed = noiseSeed
        self.subject = subject
        self.lighting = lighting
        self.content = content
        self.display = display
        self.print = print
        self.glare = glare
        self.sensor = sensor
        self.depthSensor = depthSensor
        self.jpegQuality = jpegQuality
        self.tags = tags
    }

    /// Pinhole focal length in px: f = (W / 2) / tan(FOV_h / 2).
    public static func focal(width: Int, horizontalFovDeg: Float) -> Float {
        Float(width) / 2 / tan(horizontalFovDeg * .pi / 360)
    }

    enum CodingKeys: String, CodingKey {
        case generator
        case synthClass = "class"
        case subjectKind = "subject_kind"
        case seed, index, width, height
        case horizontalFovDeg = "horizontal_fov_deg"
        case focalPx = "focal_px"
        case baselineMm = "baseline_mm"
        case sceneSeed = "scene_seed"
        case noiseSeed = "noise_seed"
        case subject, lighting, content, display, print, glare, sensor
        case depthSensor = "depth_sensor"
        case jpegQuality = "jpeg_quality"
        case tags
    }
}

/// Pose of the subject (display, print, wall, document) relative to the camera. Zero
/// for 3D bona fide scenes (`room`, `tabletop`), whose camera pose and layout come from
/// `scene_seed`.
public struct SubjectPlacement: Codable, Sendable, Equatable {
    /// Distance of the subject's centre along the optical axis, m (screens and prints
    /// 0.25-1.5).
    public var distanceM: Float
    /// Angle between the subject's normal and the optical axis, degrees (0-40).
    public var tiltDeg: Float
    /// Direction, in the image plane, of the axis the subject is tilted about, degrees
    /// (0 = tilted about the image x axis: top edge away from the camera).
    public var tiltAxisDeg: Float
    /// In-plane rotation of the subject about its normal, degrees (positive = clockwise
    /// in the image).
    public var rotationDeg: Float
    /// Subject width as a fraction of the frame width at `distance_m` (0.4-1.0; larger
    /// than 1 overfills the frame).
    public var fillFraction: Float
    /// Offset of the subject centre from the optical axis, fractions of the frame
    /// width and height at `distance_m` (-0.1...0.1).
    public var offsetX: Float
    public var offsetY: Float
    /// What the subject rests on: `desk`, `wall` or `handheld` (free in the room).
    public var placement: Placement
    /// Bend of a print: the sheet is z = curvature / 2 * u^2 across its width, 1/m
    /// (0 = flat, 2 = radius 0.5 m).
    public var curvaturePerM: Float
    /// Roll of the camera about its optical axis relative to the level (world
    /// horizontal), degrees (mostly within +-6, rarely up to +-15).
    public var cameraRollDeg: Float
    /// How far the subject leans back from upright, degrees: 0 stands or hangs
    /// upright (monitors, wall prints, hand-held), 90 lies flat (sheets and phones on
    /// a desk), in between leans against a support. World up is
    /// cos(lean) * level_up + sin(lean) * normal, level_up being the unit vector
    /// orthogonal to the subject normal and the camera x axis, rolled by
    /// `camera_roll_deg` about the normal.
    public var leanDeg: Float

    public enum Placement: String, Codable, Sendable, Equatable, CaseIterable {
        case desk, wall, handheld
    }

    public init(distanceM: Float = 0.5, tiltDeg: Float = 0, tiltAxisDeg: Float = 0,
                rotationDeg: Float = 0, fillFraction: Float = 0.8, offsetX: Float = 0,
                offsetY: Float = 0, placement: Placement = .wall, curvaturePerM: Float = 0,
                cameraRollDeg: Float = 0, leanDeg: Float = 0) {
        self.distanceM = distanceM
        self.tiltDeg = tiltDeg
        self.tiltAxisDeg = tiltAxisDeg
        self.rotationDeg = rotationDeg
        self.fillFraction = fillFraction
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.placement = placement
        self.curvaturePerM = curvaturePerM
        self.cameraRollDeg = cameraRollDeg
        self.leanDeg = leanDeg
    }

    enum CodingKeys: String, CodingKey {
        case distanceM = "distance_m"
        case tiltDeg = "tilt_deg"
        case tiltAxisDeg = "tilt_axis_deg"
        case rotationDeg = "rotation_deg"
        case fillFraction = "fill_fraction"
        case offsetX = "offset_x"
        case offsetY = "offset_y"
        case placement
        case curvaturePerM = "curvature_per_m"
        case cameraRollDeg = "camera_roll_deg"
        case leanDeg = "lean_deg"
    }
}

/// Room light: one rectangular area light (a ceiling lamp or window; Lambertian
/// shading, soft shadows from stratified samples over its area) plus a hemispherical
/// ambient term darkened by ambient occlusion and tinted by one-bounce light from the
/// surroundings. See `SceneRenderer` for the shading formulas.
public struct LightingParameters: Codable, Sendable, Equatable {
    /// Correlated colour temperature of the room light, K (2700-6500).
    public var colorTemperatureK: Float
    /// Ambient irradiance as a fraction of the light's irradiance at the subject
    /// (0.15-0.6).
    public var ambient: Float
    /// Light centre relative to the subject centre: elevation above the subject's
    /// horizon and azimuth around the view axis, degrees; distance m.
    public var elevationDeg: Float
    public var azimuthDeg: Float
    public var distanceM: Float
    /// Size of the emitting rectangle (width, height), m (0.1-1.2); its normal points
    /// at the subject. Penumbra width ~ occluder-to-receiver distance x size / distance.
    public var lightSizeM: [Float]
    /// Shadow samples over the light: `shadow_samples` x `shadow_samples` strata, one
    /// jittered point each (deterministic per lighting cell).
    public var shadowSamples: Int
    /// Ambient occlusion: cosine-weighted rays, occluders counted within `ao_radius_m`
    /// (0.2-0.8 m), `ao_samples` rays per lighting cell.
    public var aoRadiusM: Float
    public var aoSamples: Int
    /// Share of the ambient that is light bounced off the surroundings (0.2-0.6): it
    /// arrives mostly from below (floor, desk) and carries their mean albedo colour.
    public var bounce: Float
    /// Shadows and occlusion are computed on a grid of cells of `lighting_cell_px`
    /// image pixels and upsampled bilaterally (same surface, similar depth).
    public var lightingCellPx: Int

    public init(colorTemperatureK: Float = 4000, ambient: Float = 0.3, elevationDeg: Float = 50,
                azimuthDeg: Float = 30, distanceM: Float = 2, lightSizeM: [Float] = [0.4, 0.4],
                shadowSamples: Int = 3, aoRadiusM: Float = 0.4, aoSamples: Int = 12, bounce: Float = 0.35,
                lightingCellPx: Int = 6) {
        self.colorTemperatureK = colorTemperatureK
        self.ambient = ambient
        self.elevationDeg = elevationDeg
        self.azimuthDeg = azimuthDeg
        self.distanceM = distanceM
        self.lightSizeM = lightSizeM
        self.shadowSamples = shadowSamples
        self.aoRadiusM = aoRadiusM
        self.aoSamples = aoSamples
        self.bounce = bounce
        self.lightingCellPx = lightingCellPx
    }

    enum CodingKeys: String, CodingKey {
        case colorTemperatureK = "color_temperature_k"
        case ambient
        case elevationDeg = "elevation_deg"
        case azimuthDeg = "azimuth_deg"
        case distanceM = "distance_m"
        case lightSizeM = "light_size_m"
        case shadowSamples = "shadow_samples"
        case aoRadiusM = "ao_radius_m"
        case aoSamples = "ao_samples"
        case bounce
        case lightingCellPx = "lighting_cell_px"
    }
}

/// The image a display shows or a print reproduces.
public struct ContentParameters: Codable, Sendable, Equatable {
    public var kind: Kind
    /// For `photo`: index into the `textures` passed to the generator, or -1 for a
    /// procedural texture chosen by `seed`.
    public var textureIndex: Int
    /// Seed of procedural or rendered content.
    public var seed: UInt64
    /// For `flat`: sRGB-encoded colour in 0...1.
    public var color: [Float]

    public enum Kind: String, Codable, Sendable, Equatable, CaseIterable {
        /// A uniform colour (a flat grey test screen shows pure moire).
        case flat
        /// A texture or photograph.
        case photo
        /// A 3D scene rendered by this generator (noise-free).
        case scene
        /// A text page.
        case text
    }

    public init(kind: Kind, textureIndex: Int = -1, seed: UInt64 = 0, color: [Float] = [0.5, 0.5, 0.5]) {
        self.kind = kind
        self.textureIndex = textureIndex
        self.seed = seed
        self.color = color
    }

    enum CodingKeys: String, CodingKey {
        case kind
        case textureIndex = "texture_index"
        case seed, color
    }
}

/// A self-emitting panel seen through its subpixel structure.
public struct DisplayParameters: Codable, Sendable, Equatable {
    public var panelLayout: PanelLayout
    /// One display pixel's pitch in sensor px at the subject centre, frontal
    /// equivalent (1.2-6). The physical pitch is `pixel_pitch_mm`.
    public var pixelPitchPx: Float
    /// Physical pixel pitch, mm: `pixel_pitch_px * distance_m / focal_px * 1000`.
    public var pixelPitchMm: Float
    /// Display resolution in pixels (derived from the panel size and pitch).
    public var resolution: [Int]
    /// LCD: width of a subpixel's aperture as a fraction of its third of the pixel
    /// (0.55-0.9). OLED: emitter diameter of R and B as a fraction of the pixel pitch
    /// (0.45-0.7); G emitters are 0.75 of that.
    public var fillFactor: Float
    /// LCD: aperture height as a fraction of the pixel pitch (black-matrix rows,
    /// 0.7-0.95). Unused for OLED.
    public var verticalFill: Float
    /// Peak white radiance relative to a white Lambertian surface under the room light
    /// at the subject (0.8-4).
    public var brightness: Float
    /// Display transfer exponent: emitted = black + (1 - black) * content^gamma
    /// (content sRGB-encoded in 0...1; 2.0-2.5).
    public var gamma: Float
    /// Black level relative to white (LCD 0.001-0.004, OLED 0).
    public var blackLevel: Float
    /// Angular falloff of emitted radiance: cos(theta)^exponent (LCD 0.5-1.5, OLED 0.2-0.5).
    public var viewFalloffExponent: Float
    /// Bezel width around the active area, mm.
    public var bezelMm: Float
    /// Panel width and height, m.
    public var panelSizeM: [Float]
    /// PWM dimming / refresh flicker seen through the rolling shutter, or nil.
    public var flicker: FlickerParameters?
    /// Reflection of the room in the cover glass, or nil (no reflection).
    public var coverGlass: CoverGlassParameters?
    /// Contrast and colour change with viewing angle, or nil (none).
    public var viewingAngle: ViewingAngleParameters?

    public enum PanelLayout: String, Codable, Sendable, Equatable, CaseIterable {
        /// LCD: R, G, B vertical stripes, each in one third of the pixel.
        case rgbStripe = "rgb_stripe"
        /// OLED diamond PenTile: R and B on a checkerboard, G at every pixel.
        case diamondPentile = "diamond_pentile"
    }

    public init(panelLayout: PanelLayout, pixelPitchPx: Float, pixelPitchMm: Float = 0,
                resolution: [Int] = [0, 0], fillFactor: Float = 0.8, verticalFill: Float = 0.85,
                brightness: Float = 1.5, gamma: Float = 2.2, blackLevel: Float = 0.002,
                viewFalloffExponent: Float = 1, bezelMm: Float = 8, panelSizeM: [Float] = [0, 0],
                flicker: FlickerParameters? = nil, coverGlass: CoverGlassParameters? = nil,
                viewingAngle: ViewingAngleParameters? = nil) {
        self.panelLayout = panelLayout
        self.pixelPitchPx = pixelPitchPx
        self.pixelPitchMm = pixelPitchMm
        self.resolution = resolution
        self.fillFactor = fillFactor
        self.verticalFill = verticalFill
        self.brightness = brightness
        self.gamma = gamma
        self.blackLevel = blackLevel
        self.viewFalloffExponent = viewFalloffExponent
        self.bezelMm = bezelMm
        self.panelSizeM = panelSizeM
        self.flicker = flicker
        self.coverGlass = coverGlass
        self.viewingAngle = viewingAngle
    }

    enum CodingKeys: String, CodingKey {
        case panelLayout = "panel_layout"
        case pixelPitchPx = "pixel_pitch_px"
        case pixelPitchMm = "pixel_pitch_mm"
        case resolution
        case fillFactor = "fill_factor"
        case verticalFill = "vertical_fill"
        case brightness, gamma
        case blackLevel = "black_level"
        case viewFalloffExponent = "view_falloff_exponent"
        case bezelMm = "bezel_mm"
        case panelSizeM = "panel_size_m"
        case flicker
        case coverGlass = "cover_glass"
        case viewingAngle = "viewing_angle"
    }
}

/// Temporal modulation of the emitted light, integrated by a rolling shutter.
///
/// Emission w(t) = 1 + m (s(t) / D - 1), s(t) = 1 during the first D of each period
/// 1 / hz, else 0 (mean 1). Sensor row y integrates over
/// [t0 + y * row_time, t0 + y * row_time + exposure], so the image shows bands with a
/// period of 1 / (hz * row_time) rows, vanishing when exposure * hz is an integer.
public struct FlickerParameters: Codable, Sendable, Equatable {
    /// Modulation frequency, Hz (60-1000).
    public var hz: Float
    /// On fraction D of each period (0.2-0.9).
    public var dutyCycle: Float
    /// Modulation depth m: 1 = fully off between pulses (0.3-1).
    public var modulationDepth: Float
    /// Rolling-shutter row readout time of the output grid, microseconds (8-30).
    public var rowTimeUs: Float
    /// Exposure time, ms (2-33).
    public var exposureMs: Float
    /// Start of row 0's exposure within the modulation period, in periods (0-1).
    public var phase: Float

    public init(hz: Float, dutyCycle: Float = 0.5, modulationDepth: Float = 1,
                rowTimeUs: Float = 15, exposureMs: Float = 4, phase: Float = 0) {
        self.hz = hz
        self.dutyCycle = dutyCycle
        self.modulationDepth = modulationDepth
        self.rowTimeUs = rowTimeUs
        self.exposureMs = exposureMs
        self.phase = phase
    }

    /// Predicted banding period in rows: 1 / (hz * row_time).
    public var bandPeriodRows: Float { 1 / (hz * rowTimeUs * 1e-6) }

    enum CodingKeys: String, CodingKey {
        case hz
        case dutyCycle = "duty_cycle"
        case modulationDepth = "modulation_depth"
        case rowTimeUs = "row_time_us"
        case exposureMs = "exposure_ms"
        case phase
    }
}

/// A print: paper, inks and (for attacks) an amplitude-modulated CMYK halftone.
public struct PrintParameters: Codable, Sendable, Equatable {
    public var process: Process
    /// Halftone ruling in lines per inch on the paper (derived: 25.4 / period_mm).
    public var lpi: Float
    /// Halftone cell period in sensor px at the subject centre, frontal (2-8).
    public var periodPx: Float
    /// Screen angles of C, M, Y, K in degrees (conventional 15, 75, 0, 45).
    public var screenAnglesDeg: [Float]
    /// Mechanical dot gain at 50 % tone: printed = t + 4 g t (1 - t) (0.06-0.18).
    public var dotGain: Float
    /// Reflectance of bare paper (0.85-0.9) and of solid black ink or toner (0.03-0.06:
    /// optical density 1.2-1.5).
    public var paperWhite: Float
    public var inkBlack: Float
    /// Relative amplitude of the paper fibre texture (0.01-0.05).
    public var paperTexture: Float
    /// Grey-component replacement: share of min(C, M, Y) printed with K (0.5-1).
    public var grayComponentReplacement: Float
    /// Sheet size, m (width, height).
    public var sheetSizeM: [Float]
    /// Paper colour as multipliers of `paper_white` on linear R, G, B: warm (cream)
    /// paper has B < 1, paper with optical brighteners B > 1 (each 0.93-1.04). nil =
    /// (1, 1, 0.985).
    public var paperTint: [Float]?

    /// Reflectance of bare paper, linear RGB: paper_white * paper_tint, each channel
    /// clamped to 0.05...1.
    public var paperReflectance: (Float, Float, Float) {
        let w = min(max(paperWhite, 0.05), 1)
        let t = paperTint.flatMap { $0.count == 3 ? $0 : nil } ?? [1, 1, 0.985]
        func c(_ v: Float) -> Float { min(max(w * v, 0.05), 1) }
        return (c(t[0]), c(t[1]), c(t[2]))
    }

    public enum Process: String, Codable, Sendable, Equatable, CaseIterable {
        /// Offset/inkjet-like AM halftone, four rotated screens.
        case cmykHalftone = "cmyk_halftone"
        /// Laser toner, solid black text without a screen (bona fide documents).
        case solidToner = "solid_toner"
    }

    public init(process: Process = .cmykHalftone, lpi: Float = 0, periodPx: Float = 4,
                screenAnglesDeg: [Float] = [15, 75, 0, 45], dotGain: Float = 0.15,
                paperWhite: Float = 0.87, inkBlack: Float = 0.12, paperTexture: Float = 0.03,
                grayComponentReplacement: Float = 0.7, sheetSizeM: [Float] = [0.297, 0.21],
                paperTint: [Float]? = nil) {
        self.process = process
        self.lpi = lpi
        self.periodPx = periodPx
        self.screenAnglesDeg = screenAnglesDeg
        self.dotGain = dotGain
        self.paperWhite = paperWhite
        self.inkBlack = inkBlack
        self.paperTexture = paperTexture
        self.grayComponentReplacement = grayComponentReplacement
        self.sheetSizeM = sheetSizeM
        self.paperTint = paperTint
    }

    enum CodingKeys: String, CodingKey {
        case process, lpi
        case periodPx = "period_px"
        case screenAnglesDeg = "screen_angles_deg"
        case dotGain = "dot_gain"
        case paperWhite = "paper_white"
        case inkBlack = "ink_black"
        case paperTexture = "paper_texture"
        case grayComponentReplacement = "gray_component_replacement"
        case sheetSizeM = "sheet_size_m"
        case paperTint = "paper_tint"
    }
}

/// A rectangular area light (a window or ceiling panel behind the photographer)
/// mirrored by the subject's surface.
///
/// Reflected radiance = F(theta) * radiance * coverage, F = Schlick's Fresnel with
/// `fresnel_f0`; coverage = the rectangle seen along the mirror direction, convolved
/// with a Gaussian lobe of angular width `roughness_rad`.
public struct GlareParameters: Codable, Sendable, Equatable {
    /// Light radiance relative to a white Lambertian surface under the room light (3-30).
    public var radiance: Float
    /// Reflectance at normal incidence (glass 0.04, anti-reflective 0.01, gloss paper 0.05).
    public var fresnelF0: Float
    /// Angular width of the specular lobe, radians (glossy 0.002, matte coating 0.05).
    public var roughnessRad: Float
    /// Light width and height, m, and distance from the subject, m.
    public var lightSizeM: [Float]
    public var lightDistanceM: Float
    /// Where on the subject the mirror image of the light's centre falls, in subject
    /// coordinates 0...1 (x, y).
    public var spot: [Float]

    public init(radiance: Float = 10, fresnelF0: Float = 0.04, roughnessRad: Float = 0.01,
                lightSizeM: [Float] = [0.8, 0.5], lightDistanceM: Float = 2.5, spot: [Float] = [0.6, 0.4]) {
        self.radiance = radiance
        self.fresnelF0 = fresnelF0
        self.roughnessRad = roughnessRad
        self.lightSizeM = lightSizeM
        self.lightDistanceM = lightDistanceM
        self.spot = spot
    }

    enum CodingKeys: String, CodingKey {
        case radiance
        case fresnelF0 = "fresnel_f0"
        case roughnessRad = "roughness_rad"
        case lightSizeM = "light_size_m"
        case lightDistanceM = "light_distance_m"
        case spot
    }
}

/// The RGB camera: lens, Bayer sensor and image signal processor.
public struct SensorParameters: Codable, Sendable, Equatable {
    /// Gaussian lens PSF standard deviation, px (0.3-0.7).
    public var lensBlurSigmaPx: Float
    /// Electrons at raw full scale after analog gain (1500-10000; lower = higher ISO).
    public var fullWellE: Float
    /// Read noise, electrons rms (1.5-5).
    public var readNoiseE: Float
    /// Auto-exposure target: mean linear green in 0...1 (0.14-0.24).
    public var exposureTarget: Float
    /// Corner falloff left after lens-shading correction: gain 1 - v * r^2, r = 1 at
    /// the corner (0-0.25).
    public var vignetting: Float
    /// Grey-world white balance applied with this strength (1 = full correction).
    public var whiteBalanceStrength: Float
    /// Unsharp-mask amount of the ISP (0-0.6).
    public var sharpenAmount: Float
    /// ADC bits of the raw values (10-12).
    public var adcBits: Int
    /// Demosaicing algorithm: `malvar_he_cutler` or `bilinear`.
    public var demosaic: Demosaic
    /// Phone-style image processing after demosaicing (`ImageSignalProcessor`); nil =
    /// the minimal pipeline (grey-world white balance, sharpening, sRGB), which the
    /// physics tests use to measure sampling without processing in the way.
    public var isp: ISPParameters?

    public enum Demosaic: String, Codable, Sendable, Equatable, CaseIterable {
        case malvarHeCutler = "malvar_he_cutler"
        case bilinear
    }

    public init(lensBlurSigmaPx: Float = 0.45, fullWellE: Float = 4000, readNoiseE: Float = 3,
                exposureTarget: Float = 0.18, vignetting: Float = 0.1, whiteBalanceStrength: Float = 0.85,
                sharpenAmount: Float = 0.3, adcBits: Int = 12, demosaic: Demosaic = .malvarHeCutler,
                isp: ISPParameters? = nil) {
        self.lensBlurSigmaPx = lensBlurSigmaPx
        self.fullWellE = fullWellE
        self.readNoiseE = readNoiseE
        self.exposureTarget = exposureTarget
        self.vignetting = vignetting
        self.whiteBalanceStrength = whiteBalanceStrength
        self.sharpenAmount = sharpenAmount
        self.adcBits = adcBits
        self.demosaic = demosaic
        self.isp = isp
    }

    enum CodingKeys: String, CodingKey {
        case lensBlurSigmaPx = "lens_blur_sigma_px"
        case fullWellE = "full_well_e"
        case readNoiseE = "read_noise_e"
        case exposureTarget = "exposure_target"
        case vignetting
        case whiteBalanceStrength = "white_balance_strength"
        case sharpenAmount = "sharpen_amount"
        case adcBits = "adc_bits"
        case demosaic
        case isp
    }
}

/// The ARKit-like depth sensor (see `DepthSensor` for the model and its calibration).
public struct DepthSensorParameters: Codable, Sendable, Equatable {
    /// Noise standard deviation sigma(z) = a + b z^2: a in mm, b in mm per m^2.
    public var noiseAMm: Float
    public var noiseBMmPerM2: Float
    /// Share of the noise variance in the coarse (long-correlation) component, 0...1.
    public var coarseFraction: Float
    /// Correlation lengths (Gaussian kernel sigma) of the fine and coarse components, px.
    public var fineCorrelationPx: Float
    public var coarseCorrelationPx: Float
    /// Spatial smoothing of the depth (mixed pixels at edges), Gaussian sigma in px.
    public var smoothingPx: Float
    /// Probability that a depth pixel on a discontinuity is reported invalid.
    public var edgeHoleProbability: Float
    /// Share of random invalid pixels anywhere.
    public var dropoutRate: Float
    /// Beyond this range, m, returns fade out (invalid with growing probability).
    public var maxRangeM: Float
    /// Output quantisation step, mm.
    public var quantisationMm: Float
    /// Returns nearer than this, m, are invalid (NaN): the LiDAR's minimum range
    /// (ARKit reports nothing closer than ~0.1 m).
    public var minRangeM: Float

    public init(noiseAMm: Float = 0.6, noiseBMmPerM2: Float = 1.0, coarseFraction: Float = 0.7,
                fineCorrelationPx: Float = 1.0, coarseCorrelationPx: Float = 10, smoothingPx: Float = 0.8,
                edgeHoleProbability: Float = 0.15, dropoutRate: Float = 0.001, maxRangeM: Float = 5,
                quantisationMm: Float = 1, minRangeM: Float = 0.1) {
        self.noiseAMm = noiseAMm
        self.noiseBMmPerM2 = noiseBMmPerM2
        self.coarseFraction = coarseFraction
        self.fineCorrelationPx = fineCorrelationPx
        self.coarseCorrelationPx = coarseCorrelationPx
        self.smoothingPx = smoothingPx
        self.edgeHoleProbability = edgeHoleProbability
        self.dropoutRate = dropoutRate
        self.maxRangeM = maxRangeM
        self.quantisationMm = quantisationMm
        self.minRangeM = minRangeM
    }

    /// sigma(z) in metres for a depth z in metres.
    public func sigma(atDepth z: Float) -> Float { (noiseAMm + noiseBMmPerM2 * z * z) * 1e-3 }

    enum CodingKeys: String, CodingKey {
        case noiseAMm = "noise_a_mm"
        case noiseBMmPerM2 = "noise_b_mm_per_m2"
        case coarseFraction = "coarse_fraction"
        case fineCorrelationPx = "fine_correlation_px"
        case coarseCorrelationPx = "coarse_correlation_px"
        case smoothingPx = "smoothing_px"
        case edgeHoleProbability = "edge_hole_probability"
        case dropoutRate = "dropout_rate"
        case maxRangeM = "max_range_m"
        case quantisationMm = "quantisation_mm"
        case minRangeM = "min_range_m"
    }
}

/// The phone's image signal processor after demosaicing (see `ImageSignalProcessor`
/// for the order of the stages and the formulas). Ranges are those
/// `ImageSignalProcessor.sampleParameters` draws from.
public struct ISPParameters: Codable, Sendable, Equatable {
    /// Corner falloff of the bare lens, gain 1 - s r^2 on the raw (r = 1 at the
    /// corner; 0.3-0.55). Lens-shading correction multiplies by
    /// (1 - vignetting r^2) / (1 - s r^2), leaving the sensor's `vignetting`.
    public var lensShading: Float
    /// Colour-filter crosstalk x of the sensor: camera RGB = M(x) linear RGB, rows of
    /// M(x) summing to 1: R' = (1 - x) R + 0.75 x G + 0.25 x B,
    /// G' = 0.5 x R + (1 - x) G + 0.5 x B, B' = 0.25 x R + 0.75 x G + (1 - x) B (0.1-0.25).
    public var filterCrosstalk: Float
    /// Relative error of the ISP's crosstalk estimate: the colour correction matrix is
    /// M(x (1 + e))^-1 (e > 0 over-saturates; -0.15...0.15).
    public var ccmError: Float
    /// Auto white balance: weight of the grey-world estimate against the scene
    /// illuminant, geometric blend per channel (0.2-0.7).
    public var awbGreyWorldWeight: Float
    /// Residual white-balance errors, natural-log gains on R and B (-0.04...0.04).
    public var awbErrorR: Float
    public var awbErrorB: Float
    /// Highlight metering: percentile of the metered green (0.97-0.995) that
    /// exposure tries to keep at `highlight_target` of full scale (0.8-0.98), giving up at
    /// most `max_highlight_reduction_ev` stops below the mean-based exposure (0.5-2), so
    /// small bright sources and bright screens in dim rooms clip.
    public var highlightPercentile: Float
    public var highlightTarget: Float
    public var maxHighlightReductionEv: Float
    /// Global tone curve (Lottes 2016 form) y = x^a / (x^(a d) b + c), b and c such
    /// that the metered mean maps to `midtone_output` (linear, 0.18-0.26) and full
    /// scale to 1: contrast a (1.1-1.4), shoulder d (0.92-0.98).
    public var toneContrast: Float
    public var toneShoulder: Float
    public var midtoneOutput: Float
    /// Local tone mapping: gain (L_local / L_mean)^-strength, L_local = luma blurred
    /// over ~1/12 of the image (0.1-0.35).
    public var localToneStrength: Float
    /// Chroma noise reduction: box-filter radius on the chroma planes, px of the
    /// output image (2-6).
    public var chromaDenoiseRadiusPx: Float
    /// Luma noise reduction: edge-stopping 3 x 3 smoothing, weight
    /// strength * tau^2 / (tau^2 + d^2) for a local difference d in 8-bit-encoded
    /// units / 255: strength 0.2-0.7, tau 0.01-0.04.
    public var lumaDenoise: Float
    public var lumaDenoiseThreshold: Float
    /// Scene-key adaptation k (0.3-0.6; 0 = none): phones render bright scenes (a page
    /// of paper, a lit screen) brighter than mid-grey, so the mean maps to
    /// midtone_output * (L / 0.18)^k, clamped to 0.1...0.45, with L the metered mean
    /// radiance relative to a white Lambertian surface under the room light.
    public var keyAdaptation: Float

    public init(lensShading: Float = 0.4, filterCrosstalk: Float = 0.15, ccmError: Float = 0,
                awbGreyWorldWeight: Float = 0.4, awbErrorR: Float = 0, awbErrorB: Float = 0,
                highlightPercentile: Float = 0.985, highlightTarget: Float = 0.9,
                maxHighlightReductionEv: Float = 1.2, toneContrast: Float = 1.25, toneShoulder: Float = 0.95,
                midtoneOutput: Float = 0.2, localToneStrength: Float = 0.2, chromaDenoiseRadiusPx: Float = 3,
                lumaDenoise: Float = 0.4, lumaDenoiseThreshold: Float = 0.02, keyAdaptation: Float = 0) {
        self.lensShading = lensShading
        self.filterCrosstalk = filterCrosstalk
        self.ccmError = ccmError
        self.awbGreyWorldWeight = awbGreyWorldWeight
        self.awbErrorR = awbErrorR
        self.awbErrorB = awbErrorB
        self.highlightPercentile = highlightPercentile
        self.highlightTarget = highlightTarget
        self.maxHighlightReductionEv = maxHighlightReductionEv
        self.toneContrast = toneContrast
        self.toneShoulder = toneShoulder
        self.midtoneOutput = midtoneOutput
        self.localToneStrength = localToneStrength
        self.chromaDenoiseRadiusPx = chromaDenoiseRadiusPx
        self.lumaDenoise = lumaDenoise
        self.lumaDenoiseThreshold = lumaDenoiseThreshold
        self.keyAdaptation = keyAdaptation
    }

    enum CodingKeys: String, CodingKey {
        case lensShading = "lens_shading"
        case filterCrosstalk = "filter_crosstalk"
        case ccmError = "ccm_error"
        case awbGreyWorldWeight = "awb_grey_world_weight"
        case awbErrorR = "awb_error_r"
        case awbErrorB = "awb_error_b"
        case highlightPercentile = "highlight_percentile"
        case highlightTarget = "highlight_target"
        case maxHighlightReductionEv = "max_highlight_reduction_ev"
        case toneContrast = "tone_contrast"
        case toneShoulder = "tone_shoulder"
        case midtoneOutput = "midtone_output"
        case localToneStrength = "local_tone_strength"
        case chromaDenoiseRadiusPx = "chroma_denoise_radius_px"
        case lumaDenoise = "luma_denoise"
        case lumaDenoiseThreshold = "luma_denoise_threshold"
        case keyAdaptation = "key_adaptation"
    }
}

/// The room mirrored by a display's cover glass (see `CoverGlass`): a soft
/// environment of walls with a ceiling-to-floor gradient, maybe a window, and the
/// photographer's dark silhouette behind the camera.
public struct CoverGlassParameters: Codable, Sendable, Equatable {
    /// Reflectance at normal incidence: bare glass 0.04-0.05, anti-reflective
    /// 0.005-0.015; Schlick's F = F0 + (1 - F0) (1 - cos)^5.
    public var fresnelF0: Float
    /// Angular blur of the reflection, radians (0.05-0.3): the camera focuses on the
    /// panel, the mirrored room is out of focus; matte coatings blur more.
    public var blurRad: Float
    /// Radiance of the room's walls relative to a white Lambertian surface under the
    /// room light (0.2-0.6), and the ceiling-to-floor contrast g: L = room (1 + g u),
    /// u = r . up (0.2-0.6).
    public var roomRadiance: Float
    public var gradient: Float
    /// A daylight window: radiance relative as above (0 = none; 2-12), centre
    /// direction (azimuth around up from the direction back to the camera, elevation
    /// above the horizon, degrees) and angular size (width, height, degrees).
    public var windowRadiance: Float
    public var windowAzimuthDeg: Float
    public var windowElevationDeg: Float
    public var windowSizeDeg: [Float]
    /// The photographer: fraction of the room radiance blocked along the direction
    /// back to the camera (0.3-0.8) within a Gaussian of `photographer_size_deg`
    /// (10-25 degrees).
    public var photographerDarkening: Float
    public var photographerSizeDeg: Float

    public init(fresnelF0: Float = 0.04, blurRad: Float = 0.1, roomRadiance: Float = 0.35, gradient: Float = 0.4,
                windowRadiance: Float = 0, windowAzimuthDeg: Float = 0, windowElevationDeg: Float = 10,
                windowSizeDeg: [Float] = [40, 40], photographerDarkening: Float = 0.5, photographerSizeDeg: Float = 18) {
        self.fresnelF0 = fresnelF0
        self.blurRad = blurRad
        self.roomRadiance = roomRadiance
        self.gradient = gradient
        self.windowRadiance = windowRadiance
        self.windowAzimuthDeg = windowAzimuthDeg
        self.windowElevationDeg = windowElevationDeg
        self.windowSizeDeg = windowSizeDeg
        self.photographerDarkening = photographerDarkening
        self.photographerSizeDeg = photographerSizeDeg
    }

    enum CodingKeys: String, CodingKey {
        case fresnelF0 = "fresnel_f0"
        case blurRad = "blur_rad"
        case roomRadiance = "room_radiance"
        case gradient
        case windowRadiance = "window_radiance"
        case windowAzimuthDeg = "window_azimuth_deg"
        case windowElevationDeg = "window_elevation_deg"
        case windowSizeDeg = "window_size_deg"
        case photographerDarkening = "photographer_darkening"
        case photographerSizeDeg = "photographer_size_deg"
    }
}

/// How a panel's emission changes off-axis (see `CoverGlass.viewed`), with
/// s = sin^2(theta) of the viewing angle: black level rises to
/// black + leak s, mid-tones wash out e' = e + wash s (e (2 - e) - e), colour
/// multiplies by 1 + s tint.
public struct ViewingAngleParameters: Codable, Sendable, Equatable {
    /// LCD (IPS/VA) 0.01-0.04, OLED 0.
    public var blackLeak: Float
    /// LCD 0.2-0.6, OLED 0-0.08.
    public var washout: Float
    /// Per-channel colour shift at 90 degrees, linear R, G, B (LCD +-0.15, OLED +-0.05).
    public var tint: [Float]

    public init(blackLeak: Float = 0.02, washout: Float = 0.4, tint: [Float] = [0, 0, 0]) {
        self.blackLeak = blackLeak
        self.washout = washout
        self.tint = tint
    }

    enum CodingKeys: String, CodingKey {
        case blackLeak = "black_leak"
        case washout, tint
    }
}
