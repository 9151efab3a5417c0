import Foundation
import RialMedia

/// The `texture/3` descriptor (feature set version 3): `Texture2Features`' 47 statistics of
/// the same resolution-normalised analysis image (`Texture2AnalysisImage`, shorter side
/// 256 px), followed by one layout statistic chosen leave-one-source-out on the real
/// development set (issue 13):
///
/// 48. `centre_minus_border`: analysis luma `Y` (0...255) in a 4 x 4 grid of tiles (rows
///     `i h / 4 ..< (i + 1) h / 4`, integer division; columns likewise, as `texture/2`'s
///     sharpness layout), `m_ij` the mean of tile (i, j);
///     `(mean of the 4 inner m_ij - mean of the 12 outer m_ij) / 255`, in -1...1.
///     A phone photo of a screen is mostly a bright, self-lit panel framed by its bezel,
///     the device body and a darker room; a scene is lit from outside and has no such
///     frame. The cue reads only the picture's content, never its size or file.
///
/// Candidates tested and left out (no held-out gain on the weak sources, or
/// source-dependent: see models/README.md, "texture/3"): spectral peaks of the luma and
/// chroma high-pass residual at the native sampling (pixel grid), the 2-D
/// autocorrelation of that residual, chroma not explained by a local regression on luma
/// (band-pass 3-9 px), the dark share of the border ring, long straight edges (sheared
/// gradient projections), and the colour of the brightest 5% (white point).
///
/// Bad input: as `Texture2Features` (fewer than 3 channels or a side below `minimumSide`
/// throws `TextureFeatureError`); any pixel values give finite features.
public enum Texture3Features: TextureFeatureSet {
    /// Feature set version; a model trained on another version is refused.
    public static let version = 3
    /// Smallest accepted width and height, px (`Texture2Features.minimumSide`).
    public static let minimumSide = Texture2Features.minimumSide
    /// Largest accepted long side over short side (`Texture2Features.maximumAspectRatio`).
    public static let maximumAspectRatio = Texture2Features.maximumAspectRatio

    /// The layout features appended to `Texture2Features.names`, in vector order.
    public static let layoutNames = ["centre_minus_border"]

    /// The feature names, in vector order.
    public static let names: [String] = Texture2Features.names + layoutNames

    /// The descriptor of checked rows that may still be decoding: `Texture2Features`'
    /// description of the analysis image, then feature 48.
    public static func describe(checkedRows rows: ImageRows) -> Texture2FeatureVector {
        let image = Texture2AnalysisImage(rows)
        let base = Texture2Features.describe(image)
        var values = base.values
        let layout = centreMinusBorder(image.luma, width: image.width, height: image.height)
        values.append(layout.isFinite ? layout : 0)
        return Texture2FeatureVector(
            values: values, lumaStandardDeviation: base.lumaStandardDeviation, width: base.width,
            height: base.height)
    }

    /// Feature 48 (see the type): inner 2 x 2 tile means against the outer 12, over 255.
    /// 0 for a plane smaller than 4 x 4.
    static func centreMinusBorder(_ y: [Float], width w: Int, height h: Int) -> Double {
        guard w >= 4, h >= 4, y.count >= w * h else { return 0 }
        var inner = 0.0, outer = 0.0
        for i in 0..<4 {
            for j in 0..<4 {
                let r0 = i * h / 4, r1 = (i + 1) * h / 4, c0 = j * w / 4, c1 = (j + 1) * w / 4
                var sum = 0.0
                for r in r0..<r1 {
                    for c in c0..<c1 { sum += Double(y[r * w + c]) }
                }
                let mean = sum / Double((r1 - r0) * (c1 - c0))
                if (1...2).contains(i) && (1...2).contains(j) { inner += mean } else { outer += mean }
            }
        }
        return (inner / 4 - outer / 12) / 255
    }
}

extension Texture3Features {
    /// The value of the feature called `name` in a version 3 vector, nil when there is none.
    public static func value(named name: String, in vector: Texture2FeatureVector) -> Double? {
        names.firstIndex(of: name).flatMap { $0 < vector.values.count ? vector.values[$0] : nil }
    }
}
