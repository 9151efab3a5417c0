extension MethodIdentifier {
    /// `texture/2`: the texture classifier on resolution-normalised features trained on
    /// real photos (`Texture2Analyzer`).
    public static let textureV2 = MethodIdentifier(literal: "texture", version: 2)
}
