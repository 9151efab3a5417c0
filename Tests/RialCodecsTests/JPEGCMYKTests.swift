import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// CMYK and YCCK JPEGs are converted to RGB with the Adobe convention.
///
/// The four test colours, as ink amounts (C, M, Y, K) in 0...255, and their RGB by hand:
/// R = (255 - C)(255 - K) / 255 rounded, G from M, B from Y.
///   (0, 0, 0, 0)       -> (255, 255, 255)
///   (255, 0, 0, 0)     -> (0, 255, 255)
///   (0, 128, 255, 0)   -> (255, 127, 0)        127 = 127 * 255 / 255
///   (30, 60, 90, 120)  -> (119, 103, 87)       225*135/255 = 119.1, 195*135/255 = 103.2,
///                                              165*135/255 = 87.4
@Suite struct JPEGCMYKTests {
    static let inks: [[UInt8]] = [[0, 0, 0, 0], [255, 0, 0, 0], [0, 128, 255, 0], [30, 60, 90, 120]]
    static let expectedRGB: [[UInt8]] = [[255, 255, 255], [0, 255, 255], [255, 127, 0], [119, 103, 87]]
    /// Centre of quadrant i of a 16x16 image made of four flat 8x8 blocks.
    static let centres = [(3, 3), (12, 3), (3, 12), (12, 12)]

    /// A 16x16 CMYK JPEG written by Pillow 13.0.0:
    ///     im = Image.new("CMYK", (16, 16)); quadrants filled with `inks` (row-major);
    ///     im.save(buf, "JPEG", quality=95)
    /// Pillow stores CMYK inverted and libjpeg adds the Adobe APP14 marker (transform 0).
    /// Expected values: Pillow 13.0.0 `Image.open(...).convert("RGB").getpixel(centre)` =
    /// (255,255,255), (0,255,255), (255,127,0), (119,103,87) — equal to the hand values;
    /// `.convert("L")` = 255, 179, 151, 106. Every pixel of each quadrant is identical.
    /// `djpeg -pnm` (libjpeg-turbo 2.1.5, whose PPM writer also assumes Adobe inversion)
    /// prints the same four RGB values.
    static let pillowCMYK = Data(
        base64Encoded: """
            /9j/7gAOQWRvYmUAZAAAAAAA/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcG\
            BggLCAkKCgoKCgYICwwLCgwJCgoK/8AAFAgAEAAQBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAAB\
            AgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNi\
            coIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SV\
            lpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4E\
            QwBNAFkASwAAPwD9/K/fyv38r9/K/gDooor+/wAr+f8Ar+AOivB6/RCv6lK/B+v/2Q==
            """)!

    @Test func pillowCMYKFileDecodesToPillowsRGB() throws {
        let info = try JPEGDecoder.readInfo(Self.pillowCMYK)
        #expect(info.components == 4 && info.colorSpace == .cmyk && info.hasAdobeMarker)
        let rgb = try JPEGDecoder.decode(Self.pillowCMYK)
        #expect(rgb.channels == 3 && rgb.width == 16 && rgb.height == 16)
        for (i, (x, y)) in Self.centres.enumerated() {
            let got = (0..<3).map { rgb[x, y, $0] }
            #expect(got == Self.expectedRGB[i], "quadrant \(i): \(got)")
        }
        let gray = try JPEGDecoder.decode(Self.pillowCMYK, options: JPEGDecodeOptions(output: .gray))
        #expect(gray.channels == 1)
        #expect(Self.centres.map { gray[$0.0, $0.1, 0] } == [255, 179, 151, 106])
        // Scaled decode goes through the same conversion.
        let small = try JPEGDecoder.decode(Self.pillowCMYK, options: JPEGDecodeOptions(scale: .eighth))
        #expect(small.width == 2 && small.height == 2)
        #expect((0..<3).map { small[1, 1, $0] } == [119, 103, 87])
    }

    /// 16x16, four flat 8x8 quadrants, each pixel 4 samples.
    static func quadrants(_ colours: [[UInt8]]) -> [UInt8] {
        var samples = [UInt8](repeating: 0, count: 16 * 16 * 4)
        for y in 0..<16 {
            for x in 0..<16 {
                let q = (y / 8) * 2 + x / 8
                for c in 0..<4 { samples[(y * 16 + x) * 4 + c] = colours[q][c] }
            }
        }
        return samples
    }

    enum Variant: String, CaseIterable, Sendable {
        case adobeInvertedCMYK, plainCMYKWithoutMarker, adobeInvertedYCCK
    }

    @Test(arguments: Variant.allCases)
    func generatedCMYKMatchesHandCalculation(_ variant: Variant) throws {
        let inverted = Self.inks.map { $0.map { 255 - $0 } }
        let data: Data
        switch variant {
        case .adobeInvertedCMYK:
            data = try JPEGEncoder.encodeCMYK(
                Self.quadrants(inverted), width: 16, height: 16,
                quality: 100, asYCCK: false, adobeMarker: true)
        case .plainCMYKWithoutMarker:
            data = try JPEGEncoder.encodeCMYK(
                Self.quadrants(Self.inks), width: 16, height: 16,
                quality: 100, asYCCK: false, adobeMarker: false)
        case .adobeInvertedYCCK:
            data = try JPEGEncoder.encodeCMYK(
                Self.quadrants(inverted), width: 16, height: 16,
                quality: 100, asYCCK: true, adobeMarker: true)
        }
        let info = try JPEGDecoder.readInfo(data)
        #expect(info.components == 4)
        #expect(info.colorSpace == (variant == .adobeInvertedYCCK ? .ycck : .cmyk))
        #expect(info.hasAdobeMarker == (variant != .plainCMYKWithoutMarker))
        let rgb = try JPEGDecoder.decode(data)
        // q100 flat blocks survive the DCT exactly; YCCK adds the YCC colour transform's
        // rounding (and 2x2 chroma), so allow a few levels there.
        let tolerance = variant == .adobeInvertedYCCK ? 3 : 1
        for (i, (x, y)) in Self.centres.enumerated() {
            let got = (0..<3).map { rgb[x, y, $0] }
            let close = zip(got, Self.expectedRGB[i]).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
            #expect(close, "\(variant) quadrant \(i): \(got) vs \(Self.expectedRGB[i])")
        }
    }
}
