import Foundation
import RialMedia
import Testing

@testable import RialProvenance

/// The tamper suite (issue 15 item 4) and the verifier on it: every tampered copy is
/// caught with its kind at the frame where it was introduced, no control is flagged.
/// Frames here are cheap distinct NV12 buffers; `VideoTamperSuiteTests` (RialSynthTests)
/// runs the same check on simulated recordings.
@Suite struct TamperSuiteTests {
    /// An intact recording of `count` 8 x 8 NV12 frames at 30 fps, a 4 x 3 depth
    /// keyframe on every 3rd frame, the chain over it.
    static func recording(_ count: Int) -> VideoRecording {
        var frames: [ChainFrame] = []
        var keyframes: [DepthKeyframe] = []
        for i in 0..<count {
            let pixels = (0..<96).map { UInt8(truncatingIfNeeded: i &* 37 &+ $0 &* 11) }
            let t = Double(i) / 30
            if i % 3 == 0 {
                let depth = DepthMap(width: 4, height: 3, metres: (0..<12).map { 0.5 + Float(i) * 0.001 + Float($0) })!
                keyframes.append(DepthKeyframe(timestamp: t, videoFrameIndex: i, depth: depth))
                frames.append(ChainFrame(pixels: pixels, depthMetres: depth.metres, timestamp: t))
            } else {
                frames.append(ChainFrame(pixels: pixels, timestamp: t))
            }
        }
        return VideoRecording(
            frameWidth: 8, frameHeight: 8, framesPerSecond: 30, frames: frames,
            keyframes: try! DepthKeyframes(keyframes),
            chain: HashChainRecord.chain(frames))
    }

    static func verify(_ r: VideoRecording) throws -> HashChainVerification {
        var source = InMemoryFrameSource(r.frames)
        return try HashChainVerifier.verify(&source, against: r.chain)
    }

    /// The required kinds are present (the checkpoint ones from 150 frames on), and
    /// every case verifies as labelled, for many seeds and lengths (4 frames to 15 s).
    @Test(arguments: [4, 10, 150, 151, 200, 300, 450])
    func everyCaseVerifiesAsLabelled(_ count: Int) throws {
        let source = Self.recording(count)
        for seed in UInt64(0)..<8 {
            let suite = try TamperSuite.make(from: source, seed: seed)
            let kinds = Set(suite.map(\.kind))
            var expected: Set<String> = [
                "intact", "modified", "dropped", "inserted", "reordered", "truncated", "final_hash_mismatch",
                "attestation_mismatch",
            ]
            if count > 150 { expected.insert("checkpoint_mismatch") }
            #expect(kinds == expected)
            // Two controls from 150 frames on: the recording and the interrupted one.
            #expect(suite.filter { $0.tamper == nil }.count == (count >= 150 ? 2 : 1))
            #expect(suite.contains { $0.expectedStatus == .partial } == (count >= 150))
            for c in suite {
                let result = try Self.verify(c.recording)
                #expect(result.status == c.expectedStatus, "\(count) frames, seed \(seed): \(c.detail)")
                #expect(result.tamper == c.tamper, "\(count) frames, seed \(seed): \(c.detail)")
                #expect(result.firstBadFrame == c.expectedFirstBadFrame, "\(count) frames, seed \(seed): \(c.detail)")
                // The interrupted control is attested up to its checkpoint.
                if result.status == .partial {
                    let index = try #require(c.recording.chain.attestation?.checkpointIndex)
                    #expect(result.attestedFrames == (index + 1) * 150 && result.attestedFrames <= count)
                }
                // Never the first frame; the last only where the layout fixes it.
                if let frame = c.frame {
                    #expect(frame >= 2 && frame <= count)
                    if c.tamper != .finalHashMismatch && c.tamper != .checkpointMismatch { #expect(frame < count) }
                }
                // Depth keyframes follow their frames.
                for keyframe in c.recording.keyframes.frames {
                    let index = try #require(keyframe.videoFrameIndex)
                    #expect(
                        c.recording.frames[index].depth
                            == ChainFrame(pixels: [], depthMetres: keyframe.depth.metres, timestamp: 0).depth)
                }
                #expect(c.recording.keyframes.count == c.recording.frames.filter { !$0.depth.isEmpty }.count)
            }
        }
    }

    /// The frames are drawn from the seed: the same seed gives the same suite, other
    /// seeds move the frames (over 12 seeds, more than one frame per kind).
    @Test func framesComeFromTheSeed() throws {
        let source = Self.recording(180)
        #expect(try TamperSuite.make(from: source, seed: 7) == TamperSuite.make(from: source, seed: 7))
        var framesByKind: [String: Set<Int>] = [:]
        for seed in UInt64(0)..<12 {
            for c in try TamperSuite.make(from: source, seed: seed) {
                if let frame = c.frame { framesByKind[c.kind, default: []].insert(frame) }
            }
        }
        for kind in ["modified", "dropped", "inserted", "reordered", "truncated", "attestation_mismatch"] {
            #expect((framesByKind[kind]?.count ?? 0) > 1, "\(kind)")
        }
    }

    /// The deployed structural check (methods.md section 6) never recomputes, so it
    /// passes every frame-level tamper whose chain is untouched: the gap this suite
    /// measures.
    @Test func deployedCheckMissesFrameTampers() throws {
        let suite = try TamperSuite.make(from: Self.recording(200), seed: 3)
        for c in suite where [.modified, .dropped, .inserted, .reordered].contains(c.tamper) {
            #expect(DeployedChainCheck.failures(c.recording.chain).isEmpty, "\(c.kind)")
        }
    }

    /// A recording that is too short or not intact cannot seed a suite.
    @Test func refusesBadSources() {
        #expect(throws: TamperSuite.Problem.tooShort(frames: 3)) {
            try TamperSuite.make(from: Self.recording(3), seed: 1)
        }
        var broken = Self.recording(10)
        broken.frames[4].pixels[0] ^= 1
        #expect(throws: TamperSuite.Problem.self) { try TamperSuite.make(from: broken, seed: 1) }
        var interrupted = Self.recording(160)
        interrupted.chain = HashChainRecord.chain(interrupted.frames, interruptedAtCheckpoint: 0)
        #expect(throws: TamperSuite.Problem.self) { try TamperSuite.make(from: interrupted, seed: 1) }
    }
}
