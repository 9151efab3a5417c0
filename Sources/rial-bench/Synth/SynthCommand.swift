import ArgumentParser
import Foundation
import RialEval
import RialMedia
import RialSynth

extension SynthClass: ExpressibleByArgument {}
extension SynthCameraProfile: ExpressibleByArgument {}

/// `rial-bench synth`: generate a labelled synthetic dataset.
struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate physically based synthetic captures (JPEG + LiDAR-like depth) as a dataset.",
        discussion: """
            Real scenes are rendered from 3D geometry; screens (LCD stripe, OLED PenTile) and halftone \
            prints are rendered through their physical structure and a simulated camera (lens blur, pixel \
            integration, Bayer mosaic, noise, demosaicing), so moire, banding and dot patterns come out \
            of sampling rather than being painted on. Output is byte-identical for the same seed and \
            arguments, whatever --jobs is. Textures come from the real data mirror when it is present \
            (--mirror, $RIAL_DATA_MIRROR, or ../shared/datasets/real), procedural otherwise.
            """)

    @Option(help: "Output folder (gets manifest.json, images/, depth/, right/).")
    var out: String

    @Option(help: "Number of captures.")
    var count: Int

    @Option(help: "Dataset seed.")
    var seed: UInt64 = 1

    @Option(parsing: .upToNextOption, help: "Classes, assigned round-robin (default: all).")
    var classes: [SynthClass] = SynthClass.allCases

    @Option(help: "Image width in pixels.")
    var width: Int = 1600

    @Option(help: "Image height in pixels.")
    var height: Int = 1200

    @Flag(help: "Also render the second (rectified, 10-20 mm baseline) camera view.")
    var secondView = false

    @Option(help: "Camera: standard (rial-synth/5) or phone (phone/1, calibrated on real phone photos).")
    var camera: SynthCameraProfile = .standard

    @OptionGroup var jobs: JobsOption

    @Option(help: "Folder of the real data mirror to take textures from.")
    var mirror: String?

    @Flag(help: "Use procedural textures only, even when a mirror is present.")
    var proceduralOnly = false

    func validate() throws {
        let spec = SynthDatasetSpec(count: count, seed: seed, classes: classes, width: width, height: height)
        if let problem = spec.problems.first { throw ValidationError(problem) }
    }

    func run() throws {
        let spec = SynthDatasetSpec(
            count: count, seed: seed, classes: classes, width: width, height: height,
            secondView: secondView, camera: camera)
        var textures: [PlanarImage] = []
        var sources: [String] = []
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let located = try? DatasetFetcher.locateMirror(
            explicit: mirror, environment: ProcessInfo.processInfo.environment,
            currentDirectory: cwd, manifestDirectory: URL(fileURLWithPath: out)
        ).mirror
        if !proceduralOnly, let mirrorURL = located?.url {
            do {
                (textures, sources) = try SynthTextureLibrary.load(mirror: mirrorURL)
            } catch let error as MediaError {
                throw CLIError.badInput(error.description)
            }
        } else if let mirror, !proceduralOnly {
            throw CLIError.badInput("\(mirror): no such folder (the data mirror for textures)")
        }
        let progress = ProgressReporter(label: "synth", total: count)
        do {
            let summary = try SynthDatasetWriter(spec: spec, textures: textures, textureSources: sources)
                .write(to: out, jobs: jobs.count, progress: { progress.update($0) })
            Terminal.out(
                String(
                    format: "synth: %d captures in %.1f s (%.2f s each on %d jobs); textures: %@; manifest: %@",
                    summary.count, summary.seconds, summary.seconds / Double(summary.count), jobs.count,
                    sources.isEmpty ? "procedural" : "\(sources.count) from the mirror",
                    summary.manifestPath))
        } catch let error as MediaError {
            throw CLIError.badInput(error.description)
        }
    }
}
