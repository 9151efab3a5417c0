import Foundation
import RialCodecs
import RialMedia
import RialSynth

/// Writes a simulated video dataset (`rial-bench synth --video`) in the
/// `rial-bench-dataset/1` format with video samples (docs/dataset-format-video.md):
/// `recordings/<id>/` per sample through `VideoRecordingFiles`, then `manifest.json`.
///
/// Streaming: each of `jobs` workers renders one recording (`VideoSynthesis.samples`),
/// writes its samples and drops them before taking the next, so at most `jobs`
/// recordings and the manifest entries are in memory. The manifest is written last and
/// atomically, so a folder with a `manifest.json` is complete.
///
/// Deterministic: every recording depends on (seed, index) alone, the files are
/// written from its bytes, the manifest lists samples in recording order with
/// sorted-key JSON for the generator parameters; the same options and textures give
/// byte-identical output whatever `jobs` is.
public struct VideoSynthDatasetWriter: Sendable {
    public var options: VideoSynthOptions
    public var textures: [PlanarImage]
    /// Where the textures came from, recorded in the manifest.
    public var textureSources: [String]

    /// The folder under the dataset root holding one folder per sample.
    public static let recordingsFolder = "recordings"

    public init(options: VideoSynthOptions, textures: [PlanarImage] = [], textureSources: [String] = []) {
        self.options = options
        self.textures = textures
        self.textureSources = textureSources
    }

    /// What a run wrote.
    public struct Summary: Sendable, Equatable {
        public var manifestPath: String
        /// Recordings rendered (`options.recordingCount`).
        public var recordings: Int
        /// Samples written: the recordings plus every tamper-suite copy.
        public var samples: Int
        /// Tamper-suite samples among them (controls included).
        public var tamperSamples: Int
        /// Bytes of every file written, the manifest included.
        public var bytes: Int
        public var seconds: Double
    }

