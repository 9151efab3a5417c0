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

    /// The blocks under the `n x n` tiles at `origins` reduced, for a method that reads
    /// only those: when `image` shares derived values (`ImageRows.sharingDerivedValues`:
    /// the analyzer's methods of one capture), the whole frame (`wholeFrame`), which
    /// `artifacts/2` reduces too, so that the two reduce the photo once between them;
    /// otherwise only those tiles. A block's value does not depend on which others are
    /// reduced, so the blocks under the tiles are the same either way.
    static func reduced(image: ImageRows, factor k: Int, origins: [(x: Int, y: Int)], tileSize n: Int) -> Self {
        image.sharesDerivedValues
            ? wholeFrame(image: image, factor: k) : Self(image: image, factor: k, origins: origins, tileSize: n)
    }

    /// Every block of the photo reduced at factor `k`, computed once for all the readers
    /// of `image` when it shares derived values.
    static func wholeFrame(image: ImageRows, factor k: Int) -> Self {
        wholeFrame(image: image, factor: k, eachBlockRow: { _, _ in }).image
    }

    /// `wholeFrame(image:factor:)`, and if this caller is the one that reduces it
    /// (`streamed` true), `eachBlockRow(by, planes)` after each block row `by` is written,
    /// top to bottom, on this thread: a reader can then work on the rows while the later
    /// ones still decode. `planes` is the planar buffer being filled (`planes`' layout);
    /// rows after `by` must not be read. When another reader reduced it, or reduces it
    /// meanwhile, nothing is called and `streamed` is false: the caller then reads the
    /// finished image.
    static func wholeFrame(
        image: ImageRows, factor k: Int, eachBlockRow: (Int, UnsafeBufferPointer<Float>) -> Void
    ) -> (image: Self, streamed: Bool) {
        var streamed = false
        let reduced = image.derived("moire-band-image/\(k)") {
            streamed = true
            return Self(
                image: image, factor: k, origins: [(x: 0, y: 0)],
                tileSize: Swift.max(image.width / k, image.height / k), eachBlockRow: eachBlockRow)
        }
        return (reduced, streamed)
    }

    /// Reduces the blocks under the `n x n` tiles at `origins` (analysis-scale corners),
    /// calling `eachBlockRow(by, planes)` after each block row under a tile is written
    /// (see `wholeFrame(image:factor:eachBlockRow:)`).
    init(
        image: ImageRows, factor k: Int, origins: [(x: Int, y: Int)], tileSize n: Int,
        eachBlockRow: (Int, UnsafeBufferPointer<Float>) -> Void = { _, _ in }
    ) {
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
        // (`sumRows`, 16 samples at a time), then each block adds its k pixels.
        // All sums are integers; a block's sum is at most k² x 255, exact in Float for
        // k <= 256, so converting it once equals summing the rows in Float as `exactReduce`
        // does (the same values to the last bit). Larger factors take that path.
        guard k <= 256 else {
            Self.exactReduce(image, into: &planes, factor: k, width: w, height: h, rowNeeded: rowNeeded, spans: spans)
            planes.withUnsafeBufferPointer { out in
                for by in 0..<h where rowNeeded[by] { eachBlockRow(by, out) }
            }
            self.planes = planes
            return
        }
        var columns = [UInt32](repeating: 0, count: w * k * channels + 1)
        planes.withUnsafeMutableBufferPointer { out in
            columns.withUnsafeMutableBufferPointer { sum in
                for by in 0..<h where rowNeeded[by] {
                    image.waitForRows((by + 1) * k)
                    for span in spans {
                        let first = span.start * k * channels, count = (span.end - span.start) * k * channels
                        Self.sumRows(
                            s.baseAddress! + by * k * stride + first, rowStride: stride, rows: k, count: count,
                            into: sum.baseAddress! + first)
                    }
                    let base = by * w
                    for span in spans {
                        for bx in span.start..<span.end {
                            var p = bx * k * channels
                            if channels >= 3 {
                                // Lanes 0, 1, 2 sum red, green, blue of the k pixels (lane 3,
                                // the next sample, is not used: `columns` has one spare
                                // element for the last pixel's load); lane-wise conversion
                                // and product are those of one channel at a time.
                                let first = UnsafeRawPointer(sum.baseAddress! + p)
                                var rgb = first.loadUnaligned(as: SIMD4<UInt32>.self)
                                for dx in 1..<k {
                                    rgb &+= first.loadUnaligned(
                                        fromByteOffset: 4 * dx * channels, as: SIMD4<UInt32>.self)
                                }
                                let mean = SIMD4<Float>(rgb) * scale
                                out[base + bx] = mean[0]
                                out[plane + base + bx] = mean[1]
                                out[2 * plane + base + bx] = mean[2]
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
                    eachBlockRow(by, UnsafeBufferPointer(out))
                }
            }
        }
        self.planes = planes
    }

    /// `column[i] = sum of row[dy * rowStride + i]` over `dy` in `0..<rows`, for `i` in
    /// `0..<count`: 16 samples at a time, each lane summed over all the rows in a 16-bit
    /// register before one store (exact: `rows x 255 <= 65535` for `rows <= 257`), then
    /// widened to 32 bits; the last `count % 16` one by one. The same integers as adding
    /// the rows one after another into the column, with one pass over the column instead
    /// of `rows + 1`.
    ///
    /// - Precondition: `1 <= rows <= 257` (the caller's k <= 256).
    @inline(__always)
    static func sumRows(
        _ row: UnsafePointer<UInt8>, rowStride: Int, rows: Int, count: Int, into column: UnsafeMutablePointer<UInt32>
    ) {
        typealias Bytes = SIMD16<UInt8>
        typealias Sums = SIMD16<UInt16>
        typealias Wide = SIMD8<UInt32>
        var i = 0
        while i + 16 <= count {
            var p = row + i
            var acc = Sums(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: Bytes.self))
            for _ in 1..<rows {
                p += rowStride
                acc &+= Sums(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: Bytes.self))
            }
            let out = UnsafeMutableRawPointer(column + i)
            out.storeBytes(of: Wide(truncatingIfNeeded: acc.lowHalf), as: Wide.self)
            out.storeBytes(of: Wide(truncatingIfNeeded: acc.highHalf), toByteOffset: 32, as: Wide.self)
            i += 16
        }
        while i < count {
            var total: UInt32 = 0
            for dy in 0..<rows { total &+= UInt32(row[dy * rowStride + i]) }
            column[i] = total
            i += 1
        }
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
