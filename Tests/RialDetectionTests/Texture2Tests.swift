import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// texture/2 features on images whose values follow from the definitions by hand, and
/// the model file checks.
@Suite struct Texture2FeatureTests {
    private func features(_ image: Image8) throws -> Texture2FeatureVector {
        try Texture2Features.extract(image)
    }

    private func value(_ v: Texture2FeatureVector, _ name: String) throws -> Double {
        try #require(v.value(named: name), "no feature \(name)")
    }

    /// A 256 x 256 image is its own analysis image (scale 1, one tap at each pixel).
    @Test func pureColourByHand() throws {
        let v = try features(TextureImages.constant(width: 256, height: 256, rgb: (200, 100, 50)))
        #expect(v.values.count == Texture2Features.count)
        #expect(v.width == 256 && v.height == 256)
        // Y = 0.299 * 200 + 0.587 * 100 + 0.114 * 50 = 124.2: bin floor(4 * 124.2) = 496,
        // centre 496.5 / 4 levels.
        for name in ["luma_p0_5", "luma_p5", "luma_p50", "luma_p95", "luma_p99_5"] {
            #expect(abs(try value(v, name) - 496.5 / 4 / 255) < 1e-12, "\(name)")
        }
        #expect(try value(v, "luma_range") == 0)
        #expect(try value(v, "clip_hi") == 0)
        #expect(try value(v, "clip_lo") == 0)
        #expect(try value(v, "luma_entropy") == 0)
        // sat = (200 - 50) / 201; colourfulness = 0.3 * sqrt(100² + 100²) / 255 (rg = 100,
        // yb = 150 - 50 = 100, no spread); casts (50 - 124.2) / 255 and (200 - 124.2) / 255.
        #expect(abs(try value(v, "sat_mean") - 150.0 / 201) < 1e-6)
        #expect(abs(try value(v, "colourfulness") - 0.3 * (20_000.0).squareRoot() / 255) < 1e-6)
        #expect(abs(try value(v, "cast_cb") - (50 - 124.2) / 255) < 1e-5)
        #expect(abs(try value(v, "cast_cr") - (200 - 124.2) / 255) < 1e-5)
        #expect(try value(v, "glare") == 0)
        // No residual anywhere: ln(1e-3), ratio ln(1e-3 / 1e-3) = 0, kurtosis ln(0 + 1e-6).
        for level in 0..<4 {
            #expect(abs(try value(v, "bp\(level)_log_luma") - log(1e-3)) < 1e-9)
            #expect(abs(try value(v, "bp\(level)_log_chroma_ratio")) < 1e-9)
            #expect(abs(try value(v, "bp\(level)_log_kurt") - log(1e-6)) < 1e-9)
        }
        #expect(try value(v, "hp_corr_rg") == 0)
        #expect(abs(try value(v, "grad_log_energy") - log(1e-3)) < 1e-9)
        #expect(try value(v, "grad_log_hv") == 0)
        #expect(try value(v, "orient_axis_share") == 0)
        #expect(try value(v, "tile_sharp_std") == 0)
        #expect(try value(v, "tile_sharp_range") == 0)
        // Every neighbour equals the centre: pattern 0, code 0.
        #expect(try value(v, "lbp_0") == 1)
        #expect(v.lumaStandardDeviation < 1e-3)
    }

    /// Gray stripes 128, 168, 128, 88 repeating along x (period 4).
    static func stripes() -> Image8 {
        let period: [UInt8] = [128, 168, 128, 88]
        var samples = [UInt8](repeating: 0, count: 256 * 256 * 3)
        for y in 0..<256 {
            for x in 0..<256 {
                for c in 0..<3 { samples[(y * 256 + x) * 3 + c] = period[x % 4] }
            }
        }
        return Image8(width: 256, height: 256, channels: 3, samples: samples)!
    }

