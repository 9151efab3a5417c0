import Foundation
import Testing

@testable import RialMedia

/// True when both arrays have the same length and every pair is within `tolerance`
/// (two NaNs count as equal).
func imageOpApproxEqual(_ a: [Float], _ b: [Float], tolerance: Float = 1e-4) -> Bool {
    a.count == b.count
        && zip(a, b).allSatisfy { x, y in
            (x.isNaN && y.isNaN) || abs(x - y) <= tolerance
        }
}

func imageOpPlanar(_ width: Int, _ height: Int, _ data: [Float], channels: Int = 1) -> PlanarImage {
    PlanarImage(width: width, height: height, channels: channels, data: data)!
}

func imageOpImage8(_ width: Int, _ height: Int, _ channels: Int, _ samples: [UInt8]) -> Image8 {
    Image8(width: width, height: height, channels: channels, samples: samples)!
}

@Suite("Image conversions and luma")
struct ImageConversionTests {
    @Test func rgbaToPlanarDropsAlpha() {
        let rgba = imageOpImage8(2, 1, 4, [10, 20, 30, 255, 40, 50, 60, 0])
        let p = PlanarImage(rgba)
        #expect(p.channels == 3)
        #expect(p.data == [10, 40, 20, 50, 30, 60])
    }

    @Test func grayAlphaToPlanarKeepsGrayOnly() {
        let ga = imageOpImage8(3, 1, 2, [1, 9, 2, 9, 3, 9])
        let p = PlanarImage(ga)
        #expect(p.channels == 1)
        #expect(p.data == [1, 2, 3])
    }

