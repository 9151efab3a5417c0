import Foundation

/// Combines the folders of a sharded run into one.
public enum RunMerger {
    /// The merged records (manifest order) and recomputed results.
    ///
    /// - Throws: `RunError` when a folder is unreadable or the shards disagree on the
    ///   configuration or the manifests.
    public static func merge(folders: [String], toolVersion: String) throws(RunError) -> (
        results: RunResults, records: [SampleRecord]
    ) {
        var first: RunResults?
        var records: [SampleRecord] = []
        var datasets: [RunDataset] = []
        var seconds = 0.0
        for folder in folders {
            let url = URL(fileURLWithPath: folder)
            let results = try RunResults.read(path: url.appendingPathComponent(RunOutput.resultsFile).path)
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
            records += try SampleRecord.readLines(path: url.appendingPathComponent(RunOutput.samplesFile).path)
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
        return (RunResults.build(records: records, context: context), records)
    }
}

extension RunResults {
    /// The context these results were built with.
    public var context: Context {
        Context(
            configuration: configuration, datasets: datasets, limit: limit, seed: seeds["bootstrap"] ?? 42,
            resamples: bootstrapResamples, build: build, jobs: jobs, runSeconds: runSeconds, shards: shards,
            toolVersion: tool.version)
    }
}
