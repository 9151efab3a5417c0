extension MethodIdentifier {
    /// `texture/1`: trained texture classifier (`TextureAnalyzer`).
    public static let textureV1 = MethodIdentifier(literal: "texture", version: 1)
}
