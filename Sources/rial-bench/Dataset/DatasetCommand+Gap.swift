import ArgumentParser
import Foundation
import RialEval
import RialMedia

extension DatasetCommand {
    /// `rial-bench dataset gap --real A --synthetic B --out DIR`: the domain-gap report.
    struct Gap: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare real and synthetic images on the statistics detectors depend on (domain-gap report).",
            discussion: """
                Measures every image of both manifests at a resolution-normalised analysis scale \
                (noise per channel and its spectrum, chroma noise, sharpening halos, spectral slope, \
                exposure and white balance, moire bands, JPEG tables) and compares bona fide photos \
                and, separately, screen and print attacks of the two sets: per statistic median, \
                quartiles, n and Cliff's delta, plus the domain-gap figure (group-K-fold AUC of a \
                logistic regression telling the sets apart; 0.5 = indistinguishable). Writes \
                report.md and gap.json into --out. Unreadable samples are listed, never fatal. \
                Exit status 65 when a manifest cannot be read or the output cannot be written.
                """)

        @Option(help: "Manifest of the real (reference) photos.")
        var real: String

        @Option(help: "Manifest of the synthetic (compared) captures.")
        var synthetic: String

        @Option(help: "Folder for report.md and gap.json (created when missing).")
        var out: String

        @OptionGroup var jobs: JobsOption

        func validate() throws {
            if out.isEmpty { throw ValidationError("--out must name a folder") }
        }

        func run() throws {
            let reference = try DatasetCommandSupport.loader(real)
            let compared = try DatasetCommandSupport.loader(synthetic)
            let total = reference.sampleCount + compared.sampleCount
            let progress = ProgressReporter(label: "domain gap", total: total)
            let report = DomainGapReport.build(
                reference: reference, compared: compared, jobs: jobs.count, progress: { progress.update($0) })
            let folder = URL(fileURLWithPath: out)
            let json: Data
            do { json = try report.json() } catch {
                throw CLIError.badInput("\(out): cannot encode gap.json (\(error))")
            }
            try OutputFile.write(json, to: folder.appendingPathComponent("gap.json").path)
            let markdownPath = folder.appendingPathComponent("report.md").path
            try OutputFile.write(Data(report.markdown().utf8), to: markdownPath)
            for failure in report.failures.prefix(20) {
                Terminal.warning("\(failure.set) \(failure.sample): \(failure.reason)")
            }
            Terminal.out(markdownPath)
        }
    }
}
