extension MethodIdentifier {
    /// `texture/1`: trained texture classifier (`TextureAnalyzer`).
    public static let textureV1: MethodIdentifier = {
        // A literal that satisfies the documented grammar: this cannot fail.
        guard let identifier = try? MethodIdentifier(name: "texture", version: 1) else {
            preconditionFailure("texture/1 is a valid method identifier")
        }
        return identifier
    }()
}
