/// One method's contribution to aggregation.
///
/// A method counts as scored when `available` is true and `score` is finite; anything
/// else (unavailable, failed, missing or NaN score) counts as not available, which is no
/// evidence either way. A finite score outside 0...1 is clamped into 0...1.
/// `screen_detected` / `print_detected` are read only from scored methods. JSON keys are
/// snake_case; the two detection booleans default to false when absent.
public struct AggregationInput: Sendable, Equatable, Codable {
    public var method: AggregationMethod
    public var available: Bool
    /// 0...1, 1 = consistent with a real scene.
    public var score: Double?
    /// The method saw a screen (e.g. moire peaks, flat screen-like depth).
    public var screenDetected: Bool
    /// The method saw a print.
    public var printDetected: Bool

    enum CodingKeys: String, CodingKey {
        case method, available, score
        case screenDetected = "screen_detected"
        case printDetected = "print_detected"
    }

    public init(
        method: AggregationMethod, available: Bool, score: Double?, screenDetected: Bool = false,
        printDetected: Bool = false
    ) {
        self.method = method
        self.available = available
        self.score = score
        self.screenDetected = screenDetected
        self.printDetected = printDetected
    }

    /// A scored method.
    public static func scored(
        _ method: AggregationMethod, _ score: Double, screen: Bool = false,
        print: Bool = false
    ) -> AggregationInput {
        AggregationInput(method: method, available: true, score: score, screenDetected: screen, printDetected: print)
    }

    /// A method that did not score.
    public static func unavailable(_ method: AggregationMethod) -> AggregationInput {
        AggregationInput(method: method, available: false, score: nil)
    }

    /// From a method's result: available exactly when `status == .completed`.
    public init(
        method: AggregationMethod, result: some MethodResult, screenDetected: Bool = false,
        printDetected: Bool = false
    ) {
        self.init(
            method: method, available: result.status == .completed, score: result.score,
            screenDetected: screenDetected, printDetected: printDetected)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(AggregationMethod.self, forKey: .method)
        available = try c.decode(Bool.self, forKey: .available)
        score = try c.decodeIfPresent(Double.self, forKey: .score)
        screenDetected = try c.decodeIfPresent(Bool.self, forKey: .screenDetected) ?? false
        printDetected = try c.decodeIfPresent(Bool.self, forKey: .printDetected) ?? false
    }
}
