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
/// calibration: {moire/1: {kind: platt, a: -6.1, b: 3.2}}   # ScoreCalibration per method
/// privacy: {...}                          # PrivacyConfiguration (hash-only payloads)
/// provenance: {seed: "7", ...}           # free-form, ignored by the analysis
/// ```
/// The method sections are those of the configuration's `registry` (`MethodRegistry`):
/// each is the method's `Configuration`, read and written with `configuration[Method.self]`.
/// The other sections are `Settings`, reached directly (`configuration.decision`).
///
/// Decoding expects a complete object, as `encode` writes it (a method section that is
/// missing keeps that method's defaults, so runs written before a method existed still
/// load); the configuration-file reader (RialEval) lays a user's partial file over the
/// encoded defaults first and refuses unknown keys. `validate()` refuses out-of-range
/// values and names the key. The registry to decode with is taken from the decoder's
/// `userInfo[.methodRegistry]` (default: `MethodRegistry.standard`).
@dynamicMemberLookup
public struct PipelineConfiguration: Sendable, Equatable, Codable {
    /// The format tag written by `config print`: `rial-bench-config/1`.
    public static let formatName = "rial-bench-config/1"

    /// The sections other than the methods'.
    public var settings: Settings
    /// One section per registered method (`subscript(_:)`).
    public var methodSettings = MethodSettings()
    /// The methods this configuration knows: its method sections, what `methods` may name.
    public let registry: MethodRegistry

    /// The compiled-in defaults.
    public static let standard = PipelineConfiguration()

    /// The defaults of every method of `registry`: all of them run, the newest of each
    /// family feeds aggregation.
    public init(registry: MethodRegistry = .standard) {
        self.registry = registry
        settings = Settings(methods: registry.identifiers, aggregateWith: registry.newestByFamily)
    }

    /// The configuration with every optional value filled (`MethodConfiguration.exemplar`),
    /// so that all of its keys are encoded: what the configuration-file reader checks
    /// a file's keys against.
    public static func exemplar(registry: MethodRegistry = .standard) -> PipelineConfiguration {
        var c = PipelineConfiguration(registry: registry)
        c.methodSettings = .exemplars(of: registry)
        return c
    }

