import RialMedia

/// A video recording as the phone captures it (methods.md section 6, PRD 1.1 FR47-FR53),
/// in memory: the raw frames the hash chain covers, the LiDAR depth keyframes, and the
/// chain the phone recorded. The simulator produces it, the tamper suite alters it, and
/// the video dataset format writes and reads it.
///
/// Frames are NV12 (YCbCr 4:2:0 bi-planar: `frameWidth x frameHeight` luma bytes, then
/// `frameWidth x frameHeight / 2` interleaved CbCr bytes), the layout the phone hashes
/// (`ChainFrame`). A frame with a depth keyframe carries that keyframe's float32 bytes in
/// `ChainFrame.depth`; `keyframes` holds the same depth as metres.
public struct VideoRecording: Sendable, Equatable {
    /// Pixel grid of every frame (both even, for 4:2:0).
    public var frameWidth: Int
    public var frameHeight: Int
    /// Frames per second of the recording (30 for the product).
    public var framesPerSecond: Double
    /// The frames in recording order, as the chain hashes them.
    public var frames: [ChainFrame]
    /// The depth keyframes (every 3rd frame at 10 fps), with `videoFrameIndex` set.
    public var keyframes: DepthKeyframes
    /// The hash chain the phone recorded over `frames` (for a tampered recording, the
    /// original chain: the frames no longer match it).
    public var chain: HashChainRecord

    public init(
        frameWidth: Int, frameHeight: Int, framesPerSecond: Double, frames: [ChainFrame], keyframes: DepthKeyframes,
        chain: HashChainRecord
    ) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.framesPerSecond = framesPerSecond
        self.frames = frames
        self.keyframes = keyframes
        self.chain = chain
    }

    /// Bytes of one NV12 frame: luma plus half as much interleaved chroma.
    public static func nv12FrameBytes(width: Int, height: Int) -> Int { width * height * 3 / 2 }
}
