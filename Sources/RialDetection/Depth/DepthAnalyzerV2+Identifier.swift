extension MethodIdentifier {
    /// `depth/2`: physically grounded planarity of the LiDAR point cloud (`DepthAnalyzerV2`).
    public static let depthV2: MethodIdentifier = {
        // A literal that satisfies the documented grammar: this cannot fail.
        guard let identifier = try? MethodIdentifier(name: "depth", version: 2) else {
            preconditionFailure("depth/2 is a valid method identifier")
        }
        return identifier
    }()
}
