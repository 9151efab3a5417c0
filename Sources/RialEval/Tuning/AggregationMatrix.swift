import RialDetection

/// What the aggregator reads of each sample, extracted once into flat arrays (samples x
/// columns), so that `rial-bench tune` can score thousands of candidate weights,
/// calibrations and boundaries without building records: `rankingScores` reproduces
/// `ConfidenceAggregator` + the ranking score for one candidate in O(samples x columns).
///
/// A column is one aggregation input in the order `CaptureAnalyzer` builds them: the
/// aggregated method of each family in `MethodFamily` order, then `attestation`.
/// Row-major: entry `(i, j)` is at `i * columns.count + j`.
public struct AggregationMatrix: Sendable {
    /// One aggregation input.
    public struct Column: Sendable, Equatable {
        /// The method key whose score fills it (`depth/2`, `moire/1`; `attestation` for
        /// the attestation signal): the key of its calibration.
        public var key: String
        /// The weight it takes.
        public var role: AggregationMethod
        /// Whether tuning may calibrate it (every method; not attestation).
        public var calibratable: Bool

        public init(key: String, role: AggregationMethod, calibratable: Bool) {
            self.key = key
            self.role = role
            self.calibratable = calibratable
        }
    }

    public let columns: [Column]
    public let rows: Int
    /// `available && score finite`, per entry.
    public var scored: [Bool]
    /// Raw score (NaN when not scored), per entry.
    public var scores: [Double]
    public var screen: [Bool]
    public var print: [Bool]
    /// The attestation cap of each sample (`AttestationCaps.cap(for:)`), lowered to
    /// `level_caps.metadata_fail` when one of its recorded checks failed and to the
    /// profile's `max_level`, resolved by `medium_high`.
    public var attestationCap: [ConfidenceLevel]
    /// The detection requirement of each sample's attestation
    /// (`AggregationConfiguration.AttestationRequirements`), nil when it has none; read
    /// against the (calibrated) scores of the candidate, since calibration moves them.
    public var requirement: [Requirement?]

    /// A sample's detection requirement over the matrix's columns.
    public struct Requirement: Sendable, Equatable {
        /// The column of each required method (methods without a column never satisfy it).
        public var columns: [Int]
        /// How many required methods the requirement names (with or without a column).
        public var count: Int
        public var match: AggregationConfiguration.AttestationRequirement.Match
        /// The cap when not met, resolved by `medium_high`.
        public var cap: ConfidenceLevel

        public init(
            columns: [Int], count: Int, match: AggregationConfiguration.AttestationRequirement.Match,
            cap: ConfidenceLevel
        ) {
            self.columns = columns
            self.count = count
            self.match = match
            self.cap = cap
        }
    }
    /// Whether the entry's score came from the column's own method key (false for a phone
    /// payload's result in its place, which a run never calibrates), per entry.
    public var ownKey: [Bool]

    /// `ownKey` nil: every entry is the column's own method.
    public init(
        columns: [Column], scored: [Bool], scores: [Double], screen: [Bool], print: [Bool],
        attestationCap: [ConfidenceLevel], ownKey: [Bool]? = nil, requirement: [Requirement?]? = nil
    ) {
        self.columns = columns
        rows = attestationCap.count
        self.scored = scored
        self.scores = scores
        self.screen = screen
        self.print = print
        self.attestationCap = attestationCap
        self.ownKey = ownKey ?? Array(repeating: true, count: scored.count)
        self.requirement = requirement ?? Array(repeating: nil, count: attestationCap.count)
    }

    /// A sample's fixed ceiling and detection requirement under `configuration` and
    /// `profile`: the attestation cap, lowered to `level_caps.metadata_fail` when a check
    /// failed and to the profile's `max_level`, all resolved by `medium_high`; and the
    /// attestation's requirement over `columns` (nil when it has none).
    public static func ceiling(
        attestation: AttestationEvidence, checkFailed: Bool, profile: AggregationProfile,
        configuration a: AggregationConfiguration, columns: [Column]
    ) -> (cap: ConfidenceLevel, requirement: Requirement?) {
        var cap = a.resolved(a.attestationCaps.cap(for: attestation).level)
        if checkFailed { cap = min(cap, a.resolved(a.levelCaps.metadataFail)) }
        if let maxLevel = profile.maxLevel { cap = min(cap, a.resolved(maxLevel)) }
        guard let (r, _) = a.attestationRequirements.requirement(for: attestation), !r.methods.isEmpty else {
            return (cap, nil)
        }
        let requirement = Requirement(
            columns: r.methods.compactMap { m in columns.firstIndex { $0.role == m } }, count: r.methods.count,
            match: r.match, cap: a.resolved(r.unmetCap))
        return (cap, requirement)
    }

    /// The rows `indices`, in that order.
    public func subset(_ indices: [Int]) -> AggregationMatrix {
        let m = columns.count
        var copy = AggregationMatrix(
            columns: columns, scored: [], scores: [], screen: [], print: [], attestationCap: [], ownKey: [],
            requirement: [])
        copy.scored.reserveCapacity(indices.count * m)
        copy.scores.reserveCapacity(indices.count * m)
        for i in indices {
            let range = (i * m)..<(i * m + m)
            copy.scored.append(contentsOf: scored[range])
            copy.scores.append(contentsOf: scores[range])
            copy.screen.append(contentsOf: screen[range])
            copy.print.append(contentsOf: print[range])
            copy.ownKey.append(contentsOf: ownKey[range])
            copy.attestationCap.append(attestationCap[i])
            copy.requirement.append(requirement[i])
        }
        return AggregationMatrix(
            columns: columns, scored: copy.scored, scores: copy.scores, screen: copy.screen, print: copy.print,
            attestationCap: copy.attestationCap, ownKey: copy.ownKey, requirement: copy.requirement)
    }

