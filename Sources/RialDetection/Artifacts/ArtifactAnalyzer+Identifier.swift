extension MethodIdentifier {
    /// `artifacts/1`: PWM banding, specular glare and halftone detection (`ArtifactAnalyzer`).
    public static let artifactsV1: MethodIdentifier = {
        // A literal that satisfies the documented grammar: this cannot fail.
        guard let identifier = try? MethodIdentifier(name: "artifacts", version: 1) else {
            preconditionFailure("artifacts/1 is a valid method identifier")
        }
        return identifier
    }()
}
