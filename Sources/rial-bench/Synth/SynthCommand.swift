import ArgumentParser
import Foundation
import RialEval
import RialMedia
import RialProvenance
import RialSynth

extension SynthClass: ExpressibleByArgument {}
extension SynthCameraProfile: ExpressibleByArgument {}

/// `rial-bench synth`: generate a labelled synthetic dataset.
struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Generate physically based synthetic captures (JPEG + LiDAR-like depth), or video recordings, as a dataset.",
        discussion: """
            Real scenes are rendered from 3D geometry; screens (LCD stripe, OLED PenTile) and halftone \
            prints are rendered through their physical structure and a simulated camera (lens blur, pixel \
            integration, Bayer mosaic, noise, demosaicing), so moire, banding and dot patterns come out \
            of sampling rather than being painted on. Output is byte-identical for the same seed and \
            arguments, whatever --jobs is. Textures come from the real data mirror when it is present \
            (--mirror, $RIAL_DATA_MIRROR, or ../shared/datasets/real), procedural otherwise.

            With --video: hand-held recordings of the same scenes (30 fps NV12 frames, depth keyframes \
            every 3rd frame, the frame hash chain with checkpoints and attestation) written as video \
            samples (docs/dataset-format-video.md) under recordings/, one recording rendered per job \
            at a time; --tamper-recordings adds recordings whose tamper suite (intact and \
            interrupted controls, modified, dropped, inserted, reordered frames, truncation, wrong \
            checkpoint, final hash, attestation) is written as labelled samples.
            """)

    @Option(help: "Output folder (gets manifest.json, images/, depth/, right/; recordings/ with --video).")
    var out: String

    @Option(help: "Number of captures (recordings with --video; 0 allowed there with --tamper-recordings).")
    var count: Int

    @Flag(help: "Generate video recordings instead of photos.")
    var video = false

    @Option(help: "Dataset seed.")
    var seed: UInt64 = 1

    @Option(parsing: .upToNextOption, help: "Classes, assigned round-robin (default: all).")
    var classes: [SynthClass] = SynthClass.allCases

    @Option(help: "Image width in pixels (default: 1600; 160 with --video).")
    var width: Int?

    @Option(help: "Image height in pixels (default: 1200; 120 with --video).")
    var height: Int?

    @Flag(help: "Also render the second (rectified, 10-20 mm baseline) camera view.")
    var secondView = false

    @Option(
        help:
            "Camera: standard (rial-synth/5), phone (phone/1, calibrated on real phone photos) or phone2 (phone/2, recalibrated on phone/1's remaining gap)."
    )
    var camera: SynthCameraProfile = .standard

    @Option(help: "Video: length of each recording in seconds at 30 fps (default: 2.5).")
    var seconds: Double?

    @Option(help: "Video: length of each recording in frames, instead of --seconds.")
    var frames: Int?

    @Option(help: "Video: depth keyframe width (default: 256, ARKit's).")
    var depthWidth: Int?

    @Option(help: "Video: depth keyframe height (default: 192).")
    var depthHeight: Int?

    @Option(help: "Video: extra recordings each written with its tamper suite (default: 0, no suite).")
    var tamperRecordings: Int?

    @Option(
        help:
            "Video: length of the tamper-suite recordings in seconds (default: 5.5; over 5 s gives the checkpoint cases)."
    )
    var tamperSeconds: Double?

    @Option(help: "Video: length of the tamper-suite recordings in frames, instead of --tamper-seconds.")
    var tamperFrames: Int?

    @OptionGroup var jobs: JobsOption

    @Option(help: "Folder of the real data mirror to take textures from.")
    var mirror: String?

    @Flag(help: "Use procedural textures only, even when a mirror is present.")
    var proceduralOnly = false

    func validate() throws {
        let problems = video ? videoProblems : photoProblems
        if !problems.isEmpty { throw ValidationError(problems.joined(separator: "\n")) }
    }

    /// Every problem of a photo run, one line each: the spec's, and each video option given.
    var photoProblems: [String] {
        let spec = SynthDatasetSpec(
            count: count, seed: seed, classes: classes, width: width ?? 1600, height: height ?? 1200)
        var found = spec.problems
        let videoOnly: [(String, Bool)] = [
            ("--seconds", seconds != nil), ("--frames", frames != nil), ("--depth-width", depthWidth != nil),
            ("--depth-height", depthHeight != nil), ("--tamper-recordings", tamperRecordings != nil),
            ("--tamper-seconds", tamperSeconds != nil), ("--tamper-frames", tamperFrames != nil),
        ]
        for (name, given) in videoOnly where given { found.append("\(name) needs --video") }
        return found
    }

    /// Every problem of a video run, one line each.
    var videoProblems: [String] {
        var found: [String] = []
        if secondView { found.append("--second-view is for photos; a video has no second view") }
        if seconds != nil && frames != nil { found.append("give --seconds or --frames, not both") }
        if tamperSeconds != nil && tamperFrames != nil {
            found.append("give --tamper-seconds or --tamper-frames, not both")
        }
        if (tamperSeconds != nil || tamperFrames != nil) && (tamperRecordings ?? 0) < 1 {
            found.append("--tamper-seconds and --tamper-frames need --tamper-recordings of at least 1")
        }
        for (name, value) in [("--frames", frames), ("--tamper-frames", tamperFrames)] {
            if let value, !(1...FrameHashLayout.maximumFrames).contains(value) {
                found.append("\(name) must be in 1...\(FrameHashLayout.maximumFrames), got \(value)")
            }
        }
        // A length given in frames is reported above in frames, not again as seconds.
        return found
            + videoOptions.problems.filter { problem in
                let inFrames = problem.hasPrefix("seconds ") ? frames != nil : tamperFrames != nil
                return !(problem.contains(" frames at 30 fps, not ") && inFrames)
            }
    }

    /// The video options the arguments give (defaults of `VideoSynthOptions` for the rest).
    var videoOptions: VideoSynthOptions {
        let defaults = VideoSynthOptions(count: count)
        return VideoSynthOptions(
            count: count, seed: seed, classes: classes,
            seconds: frames.map { Double($0) / VideoOptions.framesPerSecond } ?? seconds ?? defaults.seconds,
            width: width ?? defaults.width, height: height ?? defaults.height,
            depthWidth: depthWidth ?? defaults.depthWidth, depthHeight: depthHeight ?? defaults.depthHeight,
            camera: camera, tamperRecordings: tamperRecordings ?? 0,
            tamperSeconds: tamperFrames.map { Double($0) / VideoOptions.framesPerSecond } ?? tamperSeconds
                ?? defaults.tamperSeconds)
    }

    func run() throws {
        let (textures, sources) = try loadTextures()
        if video {
            try runVideo(textures: textures, sources: sources)
            return
        }
        let spec = SynthDatasetSpec(
            count: count, seed: seed, classes: classes, width: width ?? 1600, height: height ?? 1200,
            secondView: secondView, camera: camera)
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

    func runVideo(textures: [PlanarImage], sources: [String]) throws {
        let options = videoOptions
        let progress = ProgressReporter(label: "synth --video", total: options.recordingCount)
        do {
            let summary = try VideoSynthDatasetWriter(options: options, textures: textures, textureSources: sources)
                .write(to: out, jobs: jobs.count, progress: { progress.update($0) })
            Terminal.out(
                String(
                    format:
                        "synth --video: %d samples (%d recordings of %d frames, %d tamper-suite samples from %d "
                        + "recordings of %d frames) in %.1f s (%.2f s per recording on %d jobs), %.1f MB; "
                        + "textures: %@; manifest: %@",
                    summary.samples, options.count, VideoSynthOptions.frameCount(seconds: options.seconds),
                    summary.tamperSamples, options.tamperRecordings,
                    VideoSynthOptions.frameCount(seconds: options.tamperSeconds), summary.seconds,
                    summary.seconds / Double(summary.recordings), jobs.count, Double(summary.bytes) / 1e6,
                    sources.isEmpty ? "procedural" : "\(sources.count) from the mirror", summary.manifestPath))
        } catch let error as MediaError {
            throw CLIError.badInput(error.description)
        }
    }

    /// The mirror's textures, or none (procedural) when there is no mirror or --procedural-only.
    func loadTextures() throws -> ([PlanarImage], [String]) {
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
        return (textures, sources)
    }
}