    @Test func rgbRoundTripsThroughPlanar() throws {
        var rng = SeededGenerator(seed: 7)
        let samples = (0..<(5 * 4 * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let rgb = imageOpImage8(5, 4, 3, samples)
        #expect(try Image8(PlanarImage(rgb)) == rgb)
    }

    @Test func planarToImage8RoundsHalfAwayFromZeroAndClamps() throws {
        let p = imageOpPlanar(8, 1, [1.5, 2.5, 2.4999, -3, 300, .nan, 254.5, .infinity])
        let img = try Image8(p)
        #expect(img.samples == [2, 3, 2, 0, 255, 0, 255, 255])
    }

    @Test func planarToImage8InterleavesPlanes() throws {
        let p = imageOpPlanar(2, 1, [1, 2, 3, 4], channels: 2)
        #expect(try Image8(p).samples == [1, 3, 2, 4])
    }

    @Test func fivePlanesCannotBecomeImage8() {
        let p = PlanarImage(width: 1, height: 1, channels: 5)
        #expect(throws: MediaError.self) { try Image8(p) }
    }

    /// BT.601 by hand: red 0.299 * 255 = 76.245, green 0.587 * 255 = 149.685,
    /// blue 0.114 * 255 = 29.07, white (0.299 + 0.587 + 0.114) * 255 = 255,
    /// (100, 150, 200): 29.9 + 88.05 + 22.8 = 140.75.
    @Test func bt601LumaOfPrimaries() throws {
        let img = imageOpImage8(5, 1, 3, [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 100, 150, 200])
        let y = img.luma()
        #expect(y.channels == 1 && y.width == 5)
        #expect(imageOpApproxEqual(y.data, [76.245, 149.685, 29.07, 255, 140.75], tolerance: 2e-4))
        // RGBA ignores alpha; planar RGB gives the same.
        let rgba = imageOpImage8(1, 1, 4, [255, 0, 0, 17])
        #expect(imageOpApproxEqual(rgba.luma().data, [76.245]))
        #expect(imageOpApproxEqual(try PlanarImage(img).luma().data, y.data))
    }

    @Test func lumaOfGrayIsThePassThrough() throws {
        #expect(imageOpImage8(2, 1, 1, [7, 200]).luma().data == [7, 200])
        #expect(imageOpImage8(2, 1, 2, [7, 0, 200, 255]).luma().data == [7, 200])
        #expect(throws: MediaError.self) { try PlanarImage(width: 1, height: 1, channels: 2).luma() }
    }
}

@Suite("Area-average downscale")
struct AreaAverageTests {
    /// 4x4 holding 0...15 row by row; 2x2 blocks by hand:
    /// (0+1+4+5)/4 = 2.5, (2+3+6+7)/4 = 4.5, (8+9+12+13)/4 = 10.5, (10+11+14+15)/4 = 12.5.
    @Test func fourByFourByTwo() throws {
        let p = imageOpPlanar(4, 4, (0..<16).map(Float.init))
        let d = try p.downscaled(by: 2)
        #expect(d.width == 2 && d.height == 2)
        #expect(d.data == [2.5, 4.5, 10.5, 12.5])
        // The exact area average to the same size is the same thing.
        #expect(try p.areaAveraged(width: 2, height: 2).data == d.data)
    }

    /// 5x3 with v(x, y) = x + 10y, factor 2 -> 3x2; partial blocks use the pixels present:
    /// (0,0) {0,1,10,11} 5.5; (1,0) {2,3,12,13} 7.5; (2,0) {4,14} 9;
    /// (0,1) {20,21} 20.5; (1,1) {22,23} 22.5; (2,1) {24} 24.
    @Test func partialEdgeBlocksAverageThePixelsPresent() throws {
        let p = imageOpPlanar(5, 3, (0..<15).map { Float($0 % 5 + 10 * ($0 / 5)) })
        let d = try p.downscaled(by: 2)
        #expect(d.width == 3 && d.height == 2)
        #expect(imageOpApproxEqual(d.data, [5.5, 7.5, 9, 20.5, 22.5, 24], tolerance: 1e-5))
    }

    /// 3 -> 2 samples: output 0 covers [0, 1.5), output 1 [1.5, 3).
    /// [0, 3, 6] -> (1 * 0 + 0.5 * 3) / 1.5 = 1 and (0.5 * 3 + 1 * 6) / 1.5 = 5.
    @Test func fractionalCoverageInOneDimension() throws {
        let d = try imageOpPlanar(3, 1, [0, 3, 6]).areaAveraged(width: 2, height: 1)
        #expect(imageOpApproxEqual(d.data, [1, 5], tolerance: 1e-5))
    }

    /// 5x3 with v = x^2 + 3y -> 2x2, by hand. Column weights: out 0 = 0.4 x0 + 0.4 x1 +
    /// 0.2 x2, out 1 = 0.2 x2 + 0.4 x3 + 0.4 x4; row weights: out 0 = 2/3 y0 + 1/3 y1,
    /// out 1 = 1/3 y1 + 2/3 y2. Rows after the column pass: y0 (1.2, 10.8),
    /// y1 (4.2, 13.8), y2 (7.2, 16.8); so (0,0) = 0.8 + 1.4 = 2.2, (1,0) = 7.2 + 4.6 =
    /// 11.8, (0,1) = 1.4 + 4.8 = 6.2, (1,1) = 4.6 + 11.2 = 15.8.
    /// (Pillow's BOX filter is not this for non-integer ratios: it weights whole pixels
    /// by whether their centre falls in the box.)
    @Test func fractionalCoverageInTwoDimensions() throws {
        let data = (0..<15).map { i -> Float in
            let x = i % 5, y = i / 5
            return Float(x * x + 3 * y)
        }
        let d = try imageOpPlanar(5, 3, data).areaAveraged(width: 2, height: 2)
        #expect(imageOpApproxEqual(d.data, [2.2, 11.8, 6.2, 15.8], tolerance: 1e-5))
    }

    @Test func meanIsPreservedByTheExactAreaAverage() throws {
        var rng = SeededGenerator(seed: 11)
        let data = (0..<(37 * 23)).map { _ in Float.random(in: 0...255, using: &rng) }
        let p = imageOpPlanar(37, 23, data)
        for (w, h) in [(10, 7), (36, 22), (1, 1), (37, 5), (13, 23)] {
            let d = try p.areaAveraged(width: w, height: h)
            let meanIn = data.reduce(0, +) / Float(data.count)
            let meanOut = d.data.reduce(0, +) / Float(d.data.count)
            #expect(abs(meanIn - meanOut) < 1e-2, "\(w)x\(h)")
        }
    }

    @Test func constantImageStaysConstant() throws {
        let p = imageOpPlanar(11, 7, [Float](repeating: 42.5, count: 77 * 2), channels: 2)
        for f in 1...8 {
            #expect(try p.downscaled(by: f).data.allSatisfy { abs($0 - 42.5) < 1e-4 })
        }
        #expect(try p.areaAveraged(width: 4, height: 3).data.allSatisfy { abs($0 - 42.5) < 1e-4 })
        let img = imageOpImage8(9, 5, 3, [UInt8](repeating: 77, count: 9 * 5 * 3))
        #expect(try img.downscaled(by: 4).samples.allSatisfy { $0 == 77 })
        #expect(try img.areaAveraged(width: 2, height: 2).samples.allSatisfy { $0 == 77 })
    }

    @Test func image8KeepsAllChannelsAndRounds() throws {
        // 2x1 RGBA -> 1x1: (0+1)/2 = 0.5 -> 1, (10+20)/2 = 15, (255+254)/2 = 254.5 -> 255.
        let img = imageOpImage8(2, 1, 4, [0, 10, 255, 100, 1, 20, 254, 200])
        #expect(try img.downscaled(by: 2).samples == [1, 15, 255, 150])
        #expect(try img.areaAveraged(width: 1, height: 1).samples == [1, 15, 255, 150])
    }

    @Test func factorOneAndSameSizeAreIdentity() throws {
        let p = imageOpPlanar(3, 2, [1, 2, 3, 4, 5, 6])
        #expect(try p.downscaled(by: 1) == p)
        #expect(try p.areaAveraged(width: 3, height: 2) == p)
    }

    @Test func factorLargerThanImageGivesOnePixelMean() throws {
        let p = imageOpPlanar(3, 2, [1, 2, 3, 4, 5, 6])
        #expect(try p.downscaled(by: 10).data == [3.5])
    }

    @Test func invalidArgumentsThrow() {
        let p = imageOpPlanar(3, 2, [1, 2, 3, 4, 5, 6])
        #expect(throws: MediaError.self) { try p.downscaled(by: 0) }
        #expect(throws: MediaError.self) { try p.areaAveraged(width: 4, height: 2) }
        #expect(throws: MediaError.self) { try p.areaAveraged(width: 0, height: 1) }
        #expect(throws: MediaError.self) { try imageOpImage8(1, 1, 1, [0]).downscaled(by: -1) }
    }
}

@Suite("Bilinear resize")
struct BilinearTests {
    /// 2x2 [[0, 10], [20, 30]] -> 4x4, by hand: sample positions (i + 0.5) / 2 - 0.5 =
    /// -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1) on both axes.
    @Test func twoToFourByHand() throws {
        let d = try imageOpPlanar(2, 2, [0, 10, 20, 30]).resizedBilinear(width: 4, height: 4)
        #expect(
            d.data == [
                0, 2.5, 7.5, 10,
                5, 7.5, 12.5, 15,
                15, 17.5, 22.5, 25,
                20, 22.5, 27.5, 30,
            ])
    }

    /// Golden from Pillow 13 (upscaling with BILINEAR uses the same half-pixel centres
    /// and edge handling): `Image.fromarray(np.array([[1, 4, 9], [16, 25, 36]],
    /// np.float32)).resize((5, 3), Image.BILINEAR)`.
    @Test func threeByTwoToFiveByThreeMatchesPillow() throws {
        let d = try imageOpPlanar(3, 2, [1, 4, 9, 16, 25, 36]).resizedBilinear(width: 5, height: 3)
        #expect(
            imageOpApproxEqual(
                d.data,
                [
                    1, 2.2, 4, 7, 9,
                    8.5, 10.9, 14.5, 19.3, 22.5,
                    16, 19.6, 25, 31.6, 36,
                ]))
    }

