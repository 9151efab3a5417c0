import RialDetection

/// `PipelineAggregator.aggregate` compiled for one configuration and profile over the
/// columns of a run's aggregation sidecar (`AggregationColumns`): the numbers metrics and
/// reports read of every sample's aggregate (`AggregateOutputs`), without building a
/// record, a dictionary or a string per sample.
///
/// Every key, family, calibration, weight, cap and requirement is resolved to an index
/// once; a sample is then a pass over its columns with the steps of
/// `PipelineAggregator.aggregate` and `ConfidenceAggregator.aggregate` in their order and
/// with their arithmetic (sums in the same order), so the outputs equal theirs bit for
/// bit (`AggregationPlanTests`). What it does not produce: the strings of an aggregate
/// (`capsApplied`, the families' evidence), which only a materialised record needs
/// (`Rescorer.rescore`).
public struct AggregationPlan: Sendable {
    /// Aggregation methods in `AggregationMethod.allCases` order; a role is its index here.
    static let roles = AggregationMethod.allCases
    /// The roles in `AggregationMethod`'s own order (by raw value), as cross-validation sorts them.
    static let sortedRoles: [Int] = roles.indices.sorted { roles[$0] < roles[$1] }
    static let attestationRole = roles.firstIndex(of: .attestation)!

    let configuration: PipelineConfiguration
    /// Column count of the sidecar.
    let keyCount: Int
    /// Per sidecar key: its calibration, if any.
    let calibration: [ScoreCalibration?]
    /// Per family (`MethodFamily.allCases` order): the column of `aggregate_with`'s method, or -1.
    let aggregateWith: [Int]
    /// Columns that hold a payload result somewhere, in key order (`PipelineAggregator.selection`
    /// takes the first key by name).
    let payloadColumns: [Int]
    /// Per sidecar family code: the family's index in `MethodFamily.allCases` and its role.
    let familyIndex: [Int]
    let familyRole: [Int]
    /// Per role: the profile's weight (0 when none, not positive or not finite).
    let weight: [Double]
    let expectedWeighted: Int
    let primaryRole: Int
    let independent: [Bool]
    let uncertainty: [Double]
    /// Per attestation code (`status * methodCount + method`): what aggregation reads of it.
    let attestation: [AttestationEntry]
    let methodCount: Int
    /// Resolved cap ranks.
    let disagreementCap: Int, screenCap: Int, printCap: Int, metadataCap: Int, highUncertaintyCap: Int
    let profileCap: Int
    let decisionThreshold: Double

    struct AttestationEntry: Sendable {
        var score: Double?
        var capRank: Int
        /// Roles the requirement names (empty when none), its match and its resolved cap.
        var requirement: [Int]
        var matchAll: Bool
        var requirementCap: Int
        var hardware: EvidenceCheckStatus
        var rejected: Bool
    }

