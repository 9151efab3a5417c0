import RialDetection

/// The video samples of a run (`video` in `results.json`; absent without any): the
/// deployed video rule's levels by label, and how their hash chains were checked.
///
/// Counts every record with a `video` block, evaluated or failed (a failed still leaves
/// the chain check and the rule's level standing).
public struct VideoSummary: Sendable, Equatable, Codable {
    /// Video samples, by data kind (`real`, `simulated`).
    public var samples: Int
    public var byData: [String: Int]
    /// Label -> deployed level -> samples (`aggregation.video_rule`, methods.md section 6).
    public var deployedLevels: [String: [String: Int]]
    /// Chains recomputed from raw frames, checked structurally only (no raw frames), and
    /// samples without a chain.
    public var recomputed: Int
    public var structuralOnly: Int
    public var noChain: Int
    /// Chain status -> samples (`intact`, `partial`, `unattested`, `broken`).
    public var chainStatus: [String: Int]

    enum CodingKeys: String, CodingKey {
        case samples
        case byData = "by_data"
        case deployedLevels = "deployed_levels"
        case recomputed
        case structuralOnly = "structural_only"
        case noChain = "no_chain"
        case chainStatus = "chain_status"
    }

    /// The summary of `records`' video blocks; nil when none has one.
    public init?(_ records: [SampleRecord]) {
        let videos = records.compactMap { r in r.video.map { (r, $0) } }
        guard !videos.isEmpty else { return nil }
        samples = videos.count
        byData = [:]
        deployedLevels = [:]
        recomputed = 0
        structuralOnly = 0
        noChain = 0
        chainStatus = [:]
        for (record, video) in videos {
            byData[record.data.rawValue, default: 0] += 1
            deployedLevels[record.label.rawValue, default: [:]][video.deployedLevel.rawValue, default: 0] += 1
            switch video.chain?.check {
            case .recomputed: recomputed += 1
            case .structural: structuralOnly += 1
            case nil: noChain += 1
            }
            if let status = video.chain?.status { chainStatus[status.rawValue, default: 0] += 1 }
        }
    }
}

extension TamperDetection {
    /// Tamper detection over the video records that are labelled: those with a `tamper`
    /// label, and the unlabelled video samples (intact, as the dataset format reads a
    /// missing label) of datasets where some sample has one. Records without a chain
    /// check are left out. Keyed `all` and by data kind; nil when nothing is labelled.
    public static func byData(_ records: [SampleRecord]) -> [String: TamperDetection]? {
        let labelledDatasets = Set(records.filter { $0.video?.tamper != nil }.map(\.datasetIndex))
        var observations: [(kind: SampleRecord.DataKind, id: String, observation: Observation)] = []
        for record in records {
            guard let video = record.video, let chain = video.chain,
                video.tamper != nil || labelledDatasets.contains(record.datasetIndex)
            else { continue }
            let label = video.tamper.flatMap { $0.isIntact ? nil : $0 }
            observations.append(
                (
                    record.data, record.id,
                    Observation(kind: label?.kind, frame: label?.frame, verification: chain.verification)
                ))
        }
        guard !observations.isEmpty else { return nil }
        var result = ["all": TamperDetection(observations.map { ($0.id, $0.observation) })]
        for kind in Set(observations.map(\.kind)) {
            result[kind.rawValue] = TamperDetection(
                observations.filter { $0.kind == kind }.map { ($0.id, $0.observation) })
        }
        return result
    }
}
