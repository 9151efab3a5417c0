import Foundation
import RialCodecs
import RialMedia

/// Checks a depth file against the size its manifest entry declares.
enum DepthSizeCheck {
    struct Problem {
        var kind: DatasetProblem.Kind
        var text: String
    }

    /// `nil` when the file matches `depth` and fits the image, else what is wrong.
    ///
    /// - `f32le`: the byte length must be `width * height * 4` (declared size, default
    ///   256x192); the file is not read.
    /// - Other formats: read with `DepthReader` (`f32le_gzip`/`f32le_zlib` decompressed
    ///   and checked the same way; PNG and NumPy decoded, and when the manifest declares
    ///   `width`/`height` the decoded size must match). A reader size error is
    ///   `depthSizeMismatch`; any other read error is `unreadableDepth`.
    /// - Then the depth shape must fit the image's stored size (`DepthAlignment`, the
    ///   image header at `imagePath` is read, not its pixels): a misfit is
    ///   `depthSizeMismatch` naming both sizes. An image whose header cannot be read is
    ///   not this check's problem and skips it.
    static func problem(_ depth: DepthReference, absolutePath: String, imagePath: String? = nil) -> Problem? {
        let size: (width: Int, height: Int)
        if depth.format == .f32le {
            size = depth.expectedSize ?? (DepthFormat.defaultWidth, DepthFormat.defaultHeight)
            let expected = size.width * size.height * 4
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: absolutePath),
                let length = (attributes[.size] as? NSNumber)?.intValue
            else {
                return Problem(kind: .unreadableFile, text: "cannot read the file size")
            }
            if length != expected {
                return Problem(
                    kind: .depthSizeMismatch,
                    text:
                        "\(length) bytes, but \(size.width)x\(size.height) float32 depth needs \(expected) bytes (width * height * 4)"
                )
            }
        } else {
            do {
                let map = try DepthReader.read(
                    path: absolutePath, format: depth.format, width: depth.width,
                    height: depth.height, scale: depth.scale)
                size = (map.width, map.height)
            } catch let error as MediaError {
                return Problem(
                    kind: error.kind == .sizeMismatch ? .depthSizeMismatch : .unreadableDepth,
                    text: "as \(depth.format.rawValue): \(error.detail)")
            } catch {
                return Problem(kind: .unreadableDepth, text: "as \(depth.format.rawValue): \(error)")
            }
        }
        guard let imagePath,
            (try? FileManager.default.attributesOfItem(atPath: imagePath)[.type] as? FileAttributeType)
                == .typeRegular,
            let data = try? MediaFile.read(imagePath),
            let image = try? ImageReader.storedSize(data: data, source: imagePath),
            let misfit = DepthAlignment.misfit(
                depthWidth: size.width, depthHeight: size.height, imageWidth: image.width,
                imageHeight: image.height)
        else { return nil }
        return Problem(kind: .depthSizeMismatch, text: misfit)
    }
}
