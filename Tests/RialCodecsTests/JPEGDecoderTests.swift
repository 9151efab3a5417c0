import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// Golden values for one real mirror file.
///
/// How they were obtained (2025-11, on this machine), none from the code under test:
/// - `rgb`, `meanRGB`: Pillow 13.0.0 (bundled libjpeg-turbo, libjpeg API 6.2),
///   `Image.open(p).convert("RGB").getpixel((x, y))` and the numpy mean of
///   `np.asarray(Image.open(p).convert("RGB"))` per channel. `djpeg -rgb -pnm` (system
///   libjpeg-turbo 2.1.5) gives the identical image (max |difference| 0 on all five).
/// - `gray`: Pillow 13.0.0 `im.draft("L", im.size)` (libjpeg's grayscale output, i.e. the
///   coded Y plane), identical to `djpeg -grayscale`.
/// - `quarter`, `eighth` (+ means): `djpeg -rgb -scale 1/4` and `-scale 1/8` output,
///   read with Pillow; equal to Pillow's own `draft("RGB", ...)` decode wherever Pillow
///   picked the same scale (promptda, silentface, Samsung, xiaomi 1/4, aloe 1/4).
/// - Scaled sizes: ceil(w/n) x ceil(h/n) by hand (libjpeg's jdiv_round_up rule).
struct RealJPEGGolden: Sendable, CustomTestStringConvertible {
    let path: String
    let width: Int
    let height: Int
    let rgb: [PixelGolden]
    let gray: [UInt8] // at the same points as `rgb`
    let meanRGB: [Double]
    let quarter: [PixelGolden]
    let quarterMean: [Double]
    let eighth: [PixelGolden]
    let eighthMean: [Double]

    var testDescription: String { path }

    static let all: [RealJPEGGolden] = [
        RealJPEGGolden(
            path: "promptda/image.jpg", width: 1920, height: 1440,
            rgb: [
                PixelGolden(0, 0, [244, 226, 226]), PixelGolden(1919, 1439, [113, 109, 98]),
                PixelGolden(960, 720, [220, 190, 138]), PixelGolden(640, 288, [110, 89, 60]),
                PixelGolden(123, 77, [102, 76, 53]), PixelGolden(1903, 480, [222, 186, 136]),
            ],
            gray: [231, 109, 193, 92, 81, 191],
            meanRGB: [144.91824074, 130.47806821, 106.54052951],
            quarter: [
                PixelGolden(0, 0, [254, 236, 236]), PixelGolden(240, 180, [219, 189, 137]),
                PixelGolden(479, 359, [112, 108, 97]),
            ],
            quarterMean: [144.97, 130.48, 106.53],
            eighth: [
                PixelGolden(0, 0, [255, 240, 237]), PixelGolden(120, 90, [219, 189, 137]),
                PixelGolden(239, 179, [110, 106, 95]),
            ],
            eighthMean: [144.98, 130.48, 106.53]),
        RealJPEGGolden(
            path: "silentface/image_F1.jpg", width: 640, height: 480,
            rgb: [
                PixelGolden(0, 0, [143, 148, 142]), PixelGolden(639, 479, [186, 139, 113]),
                PixelGolden(320, 240, [172, 150, 139]), PixelGolden(213, 96, [139, 114, 110]),
                PixelGolden(123, 77, [31, 40, 35]), PixelGolden(623, 160, [138, 153, 158]),
            ],
            gray: [146, 150, 155, 121, 37, 149],
            meanRGB: [119.54652669, 120.56551107, 118.58580078],
            quarter: [
                PixelGolden(0, 0, [143, 148, 142]), PixelGolden(80, 60, [174, 152, 141]),
                PixelGolden(159, 119, [207, 136, 118]),
            ],
            quarterMean: [119.55, 120.56, 118.58],
            eighth: [
                PixelGolden(0, 0, [143, 148, 142]), PixelGolden(40, 30, [172, 154, 144]),
                PixelGolden(79, 59, [197, 88, 83]),
            ],
            eighthMean: [119.68, 120.69, 118.69]),
        RealJPEGGolden(
            path: "metadata-extractor/Samsung_SM-G935L_Galaxy_S7_Edge.jpg", width: 4032, height: 3024,
            rgb: [
                PixelGolden(0, 0, [5, 0, 6]), PixelGolden(4031, 3023, [54, 74, 83]),
                PixelGolden(2016, 1512, [87, 80, 61]), PixelGolden(1344, 604, [106, 87, 81]),
                PixelGolden(123, 77, [4, 0, 6]), PixelGolden(4015, 1008, [8, 3, 10]),
            ],
            gray: [2, 69, 80, 92, 1, 5],
            meanRGB: [68.17573581, 57.97241594, 53.06501223],
            quarter: [
                PixelGolden(0, 0, [6, 1, 7]), PixelGolden(504, 378, [82, 75, 57]),
                PixelGolden(1007, 755, [56, 74, 84]),
            ],
            quarterMean: [68.18, 57.94, 53.06],
            eighth: [
                PixelGolden(0, 0, [7, 2, 9]), PixelGolden(252, 189, [81, 74, 56]),
                PixelGolden(503, 377, [59, 76, 84]),
            ],
            eighthMean: [68.32, 57.96, 53.20]),
        RealJPEGGolden(
            path: "opencv/aloeL.jpg", width: 1282, height: 1110,
            rgb: [
                PixelGolden(0, 0, [175, 188, 142]), PixelGolden(1281, 1109, [234, 234, 200]),
                PixelGolden(641, 555, [182, 174, 128]), PixelGolden(427, 222, [231, 223, 187]),
                PixelGolden(123, 77, [152, 174, 138]), PixelGolden(1265, 370, [122, 160, 101]),
            ],
            gray: [179, 230, 171, 221, 163, 142],
            meanRGB: [171.18073463, 177.17776208, 136.63495945],
            quarter: [
                PixelGolden(0, 0, [160, 168, 117]), PixelGolden(160, 139, [173, 149, 101]),
                PixelGolden(320, 277, [234, 234, 200]),
            ],
            quarterMean: [171.26, 177.23, 136.69],
            eighth: [
                PixelGolden(0, 0, [169, 166, 115]), PixelGolden(80, 69, [162, 158, 113]),
                PixelGolden(160, 138, [229, 229, 193]),
            ],
            eighthMean: [171.36, 177.31, 136.76]),
        RealJPEGGolden(
            path: "moiredet/xiaomi10_labtv_219.jpg", width: 1632, height: 972,
            rgb: [
                PixelGolden(0, 0, [120, 117, 112]), PixelGolden(1631, 971, [188, 184, 185]),
                PixelGolden(816, 486, [233, 220, 212]), PixelGolden(544, 194, [158, 153, 150]),
                PixelGolden(123, 77, [147, 140, 134]), PixelGolden(1615, 324, [213, 210, 205]),
            ],
            gray: [117, 185, 223, 154, 141, 210],
            meanRGB: [171.97771297, 166.28885699, 165.50522535],
            quarter: [
                PixelGolden(0, 0, [125, 122, 117]), PixelGolden(204, 121, [185, 177, 166]),
                PixelGolden(407, 242, [155, 151, 152]),
            ],
            quarterMean: [171.98, 166.29, 165.51],
            eighth: [
                PixelGolden(0, 0, [125, 121, 118]), PixelGolden(102, 61, [188, 182, 194]),
                PixelGolden(203, 121, [145, 141, 142]),
            ],
            eighthMean: [172.04, 166.36, 165.58]),
    ]
}

