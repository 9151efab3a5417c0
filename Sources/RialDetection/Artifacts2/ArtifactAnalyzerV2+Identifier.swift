extension MethodIdentifier {
    /// `artifacts/2`: recapture artifacts redesigned on real photos: banding energy,
    /// dark display surround and fine-detail loss (`ArtifactAnalyzerV2`).
    public static let artifactsV2 = MethodIdentifier(literal: "artifacts", version: 2)
}
