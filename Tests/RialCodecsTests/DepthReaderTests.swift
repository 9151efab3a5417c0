import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// Checks `map` against row-major expectations, `nil` meaning "must be NaN".
private func expectValues(
    _ map: DepthMap, _ expected: [Float?], _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(map.metres.count == expected.count, "\(label)", sourceLocation: sourceLocation)
    for (i, value) in expected.enumerated() where i < map.metres.count {
        // The fixtures hold NumPy's values; those outside a sensor's range (a uint16
        // 65535 read without a scale is 65535 m) are invalid since issue 17.
        if let value, DepthFormat.validMetres.contains(value) {
            #expect(map.metres[i] == value, "\(label)[\(i)]", sourceLocation: sourceLocation)
        } else {
            #expect(map.metres[i].isNaN, "\(label)[\(i)] should be invalid", sourceLocation: sourceLocation)
        }
    }
}

@Suite("Depth reading")
struct DepthReaderTests {
    // Goldens for the two ARKit depth PNGs were computed once with Pillow 13 + numpy 2.4:
    //   a = np.array(Image.open(p))            # uint16 millimetres
    //   v = a[a > 0].astype(np.float64) / 1000
    //   a[y, x], (a == 0).sum(), v.min(), v.max(), np.median(v), v.mean(), v.std(),
    //   np.percentile(v, 2), np.percentile(v, 98)

    @Test("PromptDA ARKit depth (u16_png_mm): 256x192, 1.566...3.512 m, no invalid pixel")
    func promptDA() throws {
        let map = try DepthReader.read(path: Fixtures.real("promptda/arkit_depth.png"), format: .u16PngMm)
        #expect(map.width == 256 && map.height == 192)
        let stats = map.statistics()
        #expect(stats.validCount == 256 * 192)
        #expect(stats.validFraction == 1)
        #expect(abs(try #require(stats.min) - 1.566) < 5e-7)
        #expect(abs(try #require(stats.max) - 3.512) < 5e-7)
        #expect(abs(try #require(stats.median) - 2.654) < 5e-7)
        #expect(abs(try #require(stats.mean) - 2.601297098795573) < 1e-6)
        #expect(abs(try #require(stats.std) - 0.46716355647923263) < 1e-6)
        #expect(abs(try #require(map.percentile(2)) - 1.739) < 1e-6)
        #expect(abs(try #require(map.percentile(98)) - 3.354) < 1e-6)
        for (x, y, millimetres) in [(0, 0, 3000), (255, 191, 1729), (128, 96, 3281), (10, 150, 2174), (200, 20, 2625)] {
            #expect(map[x, y] == Float(millimetres) / 1000, "pixel (\(x), \(y))")
        }
    }

    @Test("ARKitScenes depth (u16_png_mm): 256x192, 0.408...0.736 m, zero pixels counted by numpy: 0")
    func arkitScenes() throws {
        let map = try DepthReader.read(
            path: Fixtures.real("arkitscenes/41069021_305.244_depth.png"),
            format: .u16PngMm, width: 256, height: 192)
        #expect(map.width == 256 && map.height == 192)
        let stats = map.statistics()
        #expect(stats.pixelCount - stats.validCount == 0) // numpy: (a == 0).sum() == 0
        #expect(abs(try #require(stats.min) - 0.408) < 5e-7)
        #expect(abs(try #require(stats.max) - 0.736) < 5e-7)
        #expect(abs(try #require(stats.median) - 0.676) < 5e-7)
        #expect(abs(try #require(stats.mean) - 0.666913065592448) < 1e-6)
        #expect(abs(try #require(stats.std) - 0.051301877550073045) < 1e-6)
        for (x, y, millimetres) in [(0, 0, 622), (255, 191, 651), (128, 96, 690), (10, 150, 660), (200, 20, 662)] {
            #expect(map[x, y] == Float(millimetres) / 1000, "pixel (\(x), \(y))")
        }
    }

