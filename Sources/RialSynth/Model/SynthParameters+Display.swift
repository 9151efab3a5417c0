import Foundation

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

    public init(
        panelLayout: PanelLayout, pixelPitchPx: Float, pixelPitchMm: Float = 0,
        resolution: [Int] = [0, 0], fillFactor: Float = 0.8, verticalFill: Float = 0.85,
        brightness: Float = 1.5, gamma: Float = 2.2, blackLevel: Float = 0.002,
        viewFalloffExponent: Float = 1, bezelMm: Float = 8, panelSizeM: [Float] = [0, 0],
        flicker: FlickerParameters? = nil, coverGlass: CoverGlassParameters? = nil,
        viewingAngle: ViewingAngleParameters? = nil
    ) {
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

    public init(
        hz: Float, dutyCycle: Float = 0.5, modulationDepth: Float = 1,
        rowTimeUs: Float = 15, exposureMs: Float = 4, phase: Float = 0
    ) {
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

    public init(
        fresnelF0: Float = 0.04, blurRad: Float = 0.1, roomRadiance: Float = 0.35, gradient: Float = 0.4,
        windowRadiance: Float = 0, windowAzimuthDeg: Float = 0, windowElevationDeg: Float = 10,
        windowSizeDeg: [Float] = [40, 40], photographerDarkening: Float = 0.5, photographerSizeDeg: Float = 18
    ) {
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

/// How a panel's emission changes off-axis (see `CoverGlass.emitted`), with
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
