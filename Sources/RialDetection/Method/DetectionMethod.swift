import RialMedia

/// One detection method: an algorithm version (`NAME/VERSION`) with its configuration,
/// its result, what it reads of a capture and how its result counts in aggregation.
///
/// Everything the pipeline and the evaluation need of a method is here, so adding one
/// is a folder with a conforming type and one line in `MethodRegistry.standard`:
/// - `identifier`, `family`, `summary`: what it is, the aggregation role it plays
///   (`MethodFamily.role`), what it looks at and its latency target (reports,
///   methodology, benchmark);
/// - `Configuration`: its section of the configuration file, keyed by `identifier`
///   (`PipelineConfiguration[_:]`), decoded, printed, documented and validated with
///   the rest;
/// - `input(from:)` and `readsRowsWhileDecoding`: what it needs and when it can start
///   (the analyzer schedules it and reports a missing input for it);
/// - `evaluate(_:)`: the analysis itself, untimed; `analyze(_:)` times it;
/// - `detections(in:)` and `payloadScore(_:)`: how its fields (computed here or sent by
///   a phone) say it saw a screen or a print, and how a phone's result becomes a score.
///
/// Conforming types never throw on input and never crash on it: whatever they cannot
/// analyse becomes a result with status `unavailable` and a reason (`MethodResult`).
public protocol DetectionMethod: Sendable {
    /// The method's constants: its section of the configuration file.
    associatedtype Configuration: MethodConfiguration
    /// What one analysis returns.
    associatedtype Result: MethodResult
    /// What the analysis reads (an image's rows, a depth map, a stereo pair, …), taken
    /// from a capture by `input(from:)`.
    associatedtype Input

    /// `NAME/VERSION`, the value of every result's `algorithm_version`.
    static var identifier: MethodIdentifier { get }
    /// The family (the `NAME` of the identifier), which fixes the aggregation role.
    static var family: MethodFamily { get }
    /// What the method looks at, what it cannot see, and its latency target.
    static var summary: MethodSummary { get }
    /// True when the method can run on a photo that is still decoding (it reads rows
    /// through `ImageRows.waitForRows`, or no image at all); false when it needs the
    /// finished photo (`MethodCapture.image`).
    static var readsRowsWhileDecoding: Bool { get }
    /// True when the method reads a video's depth keyframes (`MethodCapture.depthKeyframes`)
    /// and nothing a photo has: the analyzer does not run it on a capture that is not a
    /// video (keyframes nil), so a photo's results, evidence and reports never list it.
    /// Default: the family's (`MethodFamily.needsVideo`).
    static var needsVideo: Bool { get }
    /// False for a version that is registered for evaluation but is not its family's
    /// default: `MethodRegistry.newestByFamily` (the default `aggregate_with`) passes
    /// over it. Default: true.
    static var aggregatesByDefault: Bool { get }
    /// False for a version whose fields a phone does not send: a phone's result of the
    /// family without `algorithm_version` is then read as an older version
    /// (`MethodRegistry.unversionedPayloadMethod(of:)`). Default: `aggregatesByDefault`.
    static var readsUnversionedPayload: Bool { get }
    /// The methods whose results of the same capture this one reads
    /// (`MethodCapture.shared`, `SharedResults`) instead of computing them again; it
    /// computes them itself, with their standard constants, when they do not run or are
    /// configured otherwise. The analyzer runs a reader after them when it runs methods
    /// one after another. Default: none.
    static var readsResultsOf: [MethodIdentifier] { get }

    /// Checks the configuration and prepares whatever the analysis reuses.
    ///
    /// - Throws: `ConfigurationError` naming the offending key of the section.
    init(configuration: Configuration) throws(ConfigurationError)

    /// The constants this instance analyses with (validated).
    var configuration: Configuration { get }

    /// What this method reads of `capture`: its input, the reason it is missing (the
    /// outcome is then `unavailable` with that reason and no fields of the method's
    /// own), or a result decided without analysis (e.g. an unusable image).
    func input(from capture: MethodCapture) -> InputCheck<Input, Result>

    /// The analysis, untimed (`analysisTimeMs` is left 0). Never throws.
    func evaluate(_ input: Input) -> Result

    /// What `fields` (a result of this method as JSON, computed here or sent by a phone)
    /// say the capture shows. Only called for completed results.
    static func detections(in fields: JSONObject) -> Detections

    /// The score (0...1, 1 = real scene) of a phone's result of this family that has no
    /// `score` field of its own, from the phone's field names; nil when none can be
    /// derived (families the phone does not compute return nil).
    static func payloadScore(_ fields: JSONObject) -> Double?
}

