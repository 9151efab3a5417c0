import Foundation
import RialMedia

extension DepthAnalyzerV2 {
    struct EdgeCounts {
        var depthEdges: Int
        var aligned: Int
        var lumaDensity: Double
    }

    /// Depth-edge / luma-edge alignment on the depth grid; nil when the image cannot be
    /// turned into one luma plane on that grid.
    ///
    /// The luma is area-averaged to the depth grid when at least as large in both
    /// dimensions, bilinear-resized otherwise. Strong luma gradient at an interior
    /// pixel: `sqrt(gx² + gy²) > lumaEdgeThreshold` with central differences
    /// `gx = (L[x+1] - L[x-1]) / 2`; dilated by `edgeTolerance` (Chebyshev). A depth
    /// edge is a pair of valid 4-neighbours with `|d1 - d2| / min(d1, d2) >
    /// depthEdgeRelativeJump`; it aligns when either pixel is near a strong luma gradient.
    static func edgeAlignment(_ map: DepthMap, luma image: PlanarImage, configuration c: Configuration) -> EdgeCounts? {
        let width = map.width, height = map.height
        guard let gray = try? image.luma() else { return nil }
        let resampled: PlanarImage?
        if gray.width >= width && gray.height >= height {
            resampled = try? gray.areaAveraged(width: width, height: height)
        } else {
            resampled = try? gray.resizedBilinear(width: width, height: height)
        }
        guard let luma = resampled, luma.width == width, luma.height == height else { return nil }

        let threshold = Float(c.lumaEdgeThreshold)
        var strong = [UInt8](repeating: 0, count: width * height)
        luma.data.withUnsafeBufferPointer { l in
            if width >= 3 && height >= 3 {
                for y in 1..<(height - 1) {
                    for x in 1..<(width - 1) {
                        let i = y * width + x
                        let gx = (l[i + 1] - l[i - 1]) / 2, gy = (l[i + width] - l[i - width]) / 2
                        if (gx * gx + gy * gy).squareRoot() > threshold { strong[i] = 1 }
                    }
                }
            }
        }
        // Separable dilation (max filter) of radius r.
        let r = c.edgeTolerance
        var near = strong
        if r > 0 {
            var rows = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width where strong[y * width + x] != 0 {
                    for xx in Swift.max(0, x - r)...Swift.min(width - 1, x + r) { rows[y * width + xx] = 1 }
                }
            }
            near = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width where rows[y * width + x] != 0 {
                    for yy in Swift.max(0, y - r)...Swift.min(height - 1, y + r) { near[yy * width + x] = 1 }
                }
            }
        }

        let lo = Float(c.minValidDepth), hi = Float(c.maxValidDepth), jump = Float(c.depthEdgeRelativeJump)
        var depthEdges = 0, aligned = 0, valid = 0, validNear = 0
        map.metres.withUnsafeBufferPointer { d in
            @inline(__always) func isValid(_ v: Float) -> Bool { v >= lo && v <= hi }
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * width + x
                    let a = d[i]
                    guard isValid(a) else { continue }
                    valid += 1
                    if near[i] != 0 { validNear += 1 }
                    @inline(__always) func pair(_ j: Int) {
                        let b = d[j]
                        guard isValid(b), abs(a - b) > jump * Swift.min(a, b) else { return }
                        depthEdges += 1
                        if near[i] != 0 || near[j] != 0 { aligned += 1 }
                    }
                    if x + 1 < width { pair(i + 1) }
                    if y + 1 < height { pair(i + width) }
                }
            }
        }
        return EdgeCounts(
            depthEdges: depthEdges, aligned: aligned,
            lumaDensity: valid > 0 ? Double(validNear) / Double(valid) : 0)
    }
}