    @Test func stripeGradientsAndPatternsByHand() throws {
        let v = try features(Self.stripes())
        // gx = ±40 on interior columns of phase 0 and 2 (127 of them: 2, 4, ..., 254), 0 at
        // phases 1 and 3; gy = 0. mean g² = 127 * 1600 / 256.
        #expect(abs(try value(v, "grad_log_energy") - log(127.0 * 1600 / 256 + 1e-3)) < 1e-4)
        #expect(abs(try value(v, "grad_log_hv") - log(127.0 * 256 * 1600 + 1)) < 1e-4)
        #expect(abs(try value(v, "orient_axis_share") - 1) < 1e-9)
        #expect(abs(try value(v, "orient_entropy")) < 1e-9)
        #expect(try value(v, "edge_frac") == 127.0 / 256)
        // LBP (bit when a neighbour is more than 2 above the centre): phase 0 and 2 have the
        // three neighbours on the 168 side set (code 3), phase 1 none (code 0), phase 3 both
        // sides but not above and below (6 bits, 4 transitions: non-uniform, 9), except
        // column 255 whose missing right side repeats itself (code 3).
        #expect(try value(v, "lbp_0") == 64.0 / 256)
        #expect(try value(v, "lbp_3") == 129.0 / 256)
        #expect(try value(v, "lbp_9") == 63.0 / 256)
        // 64-px tiles: each has 32 columns with g² = 1600, except the left ones, whose column 0
        // is a border (gx = 0): 31. Range ln((32 * 25 + 0.01) / (31 * 25 + 0.01)).
        #expect(abs(try value(v, "tile_sharp_range") - log(800.01 / 775.01)) < 1e-6)
    }

    /// Period-2 columns of blue only: B = 100 ± 50, R = G = 100. Y swings ±5.7, Cb = B - Y
    /// ±44.3, Cr = R - Y ∓5.7; every channel's level-0 residual has the same spatial shape,
    /// so E_C / E_Y = (44.3² + 5.7²) / 5.7² (the 1e-3 terms are negligible).
    @Test func chromaStripesByHand() throws {
        var samples = [UInt8](repeating: 100, count: 256 * 256 * 3)
        for y in 0..<256 {
            for x in 0..<256 { samples[(y * 256 + x) * 3 + 2] = x % 2 == 0 ? 150 : 50 }
        }
        let v = try features(Image8(width: 256, height: 256, channels: 3, samples: samples)!)
        let expected = log((44.3 * 44.3 + 5.7 * 5.7) / (5.7 * 5.7))
        #expect(abs(try value(v, "bp0_log_chroma_ratio") - expected) < 1e-3)
        // R is constant, so it has no residual: hp_corr_rb = 0 / sqrt(0 + 1e-9) = 0.
        #expect(abs(try value(v, "hp_corr_rb")) < 1e-6)
    }

    /// A 512 x 1024 image is resampled 2:1 with 2 x 2 taps to 256 x 512.
    @Test func analysisScaleIsResolutionNormalised() throws {
        let big = try features(TextureImages.constant(width: 1024, height: 512, rgb: (10, 20, 30)))
        #expect(big.width == 512 && big.height == 256)
        let small = try features(TextureImages.constant(width: 512, height: 256, rgb: (10, 20, 30)))
        #expect(big.values == small.values)
    }

