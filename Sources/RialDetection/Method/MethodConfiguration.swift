/// The constants of one detection method: its section of the configuration file
/// (`PipelineConfiguration`), keyed by the method's identifier.
///
/// `init()` gives the compiled-in defaults; decoding fills the keys a file leaves out
/// from them (overlay); `validate()` refuses values the analysis is not defined for and
/// names the key (relative to the section: `tile_size`).
public protocol MethodConfiguration: Sendable, Equatable, Codable {
    /// The compiled-in defaults.
    init()
    /// - Throws: `ConfigurationError` naming the first offending key.
    func validate() throws(ConfigurationError)
    /// The defaults with every optional value filled (an optional that is nil is not
    /// encoded), so that the configuration-file reader knows all of the section's keys.
    /// Default: `init()`, for a configuration without optional values.
    static var exemplar: Self { get }
}

extension MethodConfiguration {
    public static var exemplar: Self { Self() }
}
