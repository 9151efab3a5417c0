/// One video frame as the hash chain sees it: the raw pixel bytes, the depth keyframe's
/// bytes when this frame has one, and the capture timestamp.
///
/// The pixel bytes are the frame buffer exactly as the phone hashed it (methods.md
/// section 6: "frame pixel bytes"; on the phone, the `ARFrame.capturedImage` buffer, a
/// YCbCr 4:2:0 bi-planar NV12 layout, 1.5 bytes per pixel). The depth bytes are the
/// keyframe's float32 values, row-major, little-endian (every 3rd frame at 10 fps).
public struct ChainFrame: Sendable, Equatable {
    public var pixels: [UInt8]
    /// Empty when the frame has no depth keyframe.
    public var depth: [UInt8]
    /// Seconds (the phone's media timestamp, a Double).
    public var timestamp: Double

    public init(pixels: [UInt8], depth: [UInt8] = [], timestamp: Double) {
        self.pixels = pixels
        self.depth = depth
        self.timestamp = timestamp
    }

    /// A frame whose depth keyframe is given as metres: stored as little-endian float32 bytes.
    public init(pixels: [UInt8], depthMetres: [Float], timestamp: Double) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(depthMetres.count * 4)
        for value in depthMetres {
            let bits = value.bitPattern.littleEndian
            withUnsafeBytes(of: bits) { bytes.append(contentsOf: $0) }
        }
        self.init(pixels: pixels, depth: bytes, timestamp: timestamp)
    }
}

/// Where the verifier reads frames from, one at a time in recording order, so a decoder
/// can stream a recording without holding it in memory.
public protocol ChainFrameSource {
    /// The next frame, nil after the last.
    /// - Throws: whatever the source cannot read (a corrupt file); the verifier passes it on.
    mutating func nextFrame() throws -> ChainFrame?
}

/// Frames held in memory.
public struct InMemoryFrameSource: ChainFrameSource, Sendable {
    public var frames: [ChainFrame]
    private var position = 0

    public init(_ frames: [ChainFrame]) { self.frames = frames }

    public mutating func nextFrame() -> ChainFrame? {
        guard position < frames.count else { return nil }
        defer { position += 1 }
        return frames[position]
    }
}
