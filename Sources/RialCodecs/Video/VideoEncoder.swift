import CVideoCodecs
import Foundation
import RialMedia

/// How `VideoEncoder` encodes.
public struct VideoEncodeOptions: Sendable, Equatable {
    /// Rate control: x264's constant rate factor (0 lossless ... 51; 23 is x264's
    /// default), a target bit rate in bits per second, or a constant quantiser (0 ... 51;
    /// x264 then codes P frames at exactly that QP, I frames about 3 lower, B frames about
    /// 2 higher, with adaptive quantisation and mb-tree off).
    public enum Rate: Sendable, Equatable {
        case constantRateFactor(Double)
        case bitRate(Int)
        case quantizer(Int)
    }

    /// Frame rate as a fraction (30/1; 30000/1001 for 29.97).
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    public var rate: Rate
    /// x264 preset (`ultrafast` ... `veryslow`); nil for x264's default (`medium`).
    public var preset: String?
    /// Frames between keyframes; nil for the encoder's default (x264: 250).
    public var keyframeInterval: Int?
    /// B-frames between references; nil for the encoder's default (x264 medium: 3).
    public var maxBFrames: Int?
    /// Encoder threads; 0 lets the encoder choose.
    public var threads: Int
    /// Clockwise display rotation stored in the file's display matrix (0, 90, 180, 270),
    /// as a phone writes for a portrait recording.
    public var rotationDegrees: Int
    /// libavcodec encoder name; "libx264" (Debian's libavcodec links x264).
    public var encoder: String

    public init(
        framesPerSecond: Int = 30, rate: Rate = .constantRateFactor(18), preset: String? = nil,
        keyframeInterval: Int? = nil, maxBFrames: Int? = nil, threads: Int = 0, rotationDegrees: Int = 0,
        encoder: String = "libx264"
    ) {
        self.frameRateNumerator = framesPerSecond
        self.frameRateDenominator = 1
        self.rate = rate
        self.preset = preset
        self.keyframeInterval = keyframeInterval
        self.maxBFrames = maxBFrames
        self.threads = threads
        self.rotationDegrees = rotationDegrees
        self.encoder = encoder
    }
}

/// Writes NV12 frames (the layout `ChainFrame` hashes) to an H.264 MP4 or MOV file
/// through libavcodec's libx264 encoder; frame n is stamped n / fps seconds.
///
/// Call `append` for every frame, then `finish`: the file is complete only after
/// `finish` returns. A writer that is dropped unfinished, or whose `finish` fails,
/// deletes its partial file. Errors are `MediaError` naming the output path:
/// `.invalidArgument` (odd size, wrong frame length, unknown extension, bad option),
/// `.unsupported` (no such encoder in this libavcodec), `.writeFailed`.
public final class VideoEncoder {
    public let path: String
    public let width: Int
    public let height: Int
    /// Frames appended so far.
    public private(set) var frameCount = 0
    private var handle: OpaquePointer?
    private var finished = false
    /// True once this encoder has created its file (so `deinit` never deletes a file an
    /// encoder that failed to open did not write).
    private var created = false

    /// True when this libavcodec has an encoder of that name (`libx264`).
    public static func hasEncoder(_ name: String) -> Bool { rial_video_has_encoder(name) != 0 }

