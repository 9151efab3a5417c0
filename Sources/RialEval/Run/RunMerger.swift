import Foundation

/// Combines the folders of a sharded run into one.
public enum RunMerger {
    /// The merged records (manifest order) and recomputed results.
    ///
    /// Every folder must be a verified run folder (`RunOutput.verifiedResults(folder:)`)
    /// of one shard of the same `run --shard I/N` split: the set is refused unless it holds
    /// each shard 1...N exactly once. The merged results record each shard's `I/N` and
    /// `samples.jsonl` digest in `merged_shards`.
    ///
    /// - Throws: `RunError` when a folder is unreadable or fails its check, is not a shard
    ///   run, a shard is missing or given twice, or the shards disagree on the
    ///   configuration or the manifests.
    public static func merge(folders: [String], toolVersion: String) throws(RunError) -> (
        results: RunResults, records: [SampleRecord]
    ) {
        var shardResults: [(folder: String, results: RunResults, shard: RunShard)] = []
        for folder in folders {
            let results = try RunOutput.verifiedResults(folder: folder)
            guard let shard = results.shard else {
                throw RunError(
                    "\(folder): not a shard run folder (its results.json records no shard; make shards with run --shard I/N)"
                )
            }
            shardResults.append((folder, results, shard))
        }
        guard let firstShard = shardResults.first else { throw RunError("no shard folders given") }
        let count = firstShard.shard.count
        var byIndex: [Int: String] = [:]
        for entry in shardResults {
            guard entry.shard.count == count else {
                throw RunError(
                    "\(entry.folder): shard \(entry.shard.label) is from a different split than \(firstShard.folder)'s \(firstShard.shard.label)"
                )
            }
            if let other = byIndex[entry.shard.index] {
                throw RunError("shard \(entry.shard.label) is given twice: \(other) and \(entry.folder)")
            }
            byIndex[entry.shard.index] = entry.folder
        }
        let missing = (1...count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw RunError(
                "incomplete set of shards: \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing (\(byIndex.count) of \(count) given)"
            )
        }

        var first: RunResults?
        var records: [SampleRecord] = []
        var datasets: [RunDataset] = []
        var seconds = 0.0
        for (folder, results, _) in shardResults {
            if let first {
                guard results.configurationSHA256 == first.configurationSHA256 else {
                    throw RunError(
                        "\(folder): configuration \(results.configurationSHA256.prefix(12)) differs from \(folders[0])'s \(first.configurationSHA256.prefix(12))"
                    )
                }
                guard results.datasets.map(\.manifestSHA256) == first.datasets.map(\.manifestSHA256) else {
                    throw RunError("\(folder): its manifests differ from \(folders[0])'s")
                }
                for i in datasets.indices {
                    datasets[i].selected += results.datasets[i].selected
                    datasets[i].evaluated += results.datasets[i].evaluated
                    datasets[i].failed += results.datasets[i].failed
                }
            } else {
                first = results
                datasets = results.datasets
            }
            seconds = max(seconds, results.runSeconds)
            records += try RunOutput.records(folder: folder, results: results)
        }
        guard let first else { throw RunError("no shard folders given") }
        records.sort { ($0.datasetIndex, $0.index) < ($1.datasetIndex, $1.index) }
        var seen = Set<String>()
        for record in records where !seen.insert("\(record.datasetIndex)/\(record.index)").inserted {
            throw RunError("sample '\(record.id)' appears in more than one shard")
        }
        var context = first.context
        context.datasets = datasets
        context.runSeconds = seconds
        context.shards = folders.count
        context.toolVersion = toolVersion
        context.shard = nil
        context.rescoredFrom = nil
        context.mergedShards = shardResults.map {
            RunShard(index: $0.shard.index, count: $0.shard.count, samplesSHA256: $0.results.samplesSHA256)
        }.sorted { $0.index < $1.index }
        return (RunResults.build(records: records, context: context), records)
    }
}

extension RunResults {
    /// The context these results were built with.
    public var context: Context {
        var context = Context(
            configuration: configuration, datasets: datasets, limit: limit, seed: seeds["bootstrap"] ?? 42,
            resamples: bootstrapResamples, build: build, jobs: jobs, runSeconds: runSeconds, shards: shards,
            toolVersion: tool.version, shard: shard, mergedShards: mergedShards, rescoredFrom: rescoredFrom)
        context.curveExport = curveExport ?? .standard
        return context
    }
}
