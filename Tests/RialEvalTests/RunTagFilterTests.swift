import Foundation
import RialTestSupport
import Testing

@testable import RialEval

/// `rial-bench run --tag`: only samples carrying every given tag are selected.
@Suite(.serialized) struct RunTagFilterTests {
    /// The run fixture's manifest with `source:a/a` on samples 1, 4 and 6 and `x` on 4,
    /// written beside it (same relative image paths).
    private func taggedManifest() throws -> (path: String, ids: [String]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: RunFixture.manifest))
        var manifest = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var samples = try #require(manifest["samples"] as? [[String: Any]])
        for i in samples.indices {
            var tags = samples[i]["tags"] as? [String] ?? []
            if [1, 4, 6].contains(i) { tags.append("source:a/a") }
            if i == 4 { tags.append("x") }
            samples[i]["tags"] = tags
        }
        manifest["samples"] = samples
        let path = RunFixture.folder.appendingPathComponent("manifest-tagged.json").path
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        return (path, samples.map { $0["id"] as! String })
    }

    private func selectedIDs(_ manifest: String, tags: [String]) throws -> [String] {
        let folder = try Fixtures.makeTemporaryFolder("rial-run-tags")
        let path = folder.appendingPathComponent("samples.jsonl").path
        var plan = RunPlan(manifests: [manifest], jobs: 2, resamples: 0, buildConfiguration: "debug")
        plan.tags = tags
        _ = try DatasetRunner(plan: plan).run(samplesPath: path)
        return try SampleRecord.readLines(path: path).map(\.id)
    }

    @Test func onlySamplesWithEveryTagAreRun() throws {
        let (manifest, ids) = try taggedManifest()
        #expect(try selectedIDs(manifest, tags: ["source:a/a"]) == [ids[1], ids[4], ids[6]])
        #expect(try selectedIDs(manifest, tags: ["source:a/a", "x"]) == [ids[4]])
        #expect(try selectedIDs(manifest, tags: ["nowhere"]).isEmpty)
        #expect(try selectedIDs(manifest, tags: []).count == ids.count)
    }
}