    // Goldens from numpy 2.4: a = np.load(p)['arr_0'] (float32, shape (500, 741));
    // (~np.isfinite(a)).sum() == 27226 (all +inf); a[y, x]; min/max of the finite values;
    // median np.median(v.astype(np.float64)) of the 343274 finite values (the mean of
    // 38.733280181884766 and 38.73334503173828).
    @Test("Middlebury motorcycle disparity (npz): 741x500, 27226 unknown (+inf) -> NaN")
    func motorcycleDisparity() throws {
        let path = Fixtures.real("skimage/motorcycle_disp.npz")
        let map = try DepthReader.read(path: path, format: .npz)
        #expect(map.width == 741 && map.height == 500)
        let stats = map.statistics()
        #expect(stats.pixelCount - stats.validCount == 27226)
        #expect(abs(stats.validFraction - (1 - 27226.0 / 370_500.0)) < 1e-12) // 7.35% unknown
        #expect(map[0, 0].isNaN) // +inf in the file
        #expect(map[2, 0] == Float(9.38233757019043))
        #expect(map[3, 0] == Float(9.327709197998047))
        #expect(map[740, 499] == Float(56.57497787475586))
        #expect(map[370, 250] == Float(48.999874114990234))
        #expect(map[100, 400] == Float(40.11648178100586))
        #expect(stats.min == Double(Float(7.1913557052612305)))
        #expect(stats.max == Double(Float(59.908958435058594)))
        #expect(abs(try #require(stats.median) - 38.73331260681152) < 1e-12)
        // Naming the only array explicitly gives the same map.
        #expect(try DepthReader.read(path: path, format: .npz, array: "arr_0") == map)
    }

    @Test("NumPy .npy dtypes, byte orders, Fortran order and versions 1.0/2.0/3.0", arguments: DepthFixtures.npy)
    func npyFixture(_ fixture: NPYFixture) throws {
        let map = try DepthReader.read(data: fixture.data, format: .npy)
        #expect(map.height == fixture.shape[0] && map.width == fixture.shape[1])
        expectValues(map, fixture.expected, fixture.name)
    }

    @Test("npy scale multiplies values (uint16 millimetres with scale 0.001)")
    func npyScale() throws {
        let fixture = try #require(DepthFixtures.npy.first { $0.name == "u2_le" })
        let map = try DepthReader.read(data: fixture.data, format: .npy, scale: 0.001)
        #expect(map[1, 0] == Float(1000.0 * 0.001))
        #expect(map[3, 0] == Float(1566 * 0.001)) // one rounding of the Double product
        #expect(map[0, 0].isNaN)
    }

    @Test("npz with two deflated arrays: choose by name, refuse to guess")
    func npzNamedArrays() throws {
        let data = DepthFixtures.npzTwoArrays
        expectValues(
            try DepthReader.read(data: data, format: .npz, array: "depth"), DepthFixtures.baseExpected, "depth")
        expectValues(
            try DepthReader.read(data: data, format: .npz, array: "confidence.npy"),
            DepthFixtures.npzConfidence, "confidence")
        let ambiguous = #expect(throws: MediaError.self) { try DepthReader.read(data: data, format: .npz) }
        #expect(ambiguous?.kind == .invalidArgument)
        #expect(ambiguous?.detail.contains("depth") == true && ambiguous?.detail.contains("confidence") == true)
        let missing = #expect(throws: MediaError.self) {
            try DepthReader.read(data: data, format: .npz, array: "disparity")
        }
        #expect(missing?.kind == .invalidArgument)
    }

    @Test("npz with one stored (uncompressed) array")
    func npzStored() throws {
        expectValues(
            try DepthReader.read(data: DepthFixtures.npzStored, format: .npz), DepthFixtures.baseExpected, "arr_0")
    }

    @Test("gzip, concatenated gzip members and zlib payloads made by Python")
    func compressedPayloads() throws {
        let cases: [(Data, DepthFormat, String)] = [
            (DepthFixtures.gzip, .f32leGzip, "gzip"),
            (DepthFixtures.gzipTwoMembers, .f32leGzip, "gzip, two members"),
            (DepthFixtures.zlib, .f32leZlib, "zlib"),
        ]
        for (data, format, label) in cases {
            let map = try DepthReader.read(data: data, format: format, width: 4, height: 3)
            expectValues(map, DepthFixtures.baseExpected, label)
        }
    }

    @Test("Float formats default to 256 x 192")
    func defaultDimensions() throws {
        let payload = Data(count: 4 * 256 * 192)
        let map = try DepthReader.read(data: payload, format: .f32le)
        #expect(map.width == 256 && map.height == 192)
        #expect(map.validCount == 0) // zeros are invalid in float formats
    }
}

