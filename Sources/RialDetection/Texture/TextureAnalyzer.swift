/// `texture/1`: the learned texture classifier (`LearnedTextureAnalyzer`) on feature set
/// version 1 (`TextureFeatures`).
///
/// `TextureFeatures.extract` computes the 82-value descriptor from 16 full-resolution
/// 64 x 64 patches (multi-scale LBP, gradient and high-pass channel statistics,
/// subpixel-band spectra of luma and chroma) and a strided global luma sample; a side
/// below 128 px gives `.unavailable`, and `minimumLumaStd` applies to the global sample.
///
/// The compiled-in model (`TextureModel.default`, `models/texture-2.json`) was trained on
/// synthetic captures only (see its provenance): its probabilities are calibrated on that
/// generator, not on real recaptures, and an adversarial recapture that hides the
/// subpixel and halftone structure defeats it (why texture is only supporting).
///
/// - Complexity: O(1) in the image size (a bounded number of pixels is read).
public typealias TextureAnalyzer = LearnedTextureAnalyzer<TextureV1>

/// `texture/1`'s parts (`TextureAnalyzer`): feature set version 1, `TextureModel`.
public enum TextureV1: LearnedTextureMethod {
    public typealias Features = TextureFeatures

    /// `texture/1`.
    public static var identifier: MethodIdentifier { .textureV1 }

    public static let summary = MethodSummary(
        title: "Texture classifier",
        signal:
            "A trained multinomial classifier over texture descriptors (local binary patterns, subpixel-band spectral energy, colour and gradient statistics) with weights versioned in the repository; score = probability of real_scene.",
        blindTo:
            "Everything it was not trained on: its training data is synthetic (RialSynth) with the provenance recorded in the model; real-world generalisation is measured only on the small real public set. Adversarial recaptures defeat it.",
        latencyTarget: LatencyTarget(milliseconds: 15, source: "methods.md §9"))

    /// `texture-2`, embedded as `TextureModel.default` (models/texture-2.json).
    public static var compiledInModel: TextureModel { .default }

    /// `TextureModel.defaultModelSHA256`.
    public static var compiledInModelSHA256: String { TextureModel.defaultModelSHA256 }
}
