import Foundation
import RialMedia

extension ArtifactAnalyzer {
    /// What the glare detector measured.
    struct SpecularMeasurement: Equatable {
        /// 0...1: the best region's score (0 without regions).
        var confidence: Double
        var threshold: Double
        var regions: [SpecularRegion]
    }

    /// Specular glare: screen glass (and glossy paper) mirrors a window or lamp as a
    /// large, bright, nearly colourless patch whose outline is the light's (a sharp,
    /// convex quadrilateral), unlike the diffuse highlights of a real scene.
    ///
    /// 1. A grid of cells, stride `g = max(1, longSide / specular_grid_cells)` px, one
    ///    pixel per cell (its centre): `V = max(R, G, B)`, saturation `(V - min) / V`.
    /// 2. Highlight mask: `V >= T` and saturation <= `specular_max_saturation`, with
    ///    `T = clamp(median V + specular_relative_level (255 - median V),
    ///    specular_min_value, specular_max_value)` (relative, because glare on a screen
    ///    is often a veil well below clipping; never above the near-saturated 235).
    /// 3. 4-connected components (breadth-first labelling on the grid). For each region
    ///    of at least `specular_min_area_fraction` of the cells: area fraction, mean
    ///    saturation, border sharpness (mean over border crossings, i.e. a region cell
    ///    and a 4-neighbour outside, of the largest one-pixel luma step over the total
    ///    change along a full-resolution segment of `max(g, specular_edge_span_px)` px
    ///    centred between them, crossings changing by less than `specular_edge_min_step`
    ///    skipped), regularity (cell count
    ///    over the area of the convex hull of the cells' corners).
    /// 4. Region score = size x saturation x sharpness x regularity factors, each a
    ///    linear ramp clamped to 0...1: size from `min_area` to `full_area`,
    ///    saturation `1 - mean / max_saturation`, sharpness from `sharpness_low` to
    ///    `sharpness_high`, regularity from `regularity_low` to `regularity_high`.
    ///    Confidence = the best region's score.
    ///
    /// Unavailable when the grid would have fewer than 16 cells on a side.
    /// - Complexity: O(cells) plus O(bounding box + border length x g) per large region.
    func measureSpecular(_ image: ImageRows) -> Detection<SpecularMeasurement> {
        let c = configuration
        let width = image.width, height = image.height, channels = image.channels
        let g = max(1, max(width, height) / c.specularGridCells)
        let gw = width / g, gh = height / g
        guard gw >= 16, gh >= 16 else {
            return .unavailable(
                "\(width)x\(height) px gives a \(gw)x\(gh) highlight grid; glare needs at least 16x16 cells")
        }
        let cells = gw * gh
        var value = [UInt8](repeating: 0, count: cells)
        var saturation = [Float](repeating: 0, count: cells)
        var histogram = [Int](repeating: 0, count: 256)
        do {
            let s = image.samples
            value.withUnsafeMutableBufferPointer { v in
                saturation.withUnsafeMutableBufferPointer { sat in
                    histogram.withUnsafeMutableBufferPointer { hist in
                        for cy in 0..<gh {
                            let y = cy * g + g / 2
                            image.waitForRows(y + 1)
                            for cx in 0..<gw {
                                let i = (y * width + cx * g + g / 2) * channels
                                var hi = s[i], lo = s[i]
                                if channels >= 3 {
                                    hi = max(s[i], max(s[i + 1], s[i + 2]))
                                    lo = min(s[i], min(s[i + 1], s[i + 2]))
                                }
                                v[cy * gw + cx] = hi
                                sat[cy * gw + cx] = hi > 0 ? Float(hi - lo) / Float(hi) : 0
                                hist[Int(hi)] += 1
                            }
                        }
                    }
                }
            }
        }
        var median = 0, seen = 0
        while median < 255 && seen + histogram[median] <= cells / 2 {
            seen += histogram[median]
            median += 1
        }
        let threshold = min(
            max(Double(median) + c.specularRelativeLevel * (255 - Double(median)), c.specularMinValue),
            c.specularMaxValue)
        let level = UInt8(min(255, threshold.rounded(.up)))
        let maxSaturation = Float(c.specularMaxSaturation)

        // Breadth-first labelling; large regions are measured right after their fill.
        var label = [Int32](repeating: -1, count: cells)
        var queue = [Int32](repeating: 0, count: cells)
        var regions: [SpecularRegion] = []
        let minCells = max(1, Int((c.specularMinAreaFraction * Double(cells)).rounded(.up)))
        var next: Int32 = 0
        for start in 0..<cells where label[start] < 0 && value[start] >= level && saturation[start] <= maxSaturation {
            let id = next
            next += 1
            label[start] = id
            queue[0] = Int32(start)
            var head = 0, tail = 1
            var satSum = 0.0
            var x0 = gw, x1 = -1, y0 = gh, y1 = -1
            while head < tail {
                let i = Int(queue[head])
                head += 1
                let x = i % gw, y = i / gw
                satSum += Double(saturation[i])
                x0 = min(x0, x)
                x1 = max(x1, x)
                y0 = min(y0, y)
                y1 = max(y1, y)
                for d in 0..<4 {
                    let nx = d == 0 ? x - 1 : (d == 1 ? x + 1 : x), ny = d == 2 ? y - 1 : (d == 3 ? y + 1 : y)
                    guard nx >= 0 && nx < gw && ny >= 0 && ny < gh else { continue }
                    let j = ny * gw + nx
                    if label[j] < 0 && value[j] >= level && saturation[j] <= maxSaturation {
                        label[j] = id
                        queue[tail] = Int32(j)
                        tail += 1
                    }
                }
            }
            let count = tail
            guard count >= minCells else { continue }
            let regularity = Self.solidity(
                label: label, id: id, gridWidth: gw, x0: x0, x1: x1, y0: y0, y1: y1, count: count)
            let sharpness = borderSharpness(
                image, label: label, id: id, gridWidth: gw, gridHeight: gh, stride: g,
                x0: x0, x1: x1, y0: y0, y1: y1)
            let area = Double(count) / Double(cells)
            let meanSaturation = satSum / Double(count)
            func ramp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { min(max((v - lo) / (hi - lo), 0), 1) }
            let score =
                ramp(area, c.specularMinAreaFraction, c.specularFullAreaFraction)
                * min(max(1 - meanSaturation / c.specularMaxSaturation, 0), 1)
                * ramp(sharpness, c.specularSharpnessLow, c.specularSharpnessHigh)
                * ramp(regularity, c.specularRegularityLow, c.specularRegularityHigh)
            regions.append(
                SpecularRegion(
                    areaFraction: area, meanSaturation: meanSaturation, borderSharpness: sharpness,
                    regularity: regularity, score: score))
        }
        let confidence = regions.map(\.score).max() ?? 0
        regions.sort { $0.areaFraction > $1.areaFraction }
        if regions.count > c.specularMaxRegions { regions.removeLast(regions.count - c.specularMaxRegions) }
        return .measured(SpecularMeasurement(confidence: confidence, threshold: threshold, regions: regions))
    }

