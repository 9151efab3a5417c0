import Foundation
import RialMedia

/// `moire/2`: screen moire as phones record it. After demosaicing, noise reduction and
/// JPEG, the aliasing of a display's subpixel grid rarely survives as the sharp
/// subpixel-scale peaks `moire/1` looks for; it shows as broad, often curved, coloured
/// bands: the red, green and blue samples of the panel beat against the sensor's colour
/// filter array with different phases, so the colour oscillates across the band where the
/// brightness barely does, and the bands ignore the scene's edges. Constants are those of
/// `Configuration`.
///
/// 1. Analysis scale (`MoireBandImage`): k x k box means, `k = max(1, floor(long side /
///    768))` (~800 px on the long side for both a 1600 x 1200 photo and a 12 MP capture),
///    so that band frequencies compare across resolutions and sensor noise averages out.
/// 2. Tiles: up to 4 x 3 tiles of n = 128 analysis pixels, spread evenly (as `moire/1`);
///    a tile whose luma standard deviation is <= 1 level is flat and not scored.
/// 3. Per tile (`MoireBandSpectrum`): Hann-windowed spectra of luma and of the opponent
///    chroma `C1 = R - G`, `C2 = (R + G) / 2 - B`; chroma prominence of each band bin
///    (radial frequency 1/64...1/4 cycle per pixel, the JPEG block lattice excluded):
///    its 3 x 3 box power over 9 x the median chroma power of its ring. The tile's
///    prominence is the largest. A colour band concentrates the chroma energy in a few
///    bins far above its ring; scene colour (edges, objects) spreads it as 1/f.
/// 4. `band_evidence` = the second largest tile prominence (a band in at least two
///    places; the largest with one tile), `band_confidence` = logistic in its log
///    (midpoint 3200, scale 0.4: see `Configuration.evidenceMidpoint` for why so high).
/// 5. With `use_peaks` (default), `moire/1` runs on the full-resolution photo and
///    `confidence = max(band_confidence, c_peak)`, `c_peak` = `moire/1`'s confidence with
///    its evidence raised to at least `peak_evidence_floor` (one-sided evidence: weak or
///    absent peaks all count as the floor); `detected = confidence > 0.5`,
///    `score = 1 - confidence`.
///
/// Descriptive fields of the strongest tile: band frequency and period, direction,
/// chroma/luma power ratio, the luma prominence at the same bin, the phases of red and
/// blue against green (bands shifted between channels), and the orientation coherence of
/// the banded tiles (1 = one straight family, lower = curved bands).
///
/// Input: `Image8` with 1 to 4 channels in the stored orientation. Never throws: an image
/// whose reduced smaller side is below 32 px, or whose every tile is flat, gives
/// `.unavailable` (a gray image is analysed and has no chroma: prominence 0).
///
/// Accuracy on the real development set and the default synthetic set, and the latency,
/// are measured by `rial-bench run` and `rial-bench bench` (see the methodology).
///
/// - Complexity: O(width x height) for the reduction plus O(tiles x n² log n), plus
///   `moire/1`'s cost with `use_peaks`.
public struct MoireAnalyzerV2: Sendable {
    /// `moire/2`.
    public static let identifier = MethodIdentifier.moireV2

    public let configuration: Configuration
    /// `moire/1` with its default configuration (the peaks).
    let peaks: MoireAnalyzer

    /// The default configuration.
    public init() {
        configuration = .standard
        peaks = MoireAnalyzer()
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        peaks = MoireAnalyzer()
    }

