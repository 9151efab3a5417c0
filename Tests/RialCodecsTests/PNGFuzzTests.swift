import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// Truncated, bit-flipped and random inputs must decode or throw `MediaError`; a trap
/// (crash) fails the whole test run.
@Suite("PNG fuzz")
struct PNGFuzzTests {
    /// Decodes every input; returns how many decoded and how many threw `MediaError`.
    private func survive(_ inputs: [Data]) -> (decoded: Int, rejected: Int) {
        var decoded = 0, rejected = 0
        for input in inputs {
            do {
                _ = try PNGDecoder.decode(input, maxPixels: 1 << 20)
                decoded += 1
            } catch is MediaError {
                rejected += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
        return (decoded, rejected)
    }

    private static func seededImage8() throws -> Data {
        var rng = SeededGenerator(seed: 8)
        let samples = (0..<(24 * 16 * 3)).map { _ in UInt8.random(in: 0...40, using: &rng) }
        return try PNGEncoder.encode(Image8(width: 24, height: 16, channels: 3, samples: samples)!)
    }

    private static func seededImage16() throws -> Data {
        var rng = SeededGenerator(seed: 16)
        let samples = (0..<(20 * 15)).map { _ in UInt16.random(in: 1000...1200, using: &rng) }
        return try PNGEncoder.encode(Image16(width: 20, height: 15, channels: 1, samples: samples)!)
    }

    @Test("8-bit RGB and 16-bit gray PNGs: truncations and corruptions", arguments: [8, 16])
    func mutations(bitDepth: Int) throws {
        let original = bitDepth == 8 ? try Self.seededImage8() : try Self.seededImage16()
        let truncated = survive(Mutations.truncations(of: original, count: 400))
        #expect(truncated.rejected > 0)
        let corrupted = survive(Mutations.corruptions(of: original, count: 1500, seed: UInt64(bitDepth)))
        #expect(corrupted.rejected > 0)
        // With CRCs repaired, flips reach IHDR validation, zlib and the filters.
        let deep = Mutations.corruptions(of: original, count: 1500, seed: UInt64(bitDepth) + 100)
            .map(PNGTestBytes.repairingCRCs)
        let deepResult = survive(deep)
        #expect(deepResult.decoded + deepResult.rejected == 1500)
    }

    @Test("Every Pillow fixture survives corruption")
    func fixtureMutations() {
        for (index, fixture) in PNGFixtures.all.enumerated() {
            let inputs =
                Mutations.corruptions(of: fixture.data, count: 150, seed: UInt64(1000 + index))
                .map(PNGTestBytes.repairingCRCs)
                + Mutations.truncations(of: fixture.data, count: 40)
            let result = survive(inputs)
            #expect(result.decoded + result.rejected == inputs.count)
        }
    }

    @Test("Random garbage, with and without a PNG signature")
    func garbage() {
        let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let random = Mutations.garbage(lengths: Array(0..<300) + [1000, 5000], seed: 99)
        let result = survive(random + random.map { signature + $0 })
        #expect(result.rejected == random.count * 2)
    }
}
