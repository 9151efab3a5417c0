/// One version of the learned texture classifier (`TextureV1`, `TextureV2`, `TextureV3`):
/// what `LearnedTextureAnalyzer` needs besides the steps every version shares, namely its
/// identifier, its feature set, the model type it loads and the model compiled into the
/// build, and its summary.
public protocol LearnedTextureMethod: Sendable {
    /// What the method computes of a photo (version N for `texture/N`).
    associatedtype Features: TextureFeatureSet
    /// What it scores with, checked for `Features` when a file is loaded.
    associatedtype Model: TextureClassifierModel
    /// `texture/N`.
    static var identifier: MethodIdentifier { get }
    /// `DetectionMethod.summary`.
    static var summary: MethodSummary { get }
    /// `DetectionMethod.aggregatesByDefault`. Default: true.
    static var aggregatesByDefault: Bool { get }
    /// `DetectionMethod.readsUnversionedPayload`. Default: `aggregatesByDefault`.
    static var readsUnversionedPayload: Bool { get }
    /// The model used when the configuration names none.
    static var compiledInModel: Model { get }
    /// SHA-256 of `compiledInModel`'s canonical JSON, 64 lowercase hex digits.
    static var compiledInModelSHA256: String { get }
}

extension LearnedTextureMethod {
    public static var aggregatesByDefault: Bool { true }

    public static var readsUnversionedPayload: Bool { aggregatesByDefault }
}
