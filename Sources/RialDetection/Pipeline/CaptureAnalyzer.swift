import Foundation
import RialMedia

/// Runs the configured detection methods on one capture, aggregates their scores and
/// builds the evidence package (specs/methods.md sections 7 and 8). Never throws on
/// input: a method that cannot run reports `unavailable` with its reason, and
/// aggregation renormalises over the methods that scored.
///
/// The methods are those of the configuration's `MethodRegistry`: the analyzer knows
/// none of them by name. It dispatches through `DetectionMethod`, runs those that read
/// rows while the photo decodes (`analyzeRows`) and the rest once it is there, and
/// schedules concurrent methods by their measured cost (`MeasuredCosts`).
///
/// Methods run concurrently (one task each) when `concurrent` is true; a dataset
/// runner that already keeps every core busy with whole samples passes false.
public struct CaptureAnalyzer: Sendable {
    public let configuration: PipelineConfiguration
    /// One instance per configured method.
    let instances: [MethodIdentifier: any DetectionMethod]
    /// Selection, calibration and aggregation of the outcomes.
    let aggregator: PipelineAggregator

    /// - Throws: `ConfigurationError` naming the key when `configuration` is invalid.
    public init(configuration: PipelineConfiguration = .standard) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        var instances: [MethodIdentifier: any DetectionMethod] = [:]
        for identifier in configuration.methods {
            guard let method = configuration.registry.method(identifier) else { continue }
            instances[identifier] = try Self.instance(of: method, configuration: configuration)
        }
        self.instances = instances
        aggregator = try PipelineAggregator(configuration: configuration)
    }

    private static func instance<M: DetectionMethod>(of method: M.Type, configuration: PipelineConfiguration)
        throws(ConfigurationError) -> any DetectionMethod
    {
        do { return try M(configuration: configuration[method]) } catch {
            throw error.prefixed(by: M.identifier.description)
        }
    }

    /// The full analysis of `input` under the configuration's profile, or `profile` when given.
    ///
    /// - Throws: `ConfigurationError` (key `profile`) only for an unknown profile name.
    ///
    /// `rows`: the outcomes `analyzeRows` computed while `input.image` was decoding
    /// (with the same depth, intrinsics and payload); those methods are not run again,
    /// and `totalMs` counts from the start of the row analysis.
    public func analyze(
        _ input: CaptureInput, profile: String? = nil, concurrent: Bool = true,
        rows: RowAnalysis? = nil
    ) throws(ConfigurationError) -> CaptureAnalysis {
        let profileName = profile ?? configuration.profile
        let weights = try aggregator.profile(named: profileName)
        let clock = ContinuousClock()
        let start = rows?.start ?? clock.now

        let local = localMethods(payload: input.payload, isVideo: input.depthKeyframes != nil)
        let done = rows?.outcomes ?? [:]
        let computed = MethodCapture.with(input) { capture in
            run(local.filter { done[$0] == nil }, on: capture, concurrent: concurrent)
        }
        var next = computed.makeIterator()
        var outcomes = local.compactMap { done[$0] ?? next.next() }
        outcomes += input.payload?.outcomes ?? []

        // Aggregation: the configured version of each family, payload results in place of
        // local ones, calibrated (`PipelineAggregator`, which `rescore` runs on records too).
        var candidates: [String: AggregationCandidate] = [:]
        for outcome in outcomes where candidates[outcome.key] == nil {
            candidates[outcome.key] = outcome.aggregationCandidate
        }
        // The metadata checks run before aggregation: a failed check reaches the level.
        let metadata = MetadataChecks(
            MetadataChecks.Input(
                captureTime: input.captureTime, referenceTime: input.referenceTime,
                deviceModel: input.deviceModel, exifModel: input.exifModel, width: input.image.width,
                height: input.image.height,
                optedOut: input.optedOut),
            configuration: configuration.metadata)
        let step = aggregator.aggregate(
            candidates, attestation: input.attestation, profile: weights, checks: metadata.statuses)
        let aggregated = step.aggregated.compactMap { key in outcomes.first { $0.key == key } }
        let total = max(0, (clock.now - start).milliseconds)

        let evidence = Self.evidence(
            input: input, outcomes: outcomes, aggregated: aggregated, aggregation: step.result, metadata: metadata,
            families: aggregator.familyEvidence(candidates, aggregated: step.aggregated),
            profileName: profileName, profile: weights, configuration: configuration,
            totalMs: total)
        return CaptureAnalysis(
            outcomes: outcomes, aggregated: step.aggregated, aggregation: step.result,
            evidence: evidence, totalMs: total)
    }

    /// The configured methods this capture runs itself: all of them, also those of
    /// families the payload supplies, except on a capture that is not a video the
    /// methods that need one (`DetectionMethod.needsVideo`): a photo's outcomes, records
    /// and reports are what they were before video methods existed. A usable payload result
    /// (`AggregationCandidate.replacesLocalMethods`) feeds aggregation in place of the
    /// local ones (`PipelineAggregator` step 1), and the local results stay in the
    /// breakdown as the reference re-computation the phone's scores are compared with
    /// (issue 14 item 6, `PayloadParity` in RialEval). A failed, unavailable or invalid
    /// payload entry stays in the breakdown with its reason but is no evidence, so the
    /// family's local result feeds aggregation.
    func localMethods(payload: DetectionPayload?, isVideo: Bool) -> [MethodIdentifier] {
        configuration.methods.filter { method in
            guard let type = configuration.registry.method(method) else { return false }
            return isVideo || !type.needsVideo
        }
    }

    /// Runs the methods that read the image in row order (`readsRowsWhileDecoding`, as
    /// configured) on rows that may still be decoding: each
    /// waits for the rows it needs, so on a machine with a free core most of their work
    /// overlaps the decode. Pass the result to `analyze(_:profile:concurrent:rows:)` with
    /// the finished image, which runs the rest (e.g. parallax/1 needs the whole image and
    /// its pair) and aggregates.
    ///
    /// Concurrent on streamed rows, every method gets its own thread and a reader slot
    /// (`ImageRows.withReaderSlot`): while the image decodes they take turns on the cores
    /// the decoder leaves free, each computing whenever its rows are there; the depth
    /// methods start first, as they need no rows until depth/2's last step. On rows
    /// already in memory they run as `analyze` runs them.
    ///
    /// Outcomes equal those of `analyze` on the finished image, except `analysis_time_ms`,
    /// which includes the time a method waited for rows or for a slot.
    public func analyzeRows(
        _ rows: ImageRows, depth: DepthMap?,
        depthIntrinsics: DepthAnalyzerV2.CameraIntrinsics? = nil,
        payload: DetectionPayload? = nil, concurrent: Bool = true
    ) -> RowAnalysis {
        let start = ContinuousClock().now
        // Row methods read the photo; the video methods (none reads rows) run in `analyze`.
        let methods = localMethods(payload: payload, isVideo: false).filter {
            instances[$0].map { type(of: $0).readsRowsWhileDecoding } ?? false
        }
        // Every reader's view of the rows (`concurrently`, `withReaderSlot`) is a copy of
        // these, so all share the values derived from them.
        let rows = rows.sharingDerivedValues()
        let capture = MethodCapture(
            rows: rows, image: nil, depth: depth, depthIntrinsics: depthIntrinsics,
            shared: sharedResults(for: methods))
        let outcomes: [MethodOutcome]
        if !rows.isStreamed {
            outcomes = run(methods, on: capture, concurrent: concurrent)
        } else if concurrent && methods.count > 1 {
            // Depth first: it needs no rows to begin with. Slot priority: the longest
            // method first (its last tiles are the last work).
            let order = methods.indices.sorted { a, b in
                let da = configuration.registry.method(methods[a])?.family == .depth
                let db = configuration.registry.method(methods[b])?.family == .depth
                return da != db ? da : a < b
            }
            let priorities = order.map { Int(10 * expectedCost(of: methods[$0], on: capture)) }
            let slots = Locked([MethodOutcome?](repeating: nil, count: methods.count))
            rows.concurrently(
                order.count, priority: { priorities[$0] },
                { task, reader in
                    let index = order[task]
                    let outcome = outcome(of: methods[index], on: capture.reading(reader))
                    slots.withLock { $0[index] = outcome }
                })
            outcomes = slots.withLock { $0.compactMap { $0 } }
        } else {
            // One after another, a method that reads others' results after them.
            let order = readersLast(methods)
            let computed = rows.withReaderSlot { reader in
                order.map { outcome(of: methods[$0], on: capture.reading(reader)) }
            }
            outcomes = zip(order, computed).sorted { $0.0 < $1.0 }.map(\.1)
        }
        return RowAnalysis(outcomes: Dictionary(uniqueKeysWithValues: zip(methods, outcomes)), start: start)
    }

    /// Runs `methods` (in order), concurrently when asked, sharing the results they read
    /// of each other (`sharedResults(for:)`) and the values they derive from the same rows
    /// (`ImageRows.sharingDerivedValues`). Results keep the order of `methods`.
    ///
    /// The methods that read others' results (`DetectionMethod.readsResultsOf`) run after
    /// the rest, so none ever waits: a worker blocked on a result could be the one that
    /// would have computed it. Concurrent tasks start longest first (`expectedCost`): with
    /// fewer cores than methods, a long method started last would finish alone while the
    /// other cores idle (greedy longest-processing-time scheduling). Which method runs
    /// first changes no result.
    func run(_ methods: [MethodIdentifier], on capture: MethodCapture, concurrent: Bool) -> [MethodOutcome] {
        let capture = capture.sharing(sharedResults(for: methods)).sharingDerivedValues()
        var outcomes = [MethodOutcome?](repeating: nil, count: methods.count)
        let (others, readers) = readersApart(methods)
        for round in [others, readers] {
            let subset = round.map { methods[$0] }
            var computed: [MethodOutcome]
            if concurrent && subset.count > 1 {
                // The workers take methods in this order, each the next one as soon as it is free.
                let order = longestFirst(subset, on: capture)
                let done = order.indices.concurrentMap { outcome(of: subset[order[$0]], on: capture) }
                computed = zip(order, done).sorted { $0.0 < $1.0 }.map(\.1)
            } else {
                computed = subset.map { outcome(of: $0, on: capture) }
            }
            for (index, outcome) in zip(round, computed) { outcomes[index] = outcome }
        }
        return outcomes.map { $0! }
    }

    /// Whether `method` reads the results of other methods of the capture.
    func isReader(_ method: MethodIdentifier) -> Bool {
        instances[method].map { !type(of: $0).readsResultsOf.isEmpty } ?? false
    }

    /// Indices of `methods`, the readers of others' results (`isReader`) after the rest,
    /// otherwise in their given order.
    func readersLast(_ methods: [MethodIdentifier]) -> [Int] {
        let (others, readers) = readersApart(methods)
        return others + readers
    }

    /// Indices of `methods` that do not read others' results and of those that do, each
    /// in their given order.
    func readersApart(_ methods: [MethodIdentifier]) -> (others: [Int], readers: [Int]) {
        let reads = methods.map(isReader)
        return (methods.indices.filter { !reads[$0] }, methods.indices.filter { reads[$0] })
    }

    /// The results `methods` share when they run on one capture (`SharedResults`): those
    /// of the methods among them that one of them reads and that analyse with their
    /// compiled-in constants (a reader's model was trained on those). Nil when none of
    /// them reads another's results. A reader is never shared with another reader, so
    /// no reader waits for one.
    func sharedResults(for methods: [MethodIdentifier]) -> SharedResults? {
        let read = Set(methods.flatMap { instances[$0].map { type(of: $0).readsResultsOf } ?? [] })
        let expected = methods.filter {
            read.contains($0) && !isReader($0) && instances[$0]?.usesStandardConfiguration == true
        }
        return expected.isEmpty ? nil : SharedResults(expected: Set(expected))
    }

    /// Indices of `methods`, longest `expectedCost` first (ties in their given order).
    func longestFirst(_ methods: [MethodIdentifier], on capture: MethodCapture) -> [Int] {
        let costs = methods.map { expectedCost(of: $0, on: capture) }
        return methods.indices.sorted { a, b in costs[a] != costs[b] ? costs[a] > costs[b] : a < b }
    }

    /// The measured single-core cost of `method` (`MeasuredCosts`), or 0 when `capture`
    /// lacks its input (it returns at once) or it was never measured: only the order
    /// matters, for scheduling.
    func expectedCost(of method: MethodIdentifier, on capture: MethodCapture) -> Double {
        guard let instance = instances[method], !instance.lacksInput(in: capture) else { return 0 }
        return MeasuredCosts.milliseconds[method.description] ?? 0
    }

    /// One method on one capture, timed by the method itself (benchmarks call this). A
    /// method that reads others' results (`DetectionMethod.readsResultsOf`) gets those a
    /// pipeline would share with it (`sharedResults(for:)`) computed first, untimed: its
    /// time is its own cost there.
    public func analyzeMethod(_ method: MethodIdentifier, on input: CaptureInput) -> MethodOutcome {
        MethodCapture.with(input) { capture in
            let read = instances[method].map { type(of: $0).readsResultsOf } ?? []
            guard let shared = sharedResults(for: read + [method]) else { return outcome(of: method, on: capture) }
            let sharing = capture.sharing(shared)
            for other in read where shared.expected.contains(other) { _ = outcome(of: other, on: sharing) }
            return outcome(of: method, on: sharing)
        }
    }

    /// Whether `input` has what `method` needs (false also when it is not configured).
    public func canRun(_ method: MethodIdentifier, on input: CaptureInput) -> Bool {
        guard let instance = instances[method] else { return false }
        return MethodCapture.with(input) { !instance.lacksInput(in: $0) }
    }

    /// Aggregates already computed outcomes under the configured profile, as `analyze`
    /// does (selection, calibration; benchmarks time this).
    public func aggregate(_ outcomes: [MethodOutcome], attestation: AttestationEvidence) -> AggregationResult {
        let weights =
            (try? configuration.aggregation.profile(named: configuration.profile))
            ?? AggregationProfile(primary: nil, weights: [:])
        var candidates: [String: AggregationCandidate] = [:]
        for outcome in outcomes where candidates[outcome.key] == nil {
            candidates[outcome.key] = outcome.aggregationCandidate
        }
        return aggregator.aggregate(candidates, attestation: attestation, profile: weights).result
    }

    /// One method on one capture.
    func outcome(of method: MethodIdentifier, on capture: MethodCapture) -> MethodOutcome {
        guard let instance = instances[method] else {
            return .missingInput(
                method, family: configuration.registry.method(method)?.family,
                "\(method) is not configured to run")
        }
        return instance.outcome(on: capture)
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
    static func missingInput(_ method: MethodIdentifier, family: MethodFamily?, _ reason: String) -> MethodOutcome {
        let summary = MethodResultSummary(
            status: .unavailable, unavailableReason: reason, algorithmVersion: method,
            analysisTimeMs: 0, score: nil)
        return MethodOutcome(
            key: method.description, family: family ?? MethodFamily(method) ?? .depth, source: .computed,
            summary: summary, fields: jsonObject(of: summary), detectedBy: nil)
    }
}
