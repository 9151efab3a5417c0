import Foundation

/// Everything that decides a capture's analysis: which algorithm versions run, every
/// method's constants, the aggregation weights, thresholds, level boundaries and caps,
/// how attestation scores, the metadata checks and the decision threshold. Tuning these
/// against labelled data is what rial-bench is for, so none of it is code.
///
/// JSON/YAML layout (snake_case; a method's section is keyed by its identifier):
/// ```yaml
/// format: rial-bench-config/1
/// profile: ios_pro
/// methods: [depth/1, depth/2, ...]        # what runs
/// aggregate_with: {depth: depth/2, ...}  # which result of a family feeds aggregation
/// depth/1: {...}                          # DepthAnalyzerV1.Configuration
/// depth/2: {...}                          # DepthAnalyzerV2.Configuration
/// parallax/1, moire/1, texture/1, artifacts/1: {...}
/// aggregation: {...}                      # AggregationConfiguration
/// attestation_scores: {...}
/// metadata: {...}
/// decision: {...}
/// ```
/// Decoding accepts a partial object: a missing key keeps its compiled-in default, at
/// every depth. Unknown keys are refused by the configuration-file reader (RialEval),
/// which knows the file; `validate()` refuses out-of-range values and names the key.
public struct PipelineConfiguration: Sendable, Equatable, Codable {
    /// The format tag written by `config print`: `rial-bench-config/1`.
    public static let formatName = "rial-bench-config/1"

    /// Must be `rial-bench-config/1`.
    public var format: String = Self.formatName
    /// Aggregation profile used unless the caller names another. `ios_pro`.
    public var profile: String = AggregationProfile.iosProName
    /// The algorithm versions that run, in order. Default: every implemented one.
    public var methods: [MethodIdentifier] = MethodCatalog.implemented
    /// For each family, the version whose result feeds aggregation (it must be in
    /// `methods`). Default: the newest version of each family. A family that is
    /// missing here is reported but not aggregated.
    public var aggregateWith: [MethodFamily: MethodIdentifier] = MethodCatalog.defaultAggregated
    /// `depth/1` constants (the deployed reference).
    public var depthV1 = DepthAnalyzerV1.Configuration()
    /// `depth/2` constants.
    public var depthV2 = DepthAnalyzerV2.Configuration()
    /// `parallax/1` constants.
    public var parallaxV1 = ParallaxAnalyzer.Configuration()
    /// `moire/1` constants.
    public var moireV1 = MoireAnalyzer.Configuration()
    /// `texture/1` constants (the model itself is compiled in; see `rial-bench train texture`).
    public var textureV1 = TextureAnalyzer.Configuration()
    /// `artifacts/1` constants.
    public var artifactsV1 = ArtifactAnalyzer.Configuration()
    /// Weights, cross-validation, levels and caps.
    public var aggregation = AggregationConfiguration()
    /// The score hardware attestation contributes where a profile weights it.
    public var attestationScores = AttestationScores()
    /// Metadata checks of the evidence package.
    public var metadata = MetadataChecks.Configuration()
    /// Binary decisions for evaluation and `is_likely_real_scene`.
    public var decision = DecisionConfiguration()

    /// The compiled-in defaults.
    public static let standard = PipelineConfiguration()

    public init() {}

    enum CodingKeys: String, CodingKey {
        case format, profile, methods
        case aggregateWith = "aggregate_with"
        case depthV1 = "depth/1"
        case depthV2 = "depth/2"
        case parallaxV1 = "parallax/1"
        case moireV1 = "moire/1"
        case textureV1 = "texture/1"
        case artifactsV1 = "artifacts/1"
        case aggregation
        case attestationScores = "attestation_scores"
        case metadata, decision
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = PipelineConfiguration()
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try c.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        format = try value(.format, d.format)
        profile = try value(.profile, d.profile)
        methods = try value(.methods, d.methods)
        aggregateWith = try value(.aggregateWith, d.aggregateWith)
        depthV1 = try value(.depthV1, d.depthV1)
        depthV2 = try value(.depthV2, d.depthV2)
        parallaxV1 = try value(.parallaxV1, d.parallaxV1)
        moireV1 = try value(.moireV1, d.moireV1)
        textureV1 = try value(.textureV1, d.textureV1)
        artifactsV1 = try value(.artifactsV1, d.artifactsV1)
        aggregation = try value(.aggregation, d.aggregation)
        attestationScores = try value(.attestationScores, d.attestationScores)
        metadata = try value(.metadata, d.metadata)
        decision = try value(.decision, d.decision)
    }

