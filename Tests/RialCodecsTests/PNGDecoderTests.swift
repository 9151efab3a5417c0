import Foundation
import RialMedia
import Testing

@testable import RialCodecs

@Suite("PNG decoding")
struct PNGDecoderTests {
    @Test("Pillow-made fixtures decode to Pillow's samples", arguments: PNGFixtures.all)
    func fixtureDecodesLikePillow(_ fixture: PNGFixture) throws {
        let info = try PNGDecoder.readInfo(fixture.data)
        #expect(info.width == fixture.width)
        #expect(info.height == fixture.height)
        #expect(info.bitDepth == fixture.fileBitDepth)
        #expect(info.colorType == fixture.colorType)
        #expect(info.interlaced == fixture.interlaced)
        #expect(info.decodedChannels == fixture.channels)
        #expect(info.decodedBitDepth == fixture.bitDepth)

        let image = try PNGDecoder.decode(fixture.data)
        #expect(image.width == fixture.width)
        #expect(image.height == fixture.height)
        #expect(image.channels == fixture.channels)
        #expect(image.bitDepth == fixture.bitDepth)
        let samples: [Int]
        switch image {
        case .eight(let image8): samples = image8.samples.map(Int.init)
        case .sixteen(let image16): samples = image16.samples.map(Int.init)
        }
        #expect(samples == fixture.expected)
    }

    @Test("16-bit samples come out in host order: 0x0102 stays 258")
    func sixteenBitByteOrder() throws {
        let fixture = try #require(PNGFixtures.all.first { $0.name == "rgb16" })
        let image = try #require(try PNGDecoder.decode(fixture.data).image16)
        #expect(image[0, 0, 0] == 0x0102)
        #expect(image[0, 0, 1] == 0xFF00)
    }

