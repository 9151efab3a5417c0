import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// Test images for texture/1 whose features follow from the definitions by hand.
enum TextureImages {
    /// Every pixel `(r, g, b)`.
    static func constant(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8) = (128, 128, 128), channels: Int = 3)
        -> Image8
    {
        var samples = [UInt8](repeating: 255, count: width * height * channels)
        for i in 0..<(width * height) {
            samples[i * channels] = rgb.0
            if channels >= 3 {
                samples[i * channels + 1] = rgb.1
                samples[i * channels + 2] = rgb.2
            }
        }
        return Image8(width: width, height: height, channels: channels, samples: samples)!
    }

    /// Gray vertical stripes `128 + 60 sin(2π x / 4)` (exactly 128, 188, 128, 68 repeating):
    /// a grating of 0.25 cycles/px along x, constant along y.
    static func grating(width: Int = 256, height: Int = 256) -> Image8 {
        let period: [UInt8] = [128, 188, 128, 68]
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let v = period[x % 4]
                for c in 0..<3 { samples[(y * width + x) * 3 + c] = v }
            }
        }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }

    /// Uniform random RGB noise from SplitMix64.
    static func noise(width: Int, height: Int, seed: UInt64) -> Image8 {
        var rng = SplitMix64(seed: seed)
        let samples = (0..<(width * height * 3)).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 56) }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }
}

@Suite struct TextureFeatureTests {
    private func value(_ vector: TextureFeatureVector, _ name: String) throws -> Double {
        try #require(vector.value(named: name), "no feature \(name)")
    }

    @Test func namesAreUniqueAndCounted() {
        #expect(TextureFeatures.names.count == 82)
        #expect(Set(TextureFeatures.names).count == TextureFeatures.names.count)
        #expect(TextureFeatures.patchCount == 16)
    }

