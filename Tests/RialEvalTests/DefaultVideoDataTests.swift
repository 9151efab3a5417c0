import Foundation
import RialMedia
import RialSynth
import Testing

@testable import RialEval

@Suite struct DefaultVideoDataTests {
    /// The default video set's composition as issue 15 asks: every class (item 4: real 3D
    /// scenes, screens and prints), about 10 recordings per class so AUC intervals mean
    /// something, and tamper suites long enough for a checkpoint.
    @Test func specComposition() {
        let spec = DefaultData.videoSpec
        #expect(spec.problems.isEmpty, "\(spec.problems)")
        #expect(Set(spec.classes) == Set(SynthClass.allCases))
        #expect(spec.count == 10 * SynthClass.allCases.count)
        // methods.md section 6: 30 fps; 2.5 s is 75 frames, 25 depth keyframes at 10 fps.
        #expect(VideoSynthOptions.frameCount(seconds: spec.seconds) == 75)
        // methods.md section 6: a checkpoint every 150 frames; the suite's recordings go
        // past the first so the wrong checkpoint and the interrupted control occur.
        #expect(VideoSynthOptions.frameCount(seconds: spec.tamperSeconds) > 150)
        #expect(spec.tamperRecordings >= 2)
    }

    @Test func cacheKeyFollowsOptionsAndTextures() {
        let a = VideoSynthOptions(count: 2, seed: 1)
        let key = DefaultData.cacheKey(video: a, textureSources: [])
        #expect(key.count == 16 && key.allSatisfy { "0123456789abcdef".contains($0) }, "\(key)")
        var b = a
        b.tamperRecordings = 1
        #expect(DefaultData.cacheKey(video: b, textureSources: []) != key)
        b = a
        b.depthWidth = 128
        #expect(DefaultData.cacheKey(video: b, textureSources: []) != key)
        #expect(DefaultData.cacheKey(video: a, textureSources: ["x"]) != key)
        // Equal options (however built) give the same key.
        #expect(DefaultData.cacheKey(video: VideoSynthOptions(count: 2, seed: 1), textureSources: []) == key)
    }

    /// The prepared set (the default's code path at a small size) passes `dataset
    /// validate`'s checks with every file read and hashed, holds the recordings and the
    /// labelled suite, and comes from the cache the second time.
    @Test func preparedSetValidatesAndIsCached() throws {
        let cache = try Fixtures.makeTemporaryFolder("rial-default-video")
        defer { try? FileManager.default.removeItem(at: cache) }
        let options = VideoSynthOptions(
            count: 4, seed: 7, seconds: 6 / 30, width: 32, height: 32, depthWidth: 8, depthHeight: 6,
            tamperRecordings: 1, tamperSeconds: 151 / 30)
        let first = try DefaultData.prepareVideo(options: options, cache: cache, mirror: nil, jobs: 2)
        #expect(first.generated)
        #expect(
            URL(fileURLWithPath: first.manifestPath).deletingLastPathComponent().lastPathComponent.hasPrefix("video-"))
        let report = try DatasetLoader(contentsOf: first.manifestPath).validate(checks: .all)
        #expect(report.isValid, "\(report.problems.map(\.description))")

        let manifest = try DatasetManifest(
            json: JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: first.manifestPath))))
        #expect(manifest.samples.allSatisfy { $0.kind == .video })
        let plain = manifest.samples.filter { $0.video?.tamper == nil }
        #expect(plain.map(\.label) == [.realScene, .lcdScreen, .oledScreen, .printedPaper])
        let suite = manifest.samples.filter { $0.video?.tamper != nil }
        let kinds = suite.map { $0.video?.tamper?.kind?.rawValue ?? TamperLabel.intact }
        // Issue 15 item 3: a modified, dropped, inserted or reordered frame, a truncated
        // recording, a wrong checkpoint; PRD 1.1 FR50: an interrupted recording attested
        // at a checkpoint is a control, not a tamper.
        for kind in ["modified", "dropped", "inserted", "reordered", "truncated", "checkpoint_mismatch"] {
            #expect(kinds.contains(kind), "no \(kind) sample")
        }
        #expect(kinds.filter { $0 == TamperLabel.intact }.count == 2)
        #expect(suite.contains { $0.tags.contains("interrupted") })
        // Every tampered copy names the frame a verifier must report, except a rewritten chain.
        for sample in suite
        where !["intact", "attestation_mismatch"].contains(sample.video?.tamper?.kind?.rawValue ?? "intact") {
            #expect(sample.video?.tamper?.frame != nil, "\(sample.id)")
        }

        let second = try DefaultData.prepareVideo(options: options, cache: cache, mirror: nil, jobs: 2)
        #expect(!second.generated && second.manifestPath == first.manifestPath)
    }
}
