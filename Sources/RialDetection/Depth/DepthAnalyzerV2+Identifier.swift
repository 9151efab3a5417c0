extension MethodIdentifier {
    /// `depth/2`: physically grounded planarity of the LiDAR point cloud (`DepthAnalyzerV2`).
    public static let depthV2 = MethodIdentifier(literal: "depth", version: 2)
}
