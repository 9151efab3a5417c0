import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// moire/1 on real photographs from the public mirror (labels from the dataset manifest).
@Suite struct MoireRealDataTests {
    static func load(_ relative: String) throws -> Image8 {
        try ImageReader.read(path: Fixtures.real(relative)).image
    }

    /// MoireIDT's Xiaomi 10 photo of a lab TV showing flat grey: a screen capture whose
    /// moire is visible to the eye. Detected, with peaks on the subpixel scale.
    @Test func moiredetScreenPhotoIsDetected() throws {
        let r = MoireAnalyzer().analyze(try Self.load("moiredet/xiaomi10_labtv_219.jpg"))
        #expect(r.status == .completed)
        #expect(r.detected == true)
        #expect(r.score! < 0.5)
        #expect(r.screenType != nil)
        #expect((r.peaks?.first?.frequency ?? 0) > 0.1)
    }

    /// Bona fide photos: a full-size 12 MP phone capture (4032 x 3024, the size the
    /// budget is set for) and a periodic brick texture (the classic false positive of
    /// moire detectors). Neither is detected.
    @Test(arguments: ["metadata-extractor/Samsung_SM-G935L_Galaxy_S7_Edge.jpg", "skimage/brick.png"])
    func realPhotosAreNotDetected(_ path: String) throws {
        let image = try Self.load(path)
        let r = MoireAnalyzer().analyze(image)
        #expect(r.status == .completed)
        #expect(r.detected == false, "\(path): evidence \(r.evidence ?? -1), peaks \(r.peaks ?? [])")
        #expect(r.score! > 0.5)
    }
}
