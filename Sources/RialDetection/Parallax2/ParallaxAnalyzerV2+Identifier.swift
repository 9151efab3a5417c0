extension MethodIdentifier {
    /// `parallax/2`: the content surface of the disparity field between two rectified
    /// views of one phone (`ParallaxAnalyzerV2`).
    public static let parallaxV2 = MethodIdentifier(literal: "parallax", version: 2)
}
