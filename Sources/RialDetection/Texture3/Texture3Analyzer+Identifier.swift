extension MethodIdentifier {
    /// `texture/3`: `texture/2`'s classifier with a layout feature added (`Texture3Analyzer`).
    public static let textureV3 = MethodIdentifier(literal: "texture", version: 3)
}
