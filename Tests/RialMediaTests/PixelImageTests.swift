import Testing

@testable import RialMedia

@Test func pixelImageRejectsMismatchedSampleCount() {
    #expect(Image8(width: 2, height: 2, channels: 3, samples: [UInt8](repeating: 0, count: 11)) == nil)
    #expect(Image8(width: 2, height: 2, channels: 3, samples: [UInt8](repeating: 0, count: 12)) != nil)
    #expect(Image8(width: 2, height: 2, channels: 5, samples: [UInt8](repeating: 0, count: 20)) == nil)
}