@Suite("Depth reading errors")
struct DepthReaderErrorTests {
    @Test("Raw payload of the wrong length: .sizeMismatch naming both byte counts")
    func sizeMismatch() throws {
        let folder = try DepthTestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("depth.f32").path
        try MediaFile.write(Data(count: 4 * 10 * 10), to: path)
        let error = #expect(throws: MediaError.self) {
            try DepthReader.read(path: path, format: .f32le, width: 12, height: 10)
        }
        #expect(error?.kind == .sizeMismatch)
        #expect(error?.source == path)
        #expect(error?.detail.contains("400") == true && error?.detail.contains("480") == true)
    }

    @Test("Compressed payload that inflates to too much or too little: .sizeMismatch")
    func compressedSizeMismatch() throws {
        let tooMuch = #expect(throws: MediaError.self) {
            try DepthReader.read(data: DepthFixtures.gzip, format: .f32leGzip, width: 2, height: 2, source: "big.gz")
        }
        #expect(tooMuch?.kind == .sizeMismatch)
        #expect(tooMuch?.detail.contains("more than 16 bytes") == true)
        let tooLittle = #expect(throws: MediaError.self) {
            try DepthReader.read(
                data: DepthFixtures.zlib, format: .f32leZlib, width: 5, height: 3, source: "small.zlib")
        }
        #expect(tooLittle?.kind == .sizeMismatch)
        #expect(tooLittle?.detail.contains("48") == true && tooLittle?.detail.contains("60") == true)
    }

    @Test("Truncated gzip and zlib files are .corrupt naming the path", arguments: [DepthFormat.f32leGzip, .f32leZlib])
    func truncatedCompressed(format: DepthFormat) throws {
        let folder = try DepthTestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("depth.\(format.fileExtension)").path
        let full = format == .f32leGzip ? DepthFixtures.gzip : DepthFixtures.zlib
        try MediaFile.write(full.prefix(full.count - 6), to: path)
        let error = #expect(throws: MediaError.self) {
            try DepthReader.read(path: path, format: format, width: 4, height: 3)
        }
        #expect(error?.kind == .corrupt)
        #expect(error?.source == path)
        #expect(error?.detail.contains("truncated") == true)
    }

    @Test("Gzip read as zlib (and the reverse) is .corrupt")
    func wrongContainer() {
        let error = #expect(throws: MediaError.self) {
            try DepthReader.read(data: DepthFixtures.gzip, format: .f32leZlib, width: 4, height: 3)
        }
        #expect(error?.kind == .corrupt)
        let reverse = #expect(throws: MediaError.self) {
            try DepthReader.read(data: DepthFixtures.zlib, format: .f32leGzip, width: 4, height: 3)
        }
        #expect(reverse?.kind == .corrupt)
    }

    @Test("Bad .npy headers are .corrupt or .unsupported naming the path")
    func badNPYHeaders() throws {
        let folder = try DepthTestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try #require(DepthFixtures.npy.first { $0.name == "f4_le" }).data
        func replacing(_ old: String, _ new: String) -> Data {
            // The dict text after the 10-byte preamble is ASCII.
            let text = String(decoding: good[10..<128], as: UTF8.self)
            let patched = text.replacingOccurrences(of: old, with: new)
            return good.prefix(10) + Data(patched.utf8) + good.dropFirst(128)
        }
        let cases: [(String, Data, MediaError.Kind)] = [
            ("magic", Data("NUMPY!".utf8) + good.dropFirst(6), .corrupt),
            (
                "version",
                {
                    var d = good
                    d[6] = 4
                    return d
                }(), .unsupported
            ),
            ("dtype", replacing("'<f4'", "'<c8'"), .unsupported),
            ("structured", replacing("'descr': '<f4'", "'descr': [1, 2]"), .corrupt),
            ("shape", replacing("(3, 4)", "(12,) "), .unsupported),
            ("unterminated", replacing("'shape'", "'shape "), .corrupt),
            (
                "header length",
                {
                    var d = good
                    d[8] = 0xFF
                    d[9] = 0xFF
                    return d
                }(), .corrupt
            ),
            ("data length", good.dropLast(4), .sizeMismatch),
            ("empty", Data(), .corrupt),
        ]
        for (label, data, kind) in cases {
            let path = folder.appendingPathComponent("\(label).npy").path
            try MediaFile.write(data, to: path)
            let error = #expect(throws: MediaError.self, "\(label)") { try DepthReader.read(path: path, format: .npy) }
            #expect(error?.kind == kind, "\(label): \(error?.description ?? "")")
            #expect(error?.source == path, "\(label)")
        }
    }

    @Test("Missing file is .notFound naming the path", arguments: DepthFormat.allCases)
    func missingFile(format: DepthFormat) {
        let path = "/nonexistent/rial/\(UUID().uuidString).\(format.fileExtension)"
        let error = #expect(throws: MediaError.self) {
            try DepthReader.read(path: path, format: format, scale: format.needsScale ? 0.001 : nil)
        }
        #expect(error?.kind == .notFound)
        #expect(error?.source == path)
    }

    @Test("Bad arguments are .invalidArgument")
    func badArguments() {
        let cases: [(DepthFormat, Int?, Int?, Double?)] = [
            (.u16PngScaled, nil, nil, nil), // scale missing
            (.u16PngScaled, nil, nil, 0), // scale not positive
            (.u16PngMm, nil, nil, 0.001), // scale not applicable
            (.f32le, 0, 10, nil), // width not positive
            (.f32le, 100_000, 100_000, nil), // over the pixel limit
            (.npy, nil, nil, .nan),
        ]
        for (format, width, height, scale) in cases {
            let error = #expect(throws: MediaError.self) {
                try DepthReader.read(data: Data(), format: format, width: width, height: height, scale: scale)
            }
            #expect(
                error?.kind == .invalidArgument, "\(format) \(String(describing: width)) \(String(describing: scale))")
        }
    }

    @Test("An 8-bit PNG is not millimetre depth; a size disagreement is .sizeMismatch")
    func pngDepthShape() throws {
        let brick = Fixtures.real("skimage/brick.png")
        let error = #expect(throws: MediaError.self) { try DepthReader.read(path: brick, format: .u16PngMm) }
        #expect(error?.kind == .unsupported)
        #expect(error?.detail.contains("8-bit gray") == true)
        let depth = Fixtures.real("promptda/arkit_depth.png")
        let mismatch = #expect(throws: MediaError.self) {
            try DepthReader.read(path: depth, format: .u16PngMm, width: 640, height: 480)
        }
        #expect(mismatch?.kind == .sizeMismatch)
        #expect(mismatch?.detail.contains("256x192") == true && mismatch?.detail.contains("640x480") == true)
    }

    @Test("A corrupt npz names the path")
    func corruptNPZ() throws {
        let folder = try DepthTestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.npz").path
        try MediaFile.write(DepthFixtures.npzTwoArrays.prefix(200), to: path)
        let error = #expect(throws: MediaError.self) { try DepthReader.read(path: path, format: .npz, array: "depth") }
        #expect(error?.kind == .corrupt)
        #expect(error?.source == path)
    }
}
