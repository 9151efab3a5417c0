import Foundation
import RialCodecs
import RialMedia

/// Real photographs and material textures from the public data mirror, used by the
/// generator for surfaces, screen content and print content.
public enum SynthTextureLibrary {
    /// Mirror files used as textures, in a fixed order (the order is part of the
    /// dataset's identity: parameters refer to textures by index).
    public static let mirrorFiles: [String] = [
        "skimage/brick.png", "skimage/grass.png", "skimage/gravel.png", "skimage/page.png",
        "promptda/image.jpg", "skimage/motorcycle_left.png", "opencv/aloeL.jpg",
        "exifpy/DSCN0010.jpg", "metadata-extractor/Apple_iPhone_6.jpg",
        "metadata-extractor/HTC_One_M8.jpg", "metadata-extractor/Nexus_4.jpg",
        "silentface/image_T1.jpg",
    ]

    /// Longest side of a loaded texture, pixels.
    public static let maxSide = 1024

    /// Loads every file of `mirrorFiles` present under `mirror`, upright (EXIF
    /// orientation applied), JPEGs DCT-downscaled and then area-averaged so the longest
    /// side is at most `maxSide`; values 0...255, gray or RGB planes.
    ///
    /// - Returns: the textures and, for each, "path (sha256 prefix)" for provenance.
    ///   Missing files are skipped; unreadable ones throw (a broken mirror should be
    ///   noticed, not silently change the dataset).
    public static func load(mirror: URL) throws -> (textures: [PlanarImage], sources: [String]) {
        var textures: [PlanarImage] = []
        var sources: [String] = []
        for relative in mirrorFiles {
            let path = mirror.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let data = try MediaFile.read(path)
            let info = SniffedFormat.sniff(data) == .jpeg ? try JPEGDecoder.readInfo(data, source: path) : nil
            var scale = JPEGScale.full
            if let info {
                for candidate in [JPEGScale.eighth, .quarter, .half] {
                    let size = info.outputSize(scale: candidate)
                    if max(size.width, size.height) >= maxSide {
                        scale = candidate
                        break
                    }
                }
            }
            let loaded = try ImageReader.read(
                data: data, options: .init(applyOrientation: true, jpegScale: scale),
                source: path)
            var image = loaded.image
            let longest = max(image.width, image.height)
            if longest > maxSide {
                let w = max(1, image.width * maxSide / longest), h = max(1, image.height * maxSide / longest)
                image = try image.areaAveraged(width: w, height: h)
            }
            textures.append(PlanarImage(image))
            sources.append(provenance(relative, sha256: SHA256Digest.hash(data)))
        }
        return (textures, sources)
    }

    /// The provenance strings `load(mirror:)` would return, from file hashes alone
    /// (no decoding): enough to tell whether a cached dataset was made from these
    /// textures before paying for loading them.
    public static func sources(mirror: URL) throws -> [String] {
        try mirrorFiles.compactMap { relative in
            let path = mirror.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return provenance(relative, sha256: try SHA256Digest.hash(fileAt: path))
        }
    }

    /// `"path (sha256 prefix)"`, the provenance of one texture.
    private static func provenance(_ relative: String, sha256: String) -> String {
        "\(relative) (sha256 \(sha256.prefix(12)))"
    }
}
