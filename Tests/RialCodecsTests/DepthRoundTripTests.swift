import Foundation
import RialMedia
import Testing

@testable import RialCodecs

@Suite("Depth round trips")
struct DepthRoundTripTests {
    /// 37 x 23 map, 0.2...12 m, every 7th pixel invalid (NaN).
    static func seededMap(seed: UInt64) -> DepthMap {
        var rng = SeededGenerator(seed: seed)
        let values = (0..<(37 * 23)).map { i -> Float in
            i % 7 == 3 ? .nan : Float.random(in: 0.2...12, using: &rng)
        }
        return DepthMap(width: 37, height: 23, metres: values)!
    }

    static let exactFormats: [DepthFormat] = [.f32le, .f32leGzip, .f32leZlib, .npy, .npz]

    @Test("Float formats round-trip exactly, NaN preserved", arguments: exactFormats)
    func exact(format: DepthFormat) throws {
        let map = Self.seededMap(seed: 42)
        let data = try DepthWriter.encode(map, format: format)
        let back = try DepthReader.read(data: data, format: format, width: 37, height: 23)
        #expect(back == map)
        #expect(back.validCount == map.validCount)
    }

    @Test("Files: write then read through paths", arguments: DepthFormat.allCases)
    func throughFiles(format: DepthFormat) throws {
        let folder = try DepthTestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nested/depth.\(format.fileExtension)").path
        let map = Self.seededMap(seed: 7)
        let scale: Double? = format.needsScale ? 1.0 / 256 : nil
        try DepthWriter.write(map, to: path, format: format, scale: scale)
        let back = try DepthReader.read(path: path, format: format, width: 37, height: 23, scale: scale)
        #expect(back.width == 37 && back.height == 23)
        let tolerance: Float =
            switch format {
            case .u16PngMm: 0.0005
            case .u16PngScaled: 0.5 / 256
            default: 0
            }
        for i in map.metres.indices {
            let a = map.metres[i], b = back.metres[i]
            if a.isNaN {
                #expect(b.isNaN, "pixel \(i)")
            } else {
                #expect(abs(a - b) <= tolerance * (1 + 1e-6), "pixel \(i): \(a) vs \(b)")
            }
        }
    }

    @Test("u16_png_mm quantises to the millimetre: within 0.5 mm, NaN stays invalid")
    func millimetreQuantisation() throws {
        let map = DepthMap(width: 4, height: 2, metres: [1.5664, 1.5666, .nan, 0.0004, 65.535, 65.6, -1, 0.0005])!
        let png = try DepthWriter.encode(map, format: .u16PngMm)
        let stored = try #require(try PNGDecoder.decode(png).image16)
        // round(m * 1000): 1566, 1567, NaN -> 0, 0.4 -> 0, 65535, too far -> 0, negative -> 0, 0.5 -> 1 (ties away)
        #expect(stored.samples == [1566, 1567, 0, 0, 65535, 0, 0, 1])
        let back = try DepthReader.read(data: png, format: .u16PngMm)
        #expect(abs(back.metres[0] - 1.5664) <= 0.0005)
        #expect(abs(back.metres[1] - 1.5666) <= 0.0005)
        #expect(back.metres[2].isNaN && back.metres[3].isNaN && back.metres[5].isNaN && back.metres[6].isNaN)
        #expect(back.metres[4] == 65.535)
    }

    @Test("The PromptDA depth survives a write/read cycle in every format")
    func realMapEveryFormat() throws {
        let original = try DepthReader.read(path: Fixtures.real("promptda/arkit_depth.png"), format: .u16PngMm)
        for format in DepthFormat.allCases {
            let scale: Double? = format == .u16PngScaled ? 0.001 : nil
            let data = try DepthWriter.encode(original, format: format, scale: scale)
            let back = try DepthReader.read(data: data, format: format, scale: scale)
            #expect(back == original, "\(format.rawValue)")
        }
    }

    @Test("npy written here is what numpy writes: 64-byte aligned v1.0 header")
    func npyHeaderLayout() throws {
        let map = DepthMap(width: 4, height: 3, metres: [Float](repeating: 1, count: 12))!
        let data = try DepthWriter.encode(map, format: .npy)
        let headerLength = Int(data[8]) | Int(data[9]) << 8
        #expect((10 + headerLength) % 64 == 0)
        let header = String(decoding: data[10..<(10 + headerLength)], as: UTF8.self)
        #expect(header.hasPrefix("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"))
        #expect(header.hasSuffix("\n"))
        #expect(data.count == 10 + headerLength + 48)
    }

    @Test("Writer argument checks")
    func writerArguments() {
        let map = Self.seededMap(seed: 1)
        let noScale = #expect(throws: MediaError.self) { try DepthWriter.encode(map, format: .u16PngScaled) }
        #expect(noScale?.kind == .invalidArgument)
        let badLevel = #expect(throws: MediaError.self) {
            try DepthWriter.encode(map, format: .f32leGzip, compressionLevel: 11)
        }
        #expect(badLevel?.kind == .invalidArgument)
        let badScale = #expect(throws: MediaError.self) { try DepthWriter.encode(map, format: .npy, scale: -1) }
        #expect(badScale?.kind == .invalidArgument)
    }

    @Test("Raw values match the manifest spelling")
    func rawValues() {
        #expect(
            DepthFormat.allCases.map(\.rawValue)
                == ["f32le_gzip", "f32le_zlib", "f32le", "u16_png_mm", "u16_png_scaled", "npy", "npz"])
        #expect(DepthFormat(rawValue: "u16_png_scaled") == .u16PngScaled)
    }
}
