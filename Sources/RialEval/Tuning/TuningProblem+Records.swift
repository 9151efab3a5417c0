import RialDetection

extension TuningProblem {
    /// The problem of `records` (evaluated ones; failed samples have nothing to tune on)
    /// under `base` and `profileName`, extracted as `PipelineAggregator` selects, calibrates
    /// and aggregates: one column per family with an `aggregate_with` entry (or a payload
    /// result), in `MethodFamily` order, then attestation scored by `attestation_scores`.
    ///
    /// - Throws: `RunError` naming `source(record)` for an evaluated record without
    ///   `aggregation_inputs`/`attestation_evidence` (written before they existed), or when
    ///   no record was evaluated.
    public static func from(
        records: [SampleRecord], base: PipelineConfiguration, profileName: String,
        source: (Int) -> String
    ) throws(RunError) -> TuningProblem {
        let aggregator: PipelineAggregator
        do { aggregator = try PipelineAggregator(configuration: base) } catch {
            throw RunError("configuration: key '\(error.key)': \(error.reason)")
        }
        guard base.aggregation.crossValidation.mode == .simple else {
            throw RunError(
                "configuration: key 'aggregation.cross_validation.mode': tune reproduces the 'simple' rule only "
                    + "(its fast path has no anomaly impact); tune with mode 'simple', then rescore with 'full'")
        }
        let evaluated = records.indices.filter { records[$0].status == .evaluated && records[$0].label != .unknown }
        guard !evaluated.isEmpty else { throw RunError("no evaluated sample with a known label to tune on") }
        for i in evaluated where records[i].aggregationInputs == nil || records[i].attestationEvidence == nil {
            throw RunError(
                "\(source(i)): sample '\(records[i].id)' has no aggregation_inputs (the run was written before "
                    + "rial-bench recorded them); re-run it with this version to tune on it")
        }
        var families: [MethodFamily] = []
        for family in MethodFamily.allCases {
            // A video family (temporal) is a column only when some record has its input:
            // tuning on photos is what it was before video methods existed.
            if family.needsVideo
                && !evaluated.contains(where: { i in
                    records[i].aggregationInputs!.values.contains { $0.family == family }
                })
            {
                continue
            }
            let payload = evaluated.contains { i in
                records[i].aggregationInputs!.values.contains { $0.family == family && $0.source == .payload }
            }
            if base.aggregateWith[family] != nil || payload { families.append(family) }
        }
        var columns = families.map { family in
            AggregationMatrix.Column(
                key: base.aggregateWith[family]?.description ?? "payload.\(family.rawValue)", role: family.role,
                calibratable: base.aggregateWith[family] != nil)
        }
        columns.append(.init(key: "attestation", role: .attestation, calibratable: false))
        let m = columns.count
        var scored: [Bool] = [], scores: [Double] = [], screen: [Bool] = [], print: [Bool] = [], own: [Bool] = []
        var caps: [ConfidenceLevel] = []
        var requirements: [AggregationMatrix.Requirement?] = []
        let profile = try Self.profile(named: profileName, in: base)
        scored.reserveCapacity(evaluated.count * m)
        scores.reserveCapacity(evaluated.count * m)
        var bonaFide: [Bool] = [], species: [Int32] = [], groups: [String] = [], sources: [String] = []
        var kinds: [String] = []
        var speciesIndex: [String: Int32] = [:]
        let attacks = Set(evaluated.filter { !records[$0].bonaFide }.map { records[$0].label.rawValue }).sorted()
        for (k, name) in attacks.enumerated() { speciesIndex[name] = Int32(k) }
        for i in evaluated {
            let record = records[i]
            let candidates = record.aggregationInputs!
            let evidence = record.attestationEvidence!
            var chosen: [MethodFamily: String] = [:]
            for key in aggregator.selection(candidates) { chosen[candidates[key]!.family] = key }
            for (j, family) in families.enumerated() {
                let key = chosen[family]
                let candidate = key.flatMap { candidates[$0] }
                let score = candidate?.score ?? .nan
                let ok = (candidate?.available ?? false) && score.isFinite
                scored.append(ok)
                scores.append(ok ? score : .nan)
                screen.append(candidate?.screenDetected ?? false)
                print.append(candidate?.printDetected ?? false)
                own.append(key == columns[j].key)
            }
            let attestationScore = base.attestationScores.score(for: evidence)
            scored.append(attestationScore != nil)
            scores.append(attestationScore ?? .nan)
            screen.append(false)
            print.append(false)
            own.append(false)
            // A recorded check that failed caps the level as the attestation does (the
            // aggregator's `level_caps.metadata_fail`): one ceiling per sample.
            let ceiling = AggregationMatrix.ceiling(
                attestation: evidence, checkFailed: record.metadataChecks?.values.contains(.fail) == true,
                profile: profile, configuration: base.aggregation, columns: columns)
            caps.append(ceiling.cap)
            requirements.append(ceiling.requirement)
            bonaFide.append(record.bonaFide)
            species.append(record.bonaFide ? -1 : speciesIndex[record.label.rawValue]!)
            groups.append(record.group ?? "\(record.dataset)/\(record.id)")
            let tag = record.tags.first { $0.hasPrefix("source:") }
            sources.append(tag.map { String($0.dropFirst("source:".count)) } ?? record.dataset)
            kinds.append(record.data.rawValue)
        }
        let matrix = AggregationMatrix(
            columns: columns, scored: scored, scores: scores, screen: screen, print: print, attestationCap: caps,
            ownKey: own, requirement: requirements)
        return TuningProblem(
            matrix: matrix, bonaFide: bonaFide, species: species, speciesNames: attacks, groups: groups,
            sources: sources, dataKinds: kinds, base: base, profileName: profileName)
    }

    static func profile(named name: String, in base: PipelineConfiguration) throws(RunError) -> AggregationProfile {
        do { return try base.aggregation.profile(named: name) } catch {
            throw RunError("configuration: key 'aggregation.\(error.key)': \(error.reason)")
        }
    }
}
