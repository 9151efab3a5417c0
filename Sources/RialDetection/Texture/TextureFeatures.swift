import Foundation
import RialMedia

/// The `texture/1` descriptor: a fixed vector of named image statistics (feature set
/// version 1), the input of `TextureModel`. A model records the names and the version
/// it was trained on; changing anything below changes `version`.
///
/// Pixels touched are bounded whatever the image size: 16 full-resolution patches
/// (64 x 64 px) plus a strided global luma sample of about 192 x 144 pixels. Nothing
/// converts the whole frame, so a 4032 x 3024 capture costs the same as a 640 x 480 one.
///
/// Patches: a 4 x 4 grid whose centres lie at 0.2, 0.4, 0.6, 0.8 of the width and of the
/// height (the central 80% of the frame, where a recaptured subject usually is), each
/// `patchSize` px square, clamped inside the image. Patch luma is BT.601
/// `Y = 0.299 R + 0.587 G + 0.114 B` in 0...255 on the stored (gamma-encoded) values,
/// on the stored pixel grid (no EXIF rotation: screen subpixels are aligned with the
/// sensor, not with the display orientation).
///
/// Features (names as in `names`; `ln` natural log; pooled over the 16 patches):
/// 1. `lbp_rR_C` (30): rotation-invariant uniform local binary patterns (LBP riu2,
///    Ojala, Pietikäinen and Mäenpää 2002) of patch luma at radii R = 1, 2, 4 with the
///    8 neighbours at offsets (±R, 0), (0, ±R), (±R, ±R) in circular order. Bit k is 1
///    when `Y(neighbour k) - Y(centre) > 1` luma level (a dead band, so flat regions
///    and sensor noise below one level do not flip bits). A pattern with at most two
///    0/1 transitions around the circle is uniform with code = number of ones
///    (`C` = 0...8; `0` is the flat code: no neighbour brighter, which is what a
///    constant region gives); other patterns are `C` = `nonuniform`. Value: share of
///    the pixels whose full neighbourhood lies inside the patch (each radius sums to 1).
/// 2. Gradient statistics (3) over patch interiors with central differences
///    `gx = (Y[x+1] - Y[x-1]) / 2`, `gy` likewise and the 5-point Laplacian
///    `L = Y[x+1] + Y[x-1] + Y[y+1] + Y[y-1] - 4 Y`:
///    `grad_log_hv_ratio = ln((Σgx² + ε) / (Σgy² + ε))` (vertical stripes > 0, rolling-
///    shutter bands < 0), `grad_log_kurtosis = ln(n Σ(g²)² / (Σg²)²)` with
///    `g² = gx² + gy²` (heavy-tailed edges of natural images vs. the even energy of a
///    periodic pattern), `grad_log_laplacian_ratio = ln((ΣL² + ε) / (Σg² + ε))` (for a
///    grating of frequency f cycles/px along x it equals `ln(4 tan²(π f))`: grows
///    towards the subpixel scales).
/// 3. Channel statistics of the high-pass `h = c - mean of its 4 neighbours` of R, G,
///    B over patch interiors (4): `hp_corr_rg`, `hp_corr_gb`, `hp_corr_rb` (Pearson
///    correlation without mean removal, `Σab / sqrt(Σa² Σb²)`, 0 when a channel has no
///    high-pass energy: near 1 for natural edges, low or negative for RGB subpixels),
///    and `hp_log_chroma_ratio = ln((Σ(hR - hY)² + Σ(hB - hY)² + ε) / (ΣhY² + ε))`.
/// 4. Spectra (45): each patch minus its mean, times a separable periodic Hann window
///    `w(x) = 0.5 - 0.5 cos(2π x / 64)`, 64 x 64 FFT; luma power `P_Y = |FFT(Y)|²` and
///    chroma power `P_C = |FFT(R - Y)|² + |FFT(B - Y)|²` (one complex FFT of
///    `(R - Y) + i (B - Y)`). Bins are grouped by radial frequency
///    `f = sqrt(u² + v²) / 64` cycles/px into 9 bands with edges 1/32, 1/16, 1/8, 3/16,
///    1/4, 5/16, 3/8, 7/16, 1/2 and the corners above 1/2 (band 9, up to 0.707); bins
///    below 1/32 (DC and window leakage) are left out. Where subpixel grids (LCD
///    pitch 1.2-6 px) and print dot screens (period 2-8 px) put their energy: 0.12-0.5.
///    Per band b = 1...9:
///    - `spec_luma_bB_log_fraction = ln(ΣE_Y(b) / Σ_b ΣE_Y(b) + 1e-6)`, E = band power;
///    - `spec_luma_bB_peak_mean` / `_peak_max`: mean / maximum over patches of
///      `ln((max P + ε) / (mean P + ε))` over the band's bins, leaving out the JPEG
///      block lattice `u ≡ v ≡ 0 (mod 8)` (8 x 8 DCT blocking puts energy exactly there
///      in every JPEG): ≈ ln(N) for a pure tone, small for a smooth spectrum;
///    - `spec_chroma_bB_log_ratio = ln((ΣE_C(b) + ε) / (ΣE_Y(b) + ε))`;
///    - `spec_chroma_bB_peak_max`: as the luma peak maximum, on `P_C`.
/// 5. Not features: global colour statistics (saturation, chroma, colourfulness,
///    clipping) were tried and left out. They describe the scene's content, not the
///    capture: the synthetic bona fide scenes are less colourful than the screens'
///    content, and a model trained with them misjudged 12 of the 18 real public
///    colour photos (8 flagged as recaptured); without them 2. The strided global
///    sample only measures luma spread (`TextureFeatureVector.lumaStandardDeviation`,
///    stride `max(1, max(W, H) / 192)` px from offset stride/2) for the constant-image check.
///
/// `ε` is 1 for power sums (luma levels² x bins) and 1e-6 for gradient and high-pass sums: tiny
/// against any textured patch, and it makes a constant image give finite values.
///
/// Bad input: fewer than 3 channels (gray, gray + alpha) or a side below `minimumSide`
/// throws `TextureFeatureError`; RGBA uses R, G, B. Any pixel values give finite features.
public enum TextureFeatures: TextureFeatureSet {
    /// Feature set version; a model trained on another version is refused.
    public static let version = 1
    /// Side of a square full-resolution patch, px (a power of two for the FFT).
    public static let patchSize = 64
    /// Patch centres as fractions of the width (and, separately, of the height).
    public static let patchCentreFractions: [Double] = [0.2, 0.4, 0.6, 0.8]
    /// Number of patches: `patchCentreFractions.count²` = 16.
    public static var patchCount: Int { patchCentreFractions.count * patchCentreFractions.count }
    /// Smallest accepted width and height, px (two patches side by side).
    public static let minimumSide = 128
    /// LBP radii, px.
    public static let lbpRadii = [1, 2, 4]
    /// LBP dead band: a neighbour counts as brighter when it exceeds the centre by more
    /// than this many luma levels.
    public static let lbpThreshold: Float = 1
    /// Radial band edges in FFT bins of a 64-point transform (cycles/px = bins / 64); the
    /// last band runs from the last edge to the corner.
    public static let bandEdgeBins = [2, 4, 8, 12, 16, 20, 24, 28, 32]
    /// Number of radial bands (9).
    public static var bandCount: Int { bandEdgeBins.count }
    /// Stride divisor of the global luma sample: stride = max(1, max(W, H) / 192).
    public static let globalSampleDivisor = 192

