/// The algorithm versions this build implements, in pipeline order.
public enum MethodCatalog {
    /// Every implemented `NAME/VERSION`.
    public static let implemented: [MethodIdentifier] = [.depthV1, .depthV2, .parallaxV1, .moireV1, .textureV1, .artifactsV1]

    /// The version of each family that feeds aggregation by default: the newest one.
    public static let defaultAggregated: [MethodFamily: MethodIdentifier] = {
        var result: [MethodFamily: MethodIdentifier] = [:]
        for method in implemented {
            guard let family = MethodFamily(method) else { continue }
            if let current = result[family], current.version >= method.version { continue }
            result[family] = method
        }
        return result
    }()

    /// The identifier written `text`, if this build implements it.
    public static func implementedMethod(_ text: String) -> MethodIdentifier? {
        implemented.first { $0.description == text }
    }
}
