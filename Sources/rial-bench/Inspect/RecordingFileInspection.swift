import Foundation
import RialCodecs
import RialMedia
import RialProvenance

/// `inspect` on the files of a video sample (docs/dataset-format-video.md): a depth
/// keyframe blob with the `RLDP` header, a raw frame sequence, a hash chain JSON.
/// Recognised by content; anything else goes to `MediaInspector`.
enum RecordingFileInspection: Encodable {
    case keyframes(Keyframes)
    case frames(Frames)
    case chain(Chain)

    struct Keyframes: Encodable {
        var kind = "depth_keyframes"
        var path: String
        var variant: String
        var keyframes: Int
        var width: Int
        var height: Int
        var firstTimestamp: Double?
        var lastTimestamp: Double?
        /// Keyframes per second over the time range; nil for fewer than 2 keyframes.
        var keyframesPerSecond: Double?
        var validFraction: Double
        var bytes: Int
        var sha256: String

        enum CodingKeys: String, CodingKey {
            case kind, path, variant, keyframes, width, height, bytes, sha256
            case firstTimestamp = "first_timestamp"
            case lastTimestamp = "last_timestamp"
            case keyframesPerSecond = "keyframes_per_second"
            case validFraction = "valid_fraction"
        }
    }

    struct Frames: Encodable {
        var kind = "frame_sequence"
        var path: String
        var frames: Int
        var width: Int
        var height: Int
        var firstTimestamp: Double
        var lastTimestamp: Double
        var framesPerSecond: Double?
        /// Frames whose timestamp is before the previous frame's (a reordered recording).
        var timestampsGoingBack: Int
        var bytes: Int
        var sha256: String

        enum CodingKeys: String, CodingKey {
            case kind, path, frames, width, height, bytes, sha256
            case firstTimestamp = "first_timestamp"
            case lastTimestamp = "last_timestamp"
            case framesPerSecond = "frames_per_second"
            case timestampsGoingBack = "timestamps_going_back"
        }
    }

    struct Chain: Encodable {
        var kind = "hash_chain"
        var path: String
        var frames: Int
        var checkpoints: [Int]
        /// `complete`, `partial` (a checkpoint attested) or `none`.
        var attestation: String
        var attestedFrameCount: Int?
        var attestedCheckpoint: Int?
        /// The deployed verifier's structural check (`DeployedChainCheck`): empty = passes.
        var deployedCheckFailures: [String]
        var sha256: String

        enum CodingKeys: String, CodingKey {
            case kind, path, frames, checkpoints, attestation, sha256
            case attestedFrameCount = "attested_frame_count"
            case attestedCheckpoint = "attested_checkpoint"
            case deployedCheckFailures = "deployed_check_failures"
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .keyframes(let value): try value.encode(to: encoder)
        case .frames(let value): try value.encode(to: encoder)
        case .chain(let value): try value.encode(to: encoder)
        }
    }

