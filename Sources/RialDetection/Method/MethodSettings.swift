/// One configuration per detection method, by identifier: the method sections of a
/// `PipelineConfiguration`. A method without a stored section uses its defaults.
public struct MethodSettings: Sendable, Equatable {
    private var sections: [MethodIdentifier: any MethodConfiguration] = [:]

    public init() {}

    /// The configuration of `method` (its defaults when none is stored).
    public subscript<M: DetectionMethod>(method method: M.Type) -> M.Configuration {
        get { sections[M.identifier] as? M.Configuration ?? M.Configuration() }
        set { sections[M.identifier] = newValue }
    }

    /// The configuration of `method` as its protocol type.
    func section<M: DetectionMethod>(of method: M.Type) -> any MethodConfiguration {
        self[method: method]
    }

    public static func == (lhs: MethodSettings, rhs: MethodSettings) -> Bool {
        func equal<C: MethodConfiguration>(_ a: C, _ b: (any MethodConfiguration)?) -> Bool {
            (b as? C ?? C()) == a
        }
        for (identifier, section) in lhs.sections where !equal(section, rhs.sections[identifier]) { return false }
        for (identifier, section) in rhs.sections where !equal(section, lhs.sections[identifier]) { return false }
        return true
    }
}

extension MethodSettings {
    /// A coding key that is a method identifier (`depth/2`).
    struct SectionKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ identifier: MethodIdentifier) { stringValue = identifier.description }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes each method of `registry` from its section of `decoder`'s object (a
    /// missing section keeps the defaults: run folders written before a method existed
    /// still load).
    init(from decoder: any Decoder, registry: MethodRegistry) throws {
        let container = try decoder.container(keyedBy: SectionKey.self)
        for method in registry.methods {
            try decodeSection(of: method, from: container)
        }
    }

    private mutating func decodeSection<M: DetectionMethod>(
        of method: M.Type,
        from container: KeyedDecodingContainer<SectionKey>
    ) throws {
        if let section = try container.decodeIfPresent(M.Configuration.self, forKey: SectionKey(M.identifier)) {
            self[method: method] = section
        }
    }

    /// Encodes each method of `registry` under its identifier.
    func encode(to encoder: any Encoder, registry: MethodRegistry) throws {
        var container = encoder.container(keyedBy: SectionKey.self)
        for method in registry.methods {
            try container.encode(section(of: method), forKey: SectionKey(method.identifier))
        }
    }

    /// Every method of `registry` with its `MethodConfiguration.exemplar` (every optional
    /// key present).
    static func exemplars(of registry: MethodRegistry) -> MethodSettings {
        var settings = MethodSettings()
        func fill<M: DetectionMethod>(_ method: M.Type) { settings[method: method] = M.Configuration.exemplar }
        for method in registry.methods { fill(method) }
        return settings
    }

    /// Validates each method of `registry`; the error's key starts with the identifier
    /// (`depth/2.sample_stride`).
    func validate(registry: MethodRegistry) throws(ConfigurationError) {
        for method in registry.methods {
            do { try section(of: method).validate() } catch { throw error.prefixed(by: method.identifier.description) }
        }
    }
}