    /// Creates `path` (the container follows the extension: `.mp4`, `.mov`) for frames
    /// of `width x height` (both even).
    public init(path: String, width: Int, height: Int, options: VideoEncodeOptions = VideoEncodeOptions())
        throws(MediaError)
    {
        self.path = path
        self.width = width
        self.height = height
        guard (1...16384).contains(width), (1...16384).contains(height),
            (1...1_000_000).contains(options.frameRateNumerator),
            (1...1_000_000).contains(options.frameRateDenominator),
            (0...64).contains(options.threads)
        else {
            throw MediaError(
                .invalidArgument, source: path,
                "cannot encode \(width)x\(height) at \(options.frameRateNumerator)/\(options.frameRateDenominator) fps with \(options.threads) threads"
            )
        }
        var raw = rial_video_encoder_options()
        raw.fps_num = Int32(options.frameRateNumerator)
        raw.fps_den = Int32(options.frameRateDenominator)
        switch options.rate {
        case .constantRateFactor(let crf):
            guard (0...51).contains(crf) else {
                throw MediaError(.invalidArgument, source: path, "constant rate factor must be in 0...51, got \(crf)")
            }
            raw.rate_mode = Int32(RIAL_VIDEO_RATE_CRF)
            raw.crf = crf
        case .bitRate(let bits):
            guard bits > 0 else { throw MediaError(.invalidArgument, source: path, "bit rate must be positive") }
            raw.rate_mode = Int32(RIAL_VIDEO_RATE_BIT_RATE)
            raw.bit_rate = Int64(bits)
        case .quantizer(let qp):
            guard (0...51).contains(qp) else {
                throw MediaError(.invalidArgument, source: path, "quantiser must be in 0...51, got \(qp)")
            }
            raw.rate_mode = Int32(RIAL_VIDEO_RATE_QP)
            raw.qp = Int32(qp)
        }
        raw.gop_size = Int32(clamping: options.keyframeInterval ?? 0)
        raw.max_b_frames = Int32(clamping: options.maxBFrames ?? -1)
        raw.threads = Int32(options.threads)
        raw.rotation = Int32(clamping: options.rotationDegrees)
        guard Self.copy(options.preset ?? "", into: &raw.preset), Self.copy(options.encoder, into: &raw.encoder) else {
            throw MediaError(.invalidArgument, source: path, "preset or encoder name too long")
        }
        var message = VideoCodecStatus.messageBuffer()
        var opened: OpaquePointer?
        let status = rial_video_encoder_open(path, Int32(width), Int32(height), &raw, &opened, &message, message.count)
        if let error = VideoCodecStatus.error(status, message: message, source: path) { throw error }
        handle = opened
        created = true
    }

    deinit {
        rial_video_encoder_close(handle)
        if created && !finished { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Encodes one NV12 frame of `width x height x 3 / 2` bytes.
    public func append(nv12: [UInt8]) throws(MediaError) {
        guard !finished else { throw MediaError(.invalidArgument, source: path, "the video is already finished") }
        var message = VideoCodecStatus.messageBuffer()
        let status = nv12.withUnsafeBufferPointer { bytes in
            rial_video_encoder_write_nv12(handle, bytes.baseAddress, bytes.count, &message, message.count)
        }
        if let error = VideoCodecStatus.error(status, message: message, source: path) { throw error }
        frameCount += 1
    }

    /// Flushes the encoder, writes the container's index and closes the file.
    public func finish() throws(MediaError) {
        guard !finished else { throw MediaError(.invalidArgument, source: path, "the video is already finished") }
        var message = VideoCodecStatus.messageBuffer()
        let status = rial_video_encoder_finish(handle, &message, message.count)
        rial_video_encoder_close(handle)
        handle = nil
        if let error = VideoCodecStatus.error(status, message: message, source: path) { throw error }
        finished = true
    }

    /// Encodes `frames` (NV12) to `path` in one call.
    public static func write(
        _ frames: some Sequence<[UInt8]>, width: Int, height: Int, to path: String,
        options: VideoEncodeOptions = VideoEncodeOptions()
    ) throws(MediaError) {
        let encoder = try VideoEncoder(path: path, width: width, height: height, options: options)
        for frame in frames { try encoder.append(nv12: frame) }
        try encoder.finish()
    }

    private static func copy<T>(_ text: String, into field: inout T) -> Bool {
        let bytes = Array(text.utf8)
        return withUnsafeMutableBytes(of: &field) { raw in
            guard bytes.count < raw.count else { return false }
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
            return true
        }
    }
}
