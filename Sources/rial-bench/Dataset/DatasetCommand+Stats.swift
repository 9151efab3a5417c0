import ArgumentParser
import Foundation
import RialEval
import RialMedia

extension DatasetCommand {
    /// `rial-bench dataset stats MANIFEST`: sample counts by label, split, attestation, tag, group.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count samples by label, split, attestation, tag and group.",
            discussion: "Reads the manifest only (files are not checked; see `dataset validate`)."
        )

        @Argument(help: "The manifest.json to describe.")
        var manifest: String

        @Flag(help: "Print the counts as JSON on standard output.")
        var json = false

        func run() throws {
            let loader = try DatasetCommandSupport.loader(manifest)
            let decoded = try DatasetCommandSupport.manifest(loader)
            let stats = DatasetStatistics(samples: decoded.samples)
            if json {
                var o = JSONObject()
                o["manifest"] = .string(manifest)
                if let name = decoded.name { o["name"] = .string(name) }
                for (key, value) in stats.jsonValue.objectValue ?? [:] { o[key] = value }
                Terminal.out(JSONValue.object(o).serialized())
                return
            }
            Terminal.out(Self.render(stats, title: "\(manifest)\(decoded.name.map { " (\($0))" } ?? "")"))
        }

        static func render(_ stats: DatasetStatistics, title: String) -> String {
            func percent(_ n: Int) -> String {
                stats.sampleCount == 0 ? "-" : String(format: "%.1f%%", 100 * Double(n) / Double(stats.sampleCount))
            }
            var overview = TextTable(["samples", "bona fide", "attacks", "with depth", "with stereo"])
            overview.append(
                [
                    stats.sampleCount, stats.bonaFideCount, stats.attackCount, stats.withDepthCount,
                    stats.withStereoCount,
                ].map(String.init))
            var sections = [title, "", overview.render()]
            let tables: [(String, [DatasetStatistics.Count])] = [
                ("label", stats.labels), ("split", stats.splits), ("attestation", stats.attestations),
                ("tag", stats.tags), ("group", stats.groups),
            ]
            for (name, counts) in tables {
                var table = TextTable([name, "samples", "share"])
                for count in counts { table.append([count.key, String(count.count), percent(count.count)]) }
                if counts.isEmpty { table.append(["(none)", "0", "-"]) }
                sections += ["", table.render()]
            }
            return sections.joined(separator: "\n")
        }
    }
}
