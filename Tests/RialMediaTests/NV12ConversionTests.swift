import RialMedia
import Testing

@Suite("NV12 to RGB")
struct NV12ConversionTests {
    /// One NV12 frame of `width` x 2 whose 2x2 chroma blocks take the colours of `blocks`
    /// (each Y', Cb, Cr), left to right.
    private func frame(_ blocks: [(y: UInt8, cb: UInt8, cr: UInt8)]) -> [UInt8] {
        let width = 2 * blocks.count
        var luma = [UInt8](repeating: 0, count: width * 2)
        var chroma: [UInt8] = []
        for (b, block) in blocks.enumerated() {
            for row in 0..<2 { for column in 0..<2 { luma[row * width + 2 * b + column] = block.y } }
            chroma += [block.cb, block.cr]
        }
        return luma + chroma
    }

    private func close(_ image: Image8, x: Int, _ expected: (Int, Int, Int), tolerance: Int = 1) -> Bool {
        (0..<2).allSatisfy { y in
            abs(Int(image[x, y, 0]) - expected.0) <= tolerance && abs(Int(image[x, y, 1]) - expected.1) <= tolerance
                && abs(Int(image[x, y, 2]) - expected.2) <= tolerance
        }
    }

    @Test("BT.601 video range: black, white and the 100% colour bars")
    func bars() throws {
        // 8-bit Y'CbCr of 100% colour bars in BT.601 (ITU-R BT.601-7 with BT.801-1's
        // bars: red 81/90/240, green 145/54/34, blue 41/240/110), black 16/128/128 and
        // white 235/128/128. Hand calculation with the doc comment's formula: red
        // R = 75.68 + 1.59603 x 112 = 254.4, G = -0.5, B = -1.0 -> (254, 0, 0); green
        // (0, 255, 1); blue (0, 0, 255).
        let blocks: [(y: UInt8, cb: UInt8, cr: UInt8)] = [
            (16, 128, 128), (235, 128, 128), (81, 90, 240), (145, 54, 34), (41, 240, 110),
        ]
        let image = try NV12Conversion.rgb(frame(blocks), width: 10, height: 2)
        #expect(image.channels == 3 && image.width == 10 && image.height == 2)
        for x in [0, 1] { #expect(close(image, x: x, (0, 0, 0), tolerance: 0)) }
        for x in [2, 3] { #expect(close(image, x: x, (255, 255, 255), tolerance: 0)) }
        for x in [4, 5] { #expect(close(image, x: x, (254, 0, 0))) }
        for x in [6, 7] { #expect(close(image, x: x, (0, 255, 1))) }
        for x in [8, 9] { #expect(close(image, x: x, (0, 0, 255))) }
    }

    @Test("Full range: Y' 255 is white, chroma 128 is gray")
    func fullRange() throws {
        let image = try NV12Conversion.rgb(
            frame([(255, 128, 128), (100, 128, 128)]), width: 4, height: 2, range: .full)
        #expect(close(image, x: 0, (255, 255, 255), tolerance: 0))
        #expect(close(image, x: 3, (100, 100, 100), tolerance: 0))
    }

    @Test("Odd sizes and wrong byte counts are one error each, never a trap")
    func badInput() {
        #expect(throws: MediaError.self) {
            try NV12Conversion.rgb([UInt8](repeating: 0, count: 9), width: 3, height: 2)
        }
        #expect(throws: MediaError.self) {
            try NV12Conversion.rgb([UInt8](repeating: 0, count: 5), width: 2, height: 2)
        }
        #expect(throws: MediaError.self) { try NV12Conversion.rgb([], width: 0, height: 0) }
        #expect(throws: MediaError.self) { try NV12Conversion.rgb([], width: -2, height: 2) }
    }
}
