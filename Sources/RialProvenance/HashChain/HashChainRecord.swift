/// A recording's hash chain as the phone uploads it (methods.md section 6, PRD 1.1
/// FR49-FR50): every frame's hash, the checkpoints, the final hash, and the attestation
/// over the final hash (a complete recording) or over a checkpoint's hash (an
/// interrupted one). JSON: snake_case keys, hashes as base64 text.
public struct HashChainRecord: Sendable, Equatable, Codable {
    public struct Checkpoint: Sendable, Equatable, Codable {
        /// 0-based; taken at frame `(index + 1) x 150`.
        public var index: Int
        public var hash: ChainHash

        public init(index: Int, hash: ChainHash) {
            self.index = index
            self.hash = hash
        }
    }

    /// What the device attested (signed).
    public struct Attestation: Sendable, Equatable, Codable {
        /// The final hash, or the checkpoint's hash for a partial attestation.
        public var attestedHash: ChainHash
        /// Frames the device says it recorded.
        public var frameCount: Int
        /// Set for an interrupted recording: the checkpoint the attestation covers.
        public var checkpointIndex: Int?

        public init(attestedHash: ChainHash, frameCount: Int, checkpointIndex: Int? = nil) {
            self.attestedHash = attestedHash
            self.frameCount = frameCount
            self.checkpointIndex = checkpointIndex
        }

        enum CodingKeys: String, CodingKey {
            case attestedHash = "attested_hash"
            case frameCount = "frame_count"
            case checkpointIndex = "checkpoint_index"
        }
    }

    /// H1...Hn, one per frame.
    public var frameHashes: [ChainHash]
    public var checkpoints: [Checkpoint]
    public var finalHash: ChainHash?
    public var attestation: Attestation?

    public init(
        frameHashes: [ChainHash], checkpoints: [Checkpoint], finalHash: ChainHash?, attestation: Attestation?
    ) {
        self.frameHashes = frameHashes
        self.checkpoints = checkpoints
        self.finalHash = finalHash
        self.attestation = attestation
    }

    enum CodingKeys: String, CodingKey {
        case frameHashes = "frame_hashes"
        case checkpoints
        case finalHash = "final_hash"
        case attestation
    }

    /// The chain the phone computes for `frames`: every hash, a checkpoint at each
    /// multiple of 150 (at most 3), the final hash, and the attestation: over the final
    /// hash, or when `interruptedAtCheckpoint` is set, over that checkpoint's hash (the
    /// recording was cut before it could attest its end).
    public static func chain(_ frames: some Sequence<ChainFrame>, interruptedAtCheckpoint: Int? = nil)
        -> HashChainRecord
    {
        var hashes: [ChainHash] = []
        var checkpoints: [Checkpoint] = []
        for frame in frames {
            let hash = FrameHashLayout.hash(frame, previous: hashes.last)
            hashes.append(hash)
            if let index = FrameHashLayout.checkpointIndex(atFrame: hashes.count) {
                checkpoints.append(Checkpoint(index: index, hash: hash))
            }
        }
        let attestation: Attestation? =
            if let index = interruptedAtCheckpoint {
                checkpoints.first { $0.index == index }.map {
                    Attestation(attestedHash: $0.hash, frameCount: hashes.count, checkpointIndex: index)
                }
            } else {
                hashes.last.map { Attestation(attestedHash: $0, frameCount: hashes.count) }
            }
        return HashChainRecord(
            frameHashes: hashes, checkpoints: checkpoints, finalHash: hashes.last, attestation: attestation)
    }
}
