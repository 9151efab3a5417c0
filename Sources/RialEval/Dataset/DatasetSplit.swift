/// The partition a sample belongs to (`rial-bench-dataset/1`); `test` when absent.
///
/// `DatasetSplitter` assigns splits by `group`, so no group spans two partitions.
public enum DatasetSplit: String, Sendable, Codable, CaseIterable, Hashable {
    case train
    case val
    case test
}
