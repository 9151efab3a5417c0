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
    ///
    /// `rows`: the outcomes `analyzeRows` computed while `input.image` was decoding
    /// (with the same depth, intrinsics and payload); those methods are not run again,
    /// and `totalMs` counts from the start of the row analysis.
    public func analyze(_ input: CaptureInput, profile: String? = nil, concurrent: Bool = true,
                        rows: RowAnalysis? = nil) throws(ConfigurationError) -> CaptureAnalysis {
        let profileName = profile ?? configuration.profile
        let weights: AggregationProfile
        do { weights = try configuration.aggregation.profile(named: profileName) } catch {
            throw ConfigurationError(key: "profile", "'\(profileName)' is not a profile (known: "
                                     + configuration.aggregation.profiles.keys.sorted().joined(separator: ", ") + ")")
        }
        let clock = ContinuousClock()
        let start = rows?.start ?? clock.now

        let local = localMethods(payload: input.payload)
        let done = rows?.outcomes ?? [:]
        let computed = run(local.filter { done[$0] == nil }, on: input, concurrent: concurrent)
        var next = computed.makeIterator()
        var outcomes = local.compactMap { done[$0] ?? next.next() }
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

    /// The configured methods this capture runs itself: those of families the payload
    /// does not supply.
    func localMethods(payload: DetectionPayload?) -> [MethodIdentifier] {
        let payloadFamilies = Set(payload?.outcomes.map(\.family) ?? [])
        return configuration.methods.filter { method in
            guard let family = MethodFamily(method) else { return false }
            return !payloadFamilies.contains(family)
        }
    }

    /// Runs the methods that read the image in row order (depth/1, depth/2, moire/1,
    /// texture/1, artifacts/1, as configured and not supplied by `payload`) on rows that
    /// may still be decoding: each waits for the rows it needs, so on a machine with a
    /// free core most of their work overlaps the decode. Pass the result to
    /// `analyze(_:profile:concurrent:rows:)` with the finished image, which runs the
    /// rest (parallax/1 needs the whole image and its pair) and aggregates.
    ///
    /// Concurrent on streamed rows, every method gets its own thread and a reader slot
    /// (`ImageRows.withReaderSlot`): while the image decodes they take turns on the cores
    /// the decoder leaves free, each computing whenever its rows are there; the depth
    /// methods start first, as they need no rows until depth/2's last step. On rows
    /// already in memory they run as `analyze` runs them.
    ///
    /// Outcomes equal those of `analyze` on the finished image, except `analysis_time_ms`,
    /// which includes the time a method waited for rows or for a slot.
    public func analyzeRows(_ rows: ImageRows, depth: DepthMap?,
                            depthIntrinsics: DepthAnalyzerV2.CameraIntrinsics? = nil,
                            payload: DetectionPayload? = nil, concurrent: Bool = true) -> RowAnalysis {
        let start = ContinuousClock().now
        let methods = localMethods(payload: payload).filter(Self.readsRows)
        let slots = TaskResults<MethodOutcome>(count: methods.count)
        @Sendable func one(_ index: Int, _ rows: ImageRows) {
            let method = methods[index]
            let outcome: MethodOutcome
            switch method {
            case .depthV1:
                guard let depth else { outcome = .missingInput(method, "no depth map"); break }
                outcome = MethodOutcome(computed: depthV1.analyze(depth))
            case .depthV2:
                guard let depth else { outcome = .missingInput(method, "no depth map"); break }
                outcome = MethodOutcome(computed: depthV2.analyze(depth, lumaWhenNeeded: {
                    Self.lumaGuide(rows, depthWidth: depth.width, depthHeight: depth.height)
                }, intrinsics: depthIntrinsics))
            case .moireV1:
                outcome = MethodOutcome(computed: moireV1.analyze(rows: rows))
            case .textureV1:
                outcome = MethodOutcome(computed: textureV1.analyze(rows: rows))
            default:
                outcome = MethodOutcome(computed: artifactsV1.analyze(rows: rows))
            }
            slots.set(index, outcome)
        }
        if concurrent && methods.count > 1 && rows.isStreamed {
            // Depth first: it needs no rows to begin with. Slot priority: the longest
            // method first (its last tiles are the last work).
            let order = methods.indices.sorted { a, b in
                let da = MethodFamily(methods[a]) == .depth, db = MethodFamily(methods[b]) == .depth
                return da != db ? da : a < b
            }
            rows.concurrently(order.count, priority: {
                Int(10 * Self.expectedCost(methods[order[$0]], depth: depth != nil, right: false))
            }) { task, reader in one(order[task], reader) }
        } else if concurrent && methods.count > 1 {
            let order = Self.longestFirst(methods, depth: depth != nil, right: false)
            DispatchQueue.concurrentPerform(iterations: order.count) { one(order[$0], rows) }
        } else {
            rows.withReaderSlot { reader in
                for index in methods.indices { one(index, reader) }
            }
        }
        return RowAnalysis(outcomes: Dictionary(uniqueKeysWithValues: zip(methods, slots.values)), start: start)
    }

    /// Whether `analyzeRows` runs `method`.
    static func readsRows(_ method: MethodIdentifier) -> Bool {
        switch method {
        case .depthV1, .depthV2, .moireV1, .textureV1, .artifactsV1: return true
        default: return false
        }
    }

    /// Runs `methods` (in order), concurrently when asked. Results keep the order of `methods`.
    ///
    /// Concurrent tasks start longest first (`expectedCost`): with fewer cores than
    /// methods, a long method started last would finish alone while the other cores idle
    /// (greedy longest-processing-time scheduling; on two cores the 12 MP capture's methods
    /// then end about 2 ms sooner than in catalogue order). Which method runs first changes
    /// no result.
    func run(_ methods: [MethodIdentifier], on input: CaptureInput, concurrent: Bool) -> [MethodOutcome] {
        let slots = TaskResults<MethodOutcome>(count: methods.count)
        if concurrent && methods.count > 1 {
            let order = Self.longestFirst(methods, depth: input.depth != nil, right: input.right != nil)
            DispatchQueue.concurrentPerform(iterations: order.count) { task in
                let index = order[task]
                slots.set(index, self.outcome(of: methods[index], on: input))
            }
        } else {
            for index in methods.indices { slots.set(index, outcome(of: methods[index], on: input)) }
        }
        return slots.values
    }

    /// Indices of `methods`, longest `expectedCost` first (ties in their given order).
    static func longestFirst(_ methods: [MethodIdentifier], depth: Bool, right: Bool) -> [Int] {
        methods.indices.sorted { a, b in
            let ca = expectedCost(methods[a], depth: depth, right: right)
            let cb = expectedCost(methods[b], depth: depth, right: right)
            return ca != cb ? ca > cb : a < b
        }
    }

    /// Rough single-core cost of `method` on a capture with (`depth`) a depth map and
    /// (`right`) a second view, milliseconds of a release build on the benchmark machine
    /// (`rial-bench bench`, 12 MP capture): only its order matters, for scheduling.
    /// Methods whose input is missing cost 0 (they return at once).
    static func expectedCost(_ method: MethodIdentifier, depth: Bool, right: Bool) -> Double {
        switch method {
        case .moireV1: return 7.1
        case .parallaxV1: return right ? 9 : 0
        case .artifactsV1: return 6
        case .depthV2: return depth ? 3.2 : 0
        case .textureV1: return 1.9
        case .depthV1: return depth ? 0.4 : 0
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
            let luma = input.image.sampleLayoutProblem != nil ? nil : input.image.withRows {
                Self.lumaGuide($0, depthWidth: depth.width, depthHeight: depth.height)
            }
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
    static func lumaGuide(_ image: ImageRows, depthWidth: Int, depthHeight: Int) -> PlanarImage? {
        let width = 2 * depthWidth, height = 2 * depthHeight
        guard image.width >= 2 * width, image.height >= 2 * height, width > 0, height > 0 else { return nil }
        let channels = image.channels
        var out = [Float](repeating: 0, count: width * height)
        // Source columns once, not a division per pixel.
        let columns = (0..<width).map { min(image.width - 2, (2 * $0 + 1) * image.width / (2 * width)) }
        do {
            let src = image.samples
            for y in 0..<height {
                let sy = min(image.height - 2, (2 * y + 1) * image.height / (2 * height))
                image.waitForRows(sy + 2)
                for x in 0..<width {
                    let sx = columns[x]
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

/// The outcomes `CaptureAnalyzer.analyzeRows` computed while an image was decoding.
public struct RowAnalysis: Sendable {
    /// One outcome per method that ran.
    public let outcomes: [MethodIdentifier: MethodOutcome]
    /// When the row analysis (and the decode beside it) started.
    public let start: ContinuousClock.Instant
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
