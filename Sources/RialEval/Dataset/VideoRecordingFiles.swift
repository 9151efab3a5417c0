import Foundation
import RialCodecs
import RialMedia
import RialProvenance

/// A `VideoRecording` on disk as a `kind: video` dataset sample
/// (docs/dataset-format-video.md), and back.
///
/// Lives in RialEval beside the manifest types because it writes a `DatasetSample`;
/// RialProvenance knows recordings and chains but not the dataset format.
///
/// Files, in the recording's folder:
/// - `frames.rlfs`: the frames' pixels and timestamps (`RawFrameSequence`);
/// - `depth_keyframes.bin`: the depth the frames carry, as the deployed `RLDP` blob,
///   one keyframe per frame with depth bytes, in frame order, with the frame's
///   timestamp and its bytes exactly (the manifest's `depth_keyframes.frames` names the
///   frames). A tampered recording is written as it is: a dropped frame's keyframe is
///   gone, a modified depth byte is in the blob;
/// - `hash_chain.json`: `recording.chain` (snake_case keys, hashes base64).
///
/// `recording.keyframes` supplies the depth size, and its keyframes are written as they
/// are only when no frame carries depth (then no frame is hashed with depth, and the
/// manifest marks every keyframe as carried by none).
public enum VideoRecordingFiles {
    public static let framesFile = "frames.rlfs"
    public static let depthKeyframesFile = "depth_keyframes.bin"
    public static let hashChainFile = "hash_chain.json"

    /// Writes `recording` into `folder` (created) and returns its manifest sample.
    ///
    /// - Parameters:
    ///   - manifestDirectory: the folder of the manifest the sample goes into; the
    ///     sample's paths are relative to it when `folder` lies inside it, else absolute.
    ///   - tamper: for a tamper-suite sample, what was done to the recording.
    ///   - metadata: a sample whose `attestation`, `platform`, `device_model`,
    ///     `captured_at`, `group`, `split`, `tags`, `source`, `license` and extensions
    ///     are copied (its `id`, `image`, `label` and files are not).
    /// - Returns: the sample with `kind: video`, `frames`, `depth_keyframes` (when there
    ///   is depth), `hash_chain`, `fps`, `frame_width`, `frame_height`, `tamper` and the
    ///   SHA-256 of every file.
    /// - Throws: `MediaError` for a recording the files cannot hold (naming the frame),
    ///   or a file that cannot be written (naming it).
    public static func write(
        _ recording: VideoRecording, id: String, label: SampleLabel, to folder: URL, manifestDirectory: URL,
        tamper: TamperLabel? = nil, metadata: DatasetSample? = nil
    ) throws -> DatasetSample {
        let framesURL = folder.appendingPathComponent(framesFile)
        let depthURL = folder.appendingPathComponent(depthKeyframesFile)
        let chainURL = folder.appendingPathComponent(hashChainFile)
        try RawFrameSequence.write(
            recording.frames, width: recording.frameWidth, height: recording.frameHeight, to: framesURL.path)

        var keyframesReference: DepthKeyframesReference?
        var depthHash: String?
        let carried = recording.frames.enumerated().filter { !$0.element.depth.isEmpty }
        if !carried.isEmpty || !recording.keyframes.isEmpty {
            let width = recording.keyframes.width, height = recording.keyframes.height
            let blob: Data
            let frames: [Int?]
            if carried.isEmpty {
                blob = try DepthKeyframeBlob.encode(recording.keyframes)
                frames = Array(repeating: nil, count: recording.keyframes.count)
            } else {
                for (index, frame) in carried where frame.depth.count != 4 * width * height {
                    throw MediaError(
                        .invalidArgument, source: inMemorySource,
                        "frame \(index) carries \(frame.depth.count) depth bytes, the keyframes are "
                            + "\(width)x\(height) (\(4 * width * height) bytes)")
                }
                blob = try DepthKeyframeBlob.encode(
                    width: width, height: height,
                    frames: carried.map { (timestamp: $0.element.timestamp, bytes: $0.element.depth) })
                frames = carried.map(\.offset)
            }
            try MediaFile.write(blob, to: depthURL.path)
            depthHash = SHA256Digest.hash(blob)
            keyframesReference = DepthKeyframesReference(
                path: relative(depthURL, to: manifestDirectory), variant: .rldp, frames: frames)
        }

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let chainData: Data
        do {
            chainData = try encoder.encode(recording.chain) + Data("\n".utf8)
        } catch {
            throw MediaError(.writeFailed, source: chainURL.path, "cannot encode the hash chain: \(error)")
        }
        try MediaFile.write(chainData, to: chainURL.path)

        var sample = metadata ?? DatasetSample(id: id, image: "", label: label)
        sample.id = id
        sample.image = ""
        sample.label = label
        sample.depth = nil
        sample.stereo = nil
        sample.video = VideoReference(
            frames: relative(framesURL, to: manifestDirectory), depthKeyframes: keyframesReference,
            hashChain: relative(chainURL, to: manifestDirectory), framesPerSecond: recording.framesPerSecond,
            frameWidth: recording.frameWidth, frameHeight: recording.frameHeight, tamper: tamper)
        sample.sha256 = FileHashes(
            frames: try SHA256Digest.hash(fileAt: framesURL.path), depthKeyframes: depthHash,
            hashChain: SHA256Digest.hash(chainData))
        return sample
    }

    /// Reads a loaded video sample back into memory: every frame with its depth bytes,
    /// the keyframes, the chain.
    ///
    /// - Throws: `MediaError` naming the sample's file when it has no `frames`,
    ///   `hash_chain` or `fps`, or a frame cannot be read.
    public static func read(_ loaded: LoadedVideoSample) throws -> VideoRecording {
        let sample = loaded.sample
        guard var source = try loaded.frameSource(), let header = loaded.frameHeader else {
            throw MediaError(
                .invalidArgument, source: sample.id, "video sample has no 'frames' (raw frame sequence) to read")
        }
        guard let chain = loaded.chain else {
            throw MediaError(.invalidArgument, source: sample.id, "video sample has no 'hash_chain'")
        }
        guard let fps = sample.video?.framesPerSecond else {
            throw MediaError(.invalidArgument, source: sample.id, "video sample has no 'fps'")
        }
        var frames: [ChainFrame] = []
        frames.reserveCapacity(header.frameCount)
        while let frame = try source.nextFrame() { frames.append(frame) }
        return VideoRecording(
            frameWidth: header.width, frameHeight: header.height, framesPerSecond: fps, frames: frames,
            keyframes: loaded.keyframes ?? DepthKeyframes(width: 0, height: 0), chain: chain)
    }

    /// `url`'s path relative to `directory` when inside it, else absolute.
    static func relative(_ url: URL, to directory: URL) -> String {
        let path = url.standardizedFileURL.path
        let base = directory.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
