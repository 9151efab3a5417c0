import Foundation
import RialMedia
import RialProvenance
import Testing

@testable import RialSynth

/// What `synth --video` will produce: options checked to the product's limits (15 s at
/// 30 fps, PRD 1.1 FR47), recordings by index, tamper suites from extra recordings.
@Suite struct VideoSynthesisTests {
    static let small = VideoSynthOptions(
        count: 2, seed: 4, classes: [.realScene, .lcdScreen], seconds: 0.2, width: 32, height: 32, depthWidth: 8,
        depthHeight: 6, tamperRecordings: 1, tamperSeconds: 0.3)

    @Test func problems() {
        #expect(VideoSynthOptions(count: 4).problems.isEmpty)
        // 15 s is 450 frames, the longest recording; 15.1 s is 453.
        #expect(VideoSynthOptions(count: 1, seconds: 15).problems.isEmpty)
        #expect(VideoSynthOptions(count: 1, seconds: 15.1).problems.count == 1)
        #expect(VideoSynthOptions(count: 1, seconds: .nan).problems.count == 1)
        #expect(VideoSynthOptions(count: 0).problems.count == 1)
        #expect(VideoSynthOptions(count: 1, classes: []).problems.count == 1)
        #expect(VideoSynthOptions(count: 1, width: 161).problems.count == 1)
        #expect(VideoSynthOptions(count: 1, tamperRecordings: 1, tamperSeconds: 0.1).problems.count == 1)
        #expect(VideoSynthOptions.frameCount(seconds: 2.5) == 75)
        #expect(VideoSynthOptions.frameCount(seconds: 5.5) == 165)
    }

    @Test func samplesByIndex() throws {
        let options = Self.small
        #expect(options.problems.isEmpty)
        #expect(options.recordingCount == 3)
        let first = VideoSynthesis.samples(recording: 0, options: options)
        #expect(first.count == 1 && first[0].id == "video-00000" && first[0].tamper == nil)
        #expect(first[0].video.label == .realScene)
        #expect(first[0].video.recording.frames.count == 6)
        let second = VideoSynthesis.samples(recording: 1, options: options)
        #expect(second[0].video.label == .lcdScreen)
        // Recording 2 is the tamper suite's source (9 frames: 0.3 s): 9 cases without the
        // checkpoint ones (no checkpoint before frame 150), the intact control first.
        let suite = VideoSynthesis.samples(recording: 2, options: options)
        #expect(suite.count == 8)
        #expect(suite[0].id == "video-00002-t00-intact")
        #expect(suite.map(\.id).contains("video-00002-t02-dropped"))
        #expect(suite.allSatisfy { $0.video.recording.frames.count >= 2 && $0.tamper != nil })
        for sample in suite {
            let tamper = try #require(sample.tamper)
            var source = InMemoryFrameSource(sample.video.recording.frames)
            let result = try HashChainVerifier.verify(&source, against: sample.video.recording.chain)
            #expect(result.tamper == tamper.tamper && result.firstBadFrame == tamper.expectedFirstBadFrame)
        }
        // Same options, same samples; the order does not depend on the jobs.
        var serial: [[VideoSynthSample]] = []
        VideoSynthesis.forEachRecording(options, jobs: 1) { serial.append($0) }
        var parallel: [[VideoSynthSample]] = []
        VideoSynthesis.forEachRecording(options, jobs: 2) { parallel.append($0) }
        #expect(serial == parallel)
        #expect(serial == [first, second, suite])
    }
}