    /// The inspection of `path`, or nil when it is none of the three files.
    /// - Throws: `MediaError` naming `path` when it is one of them but does not read.
    static func inspect(path: String) throws -> RecordingFileInspection? {
        guard FileManager.default.isReadableFile(atPath: path), let handle = FileHandle(forReadingAtPath: path) else {
            return nil
        }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        try? handle.close()
        if head.starts(with: RawFrameSequence.magic) {
            let header = try RawFrameSequenceReader(path: path).header
            let stamps = header.timestamps
            let span = (stamps.last ?? 0) - (stamps.first ?? 0)
            return .frames(
                Frames(
                    path: path, frames: header.frameCount, width: header.width, height: header.height,
                    firstTimestamp: stamps.first ?? 0, lastTimestamp: stamps.last ?? 0,
                    framesPerSecond: stamps.count > 1 && span > 0 ? Double(stamps.count - 1) / span : nil,
                    timestampsGoingBack: zip(stamps, stamps.dropFirst()).filter { $1 < $0 }.count,
                    bytes: header.fileBytes, sha256: try SHA256Digest.hash(fileAt: path)))
        }
        if DepthKeyframeBlob.startsWithHeader(head) {
            let data = try MediaFile.read(path)
            let reading = try DepthKeyframeBlob.read(data: data, source: path)
            let frames = reading.keyframes.frames
            let span = (frames.last?.timestamp ?? 0) - (frames.first?.timestamp ?? 0)
            let pixels = frames.reduce(0) { $0 + $1.depth.metres.count }
            let valid = frames.reduce(0) { $0 + $1.depth.validCount }
            return .keyframes(
                Keyframes(
                    path: path, variant: reading.variant.rawValue, keyframes: frames.count,
                    width: reading.keyframes.width, height: reading.keyframes.height,
                    firstTimestamp: frames.first?.timestamp, lastTimestamp: frames.last?.timestamp,
                    keyframesPerSecond: frames.count > 1 && span > 0 ? Double(frames.count - 1) / span : nil,
                    validFraction: pixels > 0 ? Double(valid) / Double(pixels) : 0, bytes: data.count,
                    sha256: SHA256Digest.hash(data)))
        }
        let text = String(decoding: head, as: UTF8.self)
        if text.drop(while: \.isWhitespace).first == "{", text.contains("\"frame_hashes\"") {
            let data = try MediaFile.read(path)
            let record: HashChainRecord
            do {
                record = try JSONDecoder().decode(HashChainRecord.self, from: data)
            } catch {
                throw MediaError(.corrupt, source: path, "not a hash chain record: \(Self.reason(error))")
            }
            return .chain(
                Chain(
                    path: path, frames: record.frameHashes.count, checkpoints: record.checkpoints.map(\.index),
                    attestation: record.attestation == nil
                        ? "none" : record.attestation?.checkpointIndex == nil ? "complete" : "partial",
                    attestedFrameCount: record.attestation?.frameCount,
                    attestedCheckpoint: record.attestation?.checkpointIndex,
                    deployedCheckFailures: DeployedChainCheck.failures(record), sha256: SHA256Digest.hash(data)))
        }
        return nil
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context):
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            return context.debugDescription + (at.isEmpty ? "" : " at \(at)")
        default:
            return "\(error)"
        }
    }

    static func seconds(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "-" }

    /// Table rows: keyframe blobs, frame sequences and chains each have their own columns.
    static let keyframeHeader = ["path", "variant", "keyframes", "size", "time s", "per s", "valid", "sha256"]
    static let frameHeader = ["path", "frames", "size", "time s", "fps", "back", "sha256"]
    static let chainHeader = ["path", "frames", "checkpoints", "attestation", "deployed check"]

    var row: [String] {
        switch self {
        case .keyframes(let k):
            [
                k.path, k.variant, String(k.keyframes), "\(k.width)x\(k.height)",
                "\(Self.seconds(k.firstTimestamp))-\(Self.seconds(k.lastTimestamp))",
                k.keyframesPerSecond.map { String(format: "%.2f", $0) } ?? "-",
                String(format: "%.1f%%", k.validFraction * 100), String(k.sha256.prefix(16)),
            ]
        case .frames(let f):
            [
                f.path, String(f.frames), "\(f.width)x\(f.height) NV12",
                "\(Self.seconds(f.firstTimestamp))-\(Self.seconds(f.lastTimestamp))",
                f.framesPerSecond.map { String(format: "%.2f", $0) } ?? "-", String(f.timestampsGoingBack),
                String(f.sha256.prefix(16)),
            ]
        case .chain(let c):
            [
                c.path, String(c.frames),
                c.checkpoints.isEmpty ? "-" : c.checkpoints.map(String.init).joined(separator: ","),
                c.attestation
                    + (c.attestedCheckpoint.map { " (checkpoint \($0))" } ?? "")
                    + (c.attestedFrameCount.map { ", \($0) frames" } ?? ""),
                c.deployedCheckFailures.isEmpty ? "passes" : c.deployedCheckFailures.joined(separator: "; "),
            ]
        }
    }
}
