import Foundation
import RialMedia
import RialTestSupport
import Testing
@testable import RialDetection

/// depth/2 on real captures from the public data mirror.
@Suite struct DepthV2RealDataTests {
    func read(_ relative: String) throws -> DepthMap {
        try DepthReader.read(path: Fixtures.real(relative), format: .u16PngMm)
    }

    @Test func promptDAScoresAboveFlatPoster() throws {
        let analyzer = DepthAnalyzerV2()
        let room = analyzer.analyze(try read("promptda/arkit_depth.png"))
        let poster = analyzer.analyze(try read("arkitscenes/41069021_305.244_depth.png"))
        #expect(room.status == .completed && poster.status == .completed)
        #expect(room.score! > poster.score! + 0.2)
        // Measured with the defaults (not independent goldens; regression guards):
        // PromptDA 0.976 (dominant 0.384, 3 planes, 9.2 mm, relative range 0.56) -> real;
        // poster 0.107 (dominant 0.801, 2 planes, 1.8 mm, tilt 8.6 deg) -> planar subject, not real.
        #expect(room.isLikelyRealScene == true && room.isPlanarSubject == false)
        #expect(poster.isLikelyRealScene == false && poster.isPlanarSubject == true)
    }
}
