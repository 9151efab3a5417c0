import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// Encode -> decode round trips. Bounds, not goldens: the encoder's output bytes depend
/// on libjpeg's tables, so the tests check properties that hold for any conforming
/// encoder (error small at high quality, size grows with quality, markers as asked).
@Suite struct JPEGEncoderTests {
    @Test func gradientAtQuality95RoundTripsWithSmallError() throws {
        let image = JPEGTestSupport.gradient(width: 256, height: 192)
        let data = try JPEGEncoder.encode(image, quality: 95)
        #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(data.suffix(2) == Data([0xFF, 0xD9]))
        let info = try JPEGDecoder.readInfo(data)
        #expect(info.width == 256 && info.height == 192 && info.components == 3)
        #expect(info.colorSpace == .yCbCr && info.hasJFIFMarker && !info.isProgressive)
        let decoded = try JPEGDecoder.decode(data)
        let mae = JPEGTestSupport.meanAbsoluteError(image, decoded)
        // A smooth gradient at q95 (4:2:0): quantisation + chroma subsampling cost well
        // under one level on average (observed ~0.6).
        #expect(mae < 1.5, "MAE \(mae)")
    }

    @Test func fileSizeGrowsWithQuality() throws {
        let image = JPEGTestSupport.textured(width: 160, height: 120, seed: 7)
        let qualities = [5, 20, 40, 60, 75, 90, 100]
        let sizes = try qualities.map { try JPEGEncoder.encode(image, quality: $0).count }
        for i in 1..<sizes.count {
            #expect(sizes[i] > sizes[i - 1], "q\(qualities[i]) \(sizes[i]) <= q\(qualities[i - 1]) \(sizes[i - 1])")
        }
        // And the error shrinks as quality grows.
        let errors = try [10, 50, 95].map {
            JPEGTestSupport.meanAbsoluteError(image, try JPEGDecoder.decode(try JPEGEncoder.encode(image, quality: $0)))
        }
        #expect(errors[0] > errors[1] && errors[1] > errors[2], "\(errors)")
    }

    @Test func grayImageEncodesAsOneComponent() throws {
        var gray = Image8(width: 100, height: 70, channels: 1)
        for y in 0..<70 { for x in 0..<100 { gray[x, y, 0] = UInt8((x * 2 + y) % 256) } }
        let data = try JPEGEncoder.encode(gray, quality: 92)
        let info = try JPEGDecoder.readInfo(data)
        #expect(info.components == 1 && info.colorSpace == .grayscale)
        let decoded = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(output: .gray))
        #expect(decoded.channels == 1)
        #expect(JPEGTestSupport.meanAbsoluteError(gray, decoded) < 2.0)
        // A gray file asked for RGB gives R = G = B = the gray value.
        let rgb = try JPEGDecoder.decode(data)
        #expect(rgb.channels == 3)
        var samePlane = true
        for i in 0..<(rgb.width * rgb.height) {
            let r = rgb.samples[3 * i], g = rgb.samples[3 * i + 1], b = rgb.samples[3 * i + 2]
            if r != g || g != b || r != decoded.samples[i] {
                samePlane = false
                break
            }
        }
        #expect(samePlane)
    }

    @Test func progressiveEncodeDecodesLikeBaseline() throws {
        let image = JPEGTestSupport.textured(width: 120, height: 90, seed: 3)
        let baseline = try JPEGEncoder.encode(image, quality: 85)
        let progressive = try JPEGEncoder.encode(image, quality: 85, progressive: true)
        #expect(try JPEGDecoder.readInfo(progressive).isProgressive)
        #expect(try JPEGDecoder.readInfo(baseline).isProgressive == false)
        let a = try JPEGDecoder.decode(baseline)
        let b = try JPEGDecoder.decode(progressive)
        // Same quantised coefficients, only the entropy coding order differs; once every
        // scan is read, block smoothing no longer applies. Observed: identical.
        #expect(JPEGTestSupport.maxAbsoluteDifference(a, b) <= 1)
        // Scaled decodes of progressive files work too.
        let small = try JPEGDecoder.decode(progressive, options: JPEGDecodeOptions(scale: .quarter))
        #expect(small.width == 30 && small.height == 23)
    }

    @Test func fullChromaResolutionKeepsColourEdges() throws {
        // Red/blue 1-pixel columns: 4:2:0 averages the chroma of neighbouring columns,
        // 4:4:4 keeps it.
        var image = Image8(width: 64, height: 64, channels: 3)
        for y in 0..<64 {
            for x in 0..<64 {
                if x % 2 == 0 { image[x, y, 0] = 230 } else { image[x, y, 2] = 230 }
            }
        }
        let e420 = JPEGTestSupport.meanAbsoluteError(
            image, try JPEGDecoder.decode(try JPEGEncoder.encode(image, quality: 95, subsampling: .yuv420)))
        let e444 = JPEGTestSupport.meanAbsoluteError(
            image, try JPEGDecoder.decode(try JPEGEncoder.encode(image, quality: 95, subsampling: .yuv444)))
        #expect(e444 * 3 < e420, "4:4:4 MAE \(e444), 4:2:0 MAE \(e420)")
    }

    @Test func tinyAndOddSizedImagesRoundTrip() throws {
        for (w, h) in [(1, 1), (1, 17), (17, 1), (9, 7), (33, 65)] {
            let image = JPEGTestSupport.gradient(width: w, height: h)
            let decoded = try JPEGDecoder.decode(try JPEGEncoder.encode(image, quality: 90))
            #expect(decoded.width == w && decoded.height == h)
        }
    }

    @Test(arguments: [0, -1, 101, 1000])
    func qualityOutsideRangeIsAnInvalidArgument(_ quality: Int) {
        let image = JPEGTestSupport.gradient(width: 8, height: 8)
        #expect {
            try JPEGEncoder.encode(image, quality: quality)
        } throws: { error in
            let e = error as? MediaError
            return e?.kind == .invalidArgument && e?.detail.contains("quality \(quality)") == true
        }
    }

    @Test(arguments: [2, 4])
    func alphaImagesAreRefused(_ channels: Int) {
        let image = Image8(width: 4, height: 4, channels: channels)
        #expect {
            try JPEGEncoder.encode(image)
        } throws: { error in
            let e = error as? MediaError
            return e?.kind == .invalidArgument && e?.detail.contains("alpha") == true
        }
    }

    @Test func qualityExtremesAreAccepted() throws {
        let image = JPEGTestSupport.gradient(width: 16, height: 16)
        for q in [1, 100] {
            #expect(try JPEGDecoder.decode(try JPEGEncoder.encode(image, quality: q)).width == 16)
        }
    }

    @Test func writeCreatesADecodableFile() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("rial-jpeg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sub/out.jpg").path
        let image = JPEGTestSupport.gradient(width: 40, height: 30)
        try JPEGEncoder.write(image, to: path, quality: 90)
        #expect(try JPEGDecoder.readInfo(contentsOf: path).width == 40)
        #expect {
            try JPEGEncoder.write(Image8(width: 2, height: 2, channels: 4), to: path)
        } throws: { error in
            (error as? MediaError)?.source == path
        }
    }
}
