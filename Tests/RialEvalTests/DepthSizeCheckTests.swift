import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialEval

/// `validate` checks depth files against their declared size, decoding when needed.
@Suite struct DepthSizeCheckTests {
    static func validate(_ depth: String, files: [String: Data]) throws -> [DatasetProblem] {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        try EvalFixtures.write(Data("img".utf8), to: "a.jpg", in: folder)
        for (name, data) in files { try EvalFixtures.write(data, to: name, in: folder) }
        let manifest =
            #"{"format": "rial-bench-dataset/1", "samples": [{"id": "s", "image": "a.jpg", "label": "real_scene", "depth": \#(depth)}]}"#
        try EvalFixtures.write(Data(manifest.utf8), to: "manifest.json", in: folder)
        return try DatasetLoader(contentsOf: folder.appendingPathComponent("manifest.json").path).validate().problems
    }

    static let map4x3 = DepthMap(width: 4, height: 3, metres: (0..<12).map { 1 + Float($0) / 10 })!

    @Test(arguments: [DepthFormat.f32le, .f32leGzip, .f32leZlib])
    func floatDepthOfTheDeclaredSizeIsValid(format: DepthFormat) throws {
        let bytes = try DepthWriter.encode(Self.map4x3, format: format)
        let problems = try Self.validate(
            #"{"path": "d.bin", "format": "\#(format.rawValue)", "width": 4, "height": 3}"#,
            files: ["d.bin": bytes])
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test(arguments: [DepthFormat.f32le, .f32leGzip, .f32leZlib])
    func floatDepthOfAnotherSizeIsAMismatch(format: DepthFormat) throws {
        let bytes = try DepthWriter.encode(Self.map4x3, format: format)
        let problems = try Self.validate(
            #"{"path": "d.bin", "format": "\#(format.rawValue)", "width": 4, "height": 4}"#,
            files: ["d.bin": bytes])
        #expect(problems.map(\.kind) == [.depthSizeMismatch], "\(problems)")
        #expect(problems.first?.file == "d.bin")
        #expect(problems.first?.sampleID == "s")
    }

    @Test func floatDepthWithoutSizeDefaultsTo256x192() throws {
        let problems = try Self.validate(
            #"{"path": "d.bin", "format": "f32le"}"#, files: ["d.bin": Data(count: 256 * 192 * 4)])
        #expect(problems.isEmpty)
        let short = try Self.validate(#"{"path": "d.bin", "format": "f32le"}"#, files: ["d.bin": Data(count: 1000)])
        #expect(short.first?.message == "1000 bytes, but 256x192 float32 depth needs 196608 bytes (width * height * 4)")
    }

    @Test func pngDepthMustMatchADeclaredSize() throws {
        let png = try DepthWriter.encode(Self.map4x3, format: .u16PngMm)
        #expect(try Self.validate(#"{"path": "d.png", "format": "u16_png_mm"}"#, files: ["d.png": png]).isEmpty)
        #expect(
            try Self.validate(
                #"{"path": "d.png", "format": "u16_png_mm", "width": 4, "height": 3}"#, files: ["d.png": png]
            ).isEmpty)
        let wrong = try Self.validate(
            #"{"path": "d.png", "format": "u16_png_mm", "width": 256, "height": 192}"#, files: ["d.png": png])
        #expect(wrong.map(\.kind) == [.depthSizeMismatch])
    }

    @Test func undecodableDepthIsReported() throws {
        let problems = try Self.validate(
            #"{"path": "d.gz", "format": "f32le_gzip"}"#, files: ["d.gz": Data("not gzip".utf8)])
        #expect(problems.map(\.kind) == [.unreadableDepth], "\(problems)")
        #expect(problems.first?.message.hasPrefix("as f32le_gzip: ") == true)
    }

    @Test func scaleIsRefusedWhereTheFormatTakesNone() throws {
        let problems = try Self.validate(#"{"path": "d.bin", "format": "f32le", "scale": 0.001}"#, files: [:])
        #expect(problems.map(\.jsonPath) == ["samples[0].depth.scale"])
    }
}
