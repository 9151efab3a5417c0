extension MethodIdentifier {
    /// `texture/4`: the learned classifier over `texture/3`'s features and the cues of
    /// `moire/2` and `artifacts/2` (`Texture4Analyzer`).
    public static let textureV4 = MethodIdentifier(literal: "texture", version: 4)
}
