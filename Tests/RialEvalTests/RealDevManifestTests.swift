import Foundation
import RialMedia
import Testing

@testable import RialEval

/// `datasets/real-dev/manifest.json`: the structure other tools rely on (no image needed).
@Suite struct RealDevManifestTests {
    static let manifestURL = EvalFixtures.packageRoot.appendingPathComponent("datasets/real-dev/manifest.json")
    static let candidatesURL = EvalFixtures.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/datasets/real-dev/candidates.csv")

    static func manifest() throws -> (DatasetManifest, [JSONValue]) {
        let loader = try DatasetLoader(contentsOf: manifestURL.path)
        #expect(loader.headerProblems.isEmpty)
        let manifest = try loader.decodeManifest()
        return (manifest, manifest.extensions["excluded"]?.arrayValue ?? [])
    }

    @Test func everySampleNamesItsRepositoryCommitPathAndHash() throws {
        let (manifest, _) = try Self.manifest()
        #expect(!manifest.samples.isEmpty)
        #expect(Set(manifest.samples.map(\.id)).count == manifest.samples.count)
        let hex = Set("0123456789abcdef")
        for sample in manifest.samples {
            guard
                case .github(let owner, let repository, let commit, let path) = UpstreamSource(
                    parsing: sample.source ?? "")
            else {
                Issue.record("\(sample.id): source \(sample.source ?? "none") is not github:OWNER/NAME@COMMIT:PATH")
                continue
            }
            #expect(commit.count == 40 && commit.allSatisfy { hex.contains($0) }, "\(sample.id)")
            #expect(sample.image == "files/\(owner)+\(repository)/\(path)", "\(sample.id)")
            let digest = sample.sha256?.image ?? ""
            #expect(digest.count == 64 && digest.allSatisfy { hex.contains($0) }, "\(sample.id)")
            // Leave-one-source-out reads the repository from exactly one tag.
            #expect(sample.tags.filter { $0.hasPrefix("source:") } == ["source:\(owner)/\(repository)"], "\(sample.id)")
            let group = sample.group ?? ""
            #expect(
                group == "\(owner)/\(repository)" || group.hasPrefix("\(owner)/\(repository)/"),
                "\(sample.id): group \(group)")
            #expect(
                sample.tags.contains("exif_original") != sample.tags.contains("recompressed"),
                "\(sample.id): exactly one of exif_original and recompressed")
            #expect([SampleLabel.realScene, .screen, .printedPaper].contains(sample.label), "\(sample.id)")
        }
    }

    @Test func splitsNeverCutAGroup() throws {
        let (manifest, _) = try Self.manifest()
        var splitOfGroup: [String: DatasetSplit] = [:]
        for sample in manifest.samples {
            let group = try #require(sample.group)
            let previous = splitOfGroup.updateValue(sample.split, forKey: group)
            #expect(previous == nil || previous == sample.split, "group \(group) is in two splits")
        }
        // The committed splits are the DatasetSplitter's for seed 12, 0.6/0.2/0.2.
        let resplit = DatasetSplitter.split(manifest.samples, seed: 12, fractions: .standard)
        #expect(resplit.map(\.split) == manifest.samples.map(\.split))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: candidatesURL.path)))
    func everyCandidateRowIsASampleOrExcludedWithAReason() throws {
        let (manifest, excluded) = try Self.manifest()
        let text = try String(contentsOf: Self.candidatesURL, encoding: .utf8)
        // source,commit,path,... : the first three fields never hold a comma or a quote.
        let rows = text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            line.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false).prefix(3).map(String.init)
        }
        let candidates = rows.map { "github:\($0[0])@\($0[1]):\($0[2])" }
        var listed = manifest.samples.compactMap(\.source)
        for entry in excluded {
            let object = try #require(entry.objectValue)
            let source = object["source"]?.stringValue ?? ""
            let reason = object["reason"]?.stringValue ?? ""
            #expect(!reason.isEmpty, "\(source) is excluded without a reason")
            listed.append(source)
        }
        #expect(listed.count == candidates.count)
        #expect(Set(listed) == Set(candidates))
    }
}
