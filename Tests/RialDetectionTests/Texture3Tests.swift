import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// texture/3's layout feature on images whose value follows from its definition by hand
/// (`Texture3Features`, feature 48), the inherited 47, bad input, the model file and the
/// registration.
@Suite struct Texture3FeatureTests {
    /// A gray 256 x 256 image (its own analysis image: scale 1, one tap per pixel) that is
    /// `inside` on rows and columns `lo ..< hi` and `outside` elsewhere.
    static func framed(inside: UInt8, outside: UInt8, lo: Int = 64, hi: Int = 192) -> Image8 {
        var samples = [UInt8](repeating: outside, count: 256 * 256 * 3)
        for y in lo..<hi {
            for x in lo..<hi {
                for c in 0..<3 { samples[(y * 256 + x) * 3 + c] = inside }
            }
        }
        return Image8(width: 256, height: 256, channels: 3, samples: samples)!
    }

    private func centreMinusBorder(_ image: Image8) throws -> Double {
        let v = try Texture3Features.extract(image)
        return try #require(Texture3Features.value(named: "centre_minus_border", in: v))
    }

    @Test func namesExtendTexture2() {
        #expect(Texture3Features.count == Texture2Features.count + 1)
        #expect(Array(Texture3Features.names.prefix(Texture2Features.count)) == Texture2Features.names)
        #expect(Texture3Features.names.last == "centre_minus_border")
        #expect(TextureModel.featureNames(ofVersion: 3) == Texture3Features.names)
    }

    /// A bright panel filling exactly the inner 2 x 2 of the 4 x 4 tiles (tile edges at
    /// 0, 64, 128, 192, 256): gray, so Y = (0.299 + 0.587 + 0.114) x level = level. Inner
    /// tile means 200, outer 40: (200 - 40) / 255.
    @Test func brightPanelInADarkFrameByHand() throws {
        #expect(abs(try centreMinusBorder(Self.framed(inside: 200, outside: 40)) - 160.0 / 255) < 1e-4)
    }

    /// The same frame inverted: (40 - 200) / 255.
    @Test func darkCentreIsNegative() throws {
        #expect(abs(try centreMinusBorder(Self.framed(inside: 40, outside: 200)) + 160.0 / 255) < 1e-4)
    }

    /// A panel of rows and columns 96 ..< 160 covers a quarter of each inner tile (32 x 32
    /// of 64 x 64) and no outer tile: inner means (200 + 3 x 40) / 4 = 80, outer 40:
    /// (80 - 40) / 255.
    @Test func smallerPanelCountsByArea() throws {
        let value = try centreMinusBorder(Self.framed(inside: 200, outside: 40, lo: 96, hi: 160))
        #expect(abs(value - 40.0 / 255) < 1e-4)
    }

    /// The first 47 values are texture/2's, and a 2:1 larger image gives the same vector
    /// (the layout is measured at the analysis scale, not on the capture's pixels).
    @Test func inheritsTexture2AndTheAnalysisScale() throws {
        let image = TextureImages.noise(width: 400, height: 300, seed: 5)
        let three = try Texture3Features.extract(image)
        let two = try Texture2Features.extract(image)
        #expect(Array(three.values.prefix(Texture2Features.count)) == two.values)
        #expect(three.values.count == Texture3Features.count)
        let big = try Texture3Features.extract(TextureImages.constant(width: 1024, height: 512, rgb: (10, 20, 30)))
        let small = try Texture3Features.extract(TextureImages.constant(width: 512, height: 256, rgb: (10, 20, 30)))
        #expect(big.values == small.values)
    }

    @Test func badInputIsRefusedAndConstantIsFinite() throws {
        #expect(throws: TextureFeatureError.notColour(channels: 1)) {
            try Texture3Features.extract(TextureImages.constant(width: 128, height: 128, channels: 1))
        }
        #expect(throws: TextureFeatureError.tooSmall(width: 63, height: 64, minimum: 64)) {
            try Texture3Features.extract(TextureImages.constant(width: 63, height: 64))
        }
        // The smallest accepted image, constant: every feature finite, no layout contrast.
        let tiny = try Texture3Features.extract(TextureImages.constant(width: 64, height: 64))
        #expect(tiny.values.allSatisfy { $0.isFinite })
        #expect(Texture3Features.value(named: "centre_minus_border", in: tiny) == 0)
        #expect(Texture3Features.centreMinusBorder([], width: 0, height: 0) == 0)
        let constant = Texture3Analyzer().analyze(TextureImages.constant(width: 300, height: 200))
        #expect(constant.status == .unavailable)
        #expect(constant.unavailableReason?.contains("constant") == true)
        #expect(constant.algorithmVersion == .textureV3)
    }

    @Test func noiseAndAFrameGiveAScore() {
        for image in [TextureImages.noise(width: 400, height: 300, seed: 3), Self.framed(inside: 220, outside: 20)] {
            let result = Texture3Analyzer().analyze(image)
            #expect(result.status == .completed)
            #expect(result.algorithmVersion == .textureV3)
            #expect(result.score.map { (0...1).contains($0) } == true)
            #expect(result.featureCount == Texture3Features.count)
        }
    }
}

@Suite struct Texture3ModelTests {
    @Test func embeddedModelIsVersion3AndMatchesItsDigest() throws {
        let json = Data(Texture3Model.defaultModelJSON.utf8)
        let file = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("models/texture3-1.json"))
        #expect(json == file)
        #expect(Texture3Model.defaultModelSHA256 == SHA256Digest.hash(file))
        let model = try Texture3Model(modelFile: json)
        #expect(model.model.featureSetVersion == 3)
        #expect(model.model.featureNames == Texture3Features.names)
    }

    @Test func eachVersionRefusesTheOthersModel() throws {
        do {
            _ = try Texture3Model(modelFile: Data(Texture2Model.defaultModelJSON.utf8))
            Issue.record("texture/3 accepted a texture/2 model")
        } catch {
            #expect(error.description.contains("feature set version 2"))
        }
        do {
            _ = try Texture2Model(modelFile: Data(Texture3Model.defaultModelJSON.utf8))
            Issue.record("texture/2 accepted a texture/3 model")
        } catch {
            #expect(error.description.contains("feature set version 3"))
        }
    }

    /// Registered after texture/2; the default aggregation input from when it beat texture/2
    /// held out on real photos (models/README.md, "texture/3") until texture/4 did; it still
    /// runs beside texture/4, as texture/2 does.
    @Test func registeredAfterTexture2AndStillRuns() {
        let ids = MethodRegistry.standard.identifiers.map(\.description)
        let two = ids.firstIndex(of: "texture/2"), three = ids.firstIndex(of: "texture/3")
        #expect(two != nil && three != nil && two! + 1 == three!)
        #expect(PipelineConfiguration.standard.aggregateWith[.texture] == .textureV4)
        #expect(PipelineConfiguration.standard.methods.contains(.textureV2))
        #expect(PipelineConfiguration.standard.methods.contains(.textureV3))
    }
}