extension DetectionMethod {
    /// The family named by the identifier: a method's identifier and family cannot disagree.
    public static var family: MethodFamily {
        guard let family = MethodFamily(identifier) else {
            preconditionFailure("\(identifier): '\(identifier.name)' is not a MethodFamily case")
        }
        return family
    }

    public static var needsVideo: Bool { family.needsVideo }

    public static var aggregatesByDefault: Bool { true }

    public static var readsUnversionedPayload: Bool { aggregatesByDefault }

    public static var readsResultsOf: [MethodIdentifier] { [] }

    /// True when this instance analyses with the compiled-in constants (its results can
    /// stand in for those a reader computes with them, `SharedResults`).
    var usesStandardConfiguration: Bool { configuration == Configuration() }

    /// `evaluate(_:)` timed with the monotonic clock (`analysis_time_ms`).
    public func analyze(_ input: Input) -> Result {
        let timer = AnalysisTimer()
        var result = evaluate(input)
        result.analysisTimeMs = timer.elapsedMilliseconds
        return result
    }

    /// The outcome of this method on `capture`: analysed and timed, decided without
    /// analysis, or unavailable for a missing input. The result is posted to
    /// `capture.shared` for the methods that read it (`SharedResults`).
    public func outcome(on capture: MethodCapture) -> MethodOutcome {
        let timer = AnalysisTimer()
        switch input(from: capture) {
        case .ready(let input):
            let result = analyze(input)
            capture.shared?.post(result, of: Self.self)
            return MethodOutcome(computed: result, of: Self.self)
        case .decided(var result):
            result.analysisTimeMs = timer.elapsedMilliseconds
            capture.shared?.post(result, of: Self.self)
            return MethodOutcome(computed: result, of: Self.self)
        case .missing(let reason):
            capture.shared?.post(nil, of: Self.self)
            return .missingInput(Self.identifier, family: Self.family, reason)
        }
    }

    /// Whether `capture` lacks what this method needs (it then returns at once).
    func lacksInput(in capture: MethodCapture) -> Bool {
        if case .missing = input(from: capture) { return true }
        return false
    }
}

extension DetectionMethod {
    /// The rows of the photo, or the method's own `unavailable` result when the photo's
    /// samples do not fit its size (an image method's input, or the rows in it).
    func imageRows(of capture: MethodCapture, unusable: (String) -> Result) -> InputCheck<ImageRows, Result> {
        guard let rows = capture.rows else { return .decided(unusable(capture.imageProblem ?? "no image")) }
        return .ready(rows)
    }

    /// An image method on a photo in memory, timed: `analyze(_:)` on its input, or the
    /// method's `unavailable` result when the photo's samples do not fit its size.
    func analyzeImage(_ image: Image8) -> Result {
        MethodCapture.withImage(image) { capture in
            switch input(from: capture) {
            case .ready(let input): return analyze(input)
            case .decided(let result): return result
            case .missing(let reason): preconditionFailure("an image method found no image: \(reason)")
            }
        }
    }
}

extension DetectionMethod where Input == ImageRows {
    /// Analyses a photo in memory and times it: `analyze(_:)` on its rows, or the
    /// method's `unavailable` result when its samples do not fit its size.
    public func analyze(_ image: Image8) -> Result { analyzeImage(image) }
}

/// What `DetectionMethod.input(from:)` found.
public enum InputCheck<Input, Result> {
    /// The same check with the input, when there is one, transformed.
    func map<T>(_ transform: (Input) -> T) -> InputCheck<T, Result> {
        switch self {
        case .ready(let input): .ready(transform(input))
        case .missing(let reason): .missing(reason)
        case .decided(let result): .decided(result)
        }
    }

    /// The input: analyse it.
    case ready(Input)
    /// The input is absent (no depth map, no second view): the outcome is `unavailable`
    /// with this reason.
    case missing(String)
    /// A result decided without analysis (e.g. the method's `unavailable` for an image
    /// whose samples do not fit its size).
    case decided(Result)
}

/// What a result says the capture shows (specs/methods.md section 7: screen and print
/// detections feed the aggregator's caps).
public struct Detections: Sendable, Equatable {
    public var screen: Bool
    public var print: Bool

    public init(screen: Bool = false, print: Bool = false) {
        self.screen = screen
        self.print = print
    }

    /// Nothing detected.
    public static let none = Detections()
}

extension JSONObject {
    /// True when `key` holds JSON `true`.
    func flag(_ key: String) -> Bool {
        if case .bool(true)? = self[key] { return true }
        return false
    }
}
