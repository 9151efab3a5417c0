import RialCodecs

/// The byte layout of the frame hash chain: the one place it is written down.
///
/// methods.md section 6 ("Hash chain (phone)"): H1 = SHA-256(frame pixel bytes ‖ depth
/// bytes if any ‖ 8-byte double timestamp); Hn = SHA-256(pixels ‖ depth ‖ timestamp ‖
/// H(n-1)); PRD 1.1 FR49 "each frame hashes with previous". Where the documents are
/// silent this layout chooses:
/// - the timestamp's 8 bytes are the IEEE-754 binary64 in little-endian order (the
///   phone's native order: Swift's `withUnsafeBytes(of: timestamp)` on arm64);
/// - H(n-1) enters as its 32 raw bytes (not hex or base64 text);
/// - a frame without a depth keyframe contributes no depth bytes (not a placeholder).
///
/// Checkpoints (methods.md section 6, PRD 1.1 "Checkpoints: every 5 seconds"): at frames
/// 150, 300 and 450, checkpoint index n/150 - 1, at most 3; a recording is at most 450
/// frames (15 s at 30 fps, FR47).
public enum FrameHashLayout {
    /// Frames between checkpoints (5 s at 30 fps).
    public static let checkpointInterval = 150
    /// Checkpoints in a full-length recording.
    public static let maximumCheckpoints = 3
    /// The longest recording in frames (15 s at 30 fps).
    public static let maximumFrames = 450

    /// The valid checkpoint indices, 0...2.
    public static let checkpointIndices = 0..<maximumCheckpoints

    /// The frame number (1-based) checkpoint `index` (0-based) is taken at.
    /// - Precondition: `index` is in `checkpointIndices` (check untrusted indices first).
    public static func checkpointFrame(index: Int) -> Int {
        precondition(checkpointIndices.contains(index), "checkpoint index \(index) out of range")
        return (index + 1) * checkpointInterval
    }

    /// The checkpoint index taken at frame `frame`, nil when none is.
    public static func checkpointIndex(atFrame frame: Int) -> Int? {
        guard frame > 0, frame % checkpointInterval == 0 else { return nil }
        let index = frame / checkpointInterval - 1
        return index < maximumCheckpoints ? index : nil
    }

    /// H for `frame` chained to `previous` (nil for the first frame).
    public static func hash(_ frame: ChainFrame, previous: ChainHash?) -> ChainHash {
        var hasher = SHA256Hasher()
        hasher.update(frame.pixels)
        hasher.update(frame.depth)
        let bits = frame.timestamp.bitPattern.littleEndian
        withUnsafeBytes(of: bits) { hasher.update($0) }
        if let previous { hasher.update(previous.bytes) }
        return ChainHash(bytes: hasher.finalize())
    }
}
