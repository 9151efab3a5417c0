import RialMedia

/// The photo box-reduced to `moire/2`'s analysis scale: planar red, green and blue
/// means of `k x k` blocks, `k = max(1, floor(long side / analysisLongSide))`, so that a
/// 1600 x 1200 phone photo (k = 2) and a 4032 x 3024 capture (k = 5) are both analysed at
/// about 800 px on the long side. Band frequencies are then comparable across resolutions
/// (a band of period p full-resolution pixels has period p / k here), and the box mean
/// averages away the sensor noise and the subpixel-scale aliasing that `moire/1` looks at.
///
/// Only the blocks inside the tiles that will be analysed are reduced (the others stay
/// 0 and are never read): with the default 4 x 3 tiles about 40% of a 12 MP frame is read.
/// One-channel images (gray, gray + alpha) put the gray value in all three planes (they
/// then carry no chroma). Rows are read top to bottom, each block row once its rows are
/// written (`ImageRows.waitForRows`).
///
/// - Complexity: O(pixels under the tiles) reads, memory `3 (width / k) (height / k)` floats.
struct MoireBandImage {
    /// Reduction factor k >= 1.
    let factor: Int
    /// Size at the analysis scale: `width / k` by `height / k` (the last partial block
    /// row and column are dropped).
    let width: Int
    let height: Int
    /// Planar red, green, blue: `planes[c * width * height + y * width + x]`, 0...255.
    let planes: [Float]

    /// The reduction factor for an image of `width x height` and a target long side.
    static func factor(width: Int, height: Int, analysisLongSide: Int) -> Int {
        Swift.max(1, Swift.max(width, height) / Swift.max(1, analysisLongSide))
    }

    /// Reduces the blocks under the `n x n` tiles at `origins` (analysis-scale corners).
    init(image: ImageRows, factor k: Int, origins: [(x: Int, y: Int)], tileSize n: Int) {
        let w = image.width / k, h = image.height / k
        factor = k
        width = w
        height = h
        let plane = w * h
        var rowNeeded = [Bool](repeating: false, count: h)
        var columnNeeded = [Bool](repeating: false, count: w + 1)
        for o in origins {
            for y in o.y..<Swift.min(h, o.y + n) { rowNeeded[y] = true }
            for x in o.x..<Swift.min(w, o.x + n) { columnNeeded[x] = true }
        }
        // Column spans [start, end) under some tile.
        var spans: [(start: Int, end: Int)] = []
        var x = 0
        while x < w {
            if columnNeeded[x] {
                let start = x
                while x < w && columnNeeded[x] { x += 1 }
                spans.append((start, x))
            } else {
                x += 1
            }
        }
        var planes = [Float](repeating: 0, count: 3 * plane)
        let channels = image.channels, stride = image.rowStride
        let scale = 1 / Float(k * k)
        let s = image.samples
        // Per block row: the k source rows are summed sample by sample into `columns`
        // (contiguous, so the compiler vectorises it), then each block adds its k pixels.
        // All sums are integers; a block's sum is at most k² x 255, exact in Float for
        // k <= 256, so converting it once equals summing the rows in Float as `exactReduce`
        // does (the same values to the last bit). Larger factors take that path.
        guard k <= 256 else {
            Self.exactReduce(image, into: &planes, factor: k, width: w, height: h, rowNeeded: rowNeeded, spans: spans)
            self.planes = planes
            return
        }
        var columns = [UInt32](repeating: 0, count: w * k * channels)
        planes.withUnsafeMutableBufferPointer { out in
            columns.withUnsafeMutableBufferPointer { sum in
                for by in 0..<h where rowNeeded[by] {
                    image.waitForRows((by + 1) * k)
                    for span in spans {
                        let first = span.start * k * channels, count = (span.end - span.start) * k * channels
                        let column = sum.baseAddress! + first
                        column.update(repeating: 0, count: count)
                        for dy in 0..<k {
                            let row = s.baseAddress! + (by * k + dy) * stride + first
                            for i in 0..<count { column[i] &+= UInt32(row[i]) }
                        }
                    }
                    let base = by * w
                    for span in spans {
                        for bx in span.start..<span.end {
                            var p = bx * k * channels
                            if channels >= 3 {
                                var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                                for _ in 0..<k {
                                    r &+= sum[p]
                                    g &+= sum[p + 1]
                                    b &+= sum[p + 2]
                                    p += channels
                                }
                                out[base + bx] = Float(r) * scale
                                out[plane + base + bx] = Float(g) * scale
                                out[2 * plane + base + bx] = Float(b) * scale
                            } else {
                                var v: UInt32 = 0
                                for _ in 0..<k {
                                    v &+= sum[p]
                                    p += channels
                                }
                                let value = Float(v) * scale
                                out[base + bx] = value
                                out[plane + base + bx] = value
                                out[2 * plane + base + bx] = value
                            }
                        }
                    }
                }
            }
        }
        self.planes = planes
    }

    /// The same reduction, each block's row sums added in `Float`: `init` takes it for
    /// k > 256, where a block's sum may exceed the integers `Float` holds exactly (below,
    /// both give the same values to the last bit).
    static func exactReduce(
        _ image: ImageRows, into planes: inout [Float], factor k: Int, width w: Int, height h: Int,
        rowNeeded: [Bool], spans: [(start: Int, end: Int)]
    ) {
        let plane = w * h
        let channels = image.channels, stride = image.rowStride
        let scale = 1 / Float(k * k)
        let s = image.samples
        var sums = [Float](repeating: 0, count: 3 * w)
        planes.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { acc in
                for by in 0..<h where rowNeeded[by] {
                    image.waitForRows((by + 1) * k)
                    acc.update(repeating: 0)
                    for dy in 0..<k {
                        let row = (by * k + dy) * stride
                        if channels >= 3 {
                            for span in spans {
                                for bx in span.start..<span.end {
                                    var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                                    var p = row + bx * k * channels
                                    for _ in 0..<k {
                                        r &+= UInt32(s[p])
                                        g &+= UInt32(s[p + 1])
                                        b &+= UInt32(s[p + 2])
                                        p += channels
                                    }
                                    acc[bx] += Float(r)
                                    acc[w + bx] += Float(g)
                                    acc[2 * w + bx] += Float(b)
                                }
                            }
                        } else {
                            for span in spans {
                                for bx in span.start..<span.end {
                                    var v: UInt32 = 0
                                    var p = row + bx * k * channels
                                    for _ in 0..<k {
                                        v &+= UInt32(s[p])
                                        p += channels
                                    }
                                    acc[bx] += Float(v)
                                }
                            }
                        }
                    }
                    let base = by * w
                    if channels >= 3 {
                        for c in 0..<3 {
                            for bx in 0..<w { out[c * plane + base + bx] = acc[c * w + bx] * scale }
                        }
                    } else {
                        for bx in 0..<w {
                            let v = acc[bx] * scale
                            out[base + bx] = v
                            out[plane + base + bx] = v
                            out[2 * plane + base + bx] = v
                        }
                    }
                }
            }
        }
    }
}
