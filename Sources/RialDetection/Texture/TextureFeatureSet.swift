import RialMedia

/// One version of the texture descriptor (`TextureFeatures`, `Texture2Features`,
/// `Texture3Features`, `Texture4Features`): what a learned texture method (`LearnedTextureAnalyzer`) computes
/// of a photo and what its model (`TextureModel.featureSetVersion`, `featureNames`) was
/// trained on. `texture/N` computes feature set version N.
///
/// A feature set states its checks (`minimumSide`, at least R, G, B) and describes rows
/// that pass them; `extract` does the checks, so every version refuses bad input with the
/// same `TextureFeatureError`.
public protocol TextureFeatureSet: Sendable {
    /// The descriptor of one image.
    associatedtype Vector: TextureFeatureValues
    /// Feature set version; a model trained on another version is refused.
    static var version: Int { get }
    /// The feature names, in vector order.
    static var names: [String] { get }
    /// Smallest accepted width and height, px.
    static var minimumSide: Int { get }
    /// Largest accepted ratio of the long side to the short side (nil: any). Default nil.
    static var maximumAspectRatio: Int? { get }
    /// The descriptor of rows that may still be decoding (read top to bottom), which
    /// `extract(rows:)` has checked: at least 3 channels, both sides >= `minimumSide`.
    static func describe(checkedRows rows: ImageRows) -> Vector
    /// The methods whose results of the same capture the descriptor reads
    /// (`DetectionMethod.readsResultsOf`). Default: none.
    static var readsResultsOf: [MethodIdentifier] { get }
    /// `describe(checkedRows:)`, reading what it can of `shared` (the results of the
    /// capture's other methods) instead of computing it. Default: `shared` is not read.
    static func describe(checkedRows rows: ImageRows, shared: SharedResults?) -> Vector
}

/// What a texture descriptor holds besides its version's own fields.
public protocol TextureFeatureValues: Sendable, Equatable {
    /// The features, in the feature set's `names` order (finite).
    var values: [Double] { get }
    /// Standard deviation of the luma the feature set measures (0...255 levels): 0 for a
    /// constant image.
    var lumaStandardDeviation: Double { get }
}

extension TextureFeatureSet {
    /// Length of the vector.
    public static var count: Int { names.count }

    public static var readsResultsOf: [MethodIdentifier] { [] }

    public static var maximumAspectRatio: Int? { nil }

    public static func describe(checkedRows rows: ImageRows, shared: SharedResults?) -> Vector {
        describe(checkedRows: rows)
    }

    /// The descriptor of `image`.
    ///
    /// - Throws: `TextureFeatureError` when its samples do not fit its size, for fewer than
    ///   3 channels, or for a side below `minimumSide`.
    public static func extract(_ image: Image8) throws(TextureFeatureError) -> Vector {
        if let problem = image.sampleLayoutProblem { throw .badLayout(problem) }
        return try image.withRows { rows throws(TextureFeatureError) in try extract(rows: rows) }
    }

    /// The descriptor of rows that may still be decoding: `describe(checkedRows:)`. Equal
    /// to `extract(_:)` of the finished image.
    ///
    /// - Throws: `TextureFeatureError` for fewer than 3 channels (the colour features need
    ///   R, G, B), a side below `minimumSide` or a shape beyond `maximumAspectRatio`.
    ///   `shared`: the results of the capture's other methods the descriptor may read
    ///   (`describe(checkedRows:shared:)`); the vector is the same with or without them.
    public static func extract(rows: ImageRows, shared: SharedResults? = nil) throws(TextureFeatureError) -> Vector {
        guard rows.channels >= 3 else { throw .notColour(channels: rows.channels) }
        guard rows.width >= minimumSide, rows.height >= minimumSide else {
            throw .tooSmall(width: rows.width, height: rows.height, minimum: minimumSide)
        }
        if let limit = maximumAspectRatio,
            Swift.max(rows.width, rows.height) > limit * Swift.min(rows.width, rows.height)
        {
            throw .tooElongated(width: rows.width, height: rows.height, maximum: limit)
        }
        return describe(checkedRows: rows, shared: shared)
    }
}