    /// Cell count over the area of the convex hull of the region's cell corners (per
    /// row, the outer corners of its leftmost and rightmost cells), in (0, 1].
    static func solidity(
        label: [Int32], id: Int32, gridWidth gw: Int, x0: Int, x1: Int, y0: Int, y1: Int,
        count: Int
    ) -> Double {
        var points: [(Double, Double)] = []
        points.reserveCapacity(4 * (y1 - y0 + 1))
        for y in y0...y1 {
            var lo = -1, hi = -1
            for x in x0...x1 where label[y * gw + x] == id {
                if lo < 0 { lo = x }
                hi = x
            }
            guard lo >= 0 else { continue }
            points.append((Double(lo), Double(y)))
            points.append((Double(hi + 1), Double(y)))
            points.append((Double(lo), Double(y + 1)))
            points.append((Double(hi + 1), Double(y + 1)))
        }
        // Andrew's monotone chain, then the shoelace area.
        points.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        func cross(_ o: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
            (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
        }
        var hull: [(Double, Double)] = []
        for p in points {
            while hull.count >= 2 && cross(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 { hull.removeLast() }
            hull.append(p)
        }
        let lowerCount = hull.count + 1
        for p in points.reversed() {
            while hull.count >= lowerCount && cross(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 {
                hull.removeLast()
            }
            hull.append(p)
        }
        hull.removeLast()
        var area = 0.0
        for i in 0..<hull.count {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            area += a.0 * b.1 - b.0 * a.1
        }
        area = abs(area) / 2
        return area > 0 ? min(1, Double(count) / area) : 1
    }

    /// Mean over the region's border crossings of max one-pixel luma step / total luma
    /// change along a full-resolution segment of `max(g, specular_edge_span_px)` px
    /// centred between the two cell centres, in the crossing's direction (at most about
    /// 4096 crossings, evenly subsampled); 0 when none changes by at least
    /// `specular_edge_min_step`.
    func borderSharpness(
        _ image: ImageRows, label: [Int32], id: Int32, gridWidth gw: Int, gridHeight gh: Int, stride g: Int,
        x0: Int, x1: Int, y0: Int, y1: Int
    ) -> Double {
        let width = image.width, height = image.height, channels = image.channels
        let minStep = configuration.specularEdgeMinStep
        let span = max(g, configuration.specularEdgeSpanPx)
        let directions = [(-1, 0), (1, 0), (0, -1), (0, 1)]
        var crossings = 0
        for y in y0...y1 {
            for x in x0...x1 where label[y * gw + x] == id {
                for (dx, dy) in directions {
                    let nx = x + dx, ny = y + dy
                    if nx >= 0 && nx < gw && ny >= 0 && ny < gh && label[ny * gw + nx] != id { crossings += 1 }
                }
            }
        }
        guard crossings > 0 else { return 0 }
        let every = max(1, crossings / 4096)
        image.waitForAllRows()
        let (sum, used) = { (s: UnsafeBufferPointer<UInt8>) -> (Double, Int) in
            var sum = 0.0, used = 0, index = 0
            func luma(_ px: Int, _ py: Int) -> Double {
                let i = (py * width + px) * channels
                return channels >= 3
                    ? 0.299 * Double(s[i]) + 0.587 * Double(s[i + 1]) + 0.114 * Double(s[i + 2])
                    : Double(s[i])
            }
            for y in y0...y1 {
                for x in x0...x1 where label[y * gw + x] == id {
                    for (dx, dy) in directions {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0 && nx < gw && ny >= 0 && ny < gh && label[ny * gw + nx] != id else { continue }
                        index += 1
                        guard index % every == 0 else { continue }
                        // From the middle of the two cell centres, `span` px each way.
                        let mx = x * g + g / 2 + dx * (g / 2), my = y * g + g / 2 + dy * (g / 2)
                        let sx = min(max(mx - dx * span / 2, 0), width - 1),
                            sy = min(max(my - dy * span / 2, 0), height - 1)
                        var previous = luma(sx, sy), maxStep = 0.0
                        let first = previous
                        for step in 1...span {
                            let px = sx + dx * step, py = sy + dy * step
                            guard px >= 0 && px < width && py >= 0 && py < height else { break }
                            let v = luma(px, py)
                            maxStep = max(maxStep, abs(v - previous))
                            previous = v
                        }
                        let total = abs(previous - first)
                        if total >= minStep {
                            sum += min(1, maxStep / total)
                            used += 1
                        }
                    }
                }
            }
            return (sum, used)
        }(image.samples)
        return used > 0 ? sum / Double(used) : 0
    }
}
