extension MethodIdentifier {
    /// `parallax/1`: planarity of the disparity field between two rectified views of one
    /// phone (`ParallaxAnalyzer`).
    public static let parallaxV1: MethodIdentifier = {
        // A literal that satisfies the documented grammar: this cannot fail.
        guard let identifier = try? MethodIdentifier(name: "parallax", version: 1) else {
            preconditionFailure("parallax/1 is a valid method identifier")
        }
        return identifier
    }()
}
