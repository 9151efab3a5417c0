extension MethodIdentifier {
    /// `parallax/1`: planarity of the disparity field between two rectified views of one
    /// phone (`ParallaxAnalyzer`).
    public static let parallaxV1 = MethodIdentifier(literal: "parallax", version: 1)
}
