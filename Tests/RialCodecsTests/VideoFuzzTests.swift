import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialCodecs

/// Truncated, bit-flipped and random MP4 files must decode or throw `MediaError`; a
/// trap (crash) fails the whole test run. FFmpeg reads files by path, so each input is
/// written to a scratch file first.
@Suite("Video fuzz")
struct VideoFuzzTests {
    /// Opens and decodes every input to its end; how many decoded and how many threw.
    private func survive(_ inputs: [Data], in folder: URL, strict: Bool = true) -> (decoded: Int, rejected: Int) {
        var decoded = 0, rejected = 0
        let path = folder.appendingPathComponent("fuzz.mp4").path
        for input in inputs {
            #expect(FileManager.default.createFile(atPath: path, contents: input))
            do {
                let decoder = try VideoDecoder(path: path, options: VideoDecodeOptions(threads: 1, strict: strict))
                var frames = 0
                while try decoder.nextFrame() != nil { frames += 1 }
                decoded += 1
            } catch {
                #expect(error.source == path)
                #expect(!error.detail.isEmpty && !error.description.contains("\n"), "\(error)")
                rejected += 1
            }
        }
        return (decoded, rejected)
    }

    /// A small clip: 12 frames of 48x32 with a moving bar, H.264 with B-frames.
    private static func clip(in folder: URL) throws -> Data {
        let path = folder.appendingPathComponent("clip.mp4").path
        let frames = (0..<12).map { VideoPatterns.bar(width: 48, height: 32, x: 3 * $0, barWidth: 5) }
        try VideoEncoder.write(frames, width: 48, height: 32, to: path, options: VideoEncodeOptions(threads: 1))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("Truncations and corruptions of an MP4", arguments: [true, false])
    func mutations(strict: Bool) throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-video-fuzz")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Self.clip(in: folder)
        let truncated = survive(Mutations.truncations(of: original, count: 120), in: folder, strict: strict)
        #expect(truncated.rejected > 0)
        let corrupted = survive(
            Mutations.corruptions(of: original, count: 300, seed: strict ? 1 : 2), in: folder, strict: strict)
        #expect(corrupted.decoded + corrupted.rejected == 300)
        #expect(corrupted.rejected > 0)
    }

    @Test("Random bytes, with and without an MP4 'ftyp' box in front")
    func garbage() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-video-fuzz")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lengths = [1, 7, 8, 16, 100, 1000, 5000, 40000]
        let random = Mutations.garbage(lengths: lengths, seed: 77)
        let ftyp = Data([0, 0, 0, 0x18]) + Data("ftypisom".utf8) + Data([0, 0, 2, 0]) + Data("isomiso2".utf8)
        let result = survive(random + random.map { ftyp + $0 }, in: folder)
        #expect(result.decoded == 0)
        #expect(result.rejected == 2 * lengths.count)
    }
}
