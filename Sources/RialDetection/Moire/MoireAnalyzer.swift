import Foundation
import RialMedia

/// `moire/1`: the moire FFT method of specs/methods.md section 3, a supporting signal.
/// A photo of a display samples the panel's subpixel grid with the sensor's pixel grid;
/// the grid's fundamentals, folded to `f - round(f)` and copied by the Bayer mosaic
/// (shifts of 1/2 cycle per pixel along either axis), show as sharp peaks in the power
/// spectrum. Constants are those of `Configuration`.
///
/// 1. Tiles: a grid of up to 4 x 3 square tiles of n = 256 full-resolution pixels,
///    spread evenly from edge to edge (no downscaling: it would fold the subpixel
///    frequencies before they are measured). Images smaller than a tile use the largest
///    power of two that fits, down to 64; below that, `.unavailable`.
/// 2. Per tile (`MoireSpectrum`): BT.601 luma, minus the mean, periodic Hann window,
///    2D DFT, power; the average over tiles is Welch's averaged periodogram.
/// 3. Peaks (`MoirePeakSearch`) in the averaged spectrum and in each tile: band
///    radial frequency >= 0.06 and |fx|, |fy| <= 0.45 cycles per pixel, one half plane
///    (a conjugate pair f, -f is one peak), magnitude >= 3 x the median band magnitude
///    (noise floor), strict local maximum, prominence >= 3 over the median of its
///    surround (bins 3...5 away), never within 1 bin of a multiple of 1/8 cycle per
///    pixel on both axes (the JPEG 8x8 block grid: every JPEG has energy at (a/8, b/8)).
///    `strength = sqrt(prominence x contrast)`, contrast = the peak over the radial level
///    at its radius (median of the ring medians within +-2 bins of radius: the image's
///    own 1/f spectrum at that scale).
/// 4. Evidence: `sqrt(A x T)`, A = the largest strength of the averaged spectrum's
///    candidates (local maxima above the noise floor, before the prominence test, so the
///    evidence is continuous), i.e. a pattern over the frame; T = the second largest of
///    the tiles' (those not flat) largest strengths, i.e. a pattern in at least two
///    places (with one tile, its own). 0 when there is no candidate.
/// 5. `confidence` = logistic in ln(evidence) (midpoint 25, scale 0.3), `detected =
///    confidence > 0.5`, `score = 1 - confidence`.
/// 6. `screen_type` when detected, from the strong peaks (strength >= 0.5 x the
///    strongest) of the averaged spectrum: `lcd` when >= 67% of them lie within 0.06
///    cycle per pixel of an axis — RGB stripes run along the panel columns, near the
///    sensor's (handheld panels are rarely rotated much), and shifts by 1/2 or 1 cycle per
///    pixel along an axis keep a component on that axis; `oled` when <= 34% do and at
///    least two are strong — the PenTile R/B checkerboard has its fundamentals
///    `(1/2p)(1, +-1)` on the diagonals, in equal strength; `unknown` otherwise.
///    `high_refresh` is never assigned (see `ScreenType.highRefresh`).
///
/// Input: `Image8` with 1 (gray), 2 (gray + alpha), 3 (RGB) or 4 (RGBA) channels at
/// full resolution in the stored orientation (the subpixel grid is measured against the
/// sensor grid; rotation by EXIF would only permute axes). Never throws: a sample buffer
/// that does not match the size, an image smaller than 64 px on a side, or an image whose
/// every tile is flat (luma std <= 1 level) gives `.unavailable`.
///
/// Measured on the default synthetic set (200 captures, 1600 x 1200 JPEG): detected
/// 4% of real scenes (two text documents), 72% of LCD and 86% of OLED captures; ROC AUC
/// real vs LCD 0.90, vs OLED 0.95. A 4032 x 3024 capture takes about 13 ms of one
/// core (release).
///
/// Limits: strongly periodic real textures (brick courses, text lines, tiles, fabric,
/// the sinc ripples of long straight edges) reach evidence 20-30 and a few are detected;
/// halftone prints give peaks too (detected, usually `oled`: a square halftone screen has
/// two orthogonal fundamentals of equal strength); fundamentals near 0.7 cycle per pixel
/// (pitches 1.3-1.7 px) are attenuated by the lens and pixel aperture to a few percent
/// and often missed; a panel tilted steeply spreads its moire over many bins (chirp) and
/// may be missed; panels rotated
/// by 20-45 degrees or with pitches below about one sensor pixel (a phone screen in a
/// 12 MP frame) fold their peaks anywhere, so `screen_type` is then unreliable; moire
/// whose fundamental folds to below 0.06 cycle per pixel (large visible beat bands)
/// counts only through its harmonics and Bayer copies.
///
/// - Complexity: O(tiles x n² log n) (+ the peak searches, O(tiles x n²)), independent
///   of the image size beyond the tile placement.
public struct MoireAnalyzer: Sendable, Equatable {
    /// `moire/1`.
    public static let identifier = MethodIdentifier.moireV1

