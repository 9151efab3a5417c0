/// Scored samples prepared once for every metric of `MethodMetrics`: finite scores
/// ranked (`RankedScores`), attack species and bootstrap clusters as small integers in
/// sorted order.
///
/// Species are numbered by name (UTF-8 order), clusters by `ClusterNumbering.ranked`, so
/// every number, and with it every bootstrap resample, is independent of the input order.
struct RankedSamples: Sendable {
    /// The samples with a finite score, in input order.
    let samples: [ScoredSample]
    let ranked: RankedScores
    /// Attack species names, sorted.
    let species: [String]
    /// Attacks per species.
    let speciesCounts: [Int]
    /// Species index of each sorted position, -1 for bona fide.
    let speciesOfSorted: [Int32]
    /// Cluster index (0..<clusterCount) of each sorted position.
    let clusterOfSorted: [Int32]
    let clusterCount: Int
    /// Samples left out for a non-finite score.
    let excluded: Int

    init(samples input: [ScoredSample]) {
        let samples = input.filter { $0.score.isFinite }
        self.samples = samples
        excluded = input.count - samples.count
        ranked = RankedScores(finiteScores: samples.map(\.score), bonaFide: samples.map(\.bonaFide))

        let species = Set(samples.lazy.filter { !$0.bonaFide }.map(\.species))
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let speciesIndex = Dictionary(uniqueKeysWithValues: species.enumerated().map { ($1, Int32($0)) })
        var speciesCounts = [Int](repeating: 0, count: species.count)
        var speciesOfSorted = [Int32](repeating: -1, count: samples.count)
        for (k, i) in ranked.order.enumerated() where !samples[Int(i)].bonaFide {
            let s = speciesIndex[samples[Int(i)].species]!
            speciesOfSorted[k] = s
            speciesCounts[Int(s)] += 1
        }
        self.species = species
        self.speciesCounts = speciesCounts
        self.speciesOfSorted = speciesOfSorted

        let clusters = ClusterNumbering(keys: samples.map(\.clusterKey)).ranked(by: ranked)
        clusterCount = clusters.count
        clusterOfSorted = ranked.order.map { clusters.indexOfItem[Int($0)] }
    }

    var inputWarnings: [MetricsWarning] { excluded > 0 ? [.nonFiniteScoresExcluded] : [] }
}

/// Numbers the distinct cluster keys 0..<count independently of the input order.
///
/// `init` numbers them in key order (`DatasetGroupKey` order: named groups by name, then
/// single samples by id; or ascending integers). `ranked(by:)` renumbers them by their
/// highest score (descending), ties between clusters in key order: the bootstrap then
/// reads the per-cluster weights nearly sequentially in score order, which keeps the
/// hot loop in cache when most clusters are single samples. Any fixed bijection gives
/// the same resampling distribution; this one only makes it fast and reproducible.
/// At most 2^30 clusters.
struct ClusterNumbering {
    /// The cluster index of each input item.
    let indexOfItem: [Int32]
    let count: Int

    init(keys: [DatasetGroupKey]) {
        var firstSeen: [DatasetGroupKey: Int32] = [:]
        var distinct: [DatasetGroupKey] = []
        var provisional = [Int32](repeating: 0, count: keys.count)
        for (i, key) in keys.enumerated() {
            if let index = firstSeen[key] {
                provisional[i] = index
            } else {
                let index = Int32(distinct.count)
                firstSeen[key] = index
                distinct.append(key)
                provisional[i] = index
            }
        }
        let sortedOrder = distinct.indices.sorted { Self.precedes(distinct[$0], distinct[$1]) }
        var rank = [Int32](repeating: 0, count: distinct.count)
        for (r, d) in sortedOrder.enumerated() { rank[d] = Int32(r) }
        indexOfItem = provisional.map { rank[Int($0)] }
        count = distinct.count
    }

    /// Integer cluster labels numbered by ascending value.
    init(integers: [Int]) {
        let distinct = Array(Set(integers)).sorted()
        let rank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, Int32($0)) })
        indexOfItem = integers.map { rank[$0]! }
        count = distinct.count
    }

    private init(indexOfItem: [Int32], count: Int) {
        self.indexOfItem = indexOfItem
        self.count = count
    }

    /// The same clusters renumbered by descending highest score, then by the current
    /// number; `ranked` holds the scores of the same items.
    func ranked(by ranked: RankedScores) -> ClusterNumbering {
        var renumbered = [Int32](repeating: -1, count: count)
        var next: Int32 = 0, start = 0
        var fresh: [Int32] = []
        for end32 in ranked.blockEnds {
            let end = Int(end32)
            fresh.removeAll(keepingCapacity: true)
            for k in start..<end {
                let g = Int(indexOfItem[Int(ranked.order[k])])
                if renumbered[g] == -1 {
                    renumbered[g] = -2
                    fresh.append(Int32(g))
                }
            }
            fresh.sort()
            for g in fresh {
                renumbered[Int(g)] = next
                next += 1
            }
            start = end
        }
        return ClusterNumbering(indexOfItem: indexOfItem.map { renumbered[Int($0)] }, count: count)
    }

    /// `DatasetGroupKey` order (named by name, then single by id) without allocating.
    private static func precedes(_ a: DatasetGroupKey, _ b: DatasetGroupKey) -> Bool {
        switch (a, b) {
        case (.named(let x), .named(let y)), (.single(let x), .single(let y)): x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.named, .single): true
        case (.single, .named): false
        }
    }
}