    /// - Throws: `ConfigurationError` when the configuration is invalid or names no profile `profile`.
    public init(configuration: PipelineConfiguration, profile name: String? = nil, columns: AggregationColumns)
        throws(ConfigurationError)
    {
        var configuration = configuration
        if let name { configuration.profile = name }
        let aggregator = try PipelineAggregator(configuration: configuration)
        let profile = try aggregator.profile(named: configuration.profile)
        self.configuration = configuration
        let c = configuration.aggregation
        keyCount = columns.keys.count
        calibration = columns.keys.map { configuration.calibration[$0] }
        aggregateWith = MethodFamily.allCases.map { family in
            configuration.aggregateWith[family].flatMap { columns.keys.firstIndex(of: $0.description) } ?? -1
        }
        payloadColumns = columns.keys.indices.filter { k in
            columns.flags[k].contains { $0 & AggregationColumns.Flag.payload != 0 }
        }
        .sorted { columns.keys[$0] < columns.keys[$1] }
        let families = columns.families.map { MethodFamily(rawValue: $0) }
        familyIndex = families.map { $0.flatMap { MethodFamily.allCases.firstIndex(of: $0) } ?? -1 }
        familyRole = families.map { $0.flatMap { Self.roles.firstIndex(of: $0.role) } ?? -1 }
        weight = Self.roles.map { role in
            guard let w = profile.weights[role], w > 0, w.isFinite else { return 0 }
            return w
        }
        expectedWeighted = profile.weightedMethods.count
        primaryRole = profile.primary.flatMap { Self.roles.firstIndex(of: $0) } ?? -1
        let independentSet = Set(c.crossValidation.independentMethods)
        independent = Self.roles.map { independentSet.contains($0) }
        uncertainty = Self.roles.map { c.crossValidation.methodUncertainty[$0] ?? 0 }
        methodCount = columns.attestationMethods.count
        var entries: [AttestationEntry] = []
        for status in 0...3 {
            for method in 0..<max(1, columns.attestationMethods.count) {
                let evidence: AttestationEvidence
                if status == 0 || columns.attestationMethods.isEmpty {
                    evidence = .missing
                } else if let m = AttestationMethod(rawValue: columns.attestationMethods[method]) {
                    evidence = AttestationEvidence(status: AggregationColumns.statusCodes[status - 1], method: m)
                } else {
                    evidence = .missing
                }
                var entry = AttestationEntry(
                    score: configuration.attestationScores.score(for: evidence),
                    capRank: c.resolved(c.attestationCaps.cap(for: evidence).level).rank, requirement: [],
                    matchAll: false, requirementCap: 0, hardware: MVPEvidenceRule.hardware(evidence),
                    rejected: evidence.isRejected)
                if let (r, _) = c.attestationRequirements.requirement(for: evidence) {
                    entry.requirement = r.methods.map { Self.roles.firstIndex(of: $0)! }
                    entry.matchAll = r.match == .all
                    entry.requirementCap = c.resolved(r.unmetCap).rank
                }
                entries.append(entry)
            }
        }
        attestation = entries
        disagreementCap = c.resolved(c.levelCaps.disagreement).rank
        screenCap = c.resolved(c.levelCaps.screen).rank
        printCap = c.resolved(c.levelCaps.print).rank
        metadataCap = c.resolved(c.levelCaps.metadataFail).rank
        highUncertaintyCap = c.resolved(c.crossValidation.highUncertaintyCap).rank
        profileCap = profile.maxLevel.map { c.resolved($0).rank } ?? Int.max
        decisionThreshold = configuration.decision.threshold(for: nil)
    }

    /// The outputs of every sample of `columns` (which must be the columns the plan was
    /// made for), on `jobs` workers.
    public func run(_ columns: AggregationColumns, jobs: Int) -> AggregateOutputs {
        let n = columns.count
        var out = AggregateOutputs(count: n)
        let parts = Swift.max(1, Swift.min(n, jobs * 8))
        let ranges = (0..<parts).map { p in p * n / parts..<(p + 1) * n / parts }
        let chunks = (0..<parts).concurrentMap(workers: jobs) { p -> AggregateOutputs in
            let range = ranges[p]
            var part = AggregateOutputs(count: range.count)
            var scratch = Scratch()
            for i in range { evaluate(columns, i, into: &part, at: i - range.lowerBound, scratch: &scratch) }
            return part
        }
        for (range, part) in zip(ranges, chunks) { out.replace(range, with: part) }
        return out
    }

