import Foundation
import RialCodecs
import RialDetection
import RialMedia
import RialProvenance
import Testing

@testable import RialEval

/// `run` on a video dataset (issue 15 item 5): an intact recording and tampered copies,
/// written with `VideoRecordingFiles`, through `DatasetRunner`, `RunResults` and the reports.
@Suite(.serialized) struct VideoRunTests {
    /// A 32 x 24 recording of `count` NV12 frames at 30 fps; every 3rd frame carries an
    /// 8 x 6 depth keyframe (10 fps of 30, methods.md section 6; 4:3 like the frames).
    static func recording(frames count: Int = 30) throws -> VideoRecording {
        var frames: [ChainFrame] = []
        var keyframes: [DepthKeyframe] = []
        for i in 0..<count {
            let pixels = (0..<(32 * 24 * 3 / 2)).map { UInt8(truncatingIfNeeded: 40 &+ i &* 7 &+ $0 &* 13) }
            let timestamp = Double(i) / 30
            if i % 3 == 0 {
                let metres = (0..<48).map { 0.8 + Float(i) * 0.002 + Float($0 % 8) * 0.04 + Float($0 / 8) * 0.03 }
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
            frameWidth: 32, frameHeight: 24, framesPerSecond: 30, frames: frames,
            keyframes: try DepthKeyframes(keyframes), chain: HashChainRecord.chain(frames))
    }

    /// The tamper suite of the test, each built here from the intact recording (the
    /// frame is 1-based, as `HashChainVerification.firstBadFrame` places it).
    static func suite() throws -> [(id: String, recording: VideoRecording, label: TamperLabel)] {
        let intact = try recording()
        var modified = intact
        modified.frames[9].pixels[100] ^= 0x01 // one byte of frame 10
        var dropped = intact
        dropped.frames.remove(at: 20) // frame 21 gone; frame 22 takes its place
        var swapped = intact
        swapped.frames.swapAt(4, 5) // frames 5 and 6 swapped: frame 5 is the first out of place
        return [
            ("intact", intact, TamperLabel(kind: nil)),
            ("modified", modified, TamperLabel(kind: .modified, frame: 10)),
            ("dropped", dropped, TamperLabel(kind: .dropped, frame: 21)),
            ("reordered", swapped, TamperLabel(kind: .reordered, frame: 5)),
        ]
    }

    /// Writes the suite (plus the intact recording as an MP4-only sample: its chain can
    /// only be checked structurally) and runs it.
    static func run(in folder: URL) throws -> (records: [SampleRecord], results: RunResults) {
        var samples: [DatasetSample] = []
        for (id, recording, label) in try suite() {
            var sample = try VideoRecordingFiles.write(
                recording, id: id, label: .realScene, to: folder.appendingPathComponent(id),
                manifestDirectory: folder, tamper: label)
            sample.tags = ["synthetic"]
            samples.append(sample)
        }
        var mp4 = samples[0]
        mp4.id = "intact-mp4-only"
        mp4.video?.frames = nil
        mp4.video?.video = "intact/clip.mp4"
        mp4.sha256?.frames = nil
        // The intact recording's frames as H.264 (x264 at CRF 0: lossless, the decoder's
        // round-trip test shows the NV12 bytes come back equal).
        let intact = try recording()
        try VideoEncoder.write(
            intact.frames.map(\.pixels), width: 32, height: 24,
            to: folder.appendingPathComponent("intact/clip.mp4").path,
            options: VideoEncodeOptions(rate: .constantRateFactor(0)))
        samples.append(mp4)
        let manifest = folder.appendingPathComponent("manifest.json").path
        try DatasetManifest(name: "video-suite", samples: samples).serializedData()
            .write(to: URL(fileURLWithPath: manifest))

        let plan = RunPlan(manifests: [manifest], jobs: 2, resamples: 0, buildConfiguration: "debug")
        let runner = try DatasetRunner(plan: plan)
        let samplesPath = folder.appendingPathComponent("samples.jsonl").path
        let outcome = try runner.run(samplesPath: samplesPath)
        let records = try SampleRecord.readLines(path: samplesPath)
        let results = RunResults.build(
            records: records,
            context: .init(
                configuration: plan.configuration, datasets: outcome.datasets, limit: nil, seed: 42, resamples: 0,
                build: "debug", jobs: 2, runSeconds: outcome.seconds, toolVersion: "test"))
        return (records, results)
    }

    @Test func everyTamperIsCaughtAtItsFrameAndNoIntactRecordingIsFlagged() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let (records, results) = try Self.run(in: folder)
        #expect(records.map(\.id) == ["intact", "modified", "dropped", "reordered", "intact-mp4-only"])
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })

        // Each tampered recording: broken at the frame the test tampered, with its kind.
        for (id, _, label) in try Self.suite() {
            let record = try #require(byID[id])
            #expect(record.status == .evaluated, "\(id): \(record.failure?.reason ?? "")")
            let video = try #require(record.video)
            let chain = try #require(video.chain)
            #expect(chain.check == .recomputed)
            if let kind = label.kind {
                #expect(chain.status == .broken && chain.tamper == kind && chain.firstBadFrame == label.frame, "\(id)")
                // methods.md section 6, deployed rule step 1: a chain that fails is SUSPICIOUS.
                #expect(video.deployedLevel == .suspicious, "\(id)")
                #expect(video.tamper == .init(kind: kind.rawValue, frame: label.frame))
            } else {
                #expect(chain.status == .intact && chain.attestedFrames == 30 && chain.firstBadFrame == nil)
                // methods.md section 6, deployed rule step 3: no hardware attestation
                // (`unavailable`) and a passing chain is MEDIUM, unless temporal/1 says the
                // depth is not real (step 1: SUSPICIOUS).
                #expect(video.deployedLevel == (video.ruleDepth?.isReal == false ? .suspicious : .medium))
                #expect(video.frames == 30 && video.keyframes == 10 && video.framesPerSecond == 30)
                #expect(abs((video.durationSeconds ?? 0) - 29.0 / 30.0) < 1e-9)
                #expect(video.depthVariant == "rldp")
                // The middle frame (30 / 2 = 15, 0-based) as the still; frame 15 carries
                // keyframe 5 (every 3rd frame), the nearest in time.
                #expect(video.still == "frame 15 (NV12 bt601 video range)")
                #expect(video.stillDepthKeyframe == 5 && video.stillDepthNote == nil)
            }
            #expect(record.aggregate != nil && record.decision != nil)
        }

        // The MP4-only copy: structural check only, said in the record; its still is the
        // MP4's middle frame (30 frames -> frame 15 at 0.5 s, depth keyframe 5 at 0.5 s).
        let mp4 = try #require(byID["intact-mp4-only"])
        #expect(mp4.status == .evaluated, "\(mp4.failure?.reason ?? "")")
        #expect(mp4.video?.still == "MP4 frame 15 (decoded by FFmpeg, NV12 bt601 video range)")
        #expect(mp4.video?.stillDepthKeyframe == 5)
        let structural = try #require(mp4.video?.chain)
        #expect(structural.check == .structural && structural.status == .intact)
        #expect(structural.detail.hasPrefix("structural check only (no raw frames, only an MP4"))

        // results.json: one recording of each kind, each caught at its frame; the two intact
        // recordings (recomputed and structural) raise no alarm.
        let tamper = try #require(results.tamperDetection?["all"])
        #expect(tamper.kinds.map(\.kind) == ["dropped", "modified", "reordered"])
        for row in tamper.kinds {
            #expect(row.recordings == 1 && row.caught == 1 && row.placed == 1 && row.named == 1, "\(row.kind)")
        }
        #expect(tamper.intact == 2 && tamper.falseAlarms == 0 && tamper.falseAlarmRate == 0 && tamper.misses.isEmpty)
        #expect(results.tamperDetection?["simulated"] == tamper && results.tamperDetection?.count == 2)
        let video = try #require(results.video)
        #expect(video.samples == 5 && video.recomputed == 4 && video.structuralOnly == 1 && video.noChain == 0)
        #expect(video.chainStatus == ["intact": 2, "broken": 3])
        #expect(video.deployedLevels["real_scene"]?[ConfidenceLevel.suspicious.rawValue] ?? 0 >= 3)
        #expect(results.counts.evaluated == 5 && results.counts.failed == 0)

        // The reports carry the sections.
        let markdown = MarkdownReport.render(results)
        #expect(markdown.contains("## Tamper detection by tamper kind (hash chain)"))
        #expect(markdown.contains("| dropped | 1 | 1 | 1 | 1 |"))
        #expect(markdown.contains("## Video: deployed confidence rule and chain checks"))
        let html = HTMLReport.render(results: results, records: records)
        #expect(html.contains("<h3>Tamper detection by tamper kind (hash chain)</h3>"))
        #expect(html.contains("<tr><th>reordered</th><td>1</td><td>1</td><td>1</td><td>1</td>"))
        let methodology = MethodologyReport.markdown(results: results, datasets: [], folder: "run")
        #expect(methodology.contains("## Video recordings"))
        #expect(methodology.contains("recomputed from raw frames for 4, deployed structural check only for 1"))

        // A photo run's methodology with this run as its video run (`methodology --video-from`):
        // the section names the folder, the samples and the reproduction command.
        let withVideo = MethodologyReport.markdown(
            results: results, datasets: [], folder: "photos", video: (folder: "video-run", results: results))
        #expect(withVideo.contains("## Video run: `video-run`"))
        #expect(withVideo.contains("5 samples evaluated, 0 failed"))
        #expect(withVideo.contains("rial-bench run --default-set video --out video-run"))
    }

    /// The `video` block survives the round trips: the decoder, the rescore scanner
    /// (which keeps the line's other bytes), and `results.json`.
    @Test func videoBlockRoundTrips() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let (records, results) = try Self.run(in: folder)
        let rescorer = try Rescorer(configuration: .standard)
        for record in records {
            let line = record.jsonLine()
            let decoded = try JSONDecoder().decode(SampleRecord.self, from: Data(line.utf8))
            #expect(decoded.video == record.video)
            let fast = Array(line.utf8).withUnsafeBufferPointer { SampleRecordLine.rescore($0, rescorer: rescorer) }
            let rescored = try #require(fast, "\(record.id): the scanner fell back")
            #expect(rescored.record.video == record.video)
            #expect(String(decoding: rescored.line, as: UTF8.self) == line)
        }
        let data = try results.jsonData()
        let back = try RunResults.decoder.decode(RunResults.self, from: data)
        #expect(back.tamperDetection == results.tamperDetection && back.video == results.video)
    }

    /// A video sample with its own `image`: that is the still (its depth the keyframe
    /// nearest the middle of the recording), and the chain is still recomputed.
    @Test func sampleImageIsTheStill() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        var sample = try VideoRecordingFiles.write(
            try Self.recording(), id: "with-image", label: .realScene, to: folder.appendingPathComponent("w"),
            manifestDirectory: folder)
        let pixels = (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try PNGEncoder.encode(Image8(width: 64, height: 48, channels: 3, samples: pixels)!)
            .write(to: folder.appendingPathComponent("w/still.png"))
        sample.image = "w/still.png"
        let manifest = folder.appendingPathComponent("manifest.json").path
        try DatasetManifest(name: "video-image", samples: [sample]).serializedData()
            .write(to: URL(fileURLWithPath: manifest))
        let samplesPath = folder.appendingPathComponent("samples.jsonl").path
        _ = try DatasetRunner(plan: RunPlan(manifests: [manifest], resamples: 0, buildConfiguration: "debug"))
            .run(samplesPath: samplesPath)
        let record = try #require(try SampleRecord.readLines(path: samplesPath).first)
        #expect(record.status == .evaluated, "\(record.failure?.reason ?? "")")
        #expect(record.video?.still == "image" && record.sha256["image"] != nil)
        // Frames at 0 ... 29/30 s: the middle is 14.5/30 s, nearest keyframe 5 (0.5 s;
        // keyframes every 0.1 s), whose 8 x 6 grid fits the 64 x 48 image (both 4:3).
        #expect(record.video?.stillDepthKeyframe == 5)
        #expect(record.video?.chain?.check == .recomputed && record.video?.chain?.status == .intact)
    }

    /// `rescore` takes the deployed level again under the new `aggregation.video_rule`.
    /// An MP4 that FFmpeg cannot read fails its sample with a reason naming the file; the
    /// chain block (structural check) stays.
    @Test func unreadableMP4FailsItsSampleNamingTheFile() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        var sample = try VideoRecordingFiles.write(
            try Self.recording(), id: "broken", label: .realScene, to: folder.appendingPathComponent("broken"),
            manifestDirectory: folder, tamper: nil)
        sample.video?.frames = nil
        sample.video?.video = "broken/clip.mp4"
        sample.sha256?.frames = nil
        let clip = folder.appendingPathComponent("broken/clip.mp4")
        try Data("not a movie".utf8).write(to: clip)
        let manifest = folder.appendingPathComponent("manifest.json").path
        try DatasetManifest(name: "broken", samples: [sample]).serializedData().write(
            to: URL(fileURLWithPath: manifest))
        let runner = try DatasetRunner(plan: RunPlan(manifests: [manifest], jobs: 1, resamples: 0))
        let samplesPath = folder.appendingPathComponent("samples.jsonl").path
        _ = try runner.run(samplesPath: samplesPath)
        let record = try #require(try SampleRecord.readLines(path: samplesPath).first)
        #expect(record.status == .failed && record.failure?.stage == .load)
        #expect(record.failure?.reason.contains(clip.path) == true, "\(record.failure?.reason ?? "")")
        #expect(record.video?.chain?.check == .structural)
    }

    @Test func rescoreAppliesTheVideoRule() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        var record = try #require(try Self.run(in: folder).records.first { $0.id == "intact" })
        // Hardware passes, the chain is intact and attested, depth real with consistency
        // 0.75 and stability 0.9: HIGH under the defaults (0.7, 0.8), MEDIUM when
        // consistency must reach 0.8 (methods.md section 6, deployed rule steps 2 and 3).
        record.video?.hardware = .pass
        record.video?.ruleDepth = .init(isReal: true, consistency: 0.75, stability: 0.9)
        record.video?.deployedLevel = .high
        var strict = PipelineConfiguration.standard
        strict.aggregation.videoRule.depthConsistencyMinimum = 0.8
        let line = Array(record.jsonLine().utf8)
        let standard = try Rescorer(configuration: .standard), stricter = try Rescorer(configuration: strict)
        let same = line.withUnsafeBufferPointer { SampleRecordLine.rescore($0, rescorer: standard) }
        #expect(same?.record.video?.deployedLevel == .high)
        // The level changes: the scanner falls back, and the record is written again.
        #expect(line.withUnsafeBufferPointer { SampleRecordLine.rescore($0, rescorer: stricter) } == nil)
        #expect(stricter.rescore(record).video?.deployedLevel == .medium)
        #expect(standard.rescore(record).video?.deployedLevel == .high)
    }

    @Test func videoRuleIsAValidatedConfigurationSection() throws {
        var configuration = PipelineConfiguration.standard
        // Defaults: methods.md section 6, "consistency >= 0.7 and stability >= 0.8".
        #expect(configuration.aggregation.videoRule.depthConsistencyMinimum == 0.7)
        #expect(configuration.aggregation.videoRule.sceneStabilityMinimum == 0.8)
        configuration.aggregation.videoRule.sceneStabilityMinimum = 1.5
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do { try configuration.validate() } catch {
            #expect(error.key == "aggregation.video_rule.scene_stability_minimum")
        }
    }
}