    /// The feature names, in vector order.
    public static let names: [String] = {
        var names: [String] = []
        for r in lbpRadii {
            for code in 0...8 { names.append("lbp_r\(r)_\(code)") }
            names.append("lbp_r\(r)_nonuniform")
        }
        names += ["grad_log_hv_ratio", "grad_log_kurtosis", "grad_log_laplacian_ratio"]
        names += ["hp_corr_rg", "hp_corr_gb", "hp_corr_rb", "hp_log_chroma_ratio"]
        for b in 1...bandEdgeBins.count { names.append("spec_luma_b\(b)_log_fraction") }
        for b in 1...bandEdgeBins.count { names.append("spec_luma_b\(b)_peak_mean") }
        for b in 1...bandEdgeBins.count { names.append("spec_luma_b\(b)_peak_max") }
        for b in 1...bandEdgeBins.count { names.append("spec_chroma_b\(b)_log_ratio") }
        for b in 1...bandEdgeBins.count { names.append("spec_chroma_b\(b)_peak_max") }
        return names
    }()

    /// Radial frequency band (0-based) of each bin of a 64 x 64 spectrum, row-major
    /// (row = v, column = u, index 32 = -32 cycles), -1 below the first edge.
    static let bandOfBin: [Int8] = {
        let n = patchSize
        var table = [Int8](repeating: -1, count: n * n)
        for row in 0..<n {
            let v = row < n / 2 ? row : row - n
            for column in 0..<n {
                let u = column < n / 2 ? column : column - n
                let r = Double(u * u + v * v).squareRoot()
                var band = -1
                for (b, edge) in bandEdgeBins.enumerated() where r >= Double(edge) { band = b }
                table[row * n + column] = Int8(band)
            }
        }
        return table
    }()

