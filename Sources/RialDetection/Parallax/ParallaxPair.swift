import RialMedia

/// The constants both parallax versions read to check a stereo pair and to set the
/// disparity search range (the same keys, with the same meaning, in both sections).
protocol ParallaxPairLimits {
    var workingLongSide: Int { get }
    var minImageSide: Int { get }
    var minDepthM: Double { get }
    var maxDepthM: Double? { get }
    var defaultMaxDisparityFraction: Double { get }
    var maxDisparityFraction: Double { get }
    var disparityMarginPx: Int { get }
}

/// The fields both parallax versions' results record of the pair before matching.
protocol ParallaxPairRecord {
    var imageWidth: Int? { get set }
    var imageHeight: Int? { get set }
    var workingScale: Int? { get set }
    var workingWidth: Int? { get set }
    var workingHeight: Int? { get set }
    var searchMinDisparityPx: Double? { get set }
    var searchMaxDisparityPx: Double? { get set }
    var searchRangeSource: String? { get set }
    var focalPx: Double? { get set }
    var baselineMm: Double? { get set }
}

extension ParallaxAnalyzer.Configuration: ParallaxPairLimits {}
extension ParallaxAnalyzerV2.Configuration: ParallaxPairLimits {}
extension ParallaxAnalyzer.Result: ParallaxPairRecord {}
extension ParallaxAnalyzerV2.Result: ParallaxPairRecord {}

/// The block counts both parallax versions' results record after matching.
protocol ParallaxBlockRecord {
    var totalBlocks: Int? { get set }
    var texturedBlocks: Int? { get set }
    var validBlocks: Int? { get set }
    var disparityCoverage: Double? { get set }
    var rejectedBlocks: ParallaxAnalyzer.Rejections? { get set }
}

extension ParallaxAnalyzer.Result: ParallaxBlockRecord {}
extension ParallaxAnalyzerV2.Result: ParallaxBlockRecord {}

/// A rectified pair checked for analysis: its working size (box-reduced by `scale` to
/// at most `workingLongSide`) and the disparity search range in working pixels, from
/// focal length x baseline and the depth limits when both are given, else from
/// `defaultMaxDisparityFraction`; capped at `maxDisparityFraction` of the working width
/// and widened by `disparityMarginPx` on both sides.
struct ParallaxPair {
    let width: Int, height: Int
    let scale: Int, workingWidth: Int, workingHeight: Int
    /// focal (px) x baseline (m), the disparity of a point 1 m away, full-resolution px.
    let physical: Double?
    /// Search range, working px.
    let low: Int, high: Int
    /// `argument` (from focal and baseline) or `default`.
    let rangeSource: String

    /// Checks the pair (equal sizes, at least `minImageSide`, positive finite focal and
    /// baseline when given) and derives the working size and search range.
    ///
    /// - Returns: the pair, or why it cannot be analysed (`method` names the version in
    ///   the message).
    static func prepare(
        left: Image8, right: Image8, focalPx: Double?, baselineMm: Double?, limits c: some ParallaxPairLimits,
        method: MethodIdentifier
    ) -> Swift.Result<ParallaxPair, Unanalysable> {
        guard left.width == right.width, left.height == right.height else {
            return .failure(
                Unanalysable(
                    reason: "the views differ in size (left \(left.width)x\(left.height), right "
                        + "\(right.width)x\(right.height)); \(method) needs a rectified pair of equal size"))
        }
        let width = left.width, height = left.height
        guard min(width, height) >= c.minImageSide else {
            return .failure(
                Unanalysable(reason: "image \(width)x\(height) is smaller than \(c.minImageSide) px on a side"))
        }
        for (name, value) in [("focalPx", focalPx), ("baselineMm", baselineMm)] {
            if let value, !(value.isFinite && value > 0) {
                return .failure(Unanalysable(reason: "\(name) must be finite and > 0, got \(value)"))
            }
        }
        let physical: Double? = if let focalPx, let baselineMm { focalPx * baselineMm / 1000 } else { nil }
        let scale = max(1, (max(width, height) + c.workingLongSide - 1) / c.workingLongSide)
        let workingWidth = width / scale, workingHeight = height / scale

        let cap = Int((c.maxDisparityFraction * Double(workingWidth)).rounded(.down))
        var low: Int, high: Int
        let rangeSource: String
        if let physical {
            let fb = physical / Double(scale)
            low = c.maxDepthM.map { Int((fb / $0).rounded(.down)) } ?? 0
            high = Int(Swift.min(fb / c.minDepthM, 1e9).rounded(.up))
            rangeSource = "argument"
        } else {
            low = 0
            high = Int((c.defaultMaxDisparityFraction * Double(workingWidth)).rounded(.up))
            rangeSource = "default"
        }
        high = Swift.min(high, cap)
        low = Swift.min(low, high)
        low -= c.disparityMarginPx
        high += c.disparityMarginPx
        return .success(
            ParallaxPair(
                width: width, height: height, scale: scale, workingWidth: workingWidth,
                workingHeight: workingHeight, physical: physical, low: low, high: high, rangeSource: rangeSource))
    }