    public let configuration: Configuration
    /// The peak search for the configured tile size (its bin tables depend only on the
    /// configuration): built once here; smaller tiles of small images build their own.
    let fullTileSearch: MoirePeakSearch

    /// The default configuration.
    public init() {
        configuration = .standard
        fullTileSearch = Self.peakSearch(n: configuration.tileSize, configuration: configuration)
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        fullTileSearch = Self.peakSearch(n: configuration.tileSize, configuration: configuration)
    }

    /// The peak search over `n x n` spectra under `c`.
    static func peakSearch(n: Int, configuration c: Configuration) -> MoirePeakSearch {
        MoirePeakSearch(
            n: n, bandLow: c.bandLow, bandHigh: c.bandHigh, noiseFloorFactor: c.noiseFloorFactor,
            minProminence: c.minProminence, surroundInner: c.surroundInner,
            surroundOuter: c.surroundOuter, jpegGridRadius: c.jpegGridRadius,
            maxCandidates: c.maxCandidates, contrastRadius: c.contrastRadius)
    }

    /// The analysis of rows that may still be decoding (tiles top to bottom, each once
    /// its rows are written), untimed. Never throws (see the type's documentation).
    public func evaluate(_ image: ImageRows) -> Result {
        evaluate(image, afterEachTilePair: {})
    }

