import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// Every mutated depth payload must read or throw `MediaError`; a trap or a hang
/// fails the run.
@Suite("Depth fuzz")
struct DepthFuzzTests {
    private func survive(
        _ inputs: [Data], format: DepthFormat, width: Int? = nil, height: Int? = nil,
        array: String? = nil
    ) -> (read: Int, rejected: Int) {
        var read = 0, rejected = 0
        for input in inputs {
            do {
                _ = try DepthReader.read(data: input, format: format, width: width, height: height, array: array)
                read += 1
            } catch is MediaError {
                rejected += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
        return (read, rejected)
    }

    private static let map = DepthRoundTripTests.seededMap(seed: 3)

    @Test("gzip and zlib depth payloads", arguments: [DepthFormat.f32leGzip, .f32leZlib])
    func compressed(format: DepthFormat) throws {
        let data = try DepthWriter.encode(Self.map, format: format)
        let inputs =
            Mutations.truncations(of: data, count: 300)
            + Mutations.corruptions(of: data, count: 1500, seed: format == .f32leGzip ? 11 : 12)
            + Mutations.garbage(lengths: Array(0..<100), seed: 13)
        let result = survive(inputs, format: format, width: 37, height: 23)
        #expect(result.rejected > 0)
        // The unmodified payload still reads.
        #expect(survive([data], format: format, width: 37, height: 23).read == 1)
    }

    @Test(".npy: written here and numpy's float64 Fortran file")
    func npy() throws {
        let ours = try DepthWriter.encode(Self.map, format: .npy)
        let numpy = try #require(DepthFixtures.npy.first { $0.name == "f8_be_fortran" }).data
        for (index, data) in [ours, numpy].enumerated() {
            let inputs =
                Mutations.truncations(of: data, count: 300)
                + Mutations.corruptions(of: data, count: 1500, seed: 20 + UInt64(index))
            let result = survive(inputs, format: .npy)
            #expect(result.read + result.rejected == inputs.count)
        }
        // Random text after the magic exercises the header parser.
        let magic = Data([0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59, 1, 0, 64, 0])
        let texts = Mutations.garbage(lengths: Array(repeating: 64, count: 300), seed: 23).map { magic + $0 }
        #expect(survive(texts, format: .npy).rejected == texts.count)
    }

    @Test(".npz: numpy's deflated two-array archive and one written here")
    func npz() throws {
        let ours = try DepthWriter.encode(Self.map, format: .npz)
        for (index, (data, array)) in [(DepthFixtures.npzTwoArrays, "depth"), (ours, "arr_0")].enumerated() {
            let inputs =
                Mutations.truncations(of: data, count: 300)
                + Mutations.corruptions(of: data, count: 1500, seed: 30 + UInt64(index))
            let named = survive(inputs, format: .npz, array: array)
            let unnamed = survive(Array(inputs.prefix(500)), format: .npz)
            #expect(named.read + named.rejected == inputs.count)
            #expect(unnamed.read + unnamed.rejected == 500)
        }
        let garbage = Mutations.garbage(lengths: Array(0..<200), seed: 33)
        #expect(survive(garbage, format: .npz).rejected == garbage.count)
    }

    @Test("16-bit depth PNGs")
    func depthPNG() throws {
        let data = try DepthWriter.encode(Self.map, format: .u16PngMm)
        let inputs =
            Mutations.truncations(of: data, count: 200)
            + Mutations.corruptions(of: data, count: 800, seed: 40).map(PNGTestBytes.repairingCRCs)
        let result = survive(inputs, format: .u16PngMm)
        #expect(result.read + result.rejected == inputs.count)
    }
}
