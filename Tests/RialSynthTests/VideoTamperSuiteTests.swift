import Foundation
import RialMedia
import RialProvenance
import Testing

@testable import RialSynth

/// Issue 15's "done when": every tampered recording of the tamper suite is caught at the
/// right frame and no intact one is flagged, on simulated recordings of every class.
/// 160 frames (5.3 s: past checkpoint 0 at frame 150, so the interrupted control and the
/// wrong checkpoint are in the suite), small frames and depth grid for the debug suite.
@Suite struct VideoTamperSuiteTests {
    @Test(arguments: SynthClass.allCases)
    func suiteOnSimulatedRecordings(_ c: SynthClass) throws {
        let options = VideoOptions(width: 32, height: 32, frameCount: 160, depthWidth: 8, depthHeight: 6)
        let video = VideoGenerator.generate(index: 4, seed: 21, class: c, options: options)
        var flagged = 0
        var caught = 0
        for seed in UInt64(0)..<3 {
            let suite = try TamperSuite.make(from: video.recording, seed: seed)
            #expect(suite.count == 10)
            for tampered in suite {
                var source = InMemoryFrameSource(tampered.recording.frames)
                let result = try HashChainVerifier.verify(&source, against: tampered.recording.chain)
                #expect(result.status == tampered.expectedStatus, "\(c.rawValue): \(tampered.detail)")
                #expect(result.tamper == tampered.tamper, "\(c.rawValue): \(tampered.detail)")
                #expect(result.firstBadFrame == tampered.expectedFirstBadFrame, "\(c.rawValue): \(tampered.detail)")
                if tampered.tamper == nil {
                    if !result.passes { flagged += 1 }
                    // The interrupted control is attested up to its checkpoint, frame 150.
                    #expect(result.attestedFrames == (result.status == .partial ? 150 : 160))
                } else if result.status == .broken && result.tamper == tampered.tamper {
                    caught += 1
                }
            }
        }
        #expect(flagged == 0)
        #expect(caught == 3 * 8)
    }
}
