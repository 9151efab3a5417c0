import Foundation
import RialMedia

/// Windowed power spectra of square full-resolution luma tiles, the input of `moire/1`'s
/// peak search.
///
/// Per tile of `n x n` pixels (top-left `(x0, y0)`): luma `Y = 0.299 R + 0.587 G +
/// 0.114 B` (ITU-R BT.601 on the stored 8-bit values; one-channel images pass the value
/// through), minus the tile mean, times the separable periodic Hann window
/// `w[j] = sin²(pi j / n)`, then the 2D DFT (numpy sign convention) and the power
/// `P(kx, ky) = |X(kx, ky)|²`. The bin `(kx, ky)` is the frequency
/// `(kx / n, ky / n)` cycles per pixel, x to the right, y down.
///
/// A real tile's spectrum is conjugate-symmetric, `P(-k) = P(k)`, so only the half plane
/// `kx` in `0...n/2` is kept, column-major: `power[kx * n + ky]`, `ky` in `0..<n` the
/// unsigned bin (`ky > n/2` is the negative frequency `ky - n`). Two tiles share one
/// complex transform: tile A in the real part, tile B in the imaginary part, then
/// `A(k) = (Z(k) + conj Z(-k)) / 2` and `B(k) = (Z(k) - conj Z(-k)) / 2i`, i.e.
/// `|A|² = ((zr + mr)² + (zi - mi)²) / 4`, `|B|² = ((zr - mr)² + (zi + mi)²) / 4` with
/// `Z(-k) = mr + i mi`. The 2D transform is `FFT.transform2D` (all rows, then all
/// columns, each pass vectorised across its transforms).
///
/// Scale: a grating `a cos(2 pi f . x)` with `f` on a bin gives `|X| = a n² / 8` there
/// (each 1D periodic Hann window sums to `n / 2`), so `amplitude = 8 sqrt(P) / n²` in
/// luma levels (0...255).
///
/// - Complexity: O(tiles · n² log n): one complex n x n transform per pair of tiles;
///   memory 2 n² + (n/2 + 1) n (tiles + 1) doubles.
struct MoireSpectrum {
    /// Tile side, a power of two >= 8.
    let n: Int
    /// Top-left corners of the tiles, pixels.
    let origins: [(x: Int, y: Int)]
    /// Half-plane power of every tile: `tilePower[t * halfCount + kx * n + ky]`.
    private(set) var tilePower: [Double]
    /// Mean of the tiles' half-plane power (Welch's averaged periodogram).
    private(set) var meanPower: [Double]
    /// Tiles whose luma has a standard deviation above `flatLumaStd` (not flat).
    private(set) var texturedTiles: [Bool]

    /// Number of doubles of one half-plane spectrum, `(n / 2 + 1) n`.
    var halfCount: Int { (n / 2 + 1) * n }

    /// Computes the spectra of the `n x n` tiles at `origins` (each must lie inside the
    /// image; the caller places them) of `image`, 1 or more channels (3 or 4 = RGB(A),
    /// otherwise the first channel is used as gray). A tile whose luma standard deviation
    /// is <= `flatLumaStd` levels is flagged as flat in `texturedTiles`. Each tile waits
    /// for its rows (`ImageRows.waitForRows`) just before it is read, so tiles in
    /// row-major order run while the bottom of a streamed image is still decoding.
    ///
    /// `eachTile(t, power)` is called with every textured tile's half-plane power as soon
    /// as it is computed (tiles in pairs, in order), so a caller can search it while the
    /// rows of the next tiles arrive; `afterEachPair()` after each pair's, flat or not.
    init(
        image: ImageRows, tileSize n: Int, origins: [(x: Int, y: Int)], flatLumaStd: Double,
        eachTile: (Int, UnsafeBufferPointer<Double>) -> Void = { _, _ in }, afterEachPair: () -> Void = {}
    ) {
        self.n = n
        self.origins = origins
        let half = (n / 2 + 1) * n
        let count = origins.count
        var tilePower = [Double](repeating: 0, count: half * count)
        var meanPower = [Double](repeating: 0, count: half)
        var textured = [Bool](repeating: false, count: count)
        let fft = FFT(size: n)
        var window = [Double](repeating: 0, count: n)
        for j in 0..<n {
            let s = sin(Double.pi * Double(j) / Double(n))
            window[j] = s * s
        }
        var re = [Double](repeating: 0, count: n * n), im = re
        var pair = 0
        while pair < count {
            let second = pair + 1 < count ? pair + 1 : -1
            if second >= 0 && image.channels >= 3 {
                let flags = Self.loadTilePair(
                    image, origins[pair], origins[second], n: n, window: window, re: &re, im: &im,
                    flatLumaStd: flatLumaStd)
                textured[pair] = flags.0
                textured[second] = flags.1
            } else {
                textured[pair] = Self.loadTile(
                    image, origin: origins[pair], n: n, window: window, into: &re,
                    flatLumaStd: flatLumaStd)
                if second >= 0 {
                    textured[second] = Self.loadTile(
                        image, origin: origins[second], n: n, window: window, into: &im,
                        flatLumaStd: flatLumaStd)
                } else {
                    im.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                }
            }
            fft.transform2D(re: &re, im: &im, sign: -1) // row-major out: re[ky * n + kx] = X(kx, ky)
            tilePower.withUnsafeMutableBufferPointer { tp in
                re.withUnsafeBufferPointer { r in
                    im.withUnsafeBufferPointer { i in
                        let a = pair * half, b = second * half
                        // Rows of the transform are contiguous, the half-plane layout is
                        // column-major: go down blocks of 8 rows so that both the rows read
                        // and the column segments written stay in cache (the power-of-two
                        // distance between them would otherwise map them to a few sets).
                        let block = Swift.min(8, n)
                        for ky0 in Swift.stride(from: 0, to: n, by: block) {
                            for kx in 0...(n / 2) {
                                let mx = (n - kx) & (n - 1)
                                for ky in ky0..<(ky0 + block) {
                                    let my = (n - ky) & (n - 1)
                                    let zr = r[ky * n + kx], zi = i[ky * n + kx]
                                    let mr = r[my * n + mx], mi = i[my * n + mx]
                                    let sr = zr + mr, di = zi - mi, dr = zr - mr, si = zi + mi
                                    tp[a + kx * n + ky] = (sr * sr + di * di) * 0.25
                                    if second >= 0 { tp[b + kx * n + ky] = (dr * dr + si * si) * 0.25 }
                                }
                            }
                        }
                    }
                }
            }
            tilePower.withUnsafeBufferPointer { tp in
                for t in [pair, second] where t >= 0 && textured[t] {
                    eachTile(t, UnsafeBufferPointer(rebasing: tp[(t * half)..<((t + 1) * half)]))
                }
            }
            afterEachPair()
            pair += 2
        }
        if count > 0 {
            let scale = 1 / Double(count)
            tilePower.withUnsafeBufferPointer { tp in
                meanPower.withUnsafeMutableBufferPointer { mp in
                    for t in 0..<count {
                        let base = t * half
                        for k in 0..<half { mp[k] += tp[base + k] }
                    }
                    for k in 0..<half { mp[k] *= scale }
                }
            }
        }
        self.tilePower = tilePower
        self.meanPower = meanPower
        self.texturedTiles = textured
    }

