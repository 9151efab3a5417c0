import Foundation

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

    public init(
        lensBlurSigmaPx: Float = 0.45, fullWellE: Float = 4000, readNoiseE: Float = 3,
        exposureTarget: Float = 0.18, vignetting: Float = 0.1, whiteBalanceStrength: Float = 0.85,
        sharpenAmount: Float = 0.3, adcBits: Int = 12, demosaic: Demosaic = .malvarHeCutler,
        isp: ISPParameters? = nil
    ) {
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
    /// scale to 1: contrast a (1.1-1.4; phone/1 1.4-2, phone/2 1.8-2.6; used clamped to
    /// 0.8...3), shoulder d (0.92-0.98).
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

    public init(
        lensShading: Float = 0.4, filterCrosstalk: Float = 0.15, ccmError: Float = 0,
        awbGreyWorldWeight: Float = 0.4, awbErrorR: Float = 0, awbErrorB: Float = 0,
        highlightPercentile: Float = 0.985, highlightTarget: Float = 0.9,
        maxHighlightReductionEv: Float = 1.2, toneContrast: Float = 1.25, toneShoulder: Float = 0.95,
        midtoneOutput: Float = 0.2, localToneStrength: Float = 0.2, chromaDenoiseRadiusPx: Float = 3,
        lumaDenoise: Float = 0.4, lumaDenoiseThreshold: Float = 0.02, keyAdaptation: Float = 0
    ) {
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