    /// `evaluate(_:)`, calling `afterEachTilePair()` after each pair of tiles is searched
    /// (on this thread, before the next pair waits for its rows): `moire/2` does its own
    /// work there on rows that are already in.
    func evaluate(_ image: ImageRows, afterEachTilePair: () -> Void) -> Result {
        let c = configuration
        let width = image.width, height = image.height
        guard let n = Self.tileSize(width: width, height: height, configuration: c) else {
            return .unavailable(
                reason: "image \(width) x \(height) is smaller than the minimum tile "
                    + "\(c.minTileSize) x \(c.minTileSize) px")
        }
        let origins = Self.tileOrigins(width: width, height: height, tile: n, configuration: c)
        let search = n == c.tileSize ? fullTileSearch : Self.peakSearch(n: n, configuration: c)
        var scratch = [Double]()
        scratch.reserveCapacity((n / 2 + 1) * n)

        func peaks(of power: UnsafeBufferPointer<Double>) -> MoirePeakSearch.Outcome {
            search.search(power: power, scratch: &scratch)
        }

        // Each textured tile is searched as soon as its spectrum exists (while a streamed
        // image's lower rows are still decoding); the averaged spectrum at the end.
        var tileStrengths: [Double] = []
        var tilesWithPeaks = 0
        let spectrum = MoireSpectrum(image: image, tileSize: n, origins: origins, flatLumaStd: c.flatLumaStd) {
            _, power in
            let outcome = peaks(of: power)
            if !outcome.peaks.isEmpty { tilesWithPeaks += 1 }
            tileStrengths.append(outcome.bestStrength)
        } afterEachPair: {
            afterEachTilePair()
        }
        guard spectrum.texturedTiles.contains(true) else {
            return .unavailable(
                reason: "flat image: luma standard deviation <= \(c.flatLumaStd) in all "
                    + "\(origins.count) tiles of \(n) x \(n) px", tileSize: n)
        }

        let averaged = spectrum.meanPower.withUnsafeBufferPointer { peaks(of: $0) }
        tileStrengths.sort(by: >)
        let averagedStrength = averaged.bestStrength
        let tileStrength = tileStrengths.count >= 2 ? tileStrengths[1] : (tileStrengths.first ?? 0)
        let evidence = (averagedStrength * tileStrength).squareRoot()
        let confidence =
            evidence > 0
            ? 1 / (1 + exp(-(log(evidence) - log(c.evidenceMidpoint)) / c.evidenceScale)) : 0
        let detected = confidence > c.detectionThreshold

        let scale = 8 / Double(n * n)
        let reported = averaged.peaks.prefix(c.maxPeaks).map { p -> Peak in
            // The sub-bin refinement can move a peak of the kx = 0 column across the axis:
            // report the conjugate, which keeps fx >= 0.
            let (fx, fy) = p.fx < 0 ? (-p.fx, -p.fy) : (p.fx, p.fy)
            var angle = atan2(fy, fx) * 180 / Double.pi
            if angle < 0 { angle += 180 }
            if angle >= 180 { angle -= 180 }
            return Peak(
                frequency: (fx * fx + fy * fy).squareRoot(), fx: fx, fy: fy, angle: angle,
                magnitude: averaged.median > 0 ? log10(p.magnitude / averaged.median) : 0,
                prominence: p.prominence, contrast: p.contrast, strength: p.strength,
                amplitude: p.magnitude * scale)
        }

        var result = Result(
            status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier,
            analysisTimeMs: 0, score: 1 - confidence)
        result.detected = detected
        result.confidence = confidence
        result.screenType = detected ? Self.screenType(reported, configuration: c) : nil
        result.peaks = reported
        result.evidence = evidence
        result.averagedStrength = averagedStrength
        result.tileStrength = tileStrength
        result.tilesWithPeaks = tilesWithPeaks
        result.tileSize = n
        result.tileCount = origins.count
        result.noiseFloor = c.noiseFloorFactor * averaged.median * scale
        result.band = [c.bandLow, c.bandHigh]
        return result
    }

    /// The configured tile side, halved until it fits in both dimensions; nil below
    /// `minTileSize`.
    static func tileSize(width: Int, height: Int, configuration c: Configuration) -> Int? {
        var n = c.tileSize
        while n > Swift.min(width, height) && n > c.minTileSize { n /= 2 }
        return n <= Swift.min(width, height) && n >= c.minTileSize ? n : nil
    }

    /// Top-left corners of the tile grid: `columns = min(tileColumns, max(1, 2 w / n - 1))`
    /// (at most 50% overlap), origins `i (w - n) / (columns - 1)` (centred for one
    /// column); rows likewise. Row-major order.
    static func tileOrigins(width: Int, height: Int, tile n: Int, configuration c: Configuration) -> [(x: Int, y: Int)]
    {
        func positions(_ extent: Int, _ wanted: Int) -> [Int] {
            let count = Swift.min(wanted, Swift.max(1, 2 * extent / n - 1))
            if count == 1 { return [(extent - n) / 2] }
            return (0..<count).map { $0 * (extent - n) / (count - 1) }
        }
        let xs = positions(width, c.tileColumns), ys = positions(height, c.tileRows)
        return ys.flatMap { y in xs.map { x in (x: x, y: y) } }
    }

    /// The screen type of detected moire from its reported peaks (strongest first); see
    /// the type's documentation, step 6.
    static func screenType(_ peaks: [Peak], configuration c: Configuration) -> ScreenType {
        guard let strongest = peaks.first?.strength, strongest > 0 else { return .unknown }
        let strong = peaks.filter { $0.strength >= c.strongPeakRatio * strongest }
        let onAxis = strong.filter { Swift.min(abs($0.fx), abs($0.fy)) <= c.axisTolerance }.count
        let share = Double(onAxis) / Double(strong.count)
        if share >= c.lcdAxisShare { return .lcd }
        if share <= c.oledAxisShare && strong.count >= 2 { return .oled }
        return .unknown
    }
}
