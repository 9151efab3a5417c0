import Foundation
import RialMedia

/// The photo box-reduced to `moire/2`'s analysis scale: planar red, green and blue
/// means of `k x k` blocks, `k = max(1, floor(long side / analysisLongSide))`, so that a
/// 1600 x 1200 phone photo (k = 2) and a 4032 x 3024 capture (k = 5) are both analysed at
/// about 800 px on the long side. Band frequencies are then comparable across resolutions
/// (a band of period p full-resolution pixels has period p / k here), and the box mean
/// averages away the sensor noise and the subpixel-scale aliasing that `moire/1` looks at.
///
/// A method alone reduces only the blocks inside the tiles it analyses (the others stay
/// 0 and are never read): with the default 4 x 3 tiles about 40% of a 12 MP frame is read.
/// In a pipeline `moire/2` and `artifacts/2` share one whole-frame reduction
/// (`MoireBandFrame`), read block row by block row as it is written.
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
    let planes: MoireBandPlanes

    /// The reduction factor for an image of `width x height` and a target long side.
    static func factor(width: Int, height: Int, analysisLongSide: Int) -> Int {
        Swift.max(1, Swift.max(width, height) / Swift.max(1, analysisLongSide))
    }

    /// The key under which the readers of one capture share the reduction at factor `k`.
    static func sharedKey(factor k: Int) -> String { "moire-band-image/\(k)" }

    /// An image of `width x height` blocks on `planes` (3 planes of that size).
    init(factor: Int, width: Int, height: Int, planes: MoireBandPlanes) {
        precondition(planes.count == 3 * width * height, "MoireBandImage: planes do not fit the size")
        self.factor = factor
        self.width = width
        self.height = height
        self.planes = planes
    }

    /// Reduces the blocks under the `n x n` tiles at `origins` (analysis-scale corners).
    init(image: ImageRows, factor k: Int, origins: [(x: Int, y: Int)], tileSize n: Int) {
        let w = image.width / k, h = image.height / k
        let planes = MoireBandPlanes(count: 3 * w * h)
        Self.reduce(image, factor: k, origins: origins, tileSize: n, into: planes)
        self.init(factor: k, width: w, height: h, planes: planes)
    }

    /// Writes the blocks under the `n x n` tiles at `origins` into `planes` (zero-filled,
    /// `3 (width / k) (height / k)` floats), calling `eachBlockRow(by)` after each block
    /// row under a tile is written, top to bottom, on this thread (the rows after `by`
    /// are not written yet).
    static func reduce(
        _ image: ImageRows, factor k: Int, origins: [(x: Int, y: Int)], tileSize n: Int, into planes: MoireBandPlanes,
        eachBlockRow: (Int) -> Void = { _ in }
    ) {
        let w = image.width / k, h = image.height / k
        let plane = w * h
        precondition(planes.count == 3 * plane, "MoireBandImage.reduce: planes do not fit the size")
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
        let channels = image.channels, stride = image.rowStride
        let scale = 1 / Float(k * k)
        let s = image.samples
        let out = planes.storage
        // Per block row: the k source rows are summed sample by sample into `columns`
        // (`sumRows`, 16 samples at a time), then each block adds its k pixels.
        // All sums are integers; a block's sum is at most k² x 255, exact in Float for
        // k <= 256, so converting it once equals summing the rows in Float as `exactReduce`
        // does (the same values to the last bit). Larger factors take that path.
        guard k <= 256 else {
            var exact = [Float](repeating: 0, count: 3 * plane)
            Self.exactReduce(image, into: &exact, factor: k, width: w, height: h, rowNeeded: rowNeeded, spans: spans)
            _ = out.update(fromContentsOf: exact)
            for by in 0..<h where rowNeeded[by] { eachBlockRow(by) }
            return
        }
        var columns = [UInt32](repeating: 0, count: w * k * channels + 1)
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
                                rgb &+= first.loadUnaligned(fromByteOffset: 4 * dx * channels, as: SIMD4<UInt32>.self)
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
                eachBlockRow(by)
            }
        }
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