    /// The analysis of rows that may still be decoding, untimed. Never throws (see the
    /// type's documentation).
    public func evaluate(_ image: ImageRows) -> Result {
        let c = configuration
        let k = MoireBandImage.factor(width: image.width, height: image.height, analysisLongSide: c.analysisLongSide)
        let reducedWidth = image.width / k, reducedHeight = image.height / k
        guard let n = Self.tileSize(width: reducedWidth, height: reducedHeight, configuration: c) else {
            return .unavailable(
                reason: "image \(image.width) x \(image.height) is \(reducedWidth) x \(reducedHeight) at the "
                    + "analysis scale (1/\(k)), smaller than the minimum tile \(c.minTileSize) x \(c.minTileSize) px")
        }
        let origins = Self.tileOrigins(
            width: reducedWidth, height: reducedHeight, tile: n, columns: c.tileColumns, rows: c.tileRows)
        let lattice = c.jpegLatticeRadius >= 0 ? Double(Self.gcd(k, 16)) / 16 : nil
        let spectrum = MoireBandSpectrum(
            n: n, bandLow: c.bandLow, bandHigh: c.bandHigh, latticeSpacing: lattice,
            latticeRadius: c.jpegLatticeRadius, noiseFloorStd: c.noiseFloorStd)
        guard spectrum.bandBinCount > 0 else {
            return .unavailable(reason: "no frequency bin of a \(n) x \(n) tile lies in the band")
        }
        var measurement = MoireBandSpectrum.Measurement(spectrum, origins: origins, flatLumaStd: c.flatLumaStd)
        var peakResult: MoireAnalyzer.Result?
        if image.sharesDerivedValues {
            // In a pipeline `artifacts/2` usually writes the shared reduction while this
            // method searches `moire/1`'s peaks: between the peaks' tile pairs, the band
            // pairs whose rows are reduced already are measured, so that only the bottom
            // tiles are left for after the last row (docs/end-to-end-latency.md).
            var started: MoireBandFrame?
            func measureReducedPairs() {
                if started == nil { started = MoireBandFrame.sharedIfStarted(by: image, factor: k) }
                guard let frame = started else { return }
                measurement.measurePairs(of: frame.image, rowsWritten: frame.rowsWritten)
            }
            if c.usePeaks { peakResult = peaks.evaluate(image, afterEachTilePair: measureReducedPairs) }
            let (frame, writer) = started.map { ($0, false) } ?? MoireBandFrame.shared(by: image, factor: k)
            let reduced = frame.image
            if writer {
                frame.write(from: image) { by in measurement.measurePairs(of: reduced, rowsWritten: by + 1) }
            }
            while !measurement.isComplete {
                frame.waitForRows(measurement.rowsNeeded, lendingSlotOf: image)
                measurement.measureNextPair(reduced)
            }
        } else {
            peakResult = c.usePeaks ? peaks.evaluate(image) : nil
            let reduced = MoireBandImage(image: image, factor: k, origins: origins, tileSize: n)
            measurement.measurePairs(of: reduced, rowsWritten: reduced.height)
        }
        let tiles = measurement.tiles
        let textured = tiles.filter(\.textured)
        guard !textured.isEmpty else {
            return .unavailable(
                reason: "flat image: luma standard deviation <= \(c.flatLumaStd) in all \(tiles.count) tiles of "
                    + "\(n) x \(n) px at the analysis scale (1/\(k))")
        }

        let ranked = textured.sorted { $0.chromaProminence > $1.chromaProminence }
        let strongest = ranked[0]
        let evidence = ranked.count >= 2 ? ranked[1].chromaProminence : strongest.chromaProminence
        let bandConfidence = Self.logistic(evidence, midpoint: c.evidenceMidpoint, scale: c.evidenceScale)
        let peakConfidence = peakResult.map { $0.status == .completed ? ($0.confidence ?? 0) : 0 }
        let peakEvidence = peakResult.map { $0.status == .completed ? ($0.evidence ?? 0) : 0 }
        let countedPeakConfidence = peakEvidence.map { flooredPeakConfidence($0) }
        let confidence = Swift.max(bandConfidence, countedPeakConfidence ?? 0)

        var banded = ranked.filter { $0.chromaProminence >= c.evidenceMidpoint }
        if banded.count < 2 { banded = Array(ranked.prefix(2)) }
        var sx = 0.0, sy = 0.0, weights = 0.0
        for t in banded {
            let theta = atan2(t.fy, t.fx)
            sx += t.chromaProminence * cos(2 * theta)
            sy += t.chromaProminence * sin(2 * theta)
            weights += t.chromaProminence
        }
        let frequency = (strongest.fx * strongest.fx + strongest.fy * strongest.fy).squareRoot()
        var angle = atan2(strongest.fy, strongest.fx) * 180 / Double.pi
        if angle < 0 { angle += 180 }
        if angle >= 180 { angle -= 180 }

        var result = Result(
            status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier, analysisTimeMs: 0,
            score: 1 - confidence)
        result.detected = confidence > c.detectionThreshold
        result.confidence = confidence
        result.bandConfidence = bandConfidence
        result.bandEvidence = evidence
        result.bandFrequency = frequency
        result.bandPeriodPx = frequency > 0 ? Double(k) / frequency : 0
        result.bandAngle = angle
        result.orientationCoherence = weights > 0 ? (sx * sx + sy * sy).squareRoot() / weights : 0
        result.chromaLumaRatio = strongest.chromaLumaRatio
        result.lumaProminence = strongest.lumaProminenceAtPeak
        result.phaseRedGreen = strongest.phaseRedGreen
        result.phaseBlueGreen = strongest.phaseBlueGreen
        result.chromaAmplitude = strongest.chromaAmplitude
        result.tilesWithBands = textured.filter { $0.chromaProminence >= c.evidenceMidpoint }.count
        result.tileCount = tiles.count
        result.texturedTiles = textured.count
        result.tileSize = n
        result.analysisFactor = k
        result.peakConfidence = peakConfidence
        result.peakEvidence = peakEvidence
        return result
    }

