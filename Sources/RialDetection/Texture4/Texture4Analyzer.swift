/// `texture/4`: one learned model over the image cues (issue 13), the learned texture
/// classifier (`LearnedTextureAnalyzer`) on feature set version 4 (`Texture4Features`):
/// `texture/3`'s 48 statistics of the resolution-normalised analysis image plus 15 cues
/// of `moire/2` (colour bands, subpixel peaks) and `artifacts/2` (PWM banding, fine
/// detail, a dark surround), so that the weight of each cue is learned from real photos
/// instead of averaging three scores that each see one kind of evidence.
///
/// In a pipeline that also runs `moire/2` and `artifacts/2` with their compiled-in
/// constants, it reads their results of the same capture (`SharedResults`) and adds only
/// `texture/3`'s cost; otherwise it computes them itself. The result has `texture/1`'s
/// fields.
///
/// The compiled-in model (`Texture4Model.default`)'s provenance names its training data
/// and its leave-one-source-out validation.
///
/// The texture family's default aggregation input (the newest version; `texture/3` runs
/// beside it for comparison): held out per source on real photos it raises the aggregate
/// from AUC 0.871 to 0.877 and `texture/4` alone scores 0.874 against `texture/3`'s 0.820;
/// the simulated default set's aggregate goes from 0.949 to 0.957, within its interval
/// (docs/defaults-real-photos.md).
///
/// - Complexity: `texture/3`'s, plus `moire/2`'s and `artifacts/2`'s when it computes
///   their cues itself.
public typealias Texture4Analyzer = LearnedTextureAnalyzer<TextureV4>

/// `texture/4`'s parts (`Texture4Analyzer`): feature set version 4, `Texture4Model`.
public enum TextureV4: LearnedTextureMethod, EmbeddedTextureModel {
    public typealias Features = Texture4Features

    /// `texture/4`.
    public static var identifier: MethodIdentifier { .textureV4 }

    public static let summary = MethodSummary(
        title: "Texture classifier v4 (image cues fused)",
        signal:
            "One logistic classifier trained on real phone photos (plus simulated captures) over texture/3's image statistics and the cues of moire/2 (colour-band and subpixel-peak evidence, band frequency, chroma/luma ratio, banded tile share) and artifacts/2 (row and column banding, fine-detail share, dark surround); score = probability of real_scene.",
        blindTo:
            "Sources unlike its training photos (validated leave-one-source-out; see the model's provenance); what each of texture/3, moire/2 and artifacts/2 is blind to at once: screens that fill the frame without visible moire or banding, recaptures that keep a natural scene's tone, colour and focus. Adversarial recaptures defeat it.",
        latencyTarget: LatencyTarget(
            milliseconds: 15, source: "methods.md §9 (texture; moire/2 and artifacts/2 results shared)"))

    /// A phone's texture result without `algorithm_version` is not read as `texture/4`
    /// (a phone that does not name its version runs no fused model): it is read as
    /// `texture/3`, whose fields are the same.
    public static var readsUnversionedPayload: Bool { false }

    /// `texture4-1` (`defaultModelJSON`, models/texture4-1.json).
    public static let compiledInModel = Texture4Model.embedded()

    /// `defaultModelSHA256`.
    public static var compiledInModelSHA256: String { defaultModelSHA256 }
}