    /// Halving: positions (i + 0.5) * 2 - 0.5 = 0.5, 2.5 -> means of neighbour pairs.
    @Test func halvingAveragesPairs() throws {
        let d = try imageOpPlanar(4, 1, [0, 2, 10, 20]).resizedBilinear(width: 2, height: 1)
        #expect(d.data == [1, 15])
    }

    @Test func sameSizeIsIdentityAndConstantStaysConstant() throws {
        var rng = SeededGenerator(seed: 3)
        let data = (0..<(6 * 5 * 3)).map { _ in Float.random(in: -5...5, using: &rng) }
        let p = imageOpPlanar(6, 5, data, channels: 3)
        #expect(try p.resizedBilinear(width: 6, height: 5) == p)
        let c = imageOpPlanar(4, 3, [Float](repeating: 3.25, count: 12))
        #expect(try c.resizedBilinear(width: 9, height: 2).data.allSatisfy { abs($0 - 3.25) < 1e-5 })
    }

    @Test func image8RoundsPerChannel() throws {
        // 2x1 RGB -> 4x1: x positions -0.25 -> 0, 0.25, 0.75, 1.25 -> 1.
        let img = imageOpImage8(2, 1, 3, [0, 100, 255, 10, 200, 0])
        let r = try img.resizedBilinear(width: 4, height: 1)
        // 0.75 * a + 0.25 * b: (2.5 -> 3, 125, 191.25 -> 191); 0.25 a + 0.75 b: (7.5 -> 8, 175, 63.75 -> 64).
        #expect(r.samples == [0, 100, 255, 3, 125, 191, 8, 175, 64, 10, 200, 0])
    }