    /// `loadTile` of two tiles of a colour image (3 or more channels) at once, `a` into
    /// `re` and `b` into `im`: per tile the same operations in the same order as
    /// `loadTile` (so the same values to the last bit), with the two tiles' running sums
    /// interleaved so that neither waits on the other's additions (each sum is a chain of
    /// dependent additions). Waits for the rows of both.
    static func loadTilePair(
        _ image: ImageRows, _ a: (x: Int, y: Int), _ b: (x: Int, y: Int), n: Int, window: [Double],
        re: inout [Double], im: inout [Double], flatLumaStd: Double
    ) -> (Bool, Bool) {
        let width = image.width, channels = image.channels
        let red = Double(BT601.red), green = Double(BT601.green), blue = Double(BT601.blue)
        var sumA = 0.0, squaresA = 0.0, sumB = 0.0, squaresB = 0.0
        image.waitForRows(Swift.max(a.y, b.y) + n)
        let s = image.samples
        re.withUnsafeMutableBufferPointer { outA in
            im.withUnsafeMutableBufferPointer { outB in
                for y in 0..<n {
                    let rowA = ((a.y + y) * width + a.x) * channels, rowB = ((b.y + y) * width + b.x) * channels
                    for x in 0..<n {
                        let p = rowA + x * channels, q = rowB + x * channels
                        let va = red * Double(s[p]) + green * Double(s[p + 1]) + blue * Double(s[p + 2])
                        let vb = red * Double(s[q]) + green * Double(s[q + 1]) + blue * Double(s[q + 2])
                        outA[y * n + x] = va
                        outB[y * n + x] = vb
                        sumA += va
                        squaresA += va * va
                        sumB += vb
                        squaresB += vb * vb
                    }
                }
                let count = Double(n * n)
                let meanA = sumA / count, meanB = sumB / count
                window.withUnsafeBufferPointer { win in
                    for y in 0..<n {
                        let wy = win[y]
                        for x in 0..<n {
                            outA[y * n + x] = (outA[y * n + x] - meanA) * wy * win[x]
                            outB[y * n + x] = (outB[y * n + x] - meanB) * wy * win[x]
                        }
                    }
                }
            }
        }
        let count = Double(n * n)
        func textured(_ sum: Double, _ squares: Double) -> Bool {
            let variance = Swift.max(0, squares / count - (sum / count) * (sum / count))
            return variance.squareRoot() > flatLumaStd
        }
        return (textured(sumA, squaresA), textured(sumB, squaresB))
    }

    /// Writes the windowed, mean-free luma of one tile into `buffer` (row-major n x n).
    /// Returns whether the tile's luma standard deviation exceeds `flatLumaStd`.
    static func loadTile(
        _ image: ImageRows, origin: (x: Int, y: Int), n: Int, window: [Double],
        into buffer: inout [Double], flatLumaStd: Double
    ) -> Bool {
        let width = image.width, channels = image.channels
        let red = Double(BT601.red), green = Double(BT601.green), blue = Double(BT601.blue)
        var sum = 0.0, squares = 0.0
        image.waitForRows(origin.y + n)
        let s = image.samples
        do {
            buffer.withUnsafeMutableBufferPointer { out in
                for y in 0..<n {
                    let rowStart = ((origin.y + y) * width + origin.x) * channels
                    if channels >= 3 {
                        for x in 0..<n {
                            let p = rowStart + x * channels
                            let v = red * Double(s[p]) + green * Double(s[p + 1]) + blue * Double(s[p + 2])
                            out[y * n + x] = v
                            sum += v
                            squares += v * v
                        }
                    } else {
                        for x in 0..<n {
                            let v = Double(s[rowStart + x * channels])
                            out[y * n + x] = v
                            sum += v
                            squares += v * v
                        }
                    }
                }
                let count = Double(n * n)
                let mean = sum / count
                for y in 0..<n {
                    let wy = window[y]
                    for x in 0..<n { out[y * n + x] = (out[y * n + x] - mean) * wy * window[x] }
                }
            }
        }
        let count = Double(n * n)
        let variance = Swift.max(0, squares / count - (sum / count) * (sum / count))
        return variance.squareRoot() > flatLumaStd
    }
}
