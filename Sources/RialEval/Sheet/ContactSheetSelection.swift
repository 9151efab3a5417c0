import RialMedia

/// Which samples of a manifest a contact sheet shows.
///
/// 1. Filter: keep entries whose label is in `labels` (all when empty) and whose split
///    is `split` (all when `nil`). Entries that cannot be decoded have no trustworthy
///    label or split: they are kept only when no filter is given (they become
///    "failed" tiles), and counted in `Result.skippedUndecodable` otherwise.
/// 2. Choose `k = min(limit ?? matched, cap)` of the `matched` entries: the first `k`
///    in manifest order, or with `seed` a uniform random subset: Fisher-Yates over the
///    matched positions driven by `SplitMix64(seed:)` (for `i = n-1 ... 1` swap `i` with
///    `bounded(i + 1)`, as `DatasetSplitter` does), first `k` taken, then put back in
///    manifest order. The same manifest and seed always give the same subset.
public struct ContactSheetSelection: Sendable, Equatable {
    /// Most tiles a sheet shows by default; more would make an unreadable, huge image.
    public static let defaultCap = 200

    /// Labels to keep; empty keeps every label.
    public var labels: Set<SampleLabel>
    /// Split to keep; `nil` keeps every split.
    public var split: DatasetSplit?
    /// Samples to show, >= 1; `nil` for every matching sample (up to `cap`).
    public var limit: Int?
    /// Draw a seeded random subset instead of taking the first samples.
    public var seed: UInt64?
    /// Hard limit on tiles, >= 1.
    public var cap: Int

    public init(
        labels: Set<SampleLabel> = [], split: DatasetSplit? = nil, limit: Int? = nil,
        seed: UInt64? = nil, cap: Int = defaultCap
    ) {
        self.labels = labels
        self.split = split
        self.limit = limit
        self.seed = seed
        self.cap = max(1, cap)
    }

    /// The chosen entries and how they were chosen.
    public struct Result: Sendable {
        /// Entries to show, in manifest order.
        public var entries: [DatasetEntry]
        /// Elements of the manifest's `samples`.
        public var manifestCount: Int
        /// Entries that passed the filters.
        public var matchedCount: Int
        /// Undecodable entries left out because a filter was given.
        public var skippedUndecodable: Int
        /// True when `cap` (not `limit`) cut the selection short.
        public var capped: Bool
        /// One line per fact worth printing in the sheet's header, e.g.
        /// `"10 of 26 samples drawn at random (seed 7)"`.
        public var summary: [String]
    }

    var isFiltered: Bool { !labels.isEmpty || split != nil }

    /// Applies the filters, limit and seed to `loader`'s entries (each decoded once).
    public func select(from loader: DatasetLoader) -> Result {
        var matched: [DatasetEntry] = []
        var skipped = 0
        for entry in loader.entries {
            switch entry.result {
            case .success(let sample):
                if !labels.isEmpty && !labels.contains(sample.label) { continue }
                if let split, sample.split != split { continue }
                matched.append(entry)
            case .failure:
                if isFiltered { skipped += 1 } else { matched.append(entry) }
            }
        }
        let wanted = limit.map { max(0, $0) } ?? matched.count
        let k = min(wanted, cap, matched.count)
        let capped = min(wanted, matched.count) > cap
        let chosen: [DatasetEntry]
        if let seed, k < matched.count {
            var order = Array(matched.indices)
            var rng = SplitMix64(seed: seed)
            var i = order.count - 1
            while i > 0 {
                let j = Int(rng.bounded(UInt64(i + 1)))
                order.swapAt(i, j)
                i -= 1
            }
            chosen = order.prefix(k).sorted().map { matched[$0] }
        } else {
            chosen = Array(matched.prefix(k))
        }

        var summary: [String] = []
        var filters: [String] = []
        if !labels.isEmpty { filters.append("label " + labels.map(\.rawValue).sorted().joined(separator: "|")) }
        if let split { filters.append("split \(split.rawValue)") }
        let of =
            isFiltered
            ? "\(matched.count) matching (\(filters.joined(separator: ", "))) of \(loader.sampleCount)"
            : "\(loader.sampleCount)"
        if chosen.count == matched.count {
            summary.append("\(chosen.count) of \(of) samples")
        } else if let seed {
            summary.append("\(chosen.count) of \(of) samples, drawn at random (seed \(seed))")
        } else {
            summary.append("first \(chosen.count) of \(of) samples")
        }
        if capped {
            summary.append("capped at \(cap) tiles; narrow with --label, --split or --limit")
        }
        if skipped > 0 {
            summary.append("\(skipped) undecodable sample(s) not shown (run `rial-bench dataset validate`)")
        }
        return Result(
            entries: chosen, manifestCount: loader.sampleCount, matchedCount: matched.count,
            skippedUndecodable: skipped, capped: capped, summary: summary)
    }
}
