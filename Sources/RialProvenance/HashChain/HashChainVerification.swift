/// The outcome of recomputing a recording's hash chain from its frames.
public struct HashChainVerification: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Equatable, Codable {
        /// Every frame recomputes to the recorded chain, the checkpoints and final hash
        /// agree, and the attestation covers the whole recording.
        case intact
        /// An interrupted recording: its attestation covers a checkpoint, which the
        /// frames up to it recompute to; nothing is wrong with the frames after it.
        case partial
        /// The frames recompute to the recorded chain, but nothing attests it.
        case unattested
        /// A frame, checkpoint, final hash or the attestation does not verify.
        case broken
    }

    /// What went wrong, in the order the verifier meets it.
    public enum Tamper: String, Sendable, Equatable, Codable, CaseIterable {
        /// A frame's bytes differ from the recorded frame's.
        case modified
        /// A recorded frame is missing; the frame at its place is the next recorded one.
        case dropped
        /// A frame not in the recording was added; the next frame is the recorded one.
        case inserted
        /// Two adjacent frames are swapped.
        case reordered
        /// The recording ends before the frame count the chain or attestation records.
        case truncated
        /// A checkpoint differs from the hash of its frame.
        case checkpointMismatch = "checkpoint_mismatch"
        /// The recorded final hash is not the last frame's hash.
        case finalHashMismatch = "final_hash_mismatch"
        /// The attested hash or frame count is not the recomputed one (the recorded
        /// chain was rewritten along with the frames, or the attestation belongs to
        /// another recording).
        case attestationMismatch = "attestation_mismatch"
        /// No frames, or a partial attestation naming a checkpoint the chain lacks.
        case malformed
    }

    public var status: Status
    /// Frames read from the source.
    public var framesRead: Int
    /// The first frame (1-based) that does not verify; nil when none does not, or when the
    /// failure cannot be placed on a frame (an attestation mismatch over a rewritten chain).
    public var firstBadFrame: Int?
    public var tamper: Tamper?
    /// Frames 1...n covered by a verified attestation (all frames when intact, the
    /// checkpoint's frame when partial, 0 otherwise).
    public var attestedFrames: Int
    /// One line for a report.
    public var detail: String

    enum CodingKeys: String, CodingKey {
        case status
        case framesRead = "frames_read"
        case firstBadFrame = "first_bad_frame"
        case tamper, detail
        case attestedFrames = "attested_frames"
    }

    public init(
        status: Status, framesRead: Int, firstBadFrame: Int?, tamper: Tamper?, attestedFrames: Int, detail: String
    ) {
        self.status = status
        self.framesRead = framesRead
        self.firstBadFrame = firstBadFrame
        self.tamper = tamper
        self.attestedFrames = attestedFrames
        self.detail = detail
    }

    /// Whether the deployed rule's "chain passes" holds: intact or a verified partial.
    public var passes: Bool { status == .intact || status == .partial }
}