    /// Per-worker buffers for one sample (no allocation per sample).
    struct Scratch {
        // Selected inputs (families, then attestation): role, available, score (NaN when
        // nil), screen, print, and whether the score is non-nil.
        var role = [Int](repeating: 0, count: 16)
        var available = [Bool](repeating: false, count: 16)
        var hasScore = [Bool](repeating: false, count: 16)
        var score = [Double](repeating: 0, count: 16)
        var screen = [Bool](repeating: false, count: 16)
        var print = [Bool](repeating: false, count: 16)
        // Scored entries (after dedupe and weights).
        var sRole = [Int](repeating: 0, count: 16)
        var sWeight = [Double](repeating: 0, count: 16)
        var sScore = [Double](repeating: 0, count: 16)
        var sDetected = [Bool](repeating: false, count: 16)
        // Per role: position in the scored list, or -1.
        var position = [Int](repeating: -1, count: AggregationPlan.roles.count)
    }

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    func evaluate(
        _ columns: AggregationColumns, _ i: Int, into out: inout AggregateOutputs, at o: Int, scratch s: inout Scratch
    ) {
        guard columns.status[i] == 0, columns.hasInputs[i] == 1 else { return }
        let c = configuration.aggregation
        typealias Flag = AggregationColumns.Flag
        // Selection (`PipelineAggregator.selection`) and the inputs, in family order.
        var count = 0
        var primarySelected = -1 // input index of the first selected key whose role is the profile's primary
        for (f, _) in MethodFamily.allCases.enumerated() {
            var chosen = -1
            for k in payloadColumns {
                let bits = columns.flags[k][i]
                guard bits & Flag.present != 0, bits & Flag.payload != 0, bits & Flag.available != 0,
                    bits & Flag.scored != 0, familyIndex[Int(columns.family[k][i])] == f,
                    (0...1).contains(columns.score[k][i])
                else { continue }
                chosen = k
                break
            }
            if chosen < 0, aggregateWith[f] >= 0, columns.flags[aggregateWith[f]][i] & Flag.present != 0 {
                chosen = aggregateWith[f]
            }
            guard chosen >= 0 else { continue }
            let bits = columns.flags[chosen][i]
            let role = familyRole[Int(columns.family[chosen][i])]
            s.role[count] = role
            s.available[count] = bits & Flag.available != 0
            s.hasScore[count] = bits & Flag.scored != 0
            var score = columns.score[chosen][i]
            if s.hasScore[count], let calibration = calibration[chosen] { score = calibration.apply(score) }
            s.score[count] = score
            s.screen[count] = bits & Flag.screen != 0
            s.print[count] = bits & Flag.print != 0
            if primarySelected < 0 && role == primaryRole { primarySelected = count }
            count += 1
        }
        let a = attestation[
            Int(columns.attestationStatus[i]) * Swift.max(1, methodCount) + Int(columns.attestationMethod[i])]
        s.role[count] = Self.attestationRole
        s.available[count] = a.score != nil
        s.hasScore[count] = a.score != nil
        s.score[count] = a.score ?? 0
        s.screen[count] = false
        s.print[count] = false
        count += 1
        var failedCheck = false
        if columns.hasChecks[i] == 1 {
            for k in columns.checks.indices where columns.checks[k][i] == 2 { failedCheck = true }
        }

        // `ConfidenceAggregator.aggregate`.
        var flags: UInt32 = 0
        var seen: UInt32 = 0
        var n = 0
        var screen = false, print = false
        for j in 0..<count {
            let role = s.role[j]
            guard seen & (1 << role) == 0 else { continue }
            seen |= 1 << role
            let w = weight[role]
            guard w > 0, s.available[j], s.hasScore[j], s.score[j].isFinite else { continue }
            s.sRole[n] = role
            s.sWeight[n] = w
            s.sScore[n] = Swift.min(Swift.max(s.score[j], 0), 1)
            s.sDetected[n] = s.screen[j] || s.print[j]
            if s.screen[j] { screen = true }
            if s.print[j] { print = true }
            n += 1
        }
        let allPresent = n > 0 && n == expectedWeighted
        if !allPresent { flags |= AggregateOutputs.bit(.partialAnalysis) }
        var totalWeight = 0.0
        for j in 0..<n { totalWeight += s.sWeight[j] }
        var weightedMean = 0.0
        for r in s.position.indices { s.position[r] = -1 }
        for j in 0..<n {
            let share = s.sWeight[j] / totalWeight
            s.sWeight[j] = share // from here on the share (`weightsUsed`)
            weightedMean += share * s.sScore[j]
            s.position[s.sRole[j]] = j
        }
        let realThreshold = c.realThreshold
        var anyReal = false, anyFake = false
        for j in 0..<n { if s.sScore[j] >= realThreshold { anyReal = true } else { anyFake = true } }
        let agree = !(anyReal && anyFake)
        if !agree { flags |= AggregateOutputs.bit(.methodsDisagree) }
        let boost = agree && n >= c.minMethodsForAgreement && !anyFake ? c.agreementBoost : 0

        let primaryScored = primaryRole >= 0 ? s.position[primaryRole] : -1
        if primaryScored >= 0 {
            // The others' mean with the raw weights (not the shares), as the aggregator does.
            var otherWeight = 0.0, any = false
            for j in 0..<n where j != primaryScored {
                otherWeight += weight[s.sRole[j]]
                any = true
            }
            if any {
                var otherMean = 0.0
                for j in 0..<n where j != primaryScored {
                    otherMean = otherMean + weight[s.sRole[j]] / otherWeight * s.sScore[j]
                }
                if (s.sScore[primaryScored] >= realThreshold) != (otherMean >= realThreshold) {
                    flags |= AggregateOutputs.bit(.primarySupportingDisagree)
                }
            }
        } else {
            flags |= AggregateOutputs.bit(.primarySignalFailed)
        }
        if screen { flags |= AggregateOutputs.bit(.screenDetected) }
        if print { flags |= AggregateOutputs.bit(.printDetected) }

        // Cross-validation (`CrossValidationResult.analyse`): anomalies by severity, the interval.
        let cv = c.crossValidation
        var highs = 0, mediums = 0, lows = 0
        var scene = 0
        for a in 0..<n {
            let ra = s.sRole[a]
            if !independent[ra] { scene += 1 }
            for b in (a + 1)..<Swift.max(a + 1, n) {
                let rb = s.sRole[b]
                guard !independent[ra], !independent[rb] else { continue }
                let difference = abs(s.sScore[a] - s.sScore[b])
                let sameVerdict = (s.sScore[a] >= realThreshold) == (s.sScore[b] >= realThreshold)
                if !(sameVerdict && difference <= cv.pairTolerance) {
                    if difference > cv.highSeverityDifference {
                        highs += 1
                    } else if !sameVerdict {
                        mediums += 1
                    } else {
                        lows += 1
                    }
                }
            }
        }
        if scene == 1 { lows += 1 }
        if primaryScored >= 0, s.sScore[primaryScored] >= realThreshold {
            var seenDetection = false
            for j in 0..<n where j != primaryScored && s.sDetected[j] { seenDetection = true }
            if seenDetection { highs += 1 }
        }
        // The interval over the entries in role order (cross-validation sorts by method).
        var highUncertainty = false
        var anyWeighted = false
        var mean = 0.0, u = 0.0
        for r in Self.sortedRoles {
            let j = s.position[r]
            guard j >= 0, s.sWeight[j] > 0 else { continue }
            anyWeighted = true
            mean = mean + s.sWeight[j] * s.sScore[j]
            u = u + s.sWeight[j] * uncertainty[r]
        }
        if anyWeighted {
            var variance = 0.0
            for r in Self.sortedRoles {
                let j = s.position[r]
                guard j >= 0, s.sWeight[j] > 0 else { continue }
                variance = variance + s.sWeight[j] * (s.sScore[j] - mean) * (s.sScore[j] - mean)
            }
            let half = (u * u + variance).squareRoot()
            let lower = Swift.max(mean - half, 0), upper = Swift.min(mean + half, 1)
            highUncertainty = upper - lower > cv.highUncertaintyWidth
        }
        var sum = 0.0
        for _ in 0..<highs { sum = sum + cv.anomalyImpact.high }
        for _ in 0..<mediums { sum = sum + cv.anomalyImpact.medium }
        for _ in 0..<lows { sum = sum + cv.anomalyImpact.low }
        let impact = Swift.min(sum, cv.maxImpact)
        let full = cv.mode == .full
        if highUncertainty { flags |= AggregateOutputs.bit(.highUncertainty) }

        // Caps (resolved ranks).
        var cap = Int.max
        if full && highUncertainty { cap = Swift.min(cap, highUncertaintyCap) }
        if !agree { cap = Swift.min(cap, disagreementCap) }
        if screen { cap = Swift.min(cap, screenCap) }
        if print { cap = Swift.min(cap, printCap) }
        if primaryScored < 0 { cap = Swift.min(cap, ConfidenceLevel.medium.rank) }
        if !(allPresent && agree && primaryScored >= 0) { cap = Swift.min(cap, ConfidenceLevel.high.rank) }
        cap = Swift.min(cap, a.capRank)
        cap = Swift.min(cap, profileCap)
        if !a.requirement.isEmpty {
            // `ConfidenceAggregator.satisfying` over all inputs (first of each role).
            var satisfied: UInt32 = 0
            var seenRoles: UInt32 = 0
            let passedOnly = c.attestationRequirements.satisfiedBy != .scored
            for j in 0..<count {
                let role = s.role[j]
                guard seenRoles & (1 << role) == 0 else { continue }
                seenRoles |= 1 << role
                guard s.available[j], s.hasScore[j], s.score[j].isFinite else { continue }
                if !passedOnly || Swift.min(Swift.max(s.score[j], 0), 1) >= realThreshold { satisfied |= 1 << role }
            }
            var met = 0
            for r in a.requirement where satisfied & (1 << r) != 0 { met += 1 }
            let ok = a.matchAll ? met == a.requirement.count : met > 0
            if !ok {
                flags |= AggregateOutputs.bit(.requiredDetectionMissing)
                cap = Swift.min(cap, a.requirementCap)
            }
        }
        if failedCheck {
            cap = Swift.min(cap, metadataCap)
            flags |= AggregateOutputs.bit(.metadataCheckFailed)
        }
        if a.rejected { flags |= AggregateOutputs.bit(.attestationRejected) }

        let boundaries = c.effectiveBoundaries
        let evidence = weightedMean + boost - (full ? impact : 0)
        let uncapped = Swift.min(Swift.max(evidence, 0), 1)
        let uncappedLevel = boundaries.level(for: uncapped).rank
        let level = Swift.min(uncappedLevel, cap)
        var score = uncapped, cappedBelow: Double?
        if level < uncappedLevel, let upper = boundaries.upperBound(of: AggregateOutputs.levels[level]) {
            score = Swift.min(score, upper - c.cappedScoreMargin)
            cappedBelow = upper
        }
        let ranking = ConfidenceAggregator.rankingScore(
            evidence: evidence, uncapped: uncapped, cappedBelow: cappedBelow, configuration: c)
        if abs(score - boundaries.medium) < c.ambiguityBand { flags |= AggregateOutputs.bit(.ambiguousResults) }

        // `PipelineAggregator`: the MVP rule from the primary's calibrated score.
        var depth = EvidenceCheckStatus.unavailable
        if primarySelected >= 0, s.available[primarySelected], s.hasScore[primarySelected],
            s.score[primarySelected].isFinite
        {
            depth = s.score[primarySelected] >= c.realThreshold ? .pass : .fail
        }
        let mvp: ConfidenceLevel
        if a.hardware == .fail || depth == .fail || failedCheck {
            mvp = .suspicious
        } else {
            switch (a.hardware == .pass, depth == .pass) {
            case (true, true): mvp = .high
            case (true, false), (false, true): mvp = .medium
            case (false, false): mvp = .low
            }
        }

        out.present[o] = n > 0 ? 2 : 1
        out.score[o] = score
        out.rankingScore[o] = ranking
        out.uncappedScore[o] = uncapped
        out.weightedLevel[o] = UInt8(level)
        out.mvpLevel[o] = UInt8(mvp.rank)
        out.level[o] = c.rule == .mvp ? UInt8(mvp.rank) : UInt8(level)
        out.methodsAgree[o] = agree ? 1 : 0
        out.boosted[o] = boost > 0 ? 1 : 0
        out.flags[o] = flags
        out.bonaFideDecision[o] = ranking >= decisionThreshold ? 1 : 0
    }
}