/// Real photographs from the data mirror, checked against Pillow and djpeg.
///
/// Tolerance: +-2 per sample for pixels (a JPEG decoder with a different IDCT may
/// differ by 1-2), 0.05 for whole-image channel means (0.01 for the 2-decimal scaled
/// means' rounding plus slack). Observed: every value matches exactly — Pillow, djpeg
/// and this decoder all run libjpeg-turbo's JDCT_ISLOW with fancy upsampling.
@Suite struct JPEGDecoderTests {
    static let pixelTolerance = 2

    func expectPixels(_ image: Image8, _ goldens: [PixelGolden], _ label: String) {
        for g in goldens {
            let actual = (0..<image.channels).map { image[g.x, g.y, $0] }
            let close = zip(actual, g.value).allSatisfy { abs(Int($0) - Int($1)) <= Self.pixelTolerance }
            #expect(close, "\(label) (\(g.x),\(g.y)): got \(actual), expected \(g.value)")
        }
    }

    func expectMeans(_ image: Image8, _ expected: [Double], tolerance: Double, _ label: String) {
        let means = JPEGTestSupport.channelMeans(image)
        for (m, e) in zip(means, expected) {
            #expect(abs(m - e) <= tolerance, "\(label) mean \(means) vs \(expected)")
        }
    }

    @Test(arguments: RealJPEGGolden.all)
    func headerOfRealFile(_ golden: RealJPEGGolden) throws {
        let info = try JPEGDecoder.readInfo(contentsOf: Fixtures.real(golden.path))
        #expect(info.width == golden.width)
        #expect(info.height == golden.height)
        #expect(info.components == 3)
        #expect(info.colorSpace == .yCbCr)
        #expect(info.isProgressive == false) // all five are baseline (Pillow: no "progressive" key)
        #expect(info.hasAdobeMarker == false)
    }

    @Test(arguments: RealJPEGGolden.all)
    func fullDecodeMatchesPillow(_ golden: RealJPEGGolden) throws {
        let image = try JPEGDecoder.decode(contentsOf: Fixtures.real(golden.path))
        #expect(image.width == golden.width && image.height == golden.height)
        #expect(image.channels == 3)
        expectPixels(image, golden.rgb, golden.path)
        expectMeans(image, golden.meanRGB, tolerance: 0.05, golden.path)
    }

