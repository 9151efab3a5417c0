import Foundation

/// Whether a depth grid can lie over an image's stored pixel grid.
///
/// A depth map covers the same field of view as its image at a lower (or equal)
/// resolution: ARKit's 256x192 over a 4032x3024 photo, 256x144 over 1920x1080. So
/// its shape is the image's scaled by one factor, each side rounded to whole pixels.
/// With depth `w x h` and image `W x H` (stored, before EXIF orientation), the two
/// fit when the aspect ratios agree:
///
///     |(w / h) / (W / H) - 1| <= aspectTolerance + 0.5 / w + 0.5 / h
///
/// `0.5 / w + 0.5 / h` is what rounding each side to a whole pixel can change the
/// ratio by (first order); `aspectTolerance` allows a sensor that crops slightly.
/// A transposed map (192x256 for a 4:3 landscape photo), a square map over a 4:3
/// photo (10x10) or a single row (1x49152) does not fit; very small maps (3x3) cannot
/// be told apart from a rounded 4:3 grid and fit.
public enum DepthAlignment {
    /// Relative aspect-ratio difference allowed beyond rounding: 0.02, as
    /// `MetadataChecks.Configuration.aspectTolerance` allows for the photo itself.
    public static let aspectTolerance = 0.02

    /// True when a `depthWidth x depthHeight` grid fits a `imageWidth x imageHeight`
    /// image (see the type). Sizes that are not positive never fit.
    public static func fits(depthWidth: Int, depthHeight: Int, imageWidth: Int, imageHeight: Int) -> Bool {
        guard depthWidth > 0, depthHeight > 0, imageWidth > 0, imageHeight > 0 else { return false }
        let w = Double(depthWidth), h = Double(depthHeight)
        let ratio = (w / h) / (Double(imageWidth) / Double(imageHeight))
        return abs(ratio - 1) <= aspectTolerance + 0.5 / w + 0.5 / h
    }

    /// nil when the grids fit, else one sentence naming both sizes, e.g. "depth map is
    /// 192x256 (aspect 0.750) but the image a.jpg is 4032x3024 (aspect 1.333): ...";
    /// `image` names the image file when given.
    public static func misfit(
        depthWidth: Int, depthHeight: Int, imageWidth: Int, imageHeight: Int, image: String? = nil
    ) -> String? {
        if fits(depthWidth: depthWidth, depthHeight: depthHeight, imageWidth: imageWidth, imageHeight: imageHeight) {
            return nil
        }
        func aspect(_ a: Int, _ b: Int) -> String {
            b > 0 ? String(format: "%.3f", Double(a) / Double(b)) : "undefined"
        }
        return "depth map is \(depthWidth)x\(depthHeight) (aspect \(aspect(depthWidth, depthHeight))) but the image "
            + (image.map { "\($0) " } ?? "")
            + "is \(imageWidth)x\(imageHeight) (aspect \(aspect(imageWidth, imageHeight))): the depth must cover the "
            + "image's stored pixel grid at the same aspect"
    }
}
