/// The sorted samples of `RankedScores` with each tied block reduced to one entry per
/// distinct (cluster, class code) pair and its sample count: the input of the bootstrap's
/// weighted sweeps (`WeightedCurve`, `WeightedThresholdSweep`).
///
/// Every weighted statistic of a resample reads a tied block only through sums
/// `Σ w[cluster] · [code]` over its samples (the ROC point, the AUC term and the threshold
/// candidates are per block, never inside one), so summing `w[cluster] · count` over the
/// entries gives the same integers in a different order of addition: identical results.
/// A block of `m` samples from one cluster and class costs one step per resample instead
/// of `m`; without ties (every block a single sample) nothing changes.
struct TiedBlockEntries: Sendable {
    /// Cluster of each entry.
    let cluster: [Int32]
    /// Class code of each entry (the caller's; e.g. 1 = bona fide, or species, -1 = bona fide).
    let code: [Int32]
    /// Samples the entry stands for (>= 1).
    let count: [Int32]
    /// Exclusive end (entry index) of each block, parallel to `RankedScores.blockEnds`.
    let blockEnds: [Int32]

    var entryCount: Int { cluster.count }

    /// Entries of the blocks `blockEnds` over sorted positions with `clusterOfSorted` and
    /// `codeOfSorted` (same length); within a block, entries in (cluster, code) order.
    init(blockEnds positions: [Int32], clusterOfSorted: [Int32], codeOfSorted: [Int32]) {
        var cluster: [Int32] = [], code: [Int32] = [], count: [Int32] = []
        var ends: [Int32] = []
        ends.reserveCapacity(positions.count)
        var keys: [(cluster: Int32, code: Int32)] = []
        var start = 0
        clusterOfSorted.withUnsafeBufferPointer { clusters in
            codeOfSorted.withUnsafeBufferPointer { codes in
                for end32 in positions {
                    let end = Int(end32)
                    if end - start == 1 {
                        cluster.append(clusters[start])
                        code.append(codes[start])
                        count.append(1)
                    } else if end > start {
                        keys.removeAll(keepingCapacity: true)
                        for k in start..<end { keys.append((clusters[k], codes[k])) }
                        keys.sort { $0.cluster < $1.cluster || ($0.cluster == $1.cluster && $0.code < $1.code) }
                        var i = 0
                        while i < keys.count {
                            var j = i + 1
                            while j < keys.count && keys[j] == keys[i] { j += 1 }
                            cluster.append(keys[i].cluster)
                            code.append(keys[i].code)
                            count.append(Int32(j - i))
                            i = j
                        }
                    }
                    ends.append(Int32(cluster.count))
                    start = end
                }
            }
        }
        self.cluster = cluster
        self.code = code
        self.count = count
        blockEnds = ends
    }
}
