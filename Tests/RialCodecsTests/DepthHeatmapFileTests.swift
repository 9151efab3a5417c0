import Foundation
import RialCodecs
import RialMedia
import Testing

/// `DepthHeatmap` on real depth files: the ones its core tests cannot read or write
/// without the PNG codec.
@Suite("Depth heatmap on files")
struct DepthHeatmapFileTests {
    // numpy on the PromptDA depth: np.percentile(v, 2) = 1.739, np.percentile(v, 98) = 3.354.
    @Test("Default range is the 2nd...98th percentile of the valid depths")
    func defaultRange() throws {
        let map = try DepthReader.read(path: Fixtures.real("promptda/arkit_depth.png"), format: .u16PngMm)
        let range = try #require(DepthHeatmap.defaultRange(for: map))
        #expect(abs(range.lowerBound - 1.739) < 1e-6)
        #expect(abs(range.upperBound - 3.354) < 1e-6)
        // Too few distinct values for percentiles to differ: min...max, or nil when nothing is valid.
        let constant = DepthMap(width: 2, height: 1, metres: [2, 2])!
        #expect(DepthHeatmap.defaultRange(for: constant) == 2...2)
        #expect(DepthHeatmap.defaultRange(for: DepthMap(width: 1, height: 1, metres: [.nan])!) == nil)
    }

    @Test("writePNG writes what render returns")
    func writePNG() throws {
        let folder = try DepthTestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("heat/promptda.png").path
        let map = try DepthReader.read(path: Fixtures.real("promptda/arkit_depth.png"), format: .u16PngMm)
        try DepthHeatmap.writePNG(map, to: path, colormap: .viridis)
        let written = try PNGDecoder.decode(contentsOf: path)
        #expect(written == .eight(try DepthHeatmap.render(map, colormap: .viridis)))
    }
}