    /// True for the bins on the 8 x 8 JPEG block lattice (`u ≡ v ≡ 0 mod 8`).
    static let isBlockLatticeBin: [Bool] = {
        let n = patchSize
        var table = [Bool](repeating: false, count: n * n)
        for row in 0..<n where row % 8 == 0 {
            for column in 0..<n where column % 8 == 0 { table[row * n + column] = true }
        }
        return table
    }()

    /// Bins per band off the block lattice (the denominators of the band means).
    static let peakBinCounts: [Int] = {
        var counts = [Int](repeating: 0, count: bandEdgeBins.count)
        for i in 0..<(patchSize * patchSize) where bandOfBin[i] >= 0 && !isBlockLatticeBin[i] {
            counts[Int(bandOfBin[i])] += 1
        }
        return counts
    }()

    /// Periodic Hann window of length 64.
    static let hann: [Double] = (0..<patchSize).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(patchSize)) }

    /// The 64-point transform shared by every extraction (its tables are read-only).
    static let fft = FFT(size: patchSize)

    /// LBP riu2 code of each 8-bit pattern: number of ones when the circular pattern
    /// has at most two 0/1 transitions, else 9.
    static let riu2Code: [UInt8] = (0..<256).map { pattern in
        let rotated = ((pattern << 1) | (pattern >> 7)) & 0xFF
        let transitions = (pattern ^ rotated).nonzeroBitCount
        return transitions <= 2 ? UInt8(pattern.nonzeroBitCount) : 9
    }

    /// Top-left corners of the patches of a `width x height` image, row by row.
    public static func patchOrigins(width: Int, height: Int) -> [(x: Int, y: Int)] {
        func origin(_ fraction: Double, _ size: Int) -> Int {
            let start = Int((fraction * Double(size) - Double(patchSize) / 2).rounded())
            return Swift.min(Swift.max(0, start), size - patchSize)
        }
        var origins: [(x: Int, y: Int)] = []
        for fy in patchCentreFractions {
            for fx in patchCentreFractions { origins.append((origin(fx, width), origin(fy, height))) }
        }
        return origins
    }

    /// The descriptor of checked rows that may still be decoding (see the type's
    /// documentation; `extract(_:)` and `extract(rows:)` check them): the patches are
    /// read top to bottom, each once its rows are written, and the global sample at the
    /// end.
    ///
    /// - Complexity: O(1) in the image size: 16 patches and about 27 600 sampled pixels.
    public static func describe(checkedRows image: ImageRows) -> TextureFeatureVector {
        var accumulator = PatchAccumulator()
        var workspace = PatchWorkspace()
        for origin in patchOrigins(width: image.width, height: image.height) {
            image.waitForRows(origin.y + patchSize)
            workspace.load(image.samples, width: image.width, channels: image.channels, x0: origin.x, y0: origin.y)
            workspace.accumulate(into: &accumulator)
        }
        image.waitForAllRows()
        let lumaStd = GlobalSample.lumaStandardDeviation(
            image.samples, width: image.width, height: image.height,
            channels: image.channels)
        return TextureFeatureVector(
            values: accumulator.features(), lumaStandardDeviation: lumaStd, patchCount: patchCount)
    }
}

/// The features of one image, in `TextureFeatures.names` order.
public struct TextureFeatureVector: TextureFeatureValues {
    /// `TextureFeatures.count` finite values.
    public var values: [Double]
    /// Standard deviation of luma (0...255 levels) over the global luma sample: 0 for
    /// a constant image.
    public var lumaStandardDeviation: Double
    /// Patches analysed (16).
    public var patchCount: Int

    /// The value of the feature called `name`, nil when there is none.
    public func value(named name: String) -> Double? {
        TextureFeatures.names.firstIndex(of: name).map { values[$0] }
    }
}

/// Why an image has no texture descriptor.
public enum TextureFeatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Gray or gray + alpha: the chroma features need R, G and B.
    case notColour(channels: Int)
    /// A side is below the minimum.
    case tooSmall(width: Int, height: Int, minimum: Int)
    /// The long side is more than `maximum` times the short side.
    case tooElongated(width: Int, height: Int, maximum: Int)
    /// The sample buffer does not fit the image size (`PixelImage.sampleLayoutProblem`).
    case badLayout(String)

    public var description: String {
        switch self {
        case .notColour(let channels):
            "texture features need an RGB image, got \(channels) channel(s)"
        case .tooSmall(let width, let height, let minimum):
            "image is \(width)x\(height) px; texture features need at least \(minimum)x\(minimum)"
        case .tooElongated(let width, let height, let maximum):
            "image is \(width)x\(height) px; texture features need a long side at most \(maximum) x the short one"
        case .badLayout(let problem):
            problem
        }
    }
}
