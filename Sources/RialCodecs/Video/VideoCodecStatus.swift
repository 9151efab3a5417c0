import CVideoCodecs
import RialMedia

/// A status code from `rial_video.c` and its message, as a `MediaError` naming the file.
enum VideoCodecStatus {
    /// The `MediaError` for a failed `rial_video_*` call; nil for `RIAL_VIDEO_OK` and `RIAL_VIDEO_END`.
    ///
    /// | status | kind |
    /// |---|---|
    /// | not found | `.notFound` |
    /// | unreadable | `.unreadable` |
    /// | corrupt | `.corrupt` ("corrupt video: ...") |
    /// | unsupported, out of memory | `.unsupported` ("unsupported video: ...") |
    /// | invalid argument | `.invalidArgument` |
    /// | write failed | `.writeFailed` |
    static func error(_ code: Int32, message: [CChar], source: String) -> MediaError? {
        let text = message.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let detail = text.isEmpty ? "unknown FFmpeg failure" : text
        switch Int(code) {
        case Int(RIAL_VIDEO_OK), Int(RIAL_VIDEO_END): return nil
        case Int(RIAL_VIDEO_NOT_FOUND): return MediaError(.notFound, source: source, detail)
        case Int(RIAL_VIDEO_UNREADABLE): return MediaError(.unreadable, source: source, detail)
        case Int(RIAL_VIDEO_UNSUPPORTED):
            return MediaError(.unsupported, source: source, "unsupported video: \(detail)")
        case Int(RIAL_VIDEO_OUT_OF_MEMORY): return MediaError(.unsupported, source: source, "out of memory: \(detail)")
        case Int(RIAL_VIDEO_INVALID_ARGUMENT): return MediaError(.invalidArgument, source: source, detail)
        case Int(RIAL_VIDEO_WRITE_FAILED):
            return MediaError(.writeFailed, source: source, "cannot write video: \(detail)")
        default: return MediaError(.corrupt, source: source, "corrupt video: \(detail)")
        }
    }

    /// A zeroed message buffer of `RIAL_VIDEO_MESSAGE_SIZE` bytes.
    static func messageBuffer() -> [CChar] { [CChar](repeating: 0, count: Int(RIAL_VIDEO_MESSAGE_SIZE)) }
}

/// FFmpeg's library versions this build runs with, e.g. "libavformat 59.27.100, libavcodec 59.37.100, ...".
public let ffmpegLibraryVersions: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    rial_video_library_versions(&buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()
