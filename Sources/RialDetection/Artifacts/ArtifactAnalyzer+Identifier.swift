extension MethodIdentifier {
    /// `artifacts/1`: PWM banding, specular glare and halftone detection (`ArtifactAnalyzer`).
    public static let artifactsV1 = MethodIdentifier(literal: "artifacts", version: 1)
}
