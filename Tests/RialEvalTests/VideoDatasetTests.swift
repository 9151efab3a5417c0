import Foundation
import RialCodecs
import RialMedia
import RialProvenance
import Testing

@testable import RialEval

/// `kind: video` samples of `rial-bench-dataset/1` (docs/dataset-format-video.md) and
/// `VideoRecordingFiles`.
@Suite struct VideoDatasetTests {
    /// A 16 x 8 recording of `count` frames at 30 fps; every 3rd frame carries an 8 x 6
    /// depth keyframe (10 fps of 30, methods.md section 6), whose pixel 0 is 0.0 m: no
    /// LiDAR return, invalid depth that the chain still covers as stored.
    static func recording(frames count: Int = 160) throws -> VideoRecording {
        var frames: [ChainFrame] = []
        var keyframes: [DepthKeyframe] = []
        for i in 0..<count {
            let pixels = (0..<(16 * 8 * 3 / 2)).map { UInt8(truncatingIfNeeded: i &* 5 &+ $0 &* 3) }
            let timestamp = Double(i) / 30
            if i % 3 == 0 {
                let metres = (0..<48).map { $0 == 0 ? Float(0) : 0.4 + Float(i) * 0.001 + Float($0) * 0.05 }
                frames.append(ChainFrame(pixels: pixels, depthMetres: metres, timestamp: timestamp))
                keyframes.append(
                    DepthKeyframe(
                        timestamp: timestamp, videoFrameIndex: i, depth: DepthMap(width: 8, height: 6, metres: metres)!)
                )
            } else {
                frames.append(ChainFrame(pixels: pixels, timestamp: timestamp))
            }
        }
        return VideoRecording(
            frameWidth: 16, frameHeight: 8, framesPerSecond: 30, frames: frames,
            keyframes: try DepthKeyframes(keyframes), chain: HashChainRecord.chain(frames))
    }

    /// Writes `samples` as a manifest in `folder` and loads every sample as a video.
    static func load(_ samples: [DatasetSample], in folder: URL) throws -> [Result<LoadedVideoSample, SampleFailure>] {
        let path = folder.appendingPathComponent("manifest.json").path
        try DatasetManifest(name: "video", samples: samples).serializedData().write(to: URL(fileURLWithPath: path))
        let loader = try DatasetLoader(contentsOf: path)
        return loader.resolvedSamples().map { resolved in resolved.flatMap { loader.loadVideo($0) } }
    }

    @Test func writtenRecordingReadsBackAndVerifiesIntact() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let recording = try Self.recording()
        let sample = try VideoRecordingFiles.write(
            recording, id: "rec/1", label: .realScene, to: folder.appendingPathComponent("rec1"),
            manifestDirectory: folder, tamper: TamperLabel(kind: nil))
        #expect(sample.kind == .video && sample.image.isEmpty)
        #expect(sample.video?.frames == "rec1/frames.rlfs")
        #expect(sample.video?.depthKeyframes?.frames == stride(from: 0, to: 160, by: 3).map { Optional($0) })

        let loaded = try Self.load([sample], in: folder)[0].get()
        #expect(loaded.keyframeVariant == .rldp)
        let back = try VideoRecordingFiles.read(loaded)
        #expect(back.frames == recording.frames)
        #expect(back.chain == recording.chain)
        #expect(back.frameWidth == 16 && back.frameHeight == 8 && back.framesPerSecond == 30)
        // The stored 0.0 m is invalid depth (DepthFormat.validMetres): NaN once read.
        var expected = recording.keyframes.frames
        for k in expected.indices { expected[k].depth.metres[0] = .nan }
        #expect(back.keyframes == (try DepthKeyframes(expected)))

        var source = try #require(try loaded.frameSource())
        let result = try HashChainVerifier.verify(&source, against: try #require(loaded.chain))
        #expect(result.status == .intact && result.framesRead == 160)
        #expect(DeployedChainCheck.failures(try #require(loaded.chain)).isEmpty)
    }

    @Test func tamperedRecordingIsWrittenAsItIs() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        var dropped = try Self.recording()
        dropped.frames.remove(at: 30) // frame 31 (1-based) carried keyframe 10
        var depth = try Self.recording()
        depth.frames[60].depth[5] ^= 0x40 // frame 61's depth changed
        let samples = try [
            VideoRecordingFiles.write(
                dropped, id: "dropped", label: .realScene, to: folder.appendingPathComponent("d"),
                manifestDirectory: folder, tamper: TamperLabel(kind: .dropped, frame: 31)),
            VideoRecordingFiles.write(
                depth, id: "depth", label: .realScene, to: folder.appendingPathComponent("m"),
                manifestDirectory: folder, tamper: TamperLabel(kind: .modified, frame: 61)),
        ]
        #expect(samples[0].video?.depthKeyframes?.frames?.count == 53)
        for (loadedResult, sample) in zip(try Self.load(samples, in: folder), samples) {
            let loaded = try loadedResult.get()
            var source = try #require(try loaded.frameSource())
            let result = try HashChainVerifier.verify(&source, against: try #require(loaded.chain))
            #expect(result.tamper == sample.video?.tamper?.kind)
            #expect(result.firstBadFrame == sample.video?.tamper?.frame)
        }
    }