    /// A constant image: no neighbour is brighter by more than one level, so every
    /// pixel has the flat code 0 at every radius; no spectral or gradient energy.
    @Test func constantImageIsAllFlatLBP() throws {
        let vector = try TextureFeatures.extract(TextureImages.constant(width: 200, height: 150))
        #expect(vector.values.count == TextureFeatures.count)
        #expect(vector.values.allSatisfy { $0.isFinite })
        #expect(vector.lumaStandardDeviation == 0)
        for r in TextureFeatures.lbpRadii {
            #expect(try value(vector, "lbp_r\(r)_0") == 1)
            for code in 1...8 { #expect(try value(vector, "lbp_r\(r)_\(code)") == 0) }
            #expect(try value(vector, "lbp_r\(r)_nonuniform") == 0)
        }
        #expect(try value(vector, "grad_log_hv_ratio") == 0)
        #expect(try value(vector, "hp_corr_rg") == 0)
        for b in 1...TextureFeatures.bandCount {
            #expect(abs(try value(vector, "spec_luma_b\(b)_log_fraction") - log(1e-6)) < 1e-9)
            #expect(try value(vector, "spec_luma_b\(b)_peak_max") == 0)
        }
    }

    /// Grating of f = 1/4 cycle/px along x. The periodic Hann window spreads the tone
    /// over bins u = 15, 16, 17 with power weights 1/16, 1/4, 1/16 and the constant
    /// along y over v = -1, 0, 1 with the same weights. Radius sqrt(15² + 1) < 16 sits
    /// in band 4 [12, 16) bins, every other bin in band 5 [16, 20): band 5 holds 5/6 of
    /// the power, band 4 1/6, the rest nothing.
    @Test func gratingEnergyLandsInItsBand() throws {
        let vector = try TextureFeatures.extract(TextureImages.grating())
        #expect(abs(try value(vector, "spec_luma_b5_log_fraction") - log(5.0 / 6 + 1e-6)) < 1e-3)
        #expect(abs(try value(vector, "spec_luma_b4_log_fraction") - log(1.0 / 6 + 1e-6)) < 1e-3)
        for b in [1, 2, 3, 6, 7, 8, 9] {
            #expect(try value(vector, "spec_luma_b\(b)_log_fraction") < log(1e-4), "band \(b)")
        }
        // A pure tone: the band maximum stands far above the band mean.
        #expect(try value(vector, "spec_luma_b5_peak_mean") > 3)
    }

    /// For the grating, gx = ±60 on even columns and the Laplacian ∓120 on odd ones
    /// (equally many in the interior): ΣL² / Σg² = 4 = 4 tan²(π/4). No vertical gradient.
    @Test func gratingGradientStatistics() throws {
        let vector = try TextureFeatures.extract(TextureImages.grating())
        #expect(abs(try value(vector, "grad_log_laplacian_ratio") - log(4)) < 1e-6)
        #expect(try value(vector, "grad_log_hv_ratio") > 20)
    }

    /// Grating LBP at radius 1: the rising 128 sees brighter E, NE, SE (uniform, 3 ones),
    /// the falling 128 sees brighter W, NW, SW (3 ones), 188 sees none (code 0), 68 sees
    /// six brighter neighbours split by N and S (4 transitions: non-uniform). Shares
    /// 1/2, 1/4, 1/4 up to the partial period at the patch edge (1/62).
    @Test func gratingLocalBinaryPatterns() throws {
        let vector = try TextureFeatures.extract(TextureImages.grating())
        #expect(abs(try value(vector, "lbp_r1_3") - 0.5) < 0.02)
        #expect(abs(try value(vector, "lbp_r1_0") - 0.25) < 0.02)
        #expect(abs(try value(vector, "lbp_r1_nonuniform") - 0.25) < 0.02)
        // Gray stripes: no chroma, and R, G, B high-pass identical.
        #expect(abs(try value(vector, "hp_corr_rg") - 1) < 1e-6)
        #expect(try value(vector, "spec_chroma_b5_log_ratio") < -20)
    }

    @Test func riu2CodesByHand() {
        #expect(TextureFeatures.riu2Code[0] == 0)
        #expect(TextureFeatures.riu2Code[0xFF] == 8)
        #expect(TextureFeatures.riu2Code[0b1000_0011] == 3) // bits 7, 0, 1: contiguous
        #expect(TextureFeatures.riu2Code[0b0101_0101] == 9) // 8 transitions
        #expect(TextureFeatures.riu2Code[0b0000_0101] == 9) // two separate runs
    }

    @Test func bandsFollowTheEdges() {
        let n = TextureFeatures.patchSize
        #expect(TextureFeatures.bandOfBin[0] == -1) // DC
        #expect(TextureFeatures.bandOfBin[1] == -1) // 1/64 < 1/32
        #expect(TextureFeatures.bandOfBin[2] == 0) // u = 2: first band
        #expect(TextureFeatures.bandOfBin[32] == 8) // Nyquist along x
        #expect(TextureFeatures.bandOfBin[32 * n + 32] == 8) // corner, r = 45.25
        #expect(TextureFeatures.bandOfBin[n - 16] == 4) // u = -16
        #expect(TextureFeatures.isBlockLatticeBin[8 * n + 16])
        #expect(!TextureFeatures.isBlockLatticeBin[8 * n + 17])
    }

    @Test(arguments: [(128, 128), (129, 4000), (640, 480), (4032, 3024)])
    func patchesStayInside(width: Int, height: Int) {
        let origins = TextureFeatures.patchOrigins(width: width, height: height)
        #expect(origins.count == 16)
        for o in origins {
            #expect(o.x >= 0 && o.x + TextureFeatures.patchSize <= width)
            #expect(o.y >= 0 && o.y + TextureFeatures.patchSize <= height)
        }
    }

    @Test func grayAndTinyImagesAreRefused() {
        #expect(throws: TextureFeatureError.notColour(channels: 1)) {
            try TextureFeatures.extract(TextureImages.constant(width: 256, height: 256, channels: 1))
        }
        #expect(throws: TextureFeatureError.tooSmall(width: 127, height: 300, minimum: 128)) {
            try TextureFeatures.extract(TextureImages.constant(width: 127, height: 300))
        }
    }

    /// RGBA uses R, G, B: the same features as the RGB image.
    @Test func alphaIsIgnored() throws {
        let rgb = TextureImages.noise(width: 160, height: 130, seed: 3)
        var rgba = [UInt8]()
        for i in 0..<(rgb.width * rgb.height) { rgba += rgb.samples[(i * 3)..<(i * 3 + 3)] + [UInt8(i % 251)] }
        let image = try #require(Image8(width: rgb.width, height: rgb.height, channels: 4, samples: rgba))
        #expect(try TextureFeatures.extract(image).values == TextureFeatures.extract(rgb).values)
    }
}
