import CVideoCodecs
import RialMedia

/// How `VideoDecoder` decodes.
public struct VideoDecodeOptions: Sendable, Equatable {
    /// Decoding threads: 0 lets FFmpeg choose (one per core), 1 decodes on the calling
    /// core only (the benchmark's one-core measurement). At most 64.
    public var threads: Int
    /// True (default): damaged coded data is an error (FFmpeg's `AV_EF_EXPLODE`), so a
    /// provenance check never analyses concealed pixels, and so is a stream that ends
    /// before the frame count its container lists (a damaged sample table; note that an
    /// edit list that trims frames also trips this); false: FFmpeg conceals what it can
    /// and the stream ends where the data does, as players do.
    public var strict: Bool

    public init(threads: Int = 0, strict: Bool = true) {
        self.threads = threads
        self.strict = strict
    }
}

/// One decoded frame: NV12 bytes (the layout `ChainFrame` hashes: `width x height` luma
/// bytes, then `width x height / 2` bytes of interleaved Cb Cr at half resolution) and
/// its presentation time.
public struct VideoFrame: Sendable, Equatable {
    /// 0 for the first frame in presentation order.
    public var index: Int
    /// Presentation timestamp in seconds, as the container stores it.
    public var timestamp: Double
    public var width: Int
    public var height: Int
    public var nv12: [UInt8]

    public init(index: Int, timestamp: Double, width: Int, height: Int, nv12: [UInt8]) {
        self.index = index
        self.timestamp = timestamp
        self.width = width
        self.height = height
        self.nv12 = nv12
    }

    /// The luma plane as a one-channel 8-bit image.
    public var luma: Image8 {
        Image8(width: width, height: height, channels: 1, samples: Array(nv12.prefix(width * height)))!
    }
}

/// Streams the frames of an MP4 or MOV file (H.264, HEVC, or any video codec Debian's
/// libavcodec decodes) through FFmpeg, one frame at a time in presentation order: the
/// decoder never holds more than FFmpeg's own reference frames, whatever the length.
///
/// - Every failure is a `MediaError` naming the file: `.notFound`, `.unreadable`,
///   `.corrupt` ("corrupt video: <what> ..." for a file FFmpeg does not recognise, a
///   truncated or damaged one), `.unsupported` (no video stream, a codec without a
///   decoder, an odd picture size, which NV12 cannot hold).
/// - After an error every later call throws the same error; after the last frame every
///   later call returns nil.
/// - Ownership: the FFmpeg objects live as long as the decoder; `deinit` frees them
///   all, so an abandoned or failed decoder leaks nothing.
/// - Not thread safe: use one decoder per thread.
/// - FFmpeg's own log is silenced (process-wide); its last error line is appended to
///   error messages instead.
public final class VideoDecoder {
    /// The file being decoded (errors name it).
    public let path: String
    /// The video stream as the container describes it.
    public let info: VideoStreamInfo
    /// Frames returned so far.
    public private(set) var framesDecoded = 0
    private var handle: OpaquePointer?
    private var failure: MediaError?
    private var ended = false

    /// Opens `path` and its best video stream.
    /// - Throws: `MediaError` as described on the type.
    public init(path: String, options: VideoDecodeOptions = VideoDecodeOptions()) throws(MediaError) {
        self.path = path
        guard (0...64).contains(options.threads) else {
            throw MediaError(.invalidArgument, source: path, "threads must be in 0...64, got \(options.threads)")
        }
        var message = VideoCodecStatus.messageBuffer()
        var raw = rial_video_info()
        var opened: OpaquePointer?
        let status = rial_video_decoder_open(
            path, Int32(options.threads), options.strict ? 1 : 0, &opened, &raw, &message, message.count)
        if let error = VideoCodecStatus.error(status, message: message, source: path) { throw error }
        guard let opened else { throw MediaError(.corrupt, source: path, "corrupt video: the decoder did not open") }
        handle = opened
        info = VideoStreamInfo(raw)
    }

    deinit { rial_video_decoder_close(handle) }

    /// Reads the stream description of `path` without decoding a frame.
    public static func info(path: String) throws(MediaError) -> VideoStreamInfo {
        try VideoDecoder(path: path, options: VideoDecodeOptions(threads: 1)).info
    }

    /// Bytes of one NV12 frame of this stream.
    public var nv12ByteCount: Int { info.width * info.height * 3 / 2 }

    /// The next frame as NV12, nil after the last.
    public func nextFrame() throws(MediaError) -> VideoFrame? {
        var bytes: [UInt8] = []
        guard let timestamp = try nextFrame(into: &bytes) else { return nil }
        return VideoFrame(
            index: framesDecoded - 1, timestamp: timestamp, width: info.width, height: info.height, nv12: bytes)
    }

    /// Decodes the next frame as NV12 into `nv12` (resized to `nv12ByteCount` when its
    /// count differs, reused otherwise: a loop that gives the same array back allocates
    /// nothing per frame) and returns its timestamp in seconds; nil after the last.
    public func nextFrame(into nv12: inout [UInt8]) throws(MediaError) -> Double? {
        try next(output: Int32(RIAL_VIDEO_OUTPUT_NV12), into: &nv12, count: nv12ByteCount)
    }

    /// The next frame's luma plane as a one-channel image and its timestamp; nil after the last.
    public func nextLuma() throws(MediaError) -> (image: Image8, timestamp: Double)? {
        var bytes: [UInt8] = []
        guard
            let timestamp = try next(
                output: Int32(RIAL_VIDEO_OUTPUT_LUMA), into: &bytes, count: info.width * info.height)
        else { return nil }
        return (Image8(width: info.width, height: info.height, channels: 1, samples: bytes)!, timestamp)
    }

    private func next(output: Int32, into buffer: inout [UInt8], count: Int) throws(MediaError) -> Double? {
        if let failure { throw failure }
        if ended { return nil }
        if buffer.count != count { buffer = [UInt8](repeating: 0, count: count) }
        var message = VideoCodecStatus.messageBuffer()
        var timestamp = 0.0
        let status = buffer.withUnsafeMutableBufferPointer { bytes in
            rial_video_decoder_next(handle, output, bytes.baseAddress, bytes.count, &timestamp, &message, message.count)
        }
        if status == RIAL_VIDEO_END {
            ended = true
            return nil
        }
        if let error = VideoCodecStatus.error(status, message: message, source: path) {
            failure = error
            throw error
        }
        framesDecoded += 1
        return timestamp
    }
}
