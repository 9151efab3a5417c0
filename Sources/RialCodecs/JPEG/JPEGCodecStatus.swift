import CImageCodecs
import RialMedia

/// A status code from `rial_jpeg.c`, and its translation into `MediaError`.
enum JPEGCodecStatus: Equatable {
    case ok
    case corrupt
    case unsupported
    case invalidArgument
    case tooLarge
    case outOfMemory

    init(_ code: Int32) {
        switch Int(code) {
        case Int(RIAL_JPEG_OK): self = .ok
        case Int(RIAL_JPEG_UNSUPPORTED): self = .unsupported
        case Int(RIAL_JPEG_INVALID_ARGUMENT): self = .invalidArgument
        case Int(RIAL_JPEG_TOO_LARGE): self = .tooLarge
        case Int(RIAL_JPEG_OUT_OF_MEMORY): self = .outOfMemory
        default: self = .corrupt
        }
    }

    /// The error for a failed decode or encode, with libjpeg's message text.
    ///
    /// | status | kind | detail |
    /// |---|---|---|
    /// | corrupt | `.corrupt` | `corrupt JPEG: <libjpeg message>` |
    /// | unsupported | `.unsupported` | `unsupported JPEG: <message>` |
    /// | too large | `.unsupported` | `JPEG refused: <message>; raise JPEGDecodeOptions...` |
    /// | out of memory | `.unsupported` | `out of memory in libjpeg: <message>` |
    /// | invalid argument | `.invalidArgument` | `<message>` |
    func error(message: String, source: String, encoding: Bool = false) -> MediaError {
        let text = message.isEmpty ? "unknown libjpeg failure" : message
        switch self {
        case .ok, .corrupt:
            return MediaError(.corrupt, source: source, "corrupt JPEG: \(text)")
        case .unsupported:
            return MediaError(.unsupported, source: source, "unsupported JPEG: \(text)")
        case .tooLarge:
            return MediaError(
                .unsupported, source: source,
                "JPEG refused: \(text); raise JPEGDecodeOptions.maxPixels / "
                    + "maxScans only for trusted files")
        case .outOfMemory:
            return MediaError(.unsupported, source: source, "out of memory in libjpeg: \(text)")
        case .invalidArgument:
            return MediaError(
                .invalidArgument, source: source,
                encoding ? "cannot encode JPEG: \(text)" : text)
        }
    }
}

/// The version of libjpeg-turbo the codec was compiled against, e.g. `"2.1.5"`
/// (`LIBJPEG_TURBO_VERSION_NUMBER` 2001005 -> 2.1.5).
public let libjpegTurboVersion: String = {
    let n = Int(rial_jpeg_library_version())
    guard n >= 1_000_000 else { return "libjpeg \(n)" }
    return "\(n / 1_000_000).\(n / 1_000 % 1_000).\(n % 1_000)"
}()
