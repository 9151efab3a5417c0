import RialMedia

extension DepthAnalyzerV2: DetectionMethod {
    public static let summary = MethodSummary(
        title: "LiDAR depth, planarity of the point cloud",
        signal:
            "Back-projects valid depths with pinhole intrinsics (given, else a 65° horizontal field of view), finds up to 4 planes by seeded sequential RANSAC with a range-dependent noise model (5 mm + 5 mm/m² · z²), scores inlier fraction, residual relative to the noise model and depth range; checks that depth discontinuities align with RGB edges.",
        blindTo:
            "A real flat subject filling the frame is a plane too (reported as `is_planar_subject`, left to the other signals); a strongly curved or folded print can split into several planes; a screen inside a furnished room is only part of the point cloud.",
        latencyTarget: LatencyTarget(milliseconds: 5, source: "issue 4 (methods.md §9: 50)"))

    /// It reads the photo only at its edge step, through a small luma guide.
    public static let readsRowsWhileDecoding = true

    /// What depth/2 reads: the depth map, its intrinsics, and the luma guide for edge
    /// alignment, made only when that step needs it (at most once).
    public struct Input {
        public var depth: DepthMap
        public var intrinsics: CameraIntrinsics?
        public var luma: () -> PlanarImage?

        public init(depth: DepthMap, intrinsics: CameraIntrinsics? = nil, luma: @escaping () -> PlanarImage? = { nil })
        {
            self.depth = depth
            self.intrinsics = intrinsics
            self.luma = luma
        }
    }

    public func input(from capture: MethodCapture) -> InputCheck<Input, Result> {
        guard let depth = capture.depth else { return .missing("no depth map") }
        let rows = capture.rows
        return .ready(
            Input(
                depth: depth, intrinsics: capture.depthIntrinsics,
                luma: {
                    rows.flatMap { Self.lumaGuide($0, depthWidth: depth.width, depthHeight: depth.height) }
                }))
    }

    public func evaluate(_ input: Input) -> Result {
        evaluate(input.depth, lumaWhenNeeded: input.luma, intrinsics: input.intrinsics)
    }

    /// depth/2 detects nothing: planarity is scored, and a planar subject may be real.
    public static func detections(in fields: JSONObject) -> Detections { .none }

    /// The phone sends no depth result.
    public static func payloadScore(_ fields: JSONObject) -> Double? { nil }

    /// A luma image at twice the depth grid for the edge alignment, each pixel the mean
    /// of a 2x2 group of image pixels at its centre: O(depth pixels), not O(image
    /// pixels), so a 12 MP photo costs the same as a small one. Nil for images smaller
    /// than that grid (the edge step then resamples the full image itself).
    static func lumaGuide(_ image: ImageRows, depthWidth: Int, depthHeight: Int) -> PlanarImage? {
        let width = 2 * depthWidth, height = 2 * depthHeight
        guard image.width >= 2 * width, image.height >= 2 * height, width > 0, height > 0 else { return nil }
        let channels = image.channels, rowStride = image.rowStride, colour = channels >= 3
        // Sample offset of each output column's first source pixel, computed once.
        let columns = (0..<width).map { min(image.width - 2, (2 * $0 + 1) * image.width / (2 * width)) * channels }
        // The weighted channels as one table of 256 entries per weight: `0.299 * Float(v)`
        // (or `1 * Float(v)` for gray) looked up is the same Float as computed, and the sum
        // below adds the same terms in the same order.
        let weights: [Float] = colour ? [0.299, 0.587, 0.114] : [1]
        let table = weights.flatMap { w in (0..<256).map { w * Float($0) } }
        let src = image.samples
        var out = [Float](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { out in
            columns.withUnsafeBufferPointer { columns in
                table.withUnsafeBufferPointer { table in
                    @inline(__always) func luma(_ p: Int) -> Float {
                        colour
                            ? table[Int(src[p])] + table[256 + Int(src[p &+ 1])] + table[512 + Int(src[p &+ 2])]
                            : table[Int(src[p])]
                    }
                    for y in 0..<height {
                        let sy = min(image.height - 2, (2 * y + 1) * image.height / (2 * height))
                        image.waitForRows(sy + 2)
                        let top = sy * rowStride, bottom = top + rowStride, line = y * width
                        for x in 0..<width {
                            let c = columns[x]
                            var sum: Float = 0
                            sum += luma(top &+ c)
                            sum += luma(top &+ c &+ channels)
                            sum += luma(bottom &+ c)
                            sum += luma(bottom &+ c &+ channels)
                            out[line &+ x] = sum / 4
                        }
                    }
                }
            }
        }
        return PlanarImage(width: width, height: height, channels: 1, data: out)
    }
}

extension DepthAnalyzerV2.Configuration: MethodConfiguration {
    /// With `intrinsics` set, so that its keys are known.
    public static var exemplar: Self {
        var c = Self()
        c.intrinsics = DepthAnalyzerV2.CameraIntrinsics(fx: 1, fy: 1, cx: 0, cy: 0)
        return c
    }
}