    /// The raw scores of column `j` where its own method scored, with their row numbers.
    public func column(_ j: Int) -> (rows: [Int], scores: [Double]) {
        let m = columns.count
        var r: [Int] = [], s: [Double] = []
        for i in 0..<rows where scored[i * m + j] && ownKey[i * m + j] {
            r.append(i)
            s.append(scores[i * m + j])
        }
        return (r, s)
    }

    /// The matrix with `calibrations` (by column key) applied to the scores of the
    /// column's own method (`ScoreCalibration.apply`, as a run applies them before
    /// aggregation; payload results stay as given).
    public func calibrated(_ calibrations: [String: ScoreCalibration]) -> AggregationMatrix {
        var copy = self
        let m = columns.count
        for (j, column) in columns.enumerated() {
            guard let calibration = calibrations[column.key] else { continue }
            for i in 0..<rows where scored[i * m + j] && ownKey[i * m + j] {
                copy.scores[i * m + j] = calibration.apply(scores[i * m + j])
            }
        }
        return copy
    }

    /// The ranking score of every row under `configuration` with per-column `weights`
    /// (the weight of each column's role; roles of `profile` without a column count in
    /// "every weighted method scored" as never scored). NaN for a row where nothing
    /// scored (the record's aggregate is then not a score: `SampleRecord.score`).
    ///
    /// Steps are `ConfidenceAggregator.aggregate`'s, in its order and with its arithmetic
    /// (so the results are identical, not just close), then the ranking score under
    /// `aggregation.ranking` (`ConfidenceAggregator.rankingScore`).
    /// With `uncapped`, the uncapped score instead (`AggregationResult.uncappedScore`).
    public func rankingScores(
        weights: [Double], expectedWeighted: Int, primary: AggregationMethod?,
        configuration c: AggregationConfiguration, uncapped uncappedOnly: Bool = false
    ) -> [Double] {
        let m = columns.count
        let primaryColumn = columns.firstIndex { $0.role == primary } ?? -1
        var out = [Double](repeating: .nan, count: rows)
        let boundaries = c.effectiveBoundaries
        let realThreshold = c.realThreshold
        let minMethods = c.minMethodsForAgreement, agreementBoost = c.agreementBoost
        // Levels as ranks (0 SUSPICIOUS ... 5 VERY_HIGH); a cap lowers the level to its rank.
        let disagreementCap = c.resolved(c.levelCaps.disagreement).rank
        let screenCap = c.resolved(c.levelCaps.screen).rank
        let printCap = c.resolved(c.levelCaps.print).rank
        let passedOnly = c.attestationRequirements.satisfiedBy == .passed
        let medium = ConfidenceLevel.medium.rank, high = ConfidenceLevel.high.rank
        let levels = ConfidenceLevel.allCases.sorted()
        let w = weights
        let attestationRanks = attestationCap.map { c.resolved($0).rank }
        let requirement = self.requirement
        scored.withUnsafeBufferPointer { scored in
            scores.withUnsafeBufferPointer { scores in
                screen.withUnsafeBufferPointer { screenFlags in
                    print.withUnsafeBufferPointer { printFlags in
                        w.withUnsafeBufferPointer { w in
                            out.withUnsafeMutableBufferPointer { out in
                                for i in 0..<rows {
                                    let base = i * m
                                    var count = 0, total = 0.0
                                    var anyReal = false, anyFake = false, screen = false, print = false
                                    var primaryScored = false
                                    for j in 0..<m where w[j] > 0 && scored[base + j] {
                                        count += 1
                                        total += w[j]
                                        let s = Swift.min(Swift.max(scores[base + j], 0), 1)
                                        if s >= realThreshold { anyReal = true } else { anyFake = true }
                                        if screenFlags[base + j] { screen = true }
                                        if printFlags[base + j] { print = true }
                                        if j == primaryColumn { primaryScored = true }
                                    }
                                    guard count > 0 else { continue }
                                    var mean = 0.0
                                    for j in 0..<m where w[j] > 0 && scored[base + j] {
                                        mean += w[j] / total * Swift.min(Swift.max(scores[base + j], 0), 1)
                                    }
                                    let agree = !(anyReal && anyFake)
                                    let boost = agree && count >= minMethods && !anyFake ? agreementBoost : 0
                                    let allPresent = count == expectedWeighted
                                    let uncapped = Swift.min(Swift.max(mean + boost, 0), 1)
                                    if uncappedOnly {
                                        out[i] = uncapped
                                        continue
                                    }
                                    let uncappedLevel = boundaries.level(for: uncapped).rank
                                    var level = uncappedLevel
                                    if !agree { level = Swift.min(level, disagreementCap) }
                                    if screen { level = Swift.min(level, screenCap) }
                                    if print { level = Swift.min(level, printCap) }
                                    if !primaryScored { level = Swift.min(level, medium) }
                                    if !(allPresent && agree && primaryScored) { level = Swift.min(level, high) }
                                    level = Swift.min(level, attestationRanks[i])
                                    if let r = requirement[i] {
                                        var met = 0
                                        for j in r.columns where scored[base + j] {
                                            let s = Swift.min(Swift.max(scores[base + j], 0), 1)
                                            if !passedOnly || s >= realThreshold { met += 1 }
                                        }
                                        let ok = r.match == .any ? met > 0 : met == r.count
                                        if !ok { level = Swift.min(level, c.resolved(r.cap).rank) }
                                    }
                                    let hi = level < uncappedLevel ? boundaries.upperBound(of: levels[level]) : nil
                                    out[i] = ConfidenceAggregator.rankingScore(
                                        evidence: mean + boost, uncapped: uncapped, cappedBelow: hi, configuration: c)
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
