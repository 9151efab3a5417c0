import Foundation

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

    public init(
        colorTemperatureK: Float = 4000, ambient: Float = 0.3, elevationDeg: Float = 50,
        azimuthDeg: Float = 30, distanceM: Float = 2, lightSizeM: [Float] = [0.4, 0.4],
        shadowSamples: Int = 3, aoRadiusM: Float = 0.4, aoSamples: Int = 12, bounce: Float = 0.35,
        lightingCellPx: Int = 6
    ) {
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

    public init(
        radiance: Float = 10, fresnelF0: Float = 0.04, roughnessRad: Float = 0.01,
        lightSizeM: [Float] = [0.8, 0.5], lightDistanceM: Float = 2.5, spot: [Float] = [0.6, 0.4]
    ) {
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
