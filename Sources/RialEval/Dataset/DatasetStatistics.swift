import RialMedia

/// Sample counts of a dataset by label, split, attestation, tag and group.
public struct DatasetStatistics: Sendable, Equatable, Codable {
    /// One row of a count table.
    public struct Count: Sendable, Equatable, Codable {
        public var key: String
        public var count: Int
    }

    public var sampleCount: Int
    /// Bona fide samples (`real_scene`).
    public var bonaFideCount: Int
    /// Attack samples (every other label).
    public var attackCount: Int
    public var withDepthCount: Int
    public var withStereoCount: Int
    /// Every label in `SampleLabel` order, zero counts included.
    public var labels: [Count]
    /// `train`, `val`, `test`, zero counts included.
    public var splits: [Count]
    /// Every attestation level in `AttestationLevel` order, zero counts included.
    public var attestations: [Count]
    /// Tags by count (descending), then name.
    public var tags: [Count]
    /// Named groups by name; samples without a group are counted under `(no group)`, last.
    public var groups: [Count]

    /// The name under which samples without a group are counted.
    public static let noGroupKey = "(no group)"

    public init(samples: [DatasetSample]) {
        sampleCount = samples.count
        bonaFideCount = samples.filter { $0.label.isBonaFide }.count
        attackCount = samples.count - bonaFideCount
        withDepthCount = samples.filter { $0.depth != nil }.count
        withStereoCount = samples.filter { $0.stereo != nil }.count
        labels = SampleLabel.allCases.map { label in
            Count(key: label.rawValue, count: samples.filter { $0.label == label }.count)
        }
        splits = DatasetSplit.allCases.map { split in
            Count(key: split.rawValue, count: samples.filter { $0.split == split }.count)
        }
        attestations = AttestationLevel.allCases.map { level in
            Count(key: level.rawValue, count: samples.filter { $0.attestation == level }.count)
        }
        var tagCounts: [String: Int] = [:]
        for sample in samples {
            for tag in Set(sample.tags) { tagCounts[tag, default: 0] += 1 }
        }
        tags = tagCounts.map { Count(key: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
        var groupCounts: [String: Int] = [:]
        var ungrouped = 0
        for sample in samples {
            if let group = sample.group { groupCounts[group, default: 0] += 1 } else { ungrouped += 1 }
        }
        groups = groupCounts.map { Count(key: $0.key, count: $0.value) }.sorted { $0.key < $1.key }
        if ungrouped > 0 { groups.append(Count(key: Self.noGroupKey, count: ungrouped)) }
    }

    /// The statistics as an ordered JSON object (tables as objects key -> count).
    public var jsonValue: JSONValue {
        func table(_ counts: [Count]) -> JSONValue {
            .object(JSONObject(counts.map { ($0.key, JSONValue.number(Double($0.count))) }))
        }
        return [
            "samples": .number(Double(sampleCount)),
            "bona_fide": .number(Double(bonaFideCount)),
            "attacks": .number(Double(attackCount)),
            "with_depth": .number(Double(withDepthCount)),
            "with_stereo": .number(Double(withStereoCount)),
            "labels": table(labels),
            "splits": table(splits),
            "attestations": table(attestations),
            "tags": table(tags),
            "groups": table(groups),
        ]
    }

    private enum CodingKeys: String, CodingKey {
        case labels, splits, attestations, tags, groups
        case sampleCount = "samples"
        case bonaFideCount = "bona_fide"
        case attackCount = "attacks"
        case withDepthCount = "with_depth"
        case withStereoCount = "with_stereo"
    }
}