/// The planar floats of a `MoireBandImage`: one allocation that a shared reduction
/// (`MoireBandFrame`) writes on one thread while its readers read the rows already
/// published on others, which an array's copy-on-write storage does not allow.
final class MoireBandPlanes: RandomAccessCollection, @unchecked Sendable {
    /// Written only by the reduction (before it is published), read by anyone after.
    let storage: UnsafeMutableBufferPointer<Float>

    /// `count` zeros.
    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }
    subscript(position: Int) -> Float { storage[position] }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(storage))
    }
}

/// The whole-frame reduction that `moire/2` and `artifacts/2` share for one capture
/// (`ImageRows.derived`), readable block row by block row while it is written: the
/// first reader to ask writes it (`write(from:eachBlockRow:)`), the others read each
/// block row as soon as it is published (`rowsWritten`, `waitForRows`) instead of
/// waiting for the last. So `artifacts/2` can accumulate its cues and `moire/2` measure
/// its top tiles' band spectra while the bottom of the photo still decodes, whichever of
/// them writes. A block's value does not depend on who reduces it or when it is read.
final class MoireBandFrame: @unchecked Sendable {
    let factor: Int
    let width: Int
    let height: Int
    private let planes: MoireBandPlanes
    private let condition = NSCondition()
    /// Guarded by `condition`: block rows `0..<written` are final.
    private var written = 0

    /// An empty frame for an image of `imageWidth x imageHeight` at factor `k`.
    init(imageWidth: Int, imageHeight: Int, factor k: Int) {
        factor = k
        width = imageWidth / k
        height = imageHeight / k
        planes = MoireBandPlanes(count: 3 * width * height)
    }

    /// The frame `image`'s readers share at factor `k`, and whether the caller must write
    /// it (`write(from:eachBlockRow:)`, at once, on its thread): true for the first to
    /// ask, and always when `image` shares no derived values.
    static func shared(by image: ImageRows, factor k: Int) -> (frame: MoireBandFrame, writer: Bool) {
        var writer = false
        let frame = image.derived(MoireBandImage.sharedKey(factor: k)) {
            writer = true
            return MoireBandFrame(imageWidth: image.width, imageHeight: image.height, factor: k)
        }
        return (frame, writer)
    }

    /// The frame `image`'s readers share at factor `k` if a reader has asked for it
    /// already (it may still be being written); nil otherwise. Never blocks on rows.
    static func sharedIfStarted(by image: ImageRows, factor k: Int) -> MoireBandFrame? {
        image.derivedIfPresent(MoireBandImage.sharedKey(factor: k), as: MoireBandFrame.self)
    }

    /// Reduces every block of `image` into the frame, publishing each block row as it is
    /// written and then calling `eachBlockRow(by)` (rows after `by` are not written yet).
    /// Called once, by the writer `shared(by:factor:)` named.
    func write(from image: ImageRows, eachBlockRow: (Int) -> Void = { _ in }) {
        precondition(
            image.width / factor == width && image.height / factor == height, "MoireBandFrame: not this image's frame")
        MoireBandImage.reduce(
            image, factor: factor, origins: [(x: 0, y: 0)], tileSize: Swift.max(width, height), into: planes
        ) { by in
            publish(by + 1)
            eachBlockRow(by)
        }
        publish(height)
    }

    private func publish(_ rows: Int) {
        condition.lock()
        if rows > written {
            written = rows
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Block rows `0..<rowsWritten` may be read now.
    var rowsWritten: Int {
        condition.lock()
        defer { condition.unlock() }
        return written
    }

    /// Blocks until block rows `0..<min(count, height)` may be read, with the reader slot
    /// of `image` lent out meanwhile (the writer may need it).
    func waitForRows(_ count: Int, lendingSlotOf image: ImageRows) {
        let needed = Swift.min(count, height)
        let now = rowsWritten
        guard now < needed else { return }
        // A reader that has to block waits for a band of rows (as `ImageRows` readers do),
        // so that it is not woken, and its slot not handed back, for every block row.
        let target = Swift.min(height, Swift.max(needed, now + Swift.max(8, height / 12)))
        image.lendingSlot {
            condition.lock()
            while written < target { condition.wait() }
            condition.unlock()
        }
    }

    /// The frame as an image: only rows `0..<rowsWritten` may be read from it.
    var image: MoireBandImage { MoireBandImage(factor: factor, width: width, height: height, planes: planes) }
}