    // Goldens: Pillow 13 `np.array(Image.open(path))[y, x]` and the IHDR bytes read
    // with Python's struct module, run once when these tests were written.
    @Test("skimage brick.png: 8-bit gray 512x512")
    func brick() throws {
        let path = Fixtures.real("skimage/brick.png")
        let info = try PNGDecoder.readInfo(contentsOf: path)
        #expect(
            info
                == PNGInfo(
                    width: 512, height: 512, bitDepth: 8, colorType: .gray, interlaced: false,
                    hasTransparency: false, decodedChannels: 1, decodedBitDepth: 8))
        let image = try #require(try PNGDecoder.decode(contentsOf: path).image8)
        #expect(image.width == 512 && image.height == 512 && image.channels == 1)
        #expect(image[0, 0, 0] == 99)
        #expect(image[511, 511, 0] == 176)
        #expect(image[100, 200, 0] == 98)
        #expect(image[300, 17, 0] == 102)
    }

    @Test("ARKitScenes RGB: 8-bit RGB 1024x768")
    func arkitScenesRGB() throws {
        let path = Fixtures.real("arkitscenes/41069021_305.244_rgb.png")
        let image = try #require(try PNGDecoder.decode(contentsOf: path).image8)
        #expect(image.width == 1024 && image.height == 768 && image.channels == 3)
        let expected: [(x: Int, y: Int, rgb: [UInt8])] = [
            (0, 0, [169, 180, 176]), (1023, 767, [202, 166, 116]),
            (512, 384, [156, 133, 118]), (77, 600, [160, 140, 105]),
        ]
        for point in expected {
            #expect((0..<3).map { image[point.x, point.y, $0] } == point.rgb, "pixel (\(point.x), \(point.y))")
        }
    }

    @Test("OpenCV aloeGT.png: 8-bit gray 1282x1110")
    func aloeGroundTruth() throws {
        let path = Fixtures.real("opencv/aloeGT.png")
        let image = try #require(try PNGDecoder.decode(contentsOf: path).image8)
        #expect(image.width == 1282 && image.height == 1110 && image.channels == 1)
        #expect(image[0, 0, 0] == 44)
        #expect(image[1281, 1109, 0] == 128)
        #expect(image[641, 555, 0] == 66)
        #expect(image[900, 100, 0] == 48)
    }

    @Test("PromptDA depth PNG is 16-bit gray with big-endian samples decoded")
    func promptDADepthPNG() throws {
        let path = Fixtures.real("promptda/arkit_depth.png")
        let info = try PNGDecoder.readInfo(contentsOf: path)
        #expect(info.bitDepth == 16 && info.colorType == .gray && info.decodedBitDepth == 16)
        let image = try #require(try PNGDecoder.decode(contentsOf: path).image16)
        #expect(image[0, 0, 0] == 3000) // Pillow: 3000
        #expect(image[255, 191, 0] == 1729) // Pillow: 1729
    }

    @Test("Missing file is .notFound naming the path")
    func missingFile() {
        let path = "/nonexistent/rial/\(UUID().uuidString).png"
        let error = #expect(throws: MediaError.self) { try PNGDecoder.decode(contentsOf: path) }
        #expect(error?.kind == .notFound)
        #expect(error?.source == path)
    }

    @Test("Empty, garbage and truncated data are .corrupt with libpng's message and the source")
    func corruptInputs() throws {
        let brick = try MediaFile.read(Fixtures.real("skimage/brick.png"))
        let cases: [(Data, String)] = [
            (Data(), "empty"),
            (Data("definitely not a png".utf8), "garbage"),
            (brick.prefix(brick.count / 2), "half"),
            (brick.prefix(40), "header only"),
        ]
        for (data, label) in cases {
            let error = #expect(throws: MediaError.self, "\(label)") {
                try PNGDecoder.decode(data, source: "case-\(label)")
            }
            #expect(error?.kind == .corrupt, "\(label)")
            #expect(error?.source == "case-\(label)")
            #expect(error?.detail.hasPrefix("not a valid PNG: ") == true, "\(label): \(error?.detail ?? "")")
            #expect((error?.detail.count ?? 0) > "not a valid PNG: ".count, "libpng message missing for \(label)")
        }
    }

    @Test("A bad signature reports libpng's own words")
    func signatureMessage() {
        var bytes = [UInt8](PNGFixtures.all[0].data)
        bytes[1] = 0x51 // 'Q' instead of 'P'
        let error = #expect(throws: MediaError.self) { try PNGDecoder.decode(Data(bytes)) }
        #expect(error?.detail.lowercased().contains("png") == true)
        #expect(error?.source == inMemorySource)
    }

    @Test("Images over the pixel limit are refused before decoding")
    func pixelLimit() throws {
        let path = Fixtures.real("skimage/brick.png")
        let small = #expect(throws: MediaError.self) { try PNGDecoder.decode(contentsOf: path, maxPixels: 512 * 511) }
        #expect(small?.kind == .unsupported)
        #expect(small?.source == path)
        #expect(small?.detail.contains("512x512") == true)
        _ = try PNGDecoder.decode(contentsOf: path, maxPixels: 512 * 512)

        // A forged 20000 x 20000 header (valid CRC, no image data): 400 MP > 100 MP.
        let forged = PNGTestBytes.png(width: 20_000, height: 20_000, bitDepth: 8, colorType: 2, idat: [])
        let info = try PNGDecoder.readInfo(forged)
        #expect(info.width == 20_000 && info.height == 20_000)
        let refused = #expect(throws: MediaError.self) { try PNGDecoder.decode(forged) }
        #expect(refused?.kind == .unsupported)
        #expect(PNGDecoder.defaultMaxPixels == 100_000_000)
    }
}

/// Hand-built PNG bytes for tests, with CRCs from an independent table-driven CRC-32.
enum PNGTestBytes {
    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(body.count)) + typeBytes + body + bigEndian(crc32(typeBytes + body))
    }

    static func png(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, idat: [UInt8]) -> Data {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0]
        return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    /// Recomputes every chunk CRC so that corrupted chunk contents get past libpng's
    /// CRC check and exercise the parsers behind it. Stops at the first chunk that
    /// does not fit.
    static func repairingCRCs(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        var offset = 8
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
                | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= bytes.count - offset - 12 else { break }
            let crc = crc32(bytes[(offset + 4)..<(offset + 8 + length)])
            let crcBytes = bigEndian(crc)
            for k in 0..<4 { bytes[offset + 8 + length + k] = crcBytes[k] }
            offset += 12 + length
        }
        return Data(bytes)
    }
}
