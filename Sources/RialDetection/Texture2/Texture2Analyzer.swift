/// `texture/2`: the learned texture classifier (`LearnedTextureAnalyzer`) designed on real
/// phone photos (issue 13), on feature set version 2 (`Texture2Features`).
///
/// `Texture2Features.extract` resamples the frame to a fixed analysis scale (shorter side
/// 256 px, a box filter with at most 4 x 4 taps per output pixel, so a 12 MP capture and
/// a recompressed 1200 x 1600 upload are described at the same scale) and computes
/// luminance-histogram, colour, band-pass residual, cross-channel, gradient,
/// sharpness-layout and LBP statistics there; a side below 64 px gives `.unavailable`,
/// and `minimumLumaStd` applies to the analysis image. The result has `texture/1`'s fields.
///
/// The compiled-in model (`Texture2Model.default`)'s provenance names its training data
/// and its leave-one-source-out validation.
///
/// - Complexity: O(1) in the image size (at most 16 taps per analysis pixel).
public typealias Texture2Analyzer = LearnedTextureAnalyzer<TextureV2>

/// `texture/2`'s parts (`Texture2Analyzer`): feature set version 2, `Texture2Model`.
public enum TextureV2: LearnedTextureMethod, EmbeddedTextureModel {
    public typealias Features = Texture2Features

    /// `texture/2`.
    public static var identifier: MethodIdentifier { .textureV2 }

    public static let summary = MethodSummary(
        title: "Texture classifier v2",
        signal:
            "A logistic classifier trained on real phone photos (plus simulated captures) over resolution-normalised image statistics: luminance histogram shape, colour, band-pass luma and chroma residuals, cross-channel residual correlation, gradient orientation, sharpness layout and LBP; score = probability of real_scene.",
        blindTo:
            "Sources unlike its training photos (validated leave-one-source-out; see the model's provenance), and recaptures that reproduce a natural scene's tone, colour and focus statistics. Adversarial recaptures defeat it.",
        latencyTarget: LatencyTarget(milliseconds: 15, source: "methods.md §9"))

    /// `texture2-1` (`defaultModelJSON`, models/texture2-1.json).
    public static let compiledInModel = Texture2Model.embedded()

    /// `defaultModelSHA256`.
    public static var compiledInModelSHA256: String { defaultModelSHA256 }
}