/// What metrics and reports read of every sample's aggregate, as columns
/// (`AggregationPlan.run`): sample `i` of the run is entry `i`.
public struct AggregateOutputs: Sendable, Equatable {
    /// Levels by rank (`ConfidenceLevel.rank`).
    static let levels = ConfidenceLevel.allCases.sorted()
    static func bit(_ flag: AggregationFlag) -> UInt32 { 1 << UInt32(AggregationFlag.allCases.firstIndex(of: flag)!) }

    public var count: Int
    /// 0: no aggregate (failed, or no `aggregation_inputs`); 1: an aggregate with no scored
    /// input (its weights are empty, so it has no score: `SampleRecord.score`); 2: scored.
    public var present: [UInt8]
    public var score: [Double]
    public var rankingScore: [Double]
    public var uncappedScore: [Double]
    /// `confidence_level`, `weighted_level`, `mvp_level` as ranks.
    public var level: [UInt8]
    public var weightedLevel: [UInt8]
    public var mvpLevel: [UInt8]
    public var methodsAgree: [UInt8]
    /// 1 when the agreement boost was added (`agreement_boost` > 0).
    public var boosted: [UInt8]
    /// `AggregationFlag` bits in `allCases` order.
    public var flags: [UInt32]
    /// 1 when the decision is bona fide (`DatasetRunner.decision`).
    public var bonaFideDecision: [UInt8]

