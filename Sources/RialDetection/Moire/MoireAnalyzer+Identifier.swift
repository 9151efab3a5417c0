extension MethodIdentifier {
    /// `moire/1`: screen moire from peaks of the tiled luma power spectrum (`MoireAnalyzer`).
    public static let moireV1 = MethodIdentifier(literal: "moire", version: 1)
}
