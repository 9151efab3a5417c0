import Foundation
import RialMedia

/// `artifacts/2`: recapture artifacts redesigned on real phone photos (issue 13). On the
/// real development set (1,375 photos, 18 sources) `artifacts/1`'s detectors are at
/// chance held out (pooled AUC 0.52); measured there leave-one-source-out
/// (docs/artifacts-2.md), these survive and are kept:
///
/// 1. Banding energy (`banding_rows`, `banding_columns`): the row-mean luma profile at
///    the analysis scale minus its moving average (the scene's slow shading), its
///    variance over the variance of the local detail (luma minus its `detail_box` box
///    mean). A rolling shutter recording a PWM-dimmed or refreshing display, a display's
///    line structure, or a print's banding adds energy to one profile that the scene's
///    content (averaged along the row) does not; measured along both axes because a
///    photo may be stored rotated. The period of its strongest component is reported. A
///    single sharp periodic peak (`artifacts/1`'s PWM test) does not generalise; the
///    energy does.
/// 2. Surround (`surround_ratio`): outer-ring luma over centre luma. An emissive display
///    photographed in its bezel or a dark room is a bright centre in a dark frame.
/// 3. Fine detail (`fine_detail_share`): the share of the spectral power of a
///    full-resolution centre tile (Hann window, axes and JPEG block lattice left out of
///    the band) at periods of 2.6-8.5 px. A recapture loses it (display pixel pitch and
///    defocus low-pass the scene; prints more so).
///
/// Dropped (held-out AUC, each cue alone, sign fitted on the other sources; pooled and
/// the worst of the 8 sources with >= 20 attacks): the banding peak ratio (0.53 / 0.34),
/// glare highlights (share of near-white colourless pixels 0.40 / 0.17; highlights in a
/// dark neighbourhood 0.53 / 0.32), halftone peaks in the fine band (0.57 / 0.37),
/// straight frame edges (0.58 / 0.40).
///
/// `confidence = 1 / (1 + exp(-z))`, `z` linear in the logarithms of the four numbers
/// (`Configuration.intercept`); `score = 1 - confidence`.
///
/// Input: `Image8` with 1 to 4 channels. Never throws: a photo whose smaller side is
/// below `min_image_side`, or a constant one, gives `.unavailable`.
///
/// - Complexity: O(width x height) for the reduction, O(w h) at the analysis scale,
///   O(t² log t) for the detail tile of side t.
public struct ArtifactAnalyzerV2: Sendable {
    /// `artifacts/2`.
    public static let identifier = MethodIdentifier.artifactsV2

    public let configuration: Configuration

    /// The default configuration.
    public init() {
        configuration = .standard
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The analysis of rows that may still be decoding, untimed. Never throws.
    public func evaluate(_ image: ImageRows) -> Result {
        let c = configuration
        guard Swift.min(image.width, image.height) >= c.minImageSide else {
            return .unavailable(
                reason: "image \(image.width) x \(image.height) is smaller than \(c.minImageSide) px on a side")
        }
        let tile = ArtifactCuesV2.detailTileSide(width: image.width, height: image.height, wanted: c.detailTileSize)
        let tileBottom = (image.height - tile) / 2 + tile
        let k = MoireBandImage.factor(width: image.width, height: image.height, analysisLongSide: c.analysisLongSide)
        let w = image.width / k, h = image.height / k
        guard w > 0 && h > 0 else {
            return .unavailable(
                reason: "image \(image.width) x \(image.height) is \(w) x \(h) at the analysis scale (1/\(k))")
        }
        // The reduction `moire/2` shares when both read the same capture. The cues follow
        // each block row as it is written, whether this method writes it or reads it
        // while `moire/2` does, and the fine detail is measured as soon as the centre
        // tile's rows are reduced, while later rows decode. The same values either way.
        let cues = ArtifactCuesV2.LumaCues(width: w, height: h, configuration: c)
        var share: Double?
        let (frame, writer) = MoireBandFrame.shared(by: image, factor: k)
        let reduced = frame.image
        reduced.planes.withUnsafeBufferPointer { planes in
            func consume(_ by: Int) {
                cues.addRow(of: planes)
                if share == nil && (by + 1) * k >= tileBottom {
                    share = ArtifactCuesV2.fineDetailShare(image, tile: tile, configuration: c)
                }
            }
            if writer {
                frame.write(from: image, eachBlockRow: consume)
            } else {
                for by in 0..<h {
                    frame.waitForRows(by + 1, lendingSlotOf: image)
                    consume(by)
                }
            }
        }
        let fineDetail = share ?? ArtifactCuesV2.fineDetailShare(image, tile: tile, configuration: c)
        let range = Double(cues.highest - cues.lowest)
        guard range >= c.minLumaRange else {
            return .unavailable(
                reason: "image is constant (luma range \(range) < \(c.minLumaRange) levels at the analysis scale)")
        }
        let detail = cues.detailVariance
        let rows = ArtifactCuesV2.banding(cues.rowProfile, configuration: c)
        let columns = ArtifactCuesV2.banding(cues.columnProfile, configuration: c)
        let surround = cues.surroundRatio(offset: c.surroundOffset)

        let bandingRows = rows.variance / Swift.max(detail, c.logFloor)
        let bandingColumns = columns.variance / Swift.max(detail, c.logFloor)
        let z =
            c.intercept + c.bandingRowsWeight * log(Swift.max(bandingRows, c.logFloor))
            + c.bandingColumnsWeight * log(Swift.max(bandingColumns, c.logFloor))
            + c.surroundWeight * log(surround) + c.fineDetailWeight * log(Swift.max(fineDetail, c.logFloor))
        let confidence = 1 / (1 + exp(-z))

        var result = Result(
            status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier, analysisTimeMs: 0,
            score: 1 - confidence)
        result.detected = confidence > c.detectionThreshold
        result.confidence = confidence
        result.bandingRows = bandingRows
        result.bandingColumns = bandingColumns
        result.bandingPeriodRows = rows.period * Double(k)
        result.bandingPeriodColumns = columns.period * Double(k)
        result.surroundRatio = surround
        result.fineDetailShare = fineDetail
        result.analysisFactor = k
        result.detailTileSize = tile
        return result
    }
}