    /// Checks every section; the error's key is the dotted path in the file
    /// (`depth/2.sample_stride`, `aggregation.profiles.ios_pro.weights.moire`).
    public func validate() throws(ConfigurationError) {
        guard format == Self.formatName else {
            throw ConfigurationError(key: "format", "must be '\(Self.formatName)', got '\(format)'")
        }
        do { _ = try aggregation.profile(named: profile) } catch {
            throw ConfigurationError(key: "profile", "'\(profile)' is not a profile under aggregation.profiles "
                                     + "(known: \(aggregation.profiles.keys.sorted().joined(separator: ", ")))")
        }
        guard !methods.isEmpty else { throw ConfigurationError(key: "methods", "must name at least one method") }
        var seen = Set<MethodIdentifier>()
        for (index, method) in methods.enumerated() {
            guard MethodCatalog.implemented.contains(method) else {
                throw ConfigurationError(key: "methods[\(index)]", "'\(method)' is not implemented; known: "
                                         + MethodCatalog.implemented.map(\.description).joined(separator: ", "))
            }
            guard seen.insert(method).inserted else {
                throw ConfigurationError(key: "methods[\(index)]", "'\(method)' is listed twice")
            }
        }
        for family in aggregateWith.keys.sorted() {
            let method = aggregateWith[family]!
            guard method.name == family.rawValue else {
                throw ConfigurationError(key: "aggregate_with.\(family.rawValue)", "'\(method)' is not a \(family.rawValue) method")
            }
            guard methods.contains(method) else {
                throw ConfigurationError(key: "aggregate_with.\(family.rawValue)", "'\(method)' does not run; add it to methods")
            }
        }
        try section("depth/1") { () throws(ConfigurationError) in try depthV1.validate() }
        try section("depth/2") { () throws(ConfigurationError) in try depthV2.validate() }
        try section("parallax/1") { () throws(ConfigurationError) in try parallaxV1.validate() }
        try section("moire/1") { () throws(ConfigurationError) in try moireV1.validate() }
        try section("texture/1") { () throws(ConfigurationError) in try textureV1.validate() }
        try section("artifacts/1") { () throws(ConfigurationError) in try artifactsV1.validate() }
        try section("aggregation") { () throws(ConfigurationError) in try aggregation.validate() }
        try section("attestation_scores") { () throws(ConfigurationError) in try attestationScores.validate() }
        try section("metadata") { () throws(ConfigurationError) in try metadata.validate() }
        try section("decision") { () throws(ConfigurationError) in try decision.validate() }
    }

    private func section(_ key: String, _ check: () throws(ConfigurationError) -> Void) throws(ConfigurationError) {
        do { try check() } catch { throw error.prefixed(by: key) }
    }

    /// This configuration with `selection` applied, as `--method NAME/VERSION` does: for
    /// each family named in `selection`, only the selected versions run and the first
    /// one feeds aggregation; other families keep their settings.
    public func selecting(_ selection: [MethodIdentifier]) -> PipelineConfiguration {
        guard !selection.isEmpty else { return self }
        var copy = self
        let families = Set(selection.map(\.name))
        copy.methods = methods.filter { !families.contains($0.name) }
        for method in selection where !copy.methods.contains(method) { copy.methods.append(method) }
        copy.methods.sort { (MethodFamily($0) ?? .depth, $0.version) < (MethodFamily($1) ?? .depth, $1.version) }
        for method in selection.reversed() {
            if let family = MethodFamily(method) { copy.aggregateWith[family] = method }
        }
        return copy
    }
}
