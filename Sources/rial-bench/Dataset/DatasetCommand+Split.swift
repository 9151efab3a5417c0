import ArgumentParser
import Foundation
import RialEval

extension DatasetCommand {
    /// `rial-bench dataset split MANIFEST --seed S`: assigns train/val/test by group.
    struct Split: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Assign train/val/test splits by group, deterministically from a seed.",
            discussion: """
                Whole groups go to one split (a sample without a group is its own group). \
                Algorithm: sort the groups (named groups by name, then single samples by id), \
                shuffle them with Fisher-Yates driven by SplitMix64 seeded with --seed, then walk \
                them in order: a group goes to train while the midpoint of its samples in the \
                running count is below train*N, to val below (train+val)*N, else to test. \
                The same manifest and seed always give the same splits. \
                Writes the new manifest to --out, over the input with --in-place, or to standard \
                output; a per-split summary goes to standard error.
                """
        )

        @Argument(help: "The manifest.json to split.")
        var manifest: String

        @Option(help: "Seed of the shuffle (an unsigned 64-bit integer).")
        var seed: UInt64

        @Option(help: "Fraction of samples for train (0...1).")
        var train: Double = SplitFractions.standard.train

        @Option(help: "Fraction of samples for val (0...1).")
        var val: Double = SplitFractions.standard.val

        @Option(help: "Fraction of samples for test (0...1); the three must sum to 1.")
        var test: Double = SplitFractions.standard.test

        @Option(help: "Write the new manifest here (relative paths are rewritten for its folder).")
        var out: String?

        @Flag(help: "Overwrite the input manifest.")
        var inPlace = false

        func validate() throws {
            if inPlace && out != nil {
                throw ValidationError("give either --out or --in-place, not both")
            }
            if SplitFractions(train: train, val: val, test: test) == nil {
                throw ValidationError(
                    "--train, --val and --test must each be in 0...1 and sum to 1 (got \(train) + \(val) + \(test))")
            }
        }

        func run() throws {
            guard let fractions = SplitFractions(train: train, val: val, test: test) else {
                throw ValidationError("--train, --val and --test must each be in 0...1 and sum to 1")
            }
            let loader = try DatasetCommandSupport.loader(manifest)
            var decoded = try DatasetCommandSupport.manifest(loader)
            decoded.samples = DatasetSplitter.split(decoded.samples, seed: seed, fractions: fractions)

            var summary = TextTable(["split", "groups", "samples", "target"])
            for split in DatasetSplit.allCases {
                let members = decoded.samples.filter { $0.split == split }
                let groups = Set(members.map(\.groupKey)).count
                let target = split == .train ? fractions.train : split == .val ? fractions.val : fractions.test
                summary.append([
                    split.rawValue, String(groups), String(members.count),
                    String(format: "%.1f", target * Double(decoded.samples.count)),
                ])
            }

            let destination = inPlace ? manifest : out
            if let destination {
                let newBase = URL(fileURLWithPath: destination).standardizedFileURL.deletingLastPathComponent()
                let output = decoded.rebased(from: loader.baseDirectory, to: newBase)
                do {
                    try FileManager.default.createDirectory(at: newBase, withIntermediateDirectories: true)
                    try output.serializedData().write(to: URL(fileURLWithPath: destination), options: .atomic)
                } catch {
                    throw CLIError.badInput("\(destination): cannot write: \(error.localizedDescription)")
                }
            } else {
                FileHandle.standardOutput.write(decoded.serializedData())
            }
            FileHandle.standardError.write(Data((summary.render() + "\n").utf8))
            if let destination {
                FileHandle.standardError.write(Data("wrote \(destination) (seed \(seed))\n".utf8))
            }
        }
    }
}