    @Test(arguments: RealJPEGGolden.all)
    func grayDecodeIsTheLumaPlane(_ golden: RealJPEGGolden) throws {
        let image = try JPEGDecoder.decode(
            contentsOf: Fixtures.real(golden.path),
            options: JPEGDecodeOptions(output: .gray))
        #expect(image.channels == 1)
        #expect(image.width == golden.width && image.height == golden.height)
        let points = golden.rgb.enumerated().map { PixelGolden($1.x, $1.y, [golden.gray[$0]]) }
        expectPixels(image, points, golden.path + " gray")
    }

    @Test(arguments: RealJPEGGolden.all)
    func scaledDecodesFollowLibjpegRoundingAndKeepTheMean(_ golden: RealJPEGGolden) throws {
        let data = try MediaFile.read(Fixtures.real(golden.path))
        for (scale, pixels, mean) in [
            (JPEGScale.quarter, golden.quarter, golden.quarterMean),
            (.eighth, golden.eighth, golden.eighthMean),
        ] {
            let n = scale.denominator
            let image = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(scale: scale))
            // ceil(w / n) x ceil(h / n), computed independently of libjpeg.
            let expectedWidth = Int((Double(golden.width) / Double(n)).rounded(.up))
            let expectedHeight = Int((Double(golden.height) / Double(n)).rounded(.up))
            #expect(
                image.width == expectedWidth && image.height == expectedHeight,
                "1/\(n): \(image.width)x\(image.height)")
            #expect(
                JPEGInfo(
                    width: golden.width, height: golden.height, components: 3,
                    colorSpace: .yCbCr, isProgressive: false
                )
                .outputSize(scale: scale) == (expectedWidth, expectedHeight))
            expectPixels(image, pixels, "\(golden.path) 1/\(n)")
            expectMeans(image, mean, tolerance: 0.05, "\(golden.path) 1/\(n) vs djpeg")
            // DCT scaling keeps the DC terms, so the mean colour stays within ~0.2 of full size.
            expectMeans(image, golden.meanRGB, tolerance: 0.5, "\(golden.path) 1/\(n) vs full")
        }
    }

    @Test func halfScaleOfOddSizeRoundsUp() throws {
        // aloeL is 1282x1110: 1/2 -> 641x555 exactly; the 1/8 case is 1282/8 = 160.25 -> 161.
        let data = try MediaFile.read(Fixtures.real("opencv/aloeL.jpg"))
        let half = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(scale: .half))
        #expect(half.width == 641 && half.height == 555)
        // Pillow 13.0.0 draft("RGB", (321, 278)) picked scale 1/2 for this file and gave
        // (0,0) = (172,185,139), centre (320,277) = (190,186,141), (640,554) = (235,235,201).
        expectPixels(
            half,
            [
                PixelGolden(0, 0, [172, 185, 139]), PixelGolden(320, 277, [190, 186, 141]),
                PixelGolden(640, 554, [235, 235, 201]),
            ], "aloeL 1/2")
    }

    @Test func decodeReportingOfACleanFileHasNoWarnings() throws {
        let data = try MediaFile.read(Fixtures.real("silentface/image_F1.jpg"))
        let result = try JPEGDecoder.decodeReporting(data)
        #expect(result.warningCount == 0)
        #expect(result.firstWarning == nil)
        #expect(result.isTruncated == false)
        #expect(result.info.width == 640 && result.info.hasJFIFMarker)
    }

    @Test func decodeIntoReusesTheBufferAndMatchesDecode() throws {
        let data = try MediaFile.read(Fixtures.real("silentface/image_F1.jpg"))
        let reference = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(scale: .half))
        var image = Image8(width: 320, height: 240, channels: 3) // same sample count
        try JPEGDecoder.decode(data, into: &image, options: JPEGDecodeOptions(scale: .half))
        #expect(image == reference)
        // A different size replaces the buffer.
        try JPEGDecoder.decode(data, into: &image, options: JPEGDecodeOptions(scale: .eighth, output: .gray))
        #expect(image.width == 80 && image.height == 60 && image.channels == 1)
        // A failure leaves a valid image of the old size behind.
        #expect(throws: MediaError.self) {
            try JPEGDecoder.decode(
                data.prefix(data.count / 2), into: &image,
                options: JPEGDecodeOptions(scale: .eighth, output: .gray))
        }
        #expect(image.width == 80 && image.samples.count == 80 * 60)
    }

    @Test func concurrentDecodesAgree() async throws {
        let data = try MediaFile.read(Fixtures.real("silentface/image_F1.jpg"))
        let reference = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(scale: .half))
        let images = try await withThrowingTaskGroup(of: Image8.self) { group in
            for _ in 0..<8 {
                group.addTask { try JPEGDecoder.decode(data, options: JPEGDecodeOptions(scale: .half)) }
            }
            return try await group.reduce(into: [Image8]()) { $0.append($1) }
        }
        #expect(images.count == 8)
        #expect(images.allSatisfy { $0 == reference })
    }
}
