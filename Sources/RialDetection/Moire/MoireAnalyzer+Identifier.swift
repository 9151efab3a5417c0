extension MethodIdentifier {
    /// `moire/1`: screen moire from peaks of the tiled luma power spectrum (`MoireAnalyzer`).
    public static let moireV1: MethodIdentifier = {
        // A literal that satisfies the documented grammar: this cannot fail.
        guard let identifier = try? MethodIdentifier(name: "moire", version: 1) else {
            preconditionFailure("moire/1 is a valid method identifier")
        }
        return identifier
    }()
}
