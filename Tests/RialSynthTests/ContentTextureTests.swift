import RialMedia
import Testing

@testable import RialSynth

@Suite struct ContentTextureTests {
    /// Screens and prints show photographs and pages, never the tileable material scans
    /// (grey square images such as brick or gravel) that cover walls and floors.
    @Test func screensAndPrintsNeverShowMaterialScans() {
        let scan = PlanarImage(width: 64, height: 64, channels: 1)
        let page = PlanarImage(width: 40, height: 80, channels: 1)
        let photo = PlanarImage(width: 96, height: 64, channels: 3)
        let textures = [scan, photo, scan, page]
        #expect(
            SceneBuilder.isMaterialScan(scan) && !SceneBuilder.isMaterialScan(page)
                && !SceneBuilder.isMaterialScan(photo))
        var shown = Set<Int>()
        for index in 0..<60 {
            for c in [SynthClass.lcdScreen, .oledScreen, .printedPaper] {
                let p = SynthGenerator.sampleParameters(
                    index: index, seed: 11, class: c, width: 64, height: 48,
                    contentTextures: textures.indices.filter {
                        !SceneBuilder.isMaterialScan(textures[$0])
                    })
                if let content = p.content, content.kind == .photo { shown.insert(content.textureIndex) }
            }
        }
        #expect(shown == [1, 3])
    }
}
