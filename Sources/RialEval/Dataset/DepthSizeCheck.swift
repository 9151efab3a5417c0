import Foundation
import RialCodecs
import RialMedia

/// Checks a depth file against the size its manifest entry declares.
enum DepthSizeCheck {
    struct Problem {
        var kind: DatasetProblem.Kind
        var text: String
    }

    /// `nil` when the file matches `depth`, else what is wrong.
    ///
    /// - `f32le`: the byte length must be `width * height * 4` (declared size, default
    ///   256x192); the file is not read.
    /// - Other formats: read with `DepthReader` (`f32le_gzip`/`f32le_zlib` decompressed
    ///   and checked the same way; PNG and NumPy decoded, and when the manifest declares
    ///   `width`/`height` the decoded size must match). A reader size error is
    ///   `depthSizeMismatch`; any other read error is `unreadableDepth`.
    static func problem(_ depth: DepthReference, absolutePath: String) -> Problem? {
        if depth.format == .f32le {
            let size = depth.expectedSize ?? (DepthFormat.defaultWidth, DepthFormat.defaultHeight)
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
            return nil
        }
        do {
            _ = try DepthReader.read(
                path: absolutePath, format: depth.format, width: depth.width,
                height: depth.height, scale: depth.scale)
            return nil
        } catch let error as MediaError {
            return Problem(
                kind: error.kind == .sizeMismatch ? .depthSizeMismatch : .unreadableDepth,
                text: "as \(depth.format.rawValue): \(error.detail)")
        } catch {
            return Problem(kind: .unreadableDepth, text: "as \(depth.format.rawValue): \(error)")
        }
    }
}