    @Test func invalidSizeThrows() {
        #expect(throws: MediaError.self) { try imageOpPlanar(1, 1, [0]).resizedBilinear(width: 0, height: 1) }
    }
}

@Suite("Depth map resize")
struct DepthResizeTests {
    static let nan = Float.nan

    /// [[1, NaN], [3, 5]] -> 4x4. Output (1, 1) samples (0.25, 0.25): weights 0.5625 (1),
    /// 0.1875 (NaN, left out), 0.1875 (3), 0.0625 (5) -> (0.5625 + 0.5625 + 0.3125) /
    /// 0.8125 = 1.4375 / 0.8125 = 1.769230769. Output (2, 0) samples (0.75, 0):
    /// 0.25 * 1 with the 0.75 on NaN left out -> 1. Output (3, 0) lands exactly on the
    /// NaN pixel (clamped to (1, 0)): NaN.
    @Test func nanNeighboursAreLeftOut() throws {
        let d = DepthMap(width: 2, height: 2, metres: [1, Self.nan, 3, 5])!
        let r = try d.resizedBilinear(width: 4, height: 4)
        #expect(abs(r[1, 1] - 1.769230769) < 1e-5)
        #expect(r[2, 0] == 1)
        #expect(r[3, 0].isNaN)
        #expect(r[0, 0] == 1)
        #expect(r[3, 3] == 5)
        // Plain bilinear lets the NaN spread to every output that weights it.
        let p = try d.resizedBilinear(width: 4, height: 4, invalid: .propagate)
        #expect(p[1, 1].isNaN && p[2, 0].isNaN)
        #expect(p[0, 0] == 1 && p[0, 3] == 3)
    }

    @Test func allNaNStaysNaN() throws {
        let d = DepthMap(width: 3, height: 2, metres: [Float](repeating: Self.nan, count: 6))!
        #expect(try d.resizedBilinear(width: 5, height: 7).metres.allSatisfy(\.isNaN))
        #expect(try d.resizedBilinear(width: 2, height: 1).metres.allSatisfy(\.isNaN))
    }