    @Test func badInputIsRefused() {
        #expect(throws: TextureFeatureError.notColour(channels: 1)) {
            try Texture2Features.extract(TextureImages.constant(width: 128, height: 128, channels: 1))
        }
        #expect(throws: TextureFeatureError.tooSmall(width: 32, height: 128, minimum: 64)) {
            try Texture2Features.extract(TextureImages.constant(width: 32, height: 128))
        }
        // A strip beyond 16:1 (its analysis image would be 256 x 4,112 and grow with the
        // strip) is refused by every version that resamples to a 256 px short side; 16:1
        // itself is accepted.
        for (width, height) in [(64, 1028), (1028, 64)] {
            let strip = TextureImages.noise(width: width, height: height, seed: 5)
            #expect(throws: TextureFeatureError.tooElongated(width: width, height: height, maximum: 16)) {
                try Texture2Features.extract(strip)
            }
            #expect(throws: TextureFeatureError.tooElongated(width: width, height: height, maximum: 16)) {
                try Texture3Features.extract(strip)
            }
            #expect(throws: TextureFeatureError.tooElongated(width: width, height: height, maximum: 16)) {
                try Texture4Features.extract(strip)
            }
            let result = Texture4Analyzer().analyze(strip)
            #expect(result.status == .unavailable)
            #expect(result.unavailableReason?.contains("at most 16 x the short one") == true)
        }
        #expect((try? Texture2Features.extract(TextureImages.noise(width: 64, height: 1024, seed: 5))) != nil)
        let constant = Texture2Analyzer().analyze(TextureImages.constant(width: 300, height: 200))
        #expect(constant.status == .unavailable)
        #expect(constant.unavailableReason?.contains("constant") == true)
        #expect(constant.algorithmVersion == .textureV2)
    }

    @Test func noiseGivesFiniteFeaturesAndAScore() {
        let result = Texture2Analyzer().analyze(TextureImages.noise(width: 400, height: 300, seed: 3))
        #expect(result.status == .completed)
        #expect(result.algorithmVersion == .textureV2)
        #expect(result.score.map { (0...1).contains($0) } == true)
        #expect(result.featureCount == Texture2Features.count)
    }
}

@Suite struct Texture2ModelTests {
    static let modelFile = Fixtures.packageRoot.appendingPathComponent("models/texture2-1.json")

    @Test func embeddedModelMatchesCommittedFile() throws {
        let file = try Data(contentsOf: Self.modelFile)
        #expect(Data(Texture2Model.defaultModelJSON.utf8) == file)
        #expect(Texture2Model.defaultModelSHA256 == SHA256Digest.hash(file))
        let model = Texture2Model.default.model
        #expect(model.featureSetVersion == 2)
        #expect(model.featureNames == Texture2Features.names)
        #expect(try model.canonicalJSON() == file)
        #expect(model.provenance.crossValidation?.by == "source")
    }

    private func defaultObject() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(Texture2Model.defaultModelJSON.utf8)) as! [String: Any]
    }

    private func error(_ mutate: (inout [String: Any]) -> Void) throws -> LearnedModelError? {
        var object = try defaultObject()
        mutate(&object)
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try Texture2Model(modelFile: data)
            return nil
        } catch { return error }
    }

    @Test func truncatedFileIsOneMessage() throws {
        let data = Data(Texture2Model.defaultModelJSON.utf8)
        #expect(throws: LearnedModelError.self) { try Texture2Model(modelFile: data.prefix(data.count / 2)) }
        do { _ = try Texture2Model(modelFile: data.prefix(data.count / 2)) } catch {
            #expect(error.description.hasPrefix("not a texture model"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func nonFiniteAndWrongNamesAreRefused() throws {
        // JSON has no NaN: a weight written as a string is a type error naming the key.
        let nan = try #require(
            try error { o in
                var w = o["weights"] as! [Any]
                w[0] = "NaN"
                o["weights"] = w
            })
        #expect(nan.description.contains("weights[0]"))
        let renamed = try #require(
            try error { o in
                var names = o["feature_names"] as! [String]
                names[2] = "lbp_r1_3"
                o["feature_names"] = names
            })
        #expect(renamed.description.contains("feature_names[2]"))
    }

    @Test func eachMethodRefusesTheOthersModel() throws {
        let v1 = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("models/texture-2.json"))
        do {
            _ = try Texture2Model(modelFile: v1)
            Issue.record("texture/2 accepted a texture/1 model")
        } catch {
            #expect(error.description.contains("feature set version 1"))
        }
        do {
            _ = try TextureModel(modelFile: Data(Texture2Model.defaultModelJSON.utf8))
            Issue.record("texture/1 accepted a texture/2 model")
        } catch {
            #expect(error.description.contains("feature set version 2"))
        }
    }

    @Test func registeredAfterTexture1() {
        let ids = MethodRegistry.standard.identifiers.map(\.description)
        let one = ids.firstIndex(of: "texture/1"), two = ids.firstIndex(of: "texture/2")
        #expect(one != nil && two != nil && one! + 1 == two!)
    }
}
