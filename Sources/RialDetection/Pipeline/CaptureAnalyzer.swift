import Foundation
import RialMedia

/// Runs the configured detection methods on one capture, aggregates their scores and
/// builds the evidence package (specs/methods.md sections 7 and 8). Never throws on
/// input: a method that cannot run reports `unavailable` with its reason, and
/// aggregation renormalises over the methods that scored.
///
/// Methods run concurrently (one task each) when `concurrent` is true; a dataset
/// runner that already keeps every core busy with whole samples passes false.
public struct CaptureAnalyzer: Sendable {
    public let configuration: PipelineConfiguration
    let depthV1: DepthAnalyzerV1
    let depthV2: DepthAnalyzerV2
    let parallaxV1: ParallaxAnalyzer
    let moireV1: MoireAnalyzer
    let textureV1: TextureAnalyzer
    let artifactsV1: ArtifactAnalyzer
    let aggregator: ConfidenceAggregator

    /// - Throws: `ConfigurationError` naming the key when `configuration` is invalid.
    public init(configuration: PipelineConfiguration = .standard) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        depthV1 = try DepthAnalyzerV1(configuration: configuration.depthV1)
        depthV2 = try DepthAnalyzerV2(configuration: configuration.depthV2)
        parallaxV1 = try ParallaxAnalyzer(configuration: configuration.parallaxV1)
        moireV1 = try MoireAnalyzer(configuration: configuration.moireV1)
        textureV1 = try TextureAnalyzer(configuration: configuration.textureV1)
        artifactsV1 = try ArtifactAnalyzer(configuration: configuration.artifactsV1)
        aggregator = try ConfidenceAggregator(configuration: configuration.aggregation)
    }

    /// The full analysis of `input` under the configuration's profile, or `profile` when given.
    ///
    /// - Throws: `ConfigurationError` (key `profile`) only for an unknown profile name.
    public func analyze(_ input: CaptureInput, profile: String? = nil,
                        concurrent: Bool = true) throws(ConfigurationError) -> CaptureAnalysis {
        let profileName = profile ?? configuration.profile
        let weights: AggregationProfile
        do { weights = try configuration.aggregation.profile(named: profileName) } catch {
            throw ConfigurationError(key: "profile", "'\(profileName)' is not a profile (known: "
                                     + configuration.aggregation.profiles.keys.sorted().joined(separator: ", ") + ")")
        }
        let clock = ContinuousClock()
        let start = clock.now

        let payloadFamilies = Set(input.payload?.outcomes.map(\.family) ?? [])
        let local = configuration.methods.filter { method in
            guard let family = MethodFamily(method) else { return false }
            return !payloadFamilies.contains(family)
        }
        var outcomes = run(local, on: input, concurrent: concurrent)
        outcomes += input.payload?.outcomes ?? []

        // Aggregation: the configured version of each family, payload results in place of local ones.
        var aggregated: [MethodOutcome] = []
        for family in MethodFamily.allCases {
            if let fromPayload = outcomes.first(where: { $0.family == family && $0.source == .payload }) {
                aggregated.append(fromPayload)
            } else if let method = configuration.aggregateWith[family],
                      let outcome = outcomes.first(where: { $0.key == method.description }) {
                aggregated.append(outcome)
            }
        }
        let aggregation = aggregator.aggregate(inputs: aggregationInputs(aggregated, attestation: input.attestation),
                                               attestation: input.attestation, profile: weights)
        let total = max(0, (clock.now - start).milliseconds)

        let evidence = Self.evidence(input: input, outcomes: outcomes, aggregated: aggregated, aggregation: aggregation,
                                     profileName: profileName, profile: weights, configuration: configuration,
                                     totalMs: total)
        return CaptureAnalysis(outcomes: outcomes, aggregated: aggregated.map(\.key), aggregation: aggregation,
                               evidence: evidence, totalMs: total)
    }

    /// Runs `methods` (in order), concurrently when asked. Results keep the order of `methods`.
    ///
    /// Concurrent tasks start longest first (`expectedCost`): with fewer cores than
    /// methods, a long method started last would finish alone while the other cores idle
    /// (greedy longest-processing-time scheduling; on two cores the 12 MP capture's methods
    /// then end about 2 ms sooner than in catalogue order). Which method runs first changes
    /// no result.
    func run(_ methods: [MethodIdentifier], on input: CaptureInput, concurrent: Bool) -> [MethodOutcome] {
        let slots = OutcomeSlots(count: methods.count)
        if concurrent && methods.count > 1 {
            let order = methods.indices.sorted { a, b in
                let ca = Self.expectedCost(methods[a], input), cb = Self.expectedCost(methods[b], input)
                return ca != cb ? ca > cb : a < b
            }
            DispatchQueue.concurrentPerform(iterations: order.count) { task in
                let index = order[task]
                slots.set(index, self.outcome(of: methods[index], on: input))
            }
        } else {
            for index in methods.indices { slots.set(index, outcome(of: methods[index], on: input)) }
        }
        return slots.values
    }

    /// Rough single-core cost of `method` on `input`, milliseconds of a release build on
    /// the benchmark machine (`rial-bench bench`, 12 MP capture): only its order matters,
    /// for `run`'s scheduling. Methods whose input is missing cost 0 (they return at once).
    static func expectedCost(_ method: MethodIdentifier, _ input: CaptureInput) -> Double {
        switch method {
        case .moireV1: return 11
        case .parallaxV1: return input.right == nil ? 0 : 9
        case .artifactsV1: return 8
        case .depthV2: return input.depth == nil ? 0 : 3
        case .textureV1: return 2.3
        case .depthV1: return input.depth == nil ? 0 : 0.4
        default: return 0
        }
    }

    /// One method on one capture, timed by the method itself (benchmarks call this).
    public func analyzeMethod(_ method: MethodIdentifier, on input: CaptureInput) -> MethodOutcome {
        outcome(of: method, on: input)
    }

    /// Aggregates already computed outcomes under the configured profile (benchmarks time this).
    public func aggregate(_ outcomes: [MethodOutcome], attestation: AttestationEvidence) -> AggregationResult {
        let weights = (try? configuration.aggregation.profile(named: configuration.profile))
            ?? AggregationProfile(primary: nil, weights: [:])
        return aggregator.aggregate(inputs: aggregationInputs(outcomes, attestation: attestation),
                                    attestation: attestation, profile: weights)
    }

    /// The aggregator's inputs: one per outcome, plus attestation as a weighted signal
    /// (scored by `attestation_scores`, unavailable when not passed or failed).
    func aggregationInputs(_ outcomes: [MethodOutcome], attestation: AttestationEvidence) -> [AggregationInput] {
        let score = configuration.attestationScores.score(for: attestation)
        return outcomes.map(\.aggregationInput) + [score.map { .scored(.attestation, $0) } ?? .unavailable(.attestation)]
    }

    /// One method on one capture.
    func outcome(of method: MethodIdentifier, on input: CaptureInput) -> MethodOutcome {
        switch method {
        case .depthV1:
            guard let depth = input.depth else { return .missingInput(method, "no depth map") }
            return MethodOutcome(computed: depthV1.analyze(depth))
        case .depthV2:
            guard let depth = input.depth else { return .missingInput(method, "no depth map") }
            let luma = Self.lumaGuide(input.image, depthWidth: depth.width, depthHeight: depth.height)
            return MethodOutcome(computed: depthV2.analyze(depth, luma: luma, intrinsics: input.depthIntrinsics))
        case .parallaxV1:
            guard let right = input.right else { return .missingInput(method, "no second camera view") }
            return MethodOutcome(computed: parallaxV1.analyze(left: input.image, right: right, focalPx: input.focalPx,
                                                              baselineMm: input.baselineMm))
        case .moireV1:
            return MethodOutcome(computed: moireV1.analyze(input.image))
        case .textureV1:
            return MethodOutcome(computed: textureV1.analyze(input.image))
        case .artifactsV1:
            return MethodOutcome(computed: artifactsV1.analyze(input.image))
        default:
            return .missingInput(method, "\(method) is not implemented in this build")
        }
    }

    /// A luma image at twice the depth grid for depth/2's edge alignment, each pixel the
    /// mean of a 2x2 group of image pixels at its centre: O(depth pixels), not O(image
    /// pixels), so a 12 MP photo costs the same as a small one. Nil for images smaller
    /// than that grid (depth/2 then resamples the full image itself).
    static func lumaGuide(_ image: Image8, depthWidth: Int, depthHeight: Int) -> PlanarImage? {
        let width = 2 * depthWidth, height = 2 * depthHeight
        guard image.width >= 2 * width, image.height >= 2 * height, width > 0, height > 0 else { return nil }
        let channels = image.channels
        var out = [Float](repeating: 0, count: width * height)
        image.samples.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let sy = min(image.height - 2, (2 * y + 1) * image.height / (2 * height))
                for x in 0..<width {
                    let sx = min(image.width - 2, (2 * x + 1) * image.width / (2 * width))
                    var sum: Float = 0
                    for dy in 0..<2 {
                        let row = (sy + dy) * image.width
                        for dx in 0..<2 {
                            let p = (row + sx + dx) * channels
                            if channels >= 3 {
                                let r: Float = 0.299 * Float(src[p])
                                let g: Float = 0.587 * Float(src[p + 1])
                                let b: Float = 0.114 * Float(src[p + 2])
                                sum += r + g + b
                            } else {
                                sum += Float(src[p])
                            }
                        }
                    }
                    out[y * width + x] = sum / 4
                }
            }
        }
        return PlanarImage(width: width, height: height, channels: 1, data: out)
    }
}

/// Results written by concurrent tasks into their own slot.
private final class OutcomeSlots: @unchecked Sendable {
    private var storage: [MethodOutcome?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ outcome: MethodOutcome) {
        lock.lock()
        storage[index] = outcome
        lock.unlock()
    }

    var values: [MethodOutcome] {
        lock.lock()
        defer { lock.unlock() }
        return storage.compactMap { $0 }
    }
}

extension MethodOutcome {
    /// A method that could not start because its input is missing.
    static func missingInput(_ method: MethodIdentifier, _ reason: String) -> MethodOutcome {
        let summary = MethodResultSummary(status: .unavailable, unavailableReason: reason, algorithmVersion: method,
                                          analysisTimeMs: 0, score: nil)
        return MethodOutcome(key: method.description, family: MethodFamily(method) ?? .depth, source: .computed,
                             summary: summary, fields: jsonObject(of: summary))
    }
}