    /// The peak confidence `confidence` counts: `moire/1`'s logistic (its default
    /// midpoint and scale) in `ln max(evidence, peak_evidence_floor)`; with floor 0 it is
    /// `moire/1`'s confidence.
    func flooredPeakConfidence(_ evidence: Double) -> Double {
        let p = peaks.configuration
        return Self.logistic(
            Swift.max(evidence, configuration.peakEvidenceFloor), midpoint: p.evidenceMidpoint, scale: p.evidenceScale)
    }

    /// `1 / (1 + exp(-(ln x - ln midpoint) / scale))`, 0 for `x <= 0`.
    static func logistic(_ x: Double, midpoint: Double, scale: Double) -> Double {
        x > 0 ? 1 / (1 + exp(-(log(x) - log(midpoint)) / scale)) : 0
    }

    /// The configured tile side, halved until it fits in both dimensions; nil below
    /// `minTileSize`.
    static func tileSize(width: Int, height: Int, configuration c: Configuration) -> Int? {
        var n = c.tileSize
        while n > Swift.min(width, height) && n > c.minTileSize { n /= 2 }
        return n <= Swift.min(width, height) && n >= c.minTileSize ? n : nil
    }

    /// Top-left corners: `min(columns, max(1, 2 w / n - 1))` across (at most 50% overlap),
    /// spread from edge to edge (centred for one); rows likewise; row-major.
    static func tileOrigins(width: Int, height: Int, tile n: Int, columns: Int, rows: Int) -> [(x: Int, y: Int)] {
        func positions(_ extent: Int, _ wanted: Int) -> [Int] {
            let count = Swift.min(wanted, Swift.max(1, 2 * extent / n - 1))
            if count == 1 { return [(extent - n) / 2] }
            return (0..<count).map { $0 * (extent - n) / (count - 1) }
        }
        let xs = positions(width, columns), ys = positions(height, rows)
        return ys.flatMap { y in xs.map { x in (x: x, y: y) } }
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var a = a, b = b
        while b != 0 { (a, b) = (b, a % b) }
        return Swift.max(1, a)
    }
}
