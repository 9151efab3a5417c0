/// `texture/3`: `texture/2` with one layout feature more (issue 13), the learned texture
/// classifier (`LearnedTextureAnalyzer`) on feature set version 3 (`Texture3Features`).
///
/// `Texture3Features.extract` computes `texture/2`'s 47 statistics of the
/// resolution-normalised analysis image (shorter side 256 px) plus `centre_minus_border`
/// (inner against outer luma of a 4 x 4 tile grid: a self-lit panel in a darker frame);
/// a side below 64 px gives `.unavailable`, and `minimumLumaStd` applies to the analysis
/// image. The result has `texture/1`'s fields.
///
/// The compiled-in model (`Texture3Model.default`)'s provenance names its training data
/// and its leave-one-source-out validation.
///
/// The texture family's default aggregation input (the newest version; `texture/2` runs
/// beside it for comparison): held out per source on real photos it raises the aggregate
/// from AUC 0.803 to 0.834, and the simulated default set stays within its interval
/// (docs/defaults-real-photos.md).
///
/// - Complexity: O(1) in the image size (at most 16 taps per analysis pixel).
public typealias Texture3Analyzer = LearnedTextureAnalyzer<TextureV3>

/// `texture/3`'s parts (`Texture3Analyzer`): feature set version 3, `Texture3Model`.
public enum TextureV3: LearnedTextureMethod, EmbeddedTextureModel {
    public typealias Features = Texture3Features

    /// `texture/3`.
    public static var identifier: MethodIdentifier { .textureV3 }

    public static let summary = MethodSummary(
        title: "Texture classifier v3",
        signal:
            "A logistic classifier trained on real phone photos (plus simulated captures) over resolution-normalised image statistics: luminance histogram shape, colour, band-pass luma and chroma residuals, cross-channel residual correlation, gradient orientation, sharpness layout, LBP and the luma of the picture's centre against its border; score = probability of real_scene.",
        blindTo:
            "Sources unlike its training photos (validated leave-one-source-out; see the model's provenance), and recaptures that reproduce a natural scene's tone, colour and focus statistics, screens that fill the frame, and scenes with a bright centre in a dark frame (a lit window, a stage). Adversarial recaptures defeat it.",
        latencyTarget: LatencyTarget(milliseconds: 15, source: "methods.md §9"))

    /// `texture3-1` (`defaultModelJSON`, models/texture3-1.json).
    public static let compiledInModel = Texture3Model.embedded()

    /// `defaultModelSHA256`.
    public static var compiledInModelSHA256: String { defaultModelSHA256 }
}
