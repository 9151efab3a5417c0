extension MethodIdentifier {
    /// `moire/2`: screen moire as phones record it, chromatic bands at a resolution-normalised
    /// scale plus `moire/1`'s peaks (`MoireAnalyzerV2`).
    public static let moireV2 = MethodIdentifier(literal: "moire", version: 2)
}