    /// Why a pair cannot be analysed.
    struct Unanalysable: Error {
        let reason: String
    }

    /// Block matching of the pair's working views (`ParallaxAnalyzer.matchBlocks` on both
    /// views' `matchingSignal` at `scale`), with the block counts written into `result`.
    ///
    /// - Returns: the disparity field, or why it cannot be analysed: a grid under 3 x 3
    ///   blocks, no textured block, or fewer than `minValidBlocks` reliable ones (`method`
    ///   names the version in the message).
    func match(
        left: Image8, right: Image8, configuration c: ParallaxAnalyzer.Configuration, method: MethodIdentifier,
        recordingInto result: inout some ParallaxBlockRecord
    ) -> Swift.Result<ParallaxAnalyzer.DisparityField, Unanalysable> {
        let grid = ParallaxAnalyzer.BlockGrid(
            width: workingWidth, height: workingHeight, radius: c.blockRadius, step: c.gridStep)
        guard grid.columns >= 3, grid.rows >= 3 else {
            return .failure(
                Unanalysable(
                    reason: "working image \(workingWidth)x\(workingHeight) holds \(grid.columns)x\(grid.rows) "
                        + "blocks of \(2 * c.blockRadius + 1) px; \(method) needs at least 3x3"))
        }
        let leftSignal = ParallaxAnalyzer.matchingSignal(
            ParallaxAnalyzer.workingLuma(left, factor: scale), width: workingWidth, height: workingHeight,
            sigma: c.prefilterSigmaPx)
        let rightSignal = ParallaxAnalyzer.matchingSignal(
            ParallaxAnalyzer.workingLuma(right, factor: scale), width: workingWidth, height: workingHeight,
            sigma: c.prefilterSigmaPx)
        let field = ParallaxAnalyzer.matchBlocks(
            left: leftSignal, right: rightSignal, width: workingWidth, height: workingHeight, range: low...high,
            configuration: c)
        result.totalBlocks = grid.count
        result.texturedBlocks = field.textured
        result.validBlocks = field.valid
        result.disparityCoverage = Double(field.valid) / Double(grid.count)
        result.rejectedBlocks = field.rejections
        guard field.textured > 0 else {
            return .failure(
                Unanalysable(
                    reason: "no textured block (std of the luma gradient >= \(c.minBlockStdDev)) in "
                        + "\(grid.count) blocks: the left view is flat or constant"))
        }
        guard field.valid >= c.minValidBlocks else {
            return .failure(
                Unanalysable(
                    reason: "\(field.valid) of \(grid.count) blocks have a reliable disparity "
                        + "(\(field.textured) textured); \(method) needs at least \(c.minValidBlocks)"))
        }
        return .success(field)
    }

    /// Writes what a result records of the pair: sizes, scale, search range and (when both
    /// were given) focal length and baseline.
    func record(into result: inout some ParallaxPairRecord, focalPx: Double?, baselineMm: Double?) {
        result.imageWidth = width
        result.imageHeight = height
        result.workingScale = scale
        result.workingWidth = workingWidth
        result.workingHeight = workingHeight
        if physical != nil {
            result.focalPx = focalPx
            result.baselineMm = baselineMm
        }
        result.searchRangeSource = rangeSource
        result.searchMinDisparityPx = Double(low * scale)
        result.searchMaxDisparityPx = Double(high * scale)
    }
}
