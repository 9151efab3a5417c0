/// The detection methods a pipeline knows, in pipeline order: the one list that drives
/// the configuration sections, the analyzer's dispatch and scheduling, payload scoring,
/// report tables and the generated configuration docs.
///
/// `standard` is every method this build implements. A test or a tool can extend it
/// (`adding(_:)`) and hand the result to `PipelineConfiguration(registry:)`.
public struct MethodRegistry: Sendable, Equatable {
    /// Every registered method type, in pipeline order.
    public let methods: [any DetectionMethod.Type]

    /// Registers `methods` in this order.
    ///
    /// - Precondition: no identifier appears twice, and every identifier's name is a
    ///   `MethodFamily` (programming errors in the list, caught when it is built).
    public init(_ methods: [any DetectionMethod.Type]) {
        var seen = Set<MethodIdentifier>()
        for method in methods {
            precondition(seen.insert(method.identifier).inserted, "\(method.identifier) is registered twice")
            precondition(
                MethodFamily(method.identifier) != nil,
                "\(method.identifier): no MethodFamily '\(method.identifier.name)'")
        }
        self.methods = methods
    }

    /// Every method this build implements.
    public static let standard = MethodRegistry([
        DepthAnalyzerV1.self,
        DepthAnalyzerV2.self,
        ParallaxAnalyzer.self,
        ParallaxAnalyzerV2.self,
        MoireAnalyzer.self,
        MoireAnalyzerV2.self,
        TextureAnalyzer.self,
        Texture2Analyzer.self,
        Texture3Analyzer.self,
        Texture4Analyzer.self,
        ArtifactAnalyzer.self,
        ArtifactAnalyzerV2.self,
        TemporalAnalyzerV1.self,
        TemporalAnalyzerV2.self,
    ])

    /// This registry with `method` appended.
    public func adding(_ method: any DetectionMethod.Type) -> MethodRegistry {
        MethodRegistry(methods + [method])
    }

    /// Every registered `NAME/VERSION`, in pipeline order.
    public var identifiers: [MethodIdentifier] { methods.map { $0.identifier } }

    /// The method registered as `identifier`.
    public func method(_ identifier: MethodIdentifier) -> (any DetectionMethod.Type)? {
        methods.first { $0.identifier == identifier }
    }

    /// The method written `text` (`moire/1`), if registered.
    public func method(named text: String) -> (any DetectionMethod.Type)? {
        methods.first { $0.identifier.description == text }
    }

    /// The newest registered version of each family among those that aggregate by
    /// default (`DetectionMethod.aggregatesByDefault`; the newest of all when none of a
    /// family does): what feeds aggregation by default.
    public var newestByFamily: [MethodFamily: MethodIdentifier] {
        newestByFamily(preferring: { $0.aggregatesByDefault })
    }

    /// The version a phone's result of `family` without `algorithm_version` is read as:
    /// the newest registered one that reads such a payload
    /// (`DetectionMethod.readsUnversionedPayload`; the newest of all when none does).
    public func unversionedPayloadMethod(of family: MethodFamily) -> (any DetectionMethod.Type)? {
        newestByFamily(preferring: { $0.readsUnversionedPayload })[family].flatMap(method)
    }

    /// Per family, the newest version for which `isPreferred` holds, else the newest.
    private func newestByFamily(
        preferring isPreferred: (any DetectionMethod.Type) -> Bool
    ) -> [MethodFamily: MethodIdentifier] {
        var result: [MethodFamily: (identifier: MethodIdentifier, isPreferred: Bool)] = [:]
        for method in methods {
            let candidate = (identifier: method.identifier, isPreferred: isPreferred(method))
            if let current = result[method.family],
                current.isPreferred && !candidate.isPreferred
                    || current.isPreferred == candidate.isPreferred
                        && current.identifier.version >= candidate.identifier.version
            {
                continue
            }
            result[method.family] = candidate
        }
        return result.mapValues(\.identifier)
    }

    public static func == (lhs: MethodRegistry, rhs: MethodRegistry) -> Bool {
        lhs.identifiers == rhs.identifiers
    }
}