    /// A section other than the methods' (`configuration.decision.threshold`).
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Settings, Value>) -> Value {
        get { settings[keyPath: keyPath] }
        set { settings[keyPath: keyPath] = newValue }
    }

    /// The section of `method` (`configuration[MoireAnalyzer.self].tileSize`).
    public subscript<M: DetectionMethod>(_ method: M.Type) -> M.Configuration {
        get { methodSettings[method: method] }
        set { methodSettings[method: method] = newValue }
    }

    /// Every section but the methods': synthesized `Codable`, one key per property.
    public struct Settings: Sendable, Equatable, Codable {
        /// Must be `rial-bench-config/1`.
        public var format: String = PipelineConfiguration.formatName
        /// Aggregation profile used unless the caller names another. `ios_pro`.
        public var profile: String = AggregationProfile.iosProName
        /// The algorithm versions that run, in order. Default: every registered one.
        public var methods: [MethodIdentifier]
        /// For each family, the version whose result feeds aggregation (it must be in
        /// `methods`). Default: the newest version of each family. A family that is
        /// missing here is reported but not aggregated.
        public var aggregateWith: [MethodFamily: MethodIdentifier]
        /// Weights, cross-validation, levels and caps.
        public var aggregation = AggregationConfiguration()
        /// The score hardware attestation contributes where a profile weights it.
        public var attestationScores = AttestationScores()
        /// Metadata checks of the evidence package.
        public var metadata = MetadataChecks.Configuration()
        /// Binary decisions for evaluation and `is_likely_real_scene`.
        public var decision = DecisionConfiguration()
        /// Per-method score calibration, keyed by method identifier (`moire/1: {kind: platt,
        /// a: -6.1, b: 3.2}` or `{kind: isotonic, x: [...], y: [...]}`): applied to that
        /// method's score before aggregation; the method's own result keeps the raw score.
        /// Empty by default (no calibration).
        public var calibration: [String: ScoreCalibration] = [:]
        /// Privacy-mode (hash-only) payload verification: parity tolerances, the sound
        /// rule's caps (`PrivacyConfiguration`).
        public var privacy = PrivacyConfiguration()
        /// Free-form notes on where this configuration came from (a tuned file's data
        /// hashes, seed, objective). Printed back, never read by the analysis. Unset by default.
        public var provenance: [String: String]?

        init(methods: [MethodIdentifier], aggregateWith: [MethodFamily: MethodIdentifier]) {
            self.methods = methods
            self.aggregateWith = aggregateWith
        }

        enum CodingKeys: String, CodingKey {
            case format, profile, methods
            case aggregateWith = "aggregate_with"
            case aggregation
            case attestationScores = "attestation_scores"
            case metadata, decision, calibration, privacy, provenance
        }

        /// Synthesized decoding, except that `calibration` and `privacy` may be absent
        /// (configurations recorded in `results.json` before they existed): then they are
        /// empty and the defaults.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            format = try c.decode(String.self, forKey: .format)
            profile = try c.decode(String.self, forKey: .profile)
            methods = try c.decode([MethodIdentifier].self, forKey: .methods)
            aggregateWith = try c.decode([MethodFamily: MethodIdentifier].self, forKey: .aggregateWith)
            aggregation = try c.decode(AggregationConfiguration.self, forKey: .aggregation)
            attestationScores = try c.decode(AttestationScores.self, forKey: .attestationScores)
            metadata = try c.decode(MetadataChecks.Configuration.self, forKey: .metadata)
            decision = try c.decode(DecisionConfiguration.self, forKey: .decision)
            calibration = try c.decodeIfPresent([String: ScoreCalibration].self, forKey: .calibration) ?? [:]
            privacy = try c.decodeIfPresent(PrivacyConfiguration.self, forKey: .privacy) ?? PrivacyConfiguration()
            provenance = try c.decodeIfPresent([String: String].self, forKey: .provenance)
        }
    }

    public init(from decoder: any Decoder) throws {
        registry = decoder.userInfo[.methodRegistry] as? MethodRegistry ?? .standard
        settings = try Settings(from: decoder)
        methodSettings = try MethodSettings(from: decoder, registry: registry)
    }

    public func encode(to encoder: any Encoder) throws {
        try settings.encode(to: encoder)
        try methodSettings.encode(to: encoder, registry: registry)
    }

    /// Checks every section; the error's key is the dotted path in the file
    /// (`depth/2.sample_stride`, `aggregation.profiles.ios_pro.weights.moire`).
    public func validate() throws(ConfigurationError) {
        typealias Key = Settings.CodingKeys
        let s = settings
        guard s.format == Self.formatName else {
            throw ConfigurationError(key: Key.format.stringValue, "must be '\(Self.formatName)', got '\(s.format)'")
        }
        do { _ = try s.aggregation.profile(named: s.profile) } catch {
            throw ConfigurationError(
                key: Key.profile.stringValue,
                "'\(s.profile)' is not a profile under aggregation.profiles "
                    + "(known: \(s.aggregation.profiles.keys.sorted().joined(separator: ", ")))")
        }
        let methodsKey = Key.methods.stringValue
        guard !s.methods.isEmpty else { throw ConfigurationError(key: methodsKey, "must name at least one method") }
        var seen = Set<MethodIdentifier>()
        for (index, method) in s.methods.enumerated() {
            guard registry.method(method) != nil else {
                throw ConfigurationError(
                    key: "\(methodsKey)[\(index)]",
                    "'\(method)' is not implemented; known: "
                        + registry.identifiers.map(\.description).joined(separator: ", "))
            }
            guard seen.insert(method).inserted else {
                throw ConfigurationError(key: "\(methodsKey)[\(index)]", "'\(method)' is listed twice")
            }
        }
        for family in s.aggregateWith.keys.sorted() {
            let method = s.aggregateWith[family]!, key = "\(Key.aggregateWith.stringValue).\(family.rawValue)"
            guard method.name == family.rawValue else {
                throw ConfigurationError(key: key, "'\(method)' is not a \(family.rawValue) method")
            }
            guard s.methods.contains(method) else {
                throw ConfigurationError(key: key, "'\(method)' does not run; add it to methods")
            }
        }
        try methodSettings.validate(registry: registry)
        try section(.aggregation) { () throws(ConfigurationError) in try s.aggregation.validate() }
        try section(.attestationScores) { () throws(ConfigurationError) in try s.attestationScores.validate() }
        try section(.metadata) { () throws(ConfigurationError) in try s.metadata.validate() }
        try section(.decision) { () throws(ConfigurationError) in try s.decision.validate() }
        try section(.calibration) { () throws(ConfigurationError) in try validateCalibration() }
        try section(.privacy) { () throws(ConfigurationError) in try s.privacy.validate() }
    }

    /// Each key of `calibration` names a method of the registry (`moire/1`), and each map
    /// is valid (`ScoreCalibration.validate()`); keys relative to `calibration`.
    private func validateCalibration() throws(ConfigurationError) {
        for key in settings.calibration.keys.sorted() {
            let identifier: MethodIdentifier
            do { identifier = try MethodIdentifier(parsing: key) } catch {
                throw ConfigurationError(key: key, error.description)
            }
            guard registry.method(identifier) != nil else {
                throw ConfigurationError(
                    key: key,
                    "no such method; known: " + registry.identifiers.map(\.description).joined(separator: ", "))
            }
            do { try settings.calibration[key]!.validate() } catch { throw error.prefixed(by: key) }
        }
    }

    private func section(_ key: Settings.CodingKeys, _ check: () throws(ConfigurationError) -> Void)
        throws(ConfigurationError)
    {
        do { try check() } catch { throw error.prefixed(by: key.stringValue) }
    }

    /// This configuration with `selection` applied, as `--method NAME/VERSION` does: for
    /// each family named in `selection`, only the selected versions run and the first
    /// one feeds aggregation; other families keep their settings.
    public func selecting(_ selection: [MethodIdentifier]) -> PipelineConfiguration {
        guard !selection.isEmpty else { return self }
        var copy = self
        let families = Set(selection.map(\.name))
        copy.methods = settings.methods.filter { !families.contains($0.name) }
        for method in selection where !copy.methods.contains(method) { copy.methods.append(method) }
        copy.methods.sort { (MethodFamily($0) ?? .depth, $0.version) < (MethodFamily($1) ?? .depth, $1.version) }
        for method in selection.reversed() {
            if let family = MethodFamily(method) { copy.aggregateWith[family] = method }
        }
        return copy
    }
}

extension CodingUserInfoKey {
    /// The `MethodRegistry` a `PipelineConfiguration` decodes its method sections with.
    public static let methodRegistry: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "rial.methodRegistry") else {
            preconditionFailure("a non-empty raw value makes a key")
        }
        return key
    }()
}
