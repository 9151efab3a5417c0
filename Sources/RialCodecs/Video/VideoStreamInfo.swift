import CVideoCodecs
import Foundation

/// What a video file's container says about its video stream (`VideoDecoder.info`).
public struct VideoStreamInfo: Sendable, Equatable, Codable {
    /// FFmpeg's codec name: `h264`, `hevc`, ...
    public var codec: String
    /// The codec profile (`High`, `Main`, ...); nil when unknown.
    public var profile: String?
    /// The decoder's pixel format (`yuv420p`, `yuv420p10le`, ...); frames come out as NV12 whatever it is.
    public var pixelFormat: String?
    /// FFmpeg's demuxer name (`mov,mp4,m4a,3gp,3g2,mj2` for MP4 and MOV).
    public var container: String
    /// Coded picture size in pixels (before `rotationDegrees` is applied).
    public var width: Int
    public var height: Int
    /// Average frame rate as a fraction; nil when the container does not give one.
    public var frameRateNumerator: Int?
    public var frameRateDenominator: Int?
    /// Frames the container lists; nil when it does not say.
    public var frameCount: Int?
    /// Seconds; nil when unknown.
    public var duration: Double?
    /// Clockwise degrees the frames must be turned to display upright (0, 90, 180, 270),
    /// from the stream's display matrix (an iPhone's portrait video: 90).
    public var rotationDegrees: Int
    /// Bits per second of the video stream; nil when unknown.
    public var bitRate: Int?
    /// Index of the video stream in the container, and how many streams it has.
    public var streamIndex: Int
    public var streamCount: Int

    /// Frames per second (`frameRateNumerator / frameRateDenominator`); nil when unknown.
    public var framesPerSecond: Double? {
        guard let n = frameRateNumerator, let d = frameRateDenominator, n > 0, d > 0 else { return nil }
        return Double(n) / Double(d)
    }

    /// One line: `h264 High 1920x1080 30 fps, 150 frames, 5.000 s, rotation 90, 16.0 Mbit/s (mov,mp4,...)`.
    public var summary: String {
        var parts = ["\(codec)\(profile.map { " \($0)" } ?? "") \(width)x\(height)"]
        if let fps = framesPerSecond {
            parts[0] += fps == fps.rounded() ? " \(Int(fps)) fps" : " \(String(format: "%.3f", fps)) fps"
        }
        parts.append(frameCount.map { "\($0) frames" } ?? "frame count unknown")
        parts.append(duration.map { "\(String(format: "%.3f", $0)) s" } ?? "duration unknown")
        if rotationDegrees != 0 { parts.append("rotation \(rotationDegrees)") }
        if let bitRate { parts.append("\(String(format: "%.1f", Double(bitRate) / 1e6)) Mbit/s") }
        return parts.joined(separator: ", ") + " (\(container))"
    }

    enum CodingKeys: String, CodingKey {
        case codec, profile, container, width, height, duration
        case pixelFormat = "pixel_format"
        case frameRateNumerator = "frame_rate_numerator"
        case frameRateDenominator = "frame_rate_denominator"
        case frameCount = "frame_count"
        case rotationDegrees = "rotation_degrees"
        case bitRate = "bit_rate"
        case streamIndex = "stream_index"
        case streamCount = "stream_count"
    }

    init(_ info: rial_video_info) {
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        codec = text(info.codec)
        let profileText = text(info.profile)
        profile = profileText.isEmpty ? nil : profileText
        let pixelText = text(info.pixel_format)
        pixelFormat = pixelText.isEmpty ? nil : pixelText
        container = text(info.container)
        width = Int(info.width)
        height = Int(info.height)
        frameRateNumerator = info.fps_num > 0 && info.fps_den > 0 ? Int(info.fps_num) : nil
        frameRateDenominator = info.fps_num > 0 && info.fps_den > 0 ? Int(info.fps_den) : nil
        frameCount = info.frame_count >= 0 ? Int(info.frame_count) : nil
        duration = info.duration >= 0 && info.duration.isFinite ? info.duration : nil
        rotationDegrees = Int(info.rotation)
        bitRate = info.bit_rate > 0 ? Int(info.bit_rate) : nil
        streamIndex = Int(info.stream_index)
        streamCount = Int(info.stream_count)
    }
}