    public init(count: Int) {
        self.count = count
        present = .init(repeating: 0, count: count)
        score = .init(repeating: 0, count: count)
        rankingScore = score
        uncappedScore = score
        level = present
        weightedLevel = present
        mvpLevel = present
        methodsAgree = present
        boosted = present
        flags = .init(repeating: 0, count: count)
        bonaFideDecision = present
    }

    mutating func replace(_ range: Range<Int>, with part: AggregateOutputs) {
        present.replaceSubrange(range, with: part.present)
        score.replaceSubrange(range, with: part.score)
        rankingScore.replaceSubrange(range, with: part.rankingScore)
        uncappedScore.replaceSubrange(range, with: part.uncappedScore)
        level.replaceSubrange(range, with: part.level)
        weightedLevel.replaceSubrange(range, with: part.weightedLevel)
        mvpLevel.replaceSubrange(range, with: part.mvpLevel)
        methodsAgree.replaceSubrange(range, with: part.methodsAgree)
        boosted.replaceSubrange(range, with: part.boosted)
        flags.replaceSubrange(range, with: part.flags)
        bonaFideDecision.replaceSubrange(range, with: part.bonaFideDecision)
    }

    /// Entry `i`'s score as metrics read it (`SampleRecord.score("aggregate")`): the ranking
    /// score of a scored aggregate, nil otherwise.
    public func metricScore(_ i: Int) -> Double? { present[i] == 2 ? rankingScore[i] : nil }

    /// The flags of entry `i`, sorted as an aggregate lists them.
    public func flagList(_ i: Int) -> [AggregationFlag] {
        AggregationFlag.allCases.enumerated().filter { flags[i] & (1 << UInt32($0.offset)) != 0 }.map(\.element)
            .sorted()
    }

    /// The level of entry `i` of `column` (a rank column of this type).
    public static func level(_ rank: UInt8) -> ConfidenceLevel { levels[Int(rank)] }
}