    @Test func headerlessBlobNeedsItsSizeInTheManifest() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let recording = try Self.recording(frames: 30)
        var sample = try VideoRecordingFiles.write(
            recording, id: "h", label: .realScene, to: folder.appendingPathComponent("h"), manifestDirectory: folder)
        // Rewrite the blob as the phone's headerless variant.
        try DepthKeyframeBlob.write(
            recording.keyframes, to: folder.appendingPathComponent("h/depth_keyframes.bin").path,
            variant: .headerless)
        sample.sha256?.depthKeyframes = nil
        sample.video?.depthKeyframes?.variant = .headerless
        sample.video?.depthKeyframes?.width = 8
        sample.video?.depthKeyframes?.height = 6
        let loaded = try Self.load([sample], in: folder)[0].get()
        #expect(loaded.keyframeVariant == .headerless && loaded.keyframes?.count == 10)
        var source = try #require(try loaded.frameSource())
        #expect(try HashChainVerifier.verify(&source, against: recording.chain).status == .intact)
        // The same blob declared with a header is refused, naming the key and file.
        sample.video?.depthKeyframes?.variant = .rldp
        sample.video?.depthKeyframes?.width = nil
        sample.video?.depthKeyframes?.height = nil
        let failure = try #require(Self.failure(try Self.load([sample], in: folder)[0]))
        #expect(failure.problems.map(\.jsonPath) == ["samples[0].depth_keyframes.path"])
        #expect(failure.problems[0].file == "h/depth_keyframes.bin" && failure.problems[0].sampleID == "h")
        #expect(failure.problems[0].message.contains("no RLDP header"))
    }

    static func failure(_ result: Result<LoadedVideoSample, SampleFailure>) -> SampleFailure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    @Test func brokenFilesFailTheSampleAndTheRunGoesOn() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let recording = try Self.recording(frames: 12)
        var samples: [DatasetSample] = []
        for name in ["good", "cut", "chain", "size"] {
            var sample = try VideoRecordingFiles.write(
                recording, id: name, label: .realScene, to: folder.appendingPathComponent(name),
                manifestDirectory: folder)
            sample.sha256 = nil
            samples.append(sample)
        }
        let cut = folder.appendingPathComponent("cut/frames.rlfs")
        try Data(try Data(contentsOf: cut).dropLast(7)).write(to: cut)
        try Data("{\"frame_hashes\": [\"nope\"]}".utf8).write(
            to: folder.appendingPathComponent("chain/hash_chain.json"))
        samples[3].video?.frameWidth = 32
        let results = try Self.load(samples, in: folder)
        #expect((try? results[0].get()) != nil)
        let problems = results.dropFirst().map { Self.failure($0)?.problems.map { "\($0.jsonPath) \($0.message)" } }
        #expect(
            problems[0]?.count == 1
                && problems[0]?[0].hasPrefix("samples[1].frames frame sequence is truncated") == true)
        #expect(
            problems[1]?.count == 1
                && problems[1]?[0].hasPrefix("samples[2].hash_chain not a hash chain record") == true)
        #expect(problems[2] == ["samples[3].frame_width the frame sequence is 16x8, the manifest says 32x8"])
        let report = try DatasetLoader(contentsOf: folder.appendingPathComponent("manifest.json").path).validate()
        #expect(report.validSampleCount == 1 && report.problems.map(\.sampleID) == ["cut", "chain", "size"])
        let description = try #require(Self.failure(results[1])).description
        #expect(
            description.hasPrefix(
                folder.appendingPathComponent("manifest.json").path
                    + ": samples[1].frames (id \"cut\"): cut/frames.rlfs: "))
    }

    @Test("fuzz: truncated and corrupted video manifests, with their files present")
    func manifestFuzz() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let recording = try Self.recording(frames: 12)
        var samples: [DatasetSample] = []
        for (name, tamper) in [("a", TamperLabel(kind: nil)), ("b", TamperLabel(kind: .dropped, frame: 4))] {
            samples.append(
                try VideoRecordingFiles.write(
                    recording, id: name, label: .screen, to: folder.appendingPathComponent(name),
                    manifestDirectory: folder, tamper: tamper))
        }
        let data = DatasetManifest(samples: samples).serializedData()
        let inputs =
            ManifestMutations.truncations(of: data, count: 300)
            + ManifestMutations.corruptions(of: data, count: 600, seed: 0x71DE0)
        var loaded = 0
        for input in inputs {
            do {
                let loader = try DatasetLoader(data: input, manifestPath: "fuzz.json", baseDirectory: folder)
                let report = loader.validate()
                for case .success(let resolved) in loader.resolvedSamples() {
                    if case .success(let video) = loader.loadVideo(resolved) {
                        _ = try? VideoRecordingFiles.read(video)
                        loaded += 1
                    }
                }
                #expect(report.problems.allSatisfy { $0.description.hasPrefix("fuzz.json: ") })
            } catch {
                #expect(error.problems.count == 1)
            }
        }
        #expect(loaded > 0)
    }

    // MARK: - Manifest keys

    static func problems(_ sample: String) -> [String] {
        let json = try! JSONValue.parse(Data(sample.utf8))
        return DatasetSample.decode(json, jsonPath: "samples[0]", manifest: "m.json").problems.map {
            "\($0.kind.rawValue) \($0.jsonPath): \($0.message)"
        }
    }

    @Test func videoKeysAreValidatedWithTheirPath() {
        #expect(
            Self.problems(#"{"id": "v", "kind": "video", "label": "screen"}"#) == [
                "missing_key samples[0]: a video sample needs 'frames' (the raw frame sequence) or 'video' (an MP4), or both"
            ])
        #expect(
            Self.problems(#"{"id": "v", "kind": "film", "image": "a.jpg", "label": "screen"}"#) == [
                "unknown_value samples[0].kind: unknown sample kind 'film' (expected one of photo, video)"
            ])
        #expect(
            Self.problems(#"{"id": "p", "image": "a.jpg", "label": "screen", "frames": "f.rlfs", "fps": 30}"#) == [
                "invalid_value samples[0].frames: only a video sample (\"kind\": \"video\") has 'frames'",
                "invalid_value samples[0].fps: only a video sample (\"kind\": \"video\") has 'fps'",
            ])
        #expect(
            Self.problems(
                #"{"id": "v", "kind": "video", "label": "screen", "frames": "f.rlfs", "depth_keyframes": {"path": "d.bin", "variant": "headerless"}}"#
            ) == [
                "missing_key samples[0].depth_keyframes: a headerless depth keyframe blob does not store its size: give 'width' and 'height'"
            ])
        #expect(
            Self.problems(
                #"{"id": "v", "kind": "video", "label": "screen", "video": "a.mp4", "frame_width": 15, "frame_height": 8, "tamper": {"kind": "intact", "frame": 3}, "depth": {"path": "d", "format": "f32le"}}"#
            ) == [
                "invalid_value samples[0].frame_width: must be even (4:2:0 frames), found 15",
                "invalid_value samples[0].tamper.frame: an intact recording has no tampered frame",
                "invalid_value samples[0].depth: a video sample has no 'depth'; its depth is 'depth_keyframes'",
            ])
        #expect(
            Self.problems(
                #"{"id": "v", "kind": "video", "label": "screen", "frames": "f", "tamper": {"kind": "swapped"}, "depth_keyframes": {"path": "d", "frames": [0, null, -1]}}"#
            ) == [
                "invalid_value samples[0].depth_keyframes.frames[2]: expected a 0-based frame index below 900 or null, found a number",
                "unknown_value samples[0].tamper.kind: unknown tamper kind 'swapped' (expected one of intact, modified, dropped, inserted, reordered, truncated, checkpoint_mismatch, final_hash_mismatch, attestation_mismatch, malformed)",
            ])
        #expect(
            Self.problems(
                #"{"id": "v", "kind": "video", "label": "screen", "frames": "f", "sha256": {"video": "\#(String(repeating: "a", count: 64))"}}"#
            ) == ["invalid_value samples[0].sha256.video: a hash for 'video' is given but the sample has none"])
    }

    @Test func photoManifestsAreUnchanged() throws {
        let text = #"{"id": "p", "image": "a.jpg", "label": "lcd_screen", "split": "test"}"#
        let json = try JSONValue.parse(Data(text.utf8))
        let sample = try #require(DatasetSample.decode(json, jsonPath: "samples[0]", manifest: "m").sample)
        #expect(sample.kind == .photo && sample.video == nil)
        #expect(sample.jsonValue == json)
    }

    @Test func videoSampleRoundTripsThroughJSON() throws {
        let sample = DatasetSample(
            id: "v", image: "", label: .printedPaper, group: "g",
            video: VideoReference(
                frames: "v/frames.rlfs", video: "v/clip.mp4",
                depthKeyframes: DepthKeyframesReference(
                    path: "v/d.bin", variant: .headerless, width: 256, height: 192, frames: [0, nil, 6]),
                hashChain: "v/chain.json", framesPerSecond: 30, frameWidth: 1920, frameHeight: 1440,
                tamper: TamperLabel(kind: .reordered, frame: 10)))
        let json = sample.jsonValue
        #expect(json["kind"] == .string("video") && json["image"] == nil)
        let back = DatasetSample.decode(json, jsonPath: "samples[0]", manifest: "m")
        #expect(back.problems.isEmpty)
        #expect(back.sample == sample)
    }
}