    @Test func sameSizeKeepsNaNWhereItWas() throws {
        let d = DepthMap(width: 3, height: 2, metres: [1, Self.nan, 2, 3, 4, Self.nan])!
        #expect(try d.resizedBilinear(width: 3, height: 2) == d)
        #expect(try d.resizedBilinear(width: 3, height: 2, invalid: .propagate) == d)
    }

    @Test func withoutNaNBothPoliciesAgreeWithPlanar() throws {
        var rng = SeededGenerator(seed: 5)
        let metres = (0..<(7 * 5)).map { _ in Float.random(in: 0.3...5, using: &rng) }
        let d = DepthMap(width: 7, height: 5, metres: metres)!
        let a = try d.resizedBilinear(width: 11, height: 3)
        let b = try d.resizedBilinear(width: 11, height: 3, invalid: .propagate)
        let c = try imageOpPlanar(7, 5, metres).resizedBilinear(width: 11, height: 3)
        #expect(imageOpApproxEqual(a.metres, b.metres, tolerance: 1e-5))
        #expect(b.metres == c.data)
    }
}

@Suite("Crop")
struct CropTests {
    @Test func image8CropCopiesTheRectangle() throws {
        // 4x3 gray holding 0...11; crop x=1 y=1 2x2 -> [5, 6, 9, 10].
        let img = imageOpImage8(4, 3, 1, Array(0..<12))
        #expect(try img.cropped(x: 1, y: 1, width: 2, height: 2).samples == [5, 6, 9, 10])
        let rgb = imageOpImage8(2, 2, 3, Array(0..<12))
        #expect(try rgb.cropped(x: 1, y: 0, width: 1, height: 2).samples == [3, 4, 5, 9, 10, 11])
        #expect(try img.cropped(x: 0, y: 0, width: 4, height: 3) == img)
    }

    @Test func planarAndDepthCrops() throws {
        let p = imageOpPlanar(3, 2, [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15], channels: 2)
        let c = try p.cropped(x: 1, y: 0, width: 2, height: 2)
        #expect(c.channels == 2 && c.data == [1, 2, 4, 5, 11, 12, 14, 15])
        let d = DepthMap(width: 3, height: 2, metres: [0, 1, 2, 3, 4, .nan])!
        #expect(try d.cropped(x: 2, y: 1, width: 1, height: 1).metres[0].isNaN)
        #expect(try d.cropped(x: 0, y: 1, width: 2, height: 1).metres == [3, 4])
    }

    @Test(arguments: [
        (-1, 0, 1, 1), (0, -1, 1, 1), (0, 0, 0, 1), (0, 0, 1, 0), (3, 0, 2, 1),
        (0, 2, 1, 2), (4, 0, 1, 1), (Int.max, 0, 1, 1), (1, 0, Int.max, 1),
    ])
    func outOfRangeRectanglesThrow(_ rect: (Int, Int, Int, Int)) {
        let img = imageOpImage8(4, 3, 1, Array(0..<12))
        let (x, y, w, h) = rect
        #expect(throws: MediaError.self) { try img.cropped(x: x, y: y, width: w, height: h) }
        #expect(throws: MediaError.self) {
            try PlanarImage(width: 4, height: 3, channels: 1).cropped(x: x, y: y, width: w, height: h)
        }
        #expect(throws: MediaError.self) {
            try DepthMap(width: 4, height: 3, metres: [Float](repeating: 1, count: 12))!
                .cropped(x: x, y: y, width: w, height: h)
        }
    }

    @Test func errorIsInvalidArgument() {
        do {
            _ = try imageOpImage8(4, 3, 1, Array(0..<12)).cropped(x: 3, y: 0, width: 2, height: 1)
            Issue.record("expected a throw")
        } catch let error as MediaError {
            #expect(error.kind == .invalidArgument)
            #expect(error.detail.contains("4x3"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
