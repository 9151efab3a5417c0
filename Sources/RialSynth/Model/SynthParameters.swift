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
    /// The phone camera's additions (`PhoneCamera`); nil for the standard camera (and
    /// then absent from the JSON, so standard captures keep their bytes).
    public var phone: PhoneCameraParameters?
    /// Dataset tags: always `synthetic`; `flat_subject` for bona fide flat subjects;
    /// `pwm_flicker`, `glare`, `curved`, the subject kind.
    public var tags: [String]

    public init(
        generator: String = SynthGenerator.version, synthClass: SynthClass,
        subjectKind: SubjectKind, seed: UInt64 = 0, index: Int = 0,
        width: Int, height: Int, horizontalFovDeg: Float = 67,
        baselineMm: Float = 15, sceneSeed: UInt64 = 1, noiseSeed: UInt64 = 2,
        subject: SubjectPlacement = SubjectPlacement(),
        lighting: LightingParameters = LightingParameters(),
        content: ContentParameters? = nil, display: DisplayParameters? = nil,
        print: PrintParameters? = nil, glare: GlareParameters? = nil,
        sensor: SensorParameters = SensorParameters(),
        depthSensor: DepthSensorParameters = DepthSensorParameters(),
        jpegQuality: Int = 90, tags: [String] = ["synthetic"]
    ) {
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
        case tags, phone
    }
}
