import Foundation
import RialMedia

/// The `texture/4` descriptor (feature set version 4): `Texture3Features`' 48 statistics,
/// followed by 15 cues of the same photo that `moire/2` and `artifacts/2` compute with their
/// compiled-in constants (issue 13: one learned model over all the image cues instead of
/// an equal mean of three scores, each of which sees one kind of evidence):
///
/// 49-59, `moire/2` (`MoireAnalyzerV2.Result`): `moire2_log_band_evidence` =
///   log(1 + |band_evidence|), `moire2_band_frequency`, `moire2_chroma_amplitude`,
///   `moire2_log_chroma_luma_ratio` = log(1 + |chroma_luma_ratio|),
///   `moire2_luma_prominence`, `moire2_orientation_coherence`,
///   `moire2_log_peak_evidence` = log(1 + |peak_evidence|), `moire2_band_tile_share` =
///   tiles_with_bands / tile_count, `moire2_textured_tile_share` = textured_tiles /
///   tile_count, `moire2_band_confidence`, `moire2_peak_confidence`;
/// 60-63, `artifacts/2` (`ArtifactAnalyzerV2.Result`, its cues, not its confidence, whose
///   constants are refitted per source in the held-out study): `artifacts2_banding_columns`,
///   `artifacts2_banding_rows`, `artifacts2_fine_detail_share`,
///   `artifacts2_log_surround_ratio` = log(1 + |surround_ratio|).
///
/// The evidences and ratios are spread over decades (a band's prominence is 10^1-10^5),
/// hence their logarithms; the tile counts are shares, so they do not depend on the tile
/// grid. A cue the method does not report (it was unavailable, e.g. every tile flat, or
/// no peaks were looked for) is 0, as is a non-finite one.
///
/// In a pipeline, the cues are read from the results `moire/2` and `artifacts/2` posted
/// for the same capture (`SharedResults`) when they ran with their compiled-in constants;
/// otherwise they are computed here with those constants. Either way the values are the
/// same, the values the model was trained on.
///
/// Bad input: as `Texture3Features` (fewer than 3 channels or a side below `minimumSide`
/// throws `TextureFeatureError`); any pixel values give finite features.
public enum Texture4Features: TextureFeatureSet {
    /// Feature set version; a model trained on another version is refused.
    public static let version = 4
    /// Smallest accepted width and height, px (`Texture3Features.minimumSide`).
    public static let minimumSide = Texture3Features.minimumSide
    /// Largest accepted long side over short side (`Texture3Features.maximumAspectRatio`).
    public static let maximumAspectRatio = Texture3Features.maximumAspectRatio

    /// The cues appended to `Texture3Features.names`, in vector order.
    public static let cueNames = [
        "moire2_log_band_evidence", "moire2_band_frequency", "moire2_chroma_amplitude",
        "moire2_log_chroma_luma_ratio", "moire2_luma_prominence", "moire2_orientation_coherence",
        "moire2_log_peak_evidence", "moire2_band_tile_share", "moire2_textured_tile_share",
        "moire2_band_confidence", "moire2_peak_confidence",
        "artifacts2_banding_columns", "artifacts2_banding_rows", "artifacts2_fine_detail_share",
        "artifacts2_log_surround_ratio",
    ]

    /// The feature names, in vector order.
    public static let names: [String] = Texture3Features.names + cueNames

    /// The methods whose results the cues are read from.
    public static let readsResultsOf: [MethodIdentifier] = [.moireV2, .artifactsV2]

    /// The descriptor of checked rows, the cues computed here.
    public static func describe(checkedRows rows: ImageRows) -> Texture2FeatureVector {
        describe(checkedRows: rows, shared: nil)
    }

    /// The descriptor of checked rows that may still be decoding: `Texture3Features`'
    /// description, then the cues of the results `shared` has (waiting for them, with the
    /// reader's slot lent out), or computed here for those it has not.
    public static func describe(checkedRows rows: ImageRows, shared: SharedResults?) -> Texture2FeatureVector {
        let base = Texture3Features.describe(checkedRows: rows)
        let moire =
            shared?.result(of: MoireAnalyzerV2.self, lendingSlotOf: rows) ?? MoireAnalyzerV2().evaluate(rows)
        let artifacts =
            shared?.result(of: ArtifactAnalyzerV2.self, lendingSlotOf: rows) ?? ArtifactAnalyzerV2().evaluate(rows)
        return Texture2FeatureVector(
            values: base.values + cues(moire: moire, artifacts: artifacts),
            lumaStandardDeviation: base.lumaStandardDeviation, width: base.width, height: base.height)
    }

    /// Features 49-63 of the two results (see the type).
    static func cues(moire m: MoireAnalyzerV2.Result, artifacts a: ArtifactAnalyzerV2.Result) -> [Double] {
        func log1pAbs(_ x: Double?) -> Double? { x.map { Foundation.log1p(Swift.abs($0)) } }
        func share(_ count: Int?) -> Double? {
            guard let count, let total = m.tileCount, total > 0 else { return nil }
            return Double(count) / Double(total)
        }
        let values: [Double?] = [
            log1pAbs(m.bandEvidence), m.bandFrequency, m.chromaAmplitude, log1pAbs(m.chromaLumaRatio),
            m.lumaProminence, m.orientationCoherence, log1pAbs(m.peakEvidence), share(m.tilesWithBands),
            share(m.texturedTiles), m.bandConfidence, m.peakConfidence,
            a.bandingColumns, a.bandingRows, a.fineDetailShare, log1pAbs(a.surroundRatio),
        ]
        return values.map { value in value.flatMap { $0.isFinite ? $0 : nil } ?? 0 }
    }
}
