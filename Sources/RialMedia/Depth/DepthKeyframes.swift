/// One LiDAR depth keyframe of a video recording: the depth map and when it was taken.
///
/// The product records depth at 10 fps beside 30 fps video (methods.md section 6, PRD 1.1
/// FR47-FR48), so a keyframe belongs to every third video frame.
public struct DepthKeyframe: Sendable, Equatable {
    /// Seconds since the start of the recording (the blob's per-frame f64 timestamp).
    public var timestamp: Double
    /// The 0-based video frame this keyframe was captured with, when known (the deployed
    /// blob does not store it; a dataset or the simulator may).
    public var videoFrameIndex: Int?
    public var depth: DepthMap

    public init(timestamp: Double, videoFrameIndex: Int? = nil, depth: DepthMap) {
        self.timestamp = timestamp
        self.videoFrameIndex = videoFrameIndex
        self.depth = depth
    }
}

/// A recording's depth keyframes in capture order, all of one size: what the temporal
/// depth methods read.
public struct DepthKeyframes: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let frames: [DepthKeyframe]

    /// Why a list of keyframes cannot form a sequence.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Keyframe `index` (0-based) is `width` x `height`, not the first keyframe's size.
        case sizeMismatch(index: Int, width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)
        /// Keyframe `index` has a timestamp that is not finite or is before the previous one.
        case timestamp(index: Int, value: Double)

        public var description: String {
            switch self {
            case .sizeMismatch(let index, let width, let height, let expectedWidth, let expectedHeight):
                "depth keyframe \(index) is \(width)x\(height), expected \(expectedWidth)x\(expectedHeight)"
            case .timestamp(let index, let value):
                "depth keyframe \(index) has timestamp \(value), which is not finite or goes back in time"
            }
        }
    }

    /// An empty sequence of the given size (a recording with no depth).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        frames = []
    }

    /// Checks that every keyframe has the first one's size and that timestamps are finite
    /// and never decrease.
    /// - Throws: `Problem` naming the first keyframe that breaks a rule.
    public init(_ frames: [DepthKeyframe]) throws(Problem) {
        let width = frames.first?.depth.width ?? 0
        let height = frames.first?.depth.height ?? 0
        var previous = -Double.infinity
        for (index, frame) in frames.enumerated() {
            guard frame.depth.width == width, frame.depth.height == height else {
                throw .sizeMismatch(
                    index: index, width: frame.depth.width, height: frame.depth.height, expectedWidth: width,
                    expectedHeight: height)
            }
            guard frame.timestamp.isFinite, frame.timestamp >= previous else {
                throw .timestamp(index: index, value: frame.timestamp)
            }
            previous = frame.timestamp
        }
        self.width = width
        self.height = height
        self.frames = frames
    }

    public var count: Int { frames.count }
    public var isEmpty: Bool { frames.isEmpty }
}
