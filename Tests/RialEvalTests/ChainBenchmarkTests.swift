import Foundation
import RialMedia
import Testing

@testable import RialEval

/// The `bench-chain` recording: 15 s at 30 fps (PRD 1.1 FR47: "up to 15 seconds"; "30fps"),
/// depth keyframes every 3rd frame ("10fps keyframes (every 3rd frame from 30fps video)"),
/// 256x192 float32 depth (methods.md section 6, depth keyframe blob).
@Suite struct ChainBenchmarkTests {
    @Test func frameSizes() {
        // NV12: a full-resolution luma plane plus a half-by-half interleaved CbCr plane.
        #expect(ChainBenchmark.FrameFormat.nv12.byteCount(width: 1920, height: 1080) == 1920 * 1080 + 960 * 540 * 2)
        #expect(ChainBenchmark.FrameFormat.rgba.byteCount(width: 1920, height: 1080) == 1920 * 1080 * 4)
    }

    @Test func recordingShape() {
        let frames = ChainBenchmark.recording(format: .nv12, width: 16, height: 8)
        #expect(frames.count == 15 * 30)
        #expect(frames.filter { !$0.depth.isEmpty }.count == 15 * 10)
        #expect(frames.allSatisfy { $0.depth.isEmpty || $0.depth.count == 256 * 192 * 4 })
        #expect(frames.allSatisfy { $0.pixels.count == 16 * 8 * 3 / 2 })
        #expect(frames[1].timestamp == 1.0 / 30)
    }

    /// A raw frame sequence holds NV12 (docs/dataset-format-video.md), so the file source
    /// refuses RGBA frames before writing anything.
    @Test func fileSourceIsNV12Only() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(UUID().uuidString).rlfs").path
        #expect(throws: MediaError.self) {
            try ChainBenchmark.run(format: .rgba, iterations: 1, warmup: 0, build: "debug", source: .file, file: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
