import Foundation
import RialMedia
import Testing

@testable import RialCodecs

@Suite("PNG encoding")
struct PNGEncoderTests {
    static let layouts: [(channels: Int, bitDepth: Int)] = [1, 2, 3, 4].flatMap { [($0, 8), ($0, 16)] }

    /// Reads the IHDR fields straight from the bytes (PNG spec, section 11.2.2).
    private func ihdr(_ data: Data) -> (width: Int, height: Int, bitDepth: Int, colorType: Int, interlace: Int) {
        let b = [UInt8](data.prefix(29))
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (u32(16), u32(20), Int(b[24]), Int(b[25]), Int(b[28]))
    }

    @Test("Seeded random images round-trip pixel-exactly", arguments: layouts, [0, 6, 9])
    func roundTrip(layout: (channels: Int, bitDepth: Int), level: Int) throws {
        var rng = SeededGenerator(seed: UInt64(layout.channels * 100 + layout.bitDepth + level))
        let width = 37, height = 23
        let count = width * height * layout.channels
        let expectedColorType = [0, 0, 4, 2, 6][layout.channels]
        let data: Data
        if layout.bitDepth == 8 {
            let samples = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let image = try #require(Image8(width: width, height: height, channels: layout.channels, samples: samples))
            data = try PNGEncoder.encode(image, compressionLevel: level)
            #expect(try PNGDecoder.decode(data) == .eight(image))
        } else {
            var samples = (0..<count).map { _ in UInt16.random(in: 0...65535, using: &rng) }
            samples[0] = 0x0102 // byte order canary
            let image = try #require(Image16(width: width, height: height, channels: layout.channels, samples: samples))
            data = try PNGEncoder.encode(image, compressionLevel: level)
            #expect(try PNGDecoder.decode(data) == .sixteen(image))
        }
        let header = ihdr(data)
        #expect(header.width == width && header.height == height)
        #expect(header.bitDepth == layout.bitDepth)
        #expect(header.colorType == expectedColorType)
        #expect(header.interlace == 0)
    }

    @Test("A level-0 16-bit file stores samples big-endian")
    func storedSixteenBitIsBigEndian() throws {
        let image = try #require(Image16(width: 1, height: 1, channels: 1, samples: [0x1234]))
        let data = try PNGEncoder.encode(image, compressionLevel: 0)
        let bytes = [UInt8](data)
        // A stored zlib block keeps the row verbatim: a filter byte, then 0x12 0x34
        // (every filter type leaves the only pixel of a 1x1 image unchanged).
        let pairs = (0..<(bytes.count - 1)).map { (bytes[$0], bytes[$0 + 1]) }
        #expect(pairs.contains { $0 == (0x12, 0x34) })
        #expect(!pairs.contains { $0 == (0x34, 0x12) })
    }

    @Test("Higher compression levels do not grow a compressible image")
    func compressionLevels() throws {
        let samples: [UInt8] = (0..<(64 * 64)).map { (i: Int) -> UInt8 in UInt8((i / 64 + i % 64) & 0xFF) }
        let image = try #require(Image8(width: 64, height: 64, channels: 1, samples: samples))
        let stored = try PNGEncoder.encode(image, compressionLevel: 0)
        let best = try PNGEncoder.encode(image, compressionLevel: 9)
        #expect(best.count < stored.count)
        #expect(stored.count > 64 * 64)
    }

    @Test("Invalid compression levels are refused", arguments: [-1, 10])
    func invalidLevel(level: Int) throws {
        let image = Image8(width: 2, height: 2, channels: 1)
        let error = #expect(throws: MediaError.self) { try PNGEncoder.encode(image, compressionLevel: level) }
        #expect(error?.kind == .invalidArgument)
    }

    @Test("Real files re-encode to identical pixels")
    func reencodeRealFiles() throws {
        for relative in ["skimage/brick.png", "promptda/arkit_depth.png"] {
            let original = try PNGDecoder.decode(contentsOf: Fixtures.real(relative))
            #expect(try PNGDecoder.decode(PNGEncoder.encode(original)) == original, "\(relative)")
        }
    }

    @Test("write(to:) creates folders and the file decodes")
    func writeToPath() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("rial-png-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sub/out.png").path
        let image = try #require(Image8(width: 3, height: 2, channels: 3, samples: Array(0..<18)))
        try PNGEncoder.write(image, to: path)
        #expect(try PNGDecoder.decode(contentsOf: path) == .eight(image))
    }
}
