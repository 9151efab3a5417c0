/// One image statistic of the domain-gap report (`DomainGapReport`), measured by
/// `ImageGapMeasurement` at the resolution-normalised analysis scale. Pixel values are
/// 0...255; Y is BT.601 luma, Cb = B - Y and Cr = R - Y (unscaled differences).
public enum GapStatistic: String, Sendable, Codable, CaseIterable, Hashable {
    case noiseLuma = "noise_luma"
    case noiseCb = "noise_cb"
    case noiseCr = "noise_cr"
    case noiseRed = "noise_red"
    case noiseGreen = "noise_green"
    case noiseBlue = "noise_blue"
    case chromaToLumaNoise = "chroma_to_luma_noise"
    case noiseCorrelationLuma = "noise_correlation_luma"
    case noiseCorrelationChroma = "noise_correlation_chroma"
    case haloOvershoot = "halo_overshoot"
    case spectralSlope = "spectral_slope"
    case highFrequencyEnergy = "high_frequency_energy"
    case meanLuma = "mean_luma"
    case lumaContrast = "luma_contrast"
    case clippedFraction = "clipped_fraction"
    case colourCastCb = "colour_cast_cb"
    case colourCastCr = "colour_cast_cr"
    case saturation = "saturation"
    case bandPeakFrequency = "band_peak_frequency"
    case bandPeakProminence = "band_peak_prominence"
    case bandChromaToLuma = "band_chroma_to_luma"
    case jpegLumaQuality = "jpeg_luma_quality"
    case jpegChromaQuality = "jpeg_chroma_quality"
    case jpegTableMismatch = "jpeg_table_mismatch"

    /// What the number is, with its unit.
    public var summary: String {
        switch self {
        case .noiseLuma: "noise sigma of Y in flat blocks (Immerkaer residual), levels"
        case .noiseCb: "noise sigma of Cb = B - Y in flat blocks, levels"
        case .noiseCr: "noise sigma of Cr = R - Y in flat blocks, levels"
        case .noiseRed: "noise sigma of R in flat blocks, levels"
        case .noiseGreen: "noise sigma of G in flat blocks, levels"
        case .noiseBlue: "noise sigma of B in flat blocks, levels"
        case .chromaToLumaNoise: "(sigma Cb + sigma Cr) / (2 sigma Y): chroma noise left after noise reduction"
        case .noiseCorrelationLuma:
            "2 sigma(Y at 1/2 scale) / sigma(Y) in the same flat blocks: 1 = white noise, > 1 = low-pass (denoised) noise"
        case .noiseCorrelationChroma: "the same ratio for Cb and Cr (mean): chroma noise spectrum shape"
        case .haloOvershoot:
            "median overshoot + undershoot at isolated step edges (11-px profile), fraction of the step: sharpening halos"
        case .spectralSlope: "slope of log10 radial power vs log10 frequency of Y over 0.02...0.45 cycles/px"
        case .highFrequencyEnergy: "log10 of Y power above 0.25 cycles/px over power above 0.02 cycles/px"
        case .meanLuma: "mean Y, levels: exposure"
        case .lumaContrast: "standard deviation of Y, levels: global contrast"
        case .clippedFraction: "share of pixels with Y >= 250: clipped highlights"
        case .colourCastCb: "mean Cb, levels: white balance (blue-yellow)"
        case .colourCastCr: "mean Cr, levels: white balance (red-cyan)"
        case .saturation: "mean sqrt(Cb^2 + Cr^2), levels"
        case .bandPeakFrequency:
            "frequency (cycles/px) of the strongest peak of the whitened Y spectrum over 0.008...0.45: a moire band"
        case .bandPeakProminence: "log10 of that peak over the median power of its frequency ring"
        case .bandChromaToLuma: "log10 of Cb + Cr power over Y power in 0.01...0.1 cycles/px: coloured bands"
        case .jpegLumaQuality: "IJG quality nearest to the file's luma quantisation table (file metadata)"
        case .jpegChromaQuality: "IJG quality nearest to the file's chroma quantisation table (file metadata)"
        case .jpegTableMismatch: "mean |luma table - IJG table at that quality|: 0 = libjpeg's tables (file metadata)"
        }
    }

    /// True for statistics of the pixels, the ones the domain-gap classifier uses. The
    /// JPEG table statistics describe the file, which no detector reads (specs: features
    /// must not read file quality), so they are reported but never classified on.
    public var isPixelStatistic: Bool {
        switch self {
        case .jpegLumaQuality, .jpegChromaQuality, .jpegTableMismatch: false
        default: true
        }
    }

    /// The statistics the classifier uses, in declaration order.
    public static let pixelStatistics = allCases.filter(\.isPixelStatistic)
}
