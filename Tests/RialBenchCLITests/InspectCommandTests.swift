import Foundation
import Testing

/// End-to-end tests of `rial-bench inspect` on the real public mirror and on bad input.
/// Golden values come from independent readers, named at each value.
@Suite struct InspectCommandTests {
    static let mirror = Fixtures.realMirror

    static func real(_ relative: String) -> String { Fixtures.real(relative) }

    static func jsonObjects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func temporaryDirectory() throws -> URL { try Fixtures.makeTemporaryFolder("rial-bench-cli") }

    @Test func jsonForAJPEGWithExif() throws {
        let path = Self.real("metadata-extractor/Samsung_SM-G935L_Galaxy_S7_Edge.jpg")
        let result = try CLIRunner.run(["inspect", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try Self.jsonObjects(result.stdout).first)
        // Pillow 13: Image.open(...).size == (4032, 3024).
        #expect(object["width"] as? Int == 4032)
        #expect(object["height"] as? Int == 3024)
        // SOURCES.csv of the mirror.
        #expect(object["sha256"] as? String == "33516b084ddb3fa7c4c40d55768b729d744fe580792335f5546a4e29cb4e71e6")
        // exiftool -n -j -Make -Model -DateTimeOriginal -Orientation.
        let exif = try #require(object["exif"] as? [String: Any])
        #expect(exif["make"] as? String == "samsung")
        #expect(exif["model"] as? String == "SM-G935L")
        #expect(exif["datetime_original"] as? String == "2017:02:09 19:51:38")
        #expect(exif["orientation"] as? Int == 1)
        #expect((object["decode_ms"] as? Double ?? -1) > 0)
    }

    @Test func orientationSixSwapsDisplayDimensions() throws {
        let result = try CLIRunner.run(["inspect", "--json", Self.real("silentface/image_T1.jpg")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try Self.jsonObjects(result.stdout).first)
        // Pillow: size (640, 480); exiftool: Orientation 6 (rotate 90 CW to display).
        #expect(object["width"] as? Int == 640)
        #expect(object["height"] as? Int == 480)
        #expect(object["display_width"] as? Int == 480)
        #expect(object["display_height"] as? Int == 640)
        #expect((object["exif"] as? [String: Any])?["orientation"] as? Int == 6)
    }

    @Test func jsonForTheLiDARDepthMap() throws {
        let result = try CLIRunner.run(["inspect", "--json", Self.real("promptda/arkit_depth.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try Self.jsonObjects(result.stdout).first)
        // numpy over Pillow's uint16 array / 1000: shape (192, 256), no zero,
        // min 1.566, median 2.654, max 3.512 m.
        #expect(object["width"] as? Int == 256)
        #expect(object["height"] as? Int == 192)
        #expect(object["valid_fraction"] as? Double == 1.0)
        #expect(abs((object["min"] as? Double ?? 0) - 1.566) < 1e-6)
        #expect(abs((object["median"] as? Double ?? 0) - 2.654) < 1e-6)
        #expect(abs((object["max"] as? Double ?? 0) - 3.512) < 1e-6)
        #expect(object["format"] as? String == "u16_png_mm")
    }

    /// Stored width x height of every mirror file, read with Pillow 13 (`Image.open(p).size`)
    /// and, for the .npz, numpy (`np.load(p)["arr_0"].shape`, reversed).
    static let pillowSizes: [String: (Int, Int)] = [
        "promptda/image.jpg": (1920, 1440),
        "promptda/arkit_depth.png": (256, 192),
        "arkitscenes/41069021_305.244_rgb.png": (1024, 768),
        "arkitscenes/41069021_305.244_depth.png": (256, 192),
        "silentface/image_T1.jpg": (640, 480),
        "silentface/image_F1.jpg": (640, 480),
        "silentface/image_F2.jpg": (640, 480),
        "skimage/brick.png": (512, 512),
        "skimage/grass.png": (512, 512),
        "skimage/gravel.png": (512, 512),
        "skimage/page.png": (384, 191),
        "skimage/motorcycle_left.png": (741, 500),
        "skimage/motorcycle_right.png": (741, 500),
        "skimage/motorcycle_disp.npz": (741, 500),
        "opencv/aloeL.jpg": (1282, 1110),
        "opencv/aloeR.jpg": (1282, 1110),
        "opencv/aloeGT.png": (1282, 1110),
        "moiredet/xiaomi10_labtv_219.jpg": (1632, 972),
        "exifpy/iphone_hdr_NO.jpg": (3264, 2448),
        "exifpy/iphone_hdr_YES.jpg": (3264, 2448),
        "exifpy/HMD_Nokia_8.3_5G.jpg": (4608, 1976),
        "exifpy/Xiaomi_Mi_9T_KeyError.jpg": (4000, 3000),
        "exifpy/jolla.jpg": (3264, 2448),
        "exifpy/DSCN0010.jpg": (640, 480),
        "metadata-extractor/Apple_iPhone_4S.jpg": (3264, 2448),
        "metadata-extractor/Apple_iPhone_5.jpg": (3264, 2448),
        "metadata-extractor/Apple_iPhone_6.jpg": (3264, 2448),
        "metadata-extractor/Apple_iPhone_6_plus.jpg": (2448, 3264),
        "metadata-extractor/HTC_One_M8.jpg": (2688, 1520),
        "metadata-extractor/Motorola_XT1068_Moto_G.jpg": (3264, 2448),
        "metadata-extractor/Nexus_4.jpg": (2448, 3264),
        "metadata-extractor/Samsung_SM-G935L_Galaxy_S7_Edge.jpg": (4032, 3024),
    ]

    @Test func everyMirrorFileInspectsInOneCall() throws {
        let csv = try String(contentsOf: Self.mirror.appendingPathComponent("SOURCES.csv"), encoding: .utf8)
        let rows = csv.split(whereSeparator: \.isNewline).dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let paths = rows.map { Self.real(String($0[0])) }
        let hashes = Dictionary(uniqueKeysWithValues: zip(paths, rows.map { String($0[5]) }))
        #expect(paths.count >= 30)
        let result = try CLIRunner.run(["inspect", "--json"] + paths)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.jsonObjects(result.stdout)
        #expect(objects.count == paths.count)
        for object in objects {
            let path = try #require(object["path"] as? String)
            #expect(object["sha256"] as? String == hashes[path], "\(path)")
            let relative = String(path.dropFirst(Self.mirror.path.count + 1))
            let expected = try #require(Self.pillowSizes[relative], "no golden size for \(relative)")
            #expect(object["width"] as? Int == expected.0, "\(path)")
            #expect(object["height"] as? Int == expected.1, "\(path)")
        }
    }

    @Test func tableIsTheDefault() throws {
        let result = try CLIRunner.run([
            "inspect", Self.real("promptda/image.jpg"), Self.real("promptda/arkit_depth.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1920x1440"))
        #expect(result.stdout.contains("256x192"))
        #expect(result.stdout.contains("1.566"))
    }

    @Test func heatmapIsWrittenAsPNG() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("nested/heat.png").path
        let result = try CLIRunner.run(["inspect", Self.real("promptda/arkit_depth.png"), "--heatmap", out])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func heatmapWithTwoPathsIsAUsageError() throws {
        let result = try CLIRunner.run(["inspect", "a.png", "b.png", "--heatmap", "out.png"])
        #expect(result.status == 64)
    }

    /// Each bad input: exit 65, a single error line naming the file, never a signal,
    /// and the other (good) path is still reported.
    @Test func badInputsGiveOneClearMessageEach() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.real("silentface/image_T1.jpg")))
        let png = try Data(contentsOf: URL(fileURLWithPath: Self.real("promptda/arkit_depth.png")))
        var generator = SystemRandomNumberGenerator()
        let cases: [(name: String, bytes: Data?, extra: [String])] = [
            ("truncated.jpg", jpeg.prefix(600), []),
            ("header-only.jpg", jpeg.prefix(2), []),
            ("garbage.bin", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }), []),
            ("empty.jpg", Data(), []),
            ("truncated.png", png.prefix(png.count / 2), []),
            ("short.f32", Data(count: 1000), ["--depth-format", "f32le"]),
            ("nan.f32", Data(repeating: 0xFF, count: 256 * 192 * 4), ["--depth-format", "f32le"]),
            ("missing.jpg", nil, []),
        ]
        for c in cases {
            let path = dir.appendingPathComponent(c.name).path
            if let bytes = c.bytes { try bytes.write(to: URL(fileURLWithPath: path)) }
            let result = try CLIRunner.run(["inspect", path] + c.extra)
            if c.name == "nan.f32" {
                // All-NaN depth is readable: it reports 0% valid, not an error.
                #expect(result.status == 0, "\(c.name): \(result.stderr)")
                #expect(result.stdout.contains("0.0%"))
                continue
            }
            #expect(result.status == 65, "\(c.name): status \(result.status), \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(c.name): \(result.stderr)")
            #expect(result.stderr.contains(path), "\(c.name): \(result.stderr)")
        }
    }

    @Test func aFailureDoesNotHideTheOtherPaths() throws {
        let result = try CLIRunner.run(["inspect", "--json", "/nonexistent/x.jpg", Self.real("promptda/image.jpg")])
        #expect(result.status == 65)
        let objects = try Self.jsonObjects(result.stdout)
        #expect(objects.count == 2)
        #expect((objects[0]["error"] as? [String: Any])?["kind"] as? String == "not_found")
        #expect(objects[1]["width"] as? Int == 1920)
    }
}
