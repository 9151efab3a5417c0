import Foundation
import Testing

@testable import RialCodecs
@testable import RialMedia

/// Seeded fuzzing: truncations, bit flips / byte overwrites and garbage. Every input must
/// either decode to a consistent image or throw `MediaError`; a crash, trap, exit() or
/// hang fails the run. Seeds are fixed, so a failure reproduces exactly.
///
/// The brief's small real file, silentface/image_T1.jpg, is listed in the mirror's
/// SOURCES.csv but missing from the mirror; image_F1.jpg (same camera, 640x480, 65 KB)
/// stands in for it. Decodes run at 1/8 scale and with a 4 MP limit to stay fast.
@Suite struct JPEGFuzzTests {
    static let fastOptions = JPEGDecodeOptions(scale: .eighth, maxPixels: 4_000_000)

    /// Decodes (and reads the header of) every input; returns how many decoded.
    @discardableResult
    func survive(_ inputs: [Data], options: JPEGDecodeOptions = fastOptions) -> Int {
        var decoded = 0
        for input in inputs {
            do {
                let image = try JPEGDecoder.decode(input, options: options)
                let info = try JPEGDecoder.readInfo(input)
                let expected = info.outputSize(scale: options.scale)
                #expect(image.width == expected.width && image.height == expected.height)
                #expect(image.samples.count == image.width * image.height * options.output.channels)
                decoded += 1
            } catch {
                // Typed throws: `error` is a MediaError. It must say something.
                #expect(!error.detail.isEmpty)
                #expect([.corrupt, .unsupported].contains(error.kind), "\(error)")
            }
        }
        return decoded
    }

    @Test func truncationsOfARealPhoto() throws {
        let data = try MediaFile.read(Fixtures.real("silentface/image_F1.jpg"))
        let inputs = Mutations.truncations(of: data, count: 600)
        let decoded = survive(inputs)
        // Only the complete file decodes under the default (reject-truncated) policy.
        #expect(decoded == 0)
        // With warnings accepted, the longer prefixes decode (bottom rows gray) or fail cleanly.
        survive(
            Array(inputs.suffix(150)),
            options: JPEGDecodeOptions(scale: .eighth, warningPolicy: .acceptAll, maxPixels: 4_000_000))
    }

    @Test(arguments: [JPEGWarningPolicy.rejectTruncated, .acceptAll])
    func corruptionsOfARealPhoto(_ policy: JPEGWarningPolicy) throws {
        let data = try MediaFile.read(Fixtures.real("silentface/image_F1.jpg"))
        let inputs = Mutations.corruptions(of: data, count: 1200, maxFlips: 8, seed: 0x4A50_4547)
        var options = Self.fastOptions
        options.warningPolicy = policy
        let decoded = survive(inputs, options: options)
        // Most flips land in entropy data, which libjpeg decodes through with warnings.
        #expect(decoded > 0)
    }

    @Test func corruptionsOfTheHeaderRegion() throws {
        // Mutations confined to the first 700 bytes (markers, tables, SOF, SOS) hit the
        // parsers far more often than uniform flips do.
        let data = try MediaFile.read(Fixtures.real("silentface/image_F1.jpg"))
        let head = data.prefix(700)
        let tail = data.dropFirst(700)
        let inputs = Mutations.corruptions(of: head, count: 1000, maxFlips: 4, seed: 99).map { $0 + tail }
        survive(inputs)
    }

    @Test(arguments: [false, true])
    func everyPrefixAndCorruptionOfASmallSyntheticJPEG(_ progressive: Bool) throws {
        let image = JPEGTestSupport.textured(width: 48, height: 40, seed: 11)
        let data = try JPEGEncoder.encode(image, quality: 80, progressive: progressive)
        let prefixes = (0..<data.count).map { data.prefix($0) }
        let full = JPEGDecodeOptions(scale: .full, maxPixels: 4_000_000)
        #expect(survive(prefixes, options: full) == 0)
        survive(Mutations.corruptions(of: data, count: 800, seed: progressive ? 2 : 1), options: full)
        var lenient = full
        lenient.warningPolicy = .acceptAll
        survive(Mutations.corruptions(of: data, count: 800, seed: progressive ? 4 : 3), options: lenient)
    }

    @Test func grayAndCMYKFilesUnderCorruption() throws {
        var gray = Image8(width: 40, height: 24, channels: 1)
        for i in gray.samples.indices { gray.samples[i] = UInt8(i * 7 % 251) }
        let grayData = try JPEGEncoder.encode(gray, quality: 70)
        survive(
            Mutations.corruptions(of: grayData, count: 400, seed: 5),
            options: JPEGDecodeOptions(output: .gray))
        survive(
            Mutations.corruptions(of: JPEGCMYKTests.pillowCMYK, count: 400, seed: 6),
            options: JPEGDecodeOptions(output: .rgb, warningPolicy: .acceptAll))
    }

    @Test func randomGarbage() {
        let lengths = (0..<400).map { $0 * 13 % 4096 }
        let garbage = Mutations.garbage(lengths: lengths, seed: 0xBAD)
        #expect(survive(garbage) == 0)
        // Garbage behind a valid SOI marker reaches the marker parser.
        let soiGarbage = Mutations.garbage(lengths: lengths, seed: 0xBEEF).map { Data([0xFF, 0xD8, 0xFF]) + $0 }
        survive(soiGarbage)
    }
}
