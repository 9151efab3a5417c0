import RialMedia

/// Which video frame each depth keyframe belongs to, so that frame is hashed with the
/// keyframe's depth bytes (methods.md section 6: "depth bytes if any").
///
/// Rule, per keyframe k in order:
/// 1. An explicit list (the manifest's `depth_keyframes.frames`, one entry per keyframe)
///    decides alone: entry k is the 0-based frame index, or null for a keyframe that no
///    frame carries (its frame was dropped, or the depth was never hashed).
/// 2. Without a list, `DepthKeyframe.videoFrameIndex` when set.
/// 3. Otherwise the first frame, in file order, whose timestamp equals the keyframe's
///    exactly (the phone stamps both with the same `ARFrame` time) and that has no
///    keyframe yet; no such frame leaves the keyframe unassigned.
///
/// An unassigned keyframe is not an error: a tampered recording (a dropped frame, a cut
/// end) leaves keyframes without their frame, and the chain verifier reports that. Two
/// keyframes named for one frame, or an index outside the frames, is an error.
public enum KeyframeAssignment {
    /// The 0-based frame index of each keyframe, nil when unassigned.
    ///
    /// - Parameters:
    ///   - explicit: one entry per keyframe, or nil to use rules 2 and 3.
    ///   - frameTimestamps: the frames' timestamps in file order.
    /// - Throws: `MediaError.corrupt` naming `source`: a list of the wrong length, an
    ///   index outside the frames, two keyframes for one frame.
    public static func frames(
        for keyframes: DepthKeyframes, explicit: [Int?]? = nil, frameTimestamps: [Double], source: String
    ) throws -> [Int?] {
        if let explicit, explicit.count != keyframes.count {
            throw MediaError(
                .corrupt, source: source,
                "depth_keyframes.frames lists \(explicit.count) frames for \(keyframes.count) keyframes")
        }
        var taken: [Int: Int] = [:] // frame -> keyframe
        var firstByTimestamp: [Double: [Int]] = [:]
        for (index, timestamp) in frameTimestamps.enumerated().reversed() {
            firstByTimestamp[timestamp, default: []].append(index)
        }
        var result: [Int?] = []
        result.reserveCapacity(keyframes.count)
        for (k, keyframe) in keyframes.frames.enumerated() {
            var frame: Int?
            if let explicit {
                frame = explicit[k]
            } else if let index = keyframe.videoFrameIndex {
                frame = index
            } else {
                while let candidate = firstByTimestamp[keyframe.timestamp]?.popLast() {
                    if taken[candidate] == nil {
                        frame = candidate
                        break
                    }
                }
            }
            if let frame {
                guard (0..<frameTimestamps.count).contains(frame) else {
                    throw MediaError(
                        .corrupt, source: source,
                        "depth keyframe \(k) is assigned to frame \(frame), outside the \(frameTimestamps.count) frames"
                    )
                }
                if let other = taken[frame] {
                    throw MediaError(
                        .corrupt, source: source,
                        "depth keyframes \(other) and \(k) are both assigned to frame \(frame)")
                }
                taken[frame] = k
            }
            result.append(frame)
        }
        return result
    }

    /// The stored depth bytes by frame index, for `RawFrameSequenceReader`.
    ///
    /// - Parameters:
    ///   - stored: each keyframe's stored bytes (`DepthKeyframeBlob.Reading.storedFrames`).
    ///   - frames: `frames(for:explicit:frameTimestamps:source:)`'s result.
    public static func depthByFrame(stored: [[UInt8]], frames: [Int?]) -> [Int: [UInt8]] {
        var result: [Int: [UInt8]] = [:]
        for (bytes, frame) in zip(stored, frames) {
            if let frame { result[frame] = bytes }
        }
        return result
    }
}
