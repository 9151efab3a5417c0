import Foundation
import Testing

@testable import RialMedia

/// Seeded truncations, bit flips and garbage: the reader must return or throw
/// `MediaError` `.corrupt`, never trap. Each test counts unexpected outcomes and checks
/// once, so a failure names how many inputs misbehaved (rerun with the seed to debug).
@Suite("EXIF reader fuzz")
struct ExifFuzzTests {
    /// Reads `inputs` as JPEGs; returns how many threw something other than `.corrupt`
    /// and how many returned metadata.
    static func readAll(_ inputs: [Data]) -> (unexpected: Int, parsed: Int) {
        var unexpected = 0, parsed = 0
        for input in inputs {
            do {
                if try ExifReader.read(jpeg: input, source: "fuzz") != nil { parsed += 1 }
            } catch let error as MediaError {
                if error.kind != .corrupt || error.source != "fuzz" { unexpected += 1 }
            } catch {
                unexpected += 1
            }
        }
        return (unexpected, parsed)
    }

    /// First 64 KiB of a real phone JPEG: APP1 (20,478 bytes), DQT, SOF, DHT, scan start.
    static func iPhoneHeader() throws -> Data {
        try MediaFile.read(Fixtures.real("metadata-extractor/Apple_iPhone_6.jpg")).prefix(65_536)
    }

    @Test func truncationsOfARealHeader() throws {
        let header = try Self.iPhoneHeader()
        let full = try #require(try ExifReader.read(jpeg: header))
        let cuts = Mutations.truncations(of: header, count: 1_500)
        #expect(cuts.count > 1_000)
        var mismatched = 0
        for cut in cuts {
            // Until the APP1 segment is complete the marker walk throws; from then on the
            // result is the same as for the whole file.
            let result = try? ExifReader.read(jpeg: cut)
            let complete = cut.count >= 2 + 2 + 20_478
            if complete ? (result != full) : (result != nil) { mismatched += 1 }
        }
        #expect(mismatched == 0)
    }

    @Test func bitFlipsOfARealHeader() throws {
        let header = try Self.iPhoneHeader()
        // Flip only inside the APP1 segment (bytes 0..<20,482) where the parser looks.
        let app1 = header.prefix(20_482)
        let tail = header.suffix(from: 20_482)
        let inputs = Mutations.corruptions(of: app1, count: 600, seed: 0xE1F0_0001).map { $0 + tail }
        let (unexpected, parsed) = Self.readAll(inputs)
        #expect(unexpected == 0)
        #expect(parsed > 300) // most flips hit values, not structure
    }

    @Test func bitFlipsOfSmallRealHeaders() throws {
        // Whole header up to SOS: Nokia (1,175 bytes, SRATIONAL GPS) and the
        // Shotwell-written silentface image (3,267 bytes, APP0 + EXIF + XMP).
        let nokia = try MediaFile.read(Fixtures.real("exifpy/HMD_Nokia_8.3_5G.jpg")).prefix(1_200)
        let shotwell = try MediaFile.read(Fixtures.real("silentface/image_T1.jpg")).prefix(3_300)
        var inputs = Mutations.corruptions(of: nokia, count: 2_000, maxFlips: 4, seed: 0xE1F0_0002)
        inputs += Mutations.corruptions(of: shotwell, count: 1_000, maxFlips: 4, seed: 0xE1F0_0003)
        inputs += Mutations.truncations(of: nokia, count: 1_200)
        let (unexpected, _) = Self.readAll(inputs)
        #expect(unexpected == 0)
    }

    @Test func bitFlipsOfAHandBuiltAPP1() {
        let jpegs = [ExifReaderTests.fullBlock(.little).jpeg, ExifReaderTests.fullBlock(.big).jpeg]
        var inputs: [Data] = []
        for (i, jpeg) in jpegs.enumerated() {
            inputs += Mutations.corruptions(
                of: jpeg, count: 2_000, maxFlips: 3,
                seed: 0xE1F0_0010 + UInt64(i))
            inputs += Mutations.truncations(of: jpeg, count: 400)
        }
        let (unexpected, parsed) = Self.readAll(inputs)
        #expect(unexpected == 0)
        #expect(parsed > 1_000)
    }

    @Test func randomGarbage() {
        let lengths = (0..<1_000).map { ($0 * 37) % 3_000 }
        let garbage = Mutations.garbage(lengths: lengths, seed: 0xE1F0_0020)
        // As a whole file, after a valid SOI, and as the TIFF block of an EXIF segment.
        var inputs = garbage
        inputs += garbage.map { Data([0xFF, 0xD8]) + $0 }
        inputs += garbage.map { g in
            ExifTestTIFF.jpeg(segments: [(0xE1, ExifTestTIFF.exifSignature + Array(g.prefix(65_000)))])
        }
        let (unexpected, _) = Self.readAll(inputs)
        #expect(unexpected == 0)
        // Garbage behind a valid TIFF header, both byte orders: IFD0 at offset 8.
        for g in garbage.prefix(500) {
            _ = ExifReader.read(tiff: Data([0x49, 0x49, 0x2A, 0x00, 0x08, 0, 0, 0]) + g)
            _ = ExifReader.read(tiff: Data([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 0x08]) + g)
        }
    }
}
