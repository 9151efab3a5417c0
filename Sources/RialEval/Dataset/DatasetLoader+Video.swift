import Foundation
import RialCodecs
import RialMedia
import RialProvenance

/// A video sample read from its files (docs/dataset-format-video.md): the depth
/// keyframes, the recorded hash chain, and what is needed to stream its frames.
public struct LoadedVideoSample: Sendable {
    public var resolved: ResolvedSample
    /// The depth keyframes, each with `videoFrameIndex` set to its assigned frame (nil
    /// when no frame carries it); nil when the sample has no `depth_keyframes`.
    public var keyframes: DepthKeyframes?
    /// Which blob variant `depth_keyframes` was.
    public var keyframeVariant: DepthKeyframeBlob.Variant?
    /// The recorded chain; nil when the sample has no `hash_chain`.
    public var chain: HashChainRecord?
    /// The frame sequence's header; nil when the sample has no `frames`.
    public var frameHeader: RawFrameSequence.Header?
    /// Each assigned keyframe's stored bytes by 0-based frame index.
    var depthByFrame: [Int: [UInt8]]

    public var sample: DatasetSample { resolved.sample }

    /// A fresh stream of the frames with their depth bytes attached, for
    /// `HashChainVerifier.verify`; nil when the sample has no `frames` (an MP4 alone
    /// cannot recompute the chain).
    /// - Throws: `MediaError` naming the file when it changed since loading.
    public func frameSource() throws -> RawFrameSequenceReader? {
        guard let path = resolved.framesPath else { return nil }
        return try RawFrameSequenceReader(path: path, depth: depthByFrame)
    }
}

extension DatasetLoader {
    /// Reads a resolved video sample's depth keyframe blob, chain JSON and frame sequence
    /// header, checks them against the manifest and each other, and assigns keyframes
    /// to frames (`KeyframeAssignment`).
    ///
    /// - Returns: the loaded sample, or a failure listing every problem, each naming the
    ///   manifest, the sample id, the key and the file; never throws, so a run records
    ///   the sample as failed and goes on.
    public func loadVideo(_ resolved: ResolvedSample) -> Result<LoadedVideoSample, SampleFailure> {
        let sample = resolved.sample
        let jsonPath = "samples[\(resolved.index)]"
        guard let video = sample.video else {
            return .failure(
                SampleFailure(
                    index: resolved.index, sampleID: sample.id,
                    problems: [
                        DatasetProblem(
                            .invalidValue, manifest: manifestPath, jsonPath: jsonPath + ".kind", sampleID: sample.id,
                            "not a video sample")
                    ]))
        }
        var problems: [DatasetProblem] = []
        func problem(_ kind: DatasetProblem.Kind, _ key: String, file: String?, _ message: String) {
            problems.append(
                DatasetProblem(
                    kind, manifest: manifestPath, jsonPath: jsonPath + "." + key, sampleID: sample.id, file: file,
                    message))
        }
        func detail(_ error: any Error) -> String { (error as? MediaError)?.detail ?? "\(error)" }

        var header: RawFrameSequence.Header?
        if let path = resolved.framesPath, let written = video.frames {
            do {
                header = try RawFrameSequenceReader(path: path).header
            } catch {
                problem(.unreadableFile, "frames", file: written, detail(error))
            }
            if let header, let width = video.frameWidth, let height = video.frameHeight,
                header.width != width || header.height != height
            {
                problem(
                    .invalidValue, "frame_width", file: written,
                    "the frame sequence is \(header.width)x\(header.height), the manifest says \(width)x\(height)")
            }
        }
        var chain: HashChainRecord?
        if let path = resolved.hashChainPath, let written = video.hashChain {
            do {
                chain = try JSONDecoder().decode(HashChainRecord.self, from: try MediaFile.read(path))
            } catch {
                let reason =
                    switch error {
                    case let error as MediaError: error.detail
                    case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
                        DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context):
                        "not a hash chain record: \(context.debugDescription) at "
                            + (context.codingPath.map(\.stringValue).joined(separator: ".").nonEmpty ?? "the top")
                    default: "not a hash chain record: \(error)"
                    }
                problem(.unreadableFile, "hash_chain", file: written, reason)
            }
        }
        var keyframes: DepthKeyframes?
        var variant: DepthKeyframeBlob.Variant?
        var depthByFrame: [Int: [UInt8]] = [:]
        if let path = resolved.depthKeyframesPath, let reference = video.depthKeyframes {
            do {
                let reading = try DepthKeyframeBlob.read(
                    path: path, variant: reference.variant, width: reference.width, height: reference.height)
                variant = reading.variant
                var assigned: [Int?] = reading.keyframes.frames.map(\.videoFrameIndex)
                if let header {
                    assigned = try KeyframeAssignment.frames(
                        for: reading.keyframes, explicit: reference.frames, frameTimestamps: header.timestamps,
                        source: path)
                    depthByFrame = KeyframeAssignment.depthByFrame(stored: reading.storedFrames, frames: assigned)
                } else if let explicit = reference.frames {
                    guard explicit.count == reading.keyframes.count else {
                        throw MediaError(
                            .corrupt, source: path,
                            "depth_keyframes.frames lists \(explicit.count) frames for \(reading.keyframes.count) keyframes"
                        )
                    }
                    assigned = explicit
                }
                var frames = reading.keyframes.frames
                for index in frames.indices { frames[index].videoFrameIndex = assigned[index] }
                keyframes =
                    frames.isEmpty
                    ? reading.keyframes : try DepthKeyframes(frames)
            } catch {
                problem(.unreadableDepth, "depth_keyframes.path", file: reference.path, detail(error))
            }
        }
        guard problems.isEmpty else {
            return .failure(SampleFailure(index: resolved.index, sampleID: sample.id, problems: problems))
        }
        return .success(
            LoadedVideoSample(
                resolved: resolved, keyframes: keyframes, keyframeVariant: variant, chain: chain, frameHeader: header,
                depthByFrame: depthByFrame))
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