    /// Renders every recording with `jobs` workers and writes the dataset into `folder`
    /// (created when missing). `progress` gets the number of recordings written so far,
    /// from worker threads.
    ///
    /// - Throws: `MediaError` naming the file that could not be written; the options'
    ///   first problem as `MediaError.invalidArgument`.
    public func write(
        to folder: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: @Sendable (Int) -> Void = { _ in }
    ) throws -> Summary {
        if let problem = options.problems.first {
            throw MediaError(.invalidArgument, source: folder, "synth --video: \(problem)")
        }
        let start = ContinuousClock.now
        let root = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(Self.recordingsFolder), withIntermediateDirectories: true)
        } catch {
            throw MediaError(
                .writeFailed, source: root.appendingPathComponent(Self.recordingsFolder).path,
                "cannot create folder: \(error.localizedDescription)")
        }
        // The photo set's split draw: same seed and index give the same split.
        let splits = SynthDatasetSpec(count: max(options.recordingCount, 1), seed: options.seed)
        // Each worker renders a recording and writes its samples before taking the next, so
        // at most `jobs` recordings are in memory and writing overlaps rendering. The long
        // tamper-suite recordings go first so they do not leave a core idle at the end;
        // entries come back in recording order.
        let order = Array(options.count..<options.recordingCount) + Array(0..<options.count)
        let finished = Locked(0)
        let results = order.indices.concurrentMap(workers: jobs) { position in
            let index = order[position]
            let result = Result {
                try VideoSynthesis.samples(recording: index, options: options, textures: textures).map { synth in
                    try writeSample(
                        synth, recording: index, split: DatasetSplit(rawValue: splits.split(of: index)) ?? .test,
                        root: root)
                }
            }
            progress(
                finished.withLock {
                    $0 += 1
                    return $0
                })
            return (index, result)
        }
        var samples: [DatasetSample] = []
        var tamperSamples = 0
        var bytes = 0
        for (_, result) in results.sorted(by: { $0.0 < $1.0 }) {
            for written in try result.get() {
                samples.append(written.entry)
                bytes += written.bytes
                if written.entry.video?.tamper != nil { tamperSamples += 1 }
            }
        }

        let manifest = DatasetManifest(
            name: "synthetic-video-seed\(options.seed)-n\(options.count)-t\(options.tamperRecordings)",
            description: "Simulated hand-held video recordings from rial-bench synth --video (seed \(options.seed), "
                + "\(options.count) recordings of \(VideoSynthOptions.frameCount(seconds: options.seconds)) frames, "
                + "\(options.tamperRecordings) tamper suites of "
                + "\(VideoSynthOptions.frameCount(seconds: options.tamperSeconds)) frames, "
                + "\(options.width)x\(options.height) frames, \(options.depthWidth)x\(options.depthHeight) depth). "
                + (textureSources.isEmpty
                    ? "Procedural textures only." : "Textures: \(textureSources.joined(separator: "; "))."),
            samples: samples, extensions: ["generator": generatorInfo])
        let data = manifest.serializedData()
        let manifestPath = root.appendingPathComponent("manifest.json").path
        try MediaFile.write(data, to: manifestPath)
        let (s, atto) = (ContinuousClock.now - start).components
        return Summary(
            manifestPath: manifestPath, recordings: options.recordingCount, samples: samples.count,
            tamperSamples: tamperSamples, bytes: bytes + data.count, seconds: Double(s) + Double(atto) * 1e-18)
    }

    /// How the set was made: enough to regenerate it byte for byte.
    var generatorInfo: JSONValue {
        var o = JSONObject()
        o["version"] = .string(VideoGenerator.version)
        o["scenes"] = .string(SynthGenerator.version)
        o["options"] = Self.json(options)
        o["texture_sources"] = .array(textureSources.map { .string($0) })
        return .object(o)
    }

    /// Writes one sample's files; returns its manifest entry and the bytes written.
    func writeSample(_ synth: VideoSynthSample, recording index: Int, split: DatasetSplit, root: URL) throws -> (
        entry: DatasetSample, bytes: Int
    ) {
        let source = String(format: "video-%05d", index)
        var tags = ["synthetic", "video"] + synth.video.parameters.tags
        var extensions: JSONObject = [
            "synth": Self.json(synth.video.parameters),
            "synth_video": .object([
                "options": Self.json(synth.video.options), "trajectory": Self.json(synth.video.trajectory),
            ]),
        ]
        var tamper: TamperLabel?
        if let tampered = synth.tamper {
            tags.append("tamper_suite")
            if tampered.tamper == nil && tampered.expectedStatus == .partial { tags.append("interrupted") }
            tamper = TamperLabel(kind: tampered.tamper, frame: tampered.expectedFirstBadFrame)
            var t = JSONObject()
            t["detail"] = .string(tampered.detail)
            t["expected_status"] = .string(tampered.expectedStatus.rawValue)
            if let frame = tampered.frame { t["introduced_at_frame"] = .number(Double(frame)) }
            extensions["synth_tamper"] = .object(t)
        }
        let metadata = DatasetSample(
            id: synth.id, image: "", label: SampleLabel(rawValue: synth.video.label.rawValue) ?? .realScene,
            platform: "ios", group: source, split: split, tags: Array(Set(tags)).sorted(),
            source: "rial-bench synth --video seed=\(options.seed) index=\(index)",
            license: textureSources.isEmpty
                ? "CC0-1.0" : "synthetic; derived from the textures listed in the manifest description",
            extensions: extensions)
        let folder = root.appendingPathComponent(Self.recordingsFolder).appendingPathComponent(synth.id)
        let entry = try VideoRecordingFiles.write(
            synth.video.recording, id: synth.id, label: metadata.label, to: folder, manifestDirectory: root,
            tamper: tamper, metadata: metadata)
        var bytes = 0
        for name in [
            VideoRecordingFiles.framesFile, VideoRecordingFiles.depthKeyframesFile, VideoRecordingFiles.hashChainFile,
        ] {
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent(name).path)
            bytes += (attributes?[.size] as? NSNumber)?.intValue ?? 0
        }
        return (entry, bytes)
    }

    /// A value as JSON with sorted keys (non-finite numbers as strings, as the photo writer).
    static func json(_ value: some Encodable) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(value), let parsed = try? JSONValue.parse(data) else {
            return .string("\(value)")
        }
        return parsed
    }
}
