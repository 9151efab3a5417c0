import Foundation
import RialCodecs
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
        // PromptDA 0.988 (content surface: the floor, 36% of the map, tilt 70 degrees, the
        // sofa and bookcase standing on it: occluder share 0.31, free edges 0.17) -> real;
        // poster 0.071 (content surface: floor and poster, 77% of the map, tilt 9 degrees,
        // no occluders, free edges 0.01) -> planar subject, not real.
        #expect(room.score! > 0.9 && poster.score! < 0.1)
        #expect(room.occluderShare! > 0.1 && poster.occluderShare! < 0.005)
        #expect(room.isLikelyRealScene == true && room.isPlanarSubject == false)
        #expect(poster.isLikelyRealScene == false && poster.isPlanarSubject == true)
    }
}
