/// Recomputes a recording's hash chain from its frames (methods.md section 6; PRD 1.1
/// FR52 "Backend verifies video hash chain integrity"), which the deployed verifier never
/// does, and places the first frame that does not verify.
///
/// Algorithm, streaming (one frame in memory, one more on a mismatch):
/// 1. For frame n, H'n = `FrameHashLayout.hash(frame, previous: H'(n-1))`.
/// 2. H'n equals the recorded Hn: continue; at a checkpoint frame the checkpoint's hash
///    must equal H'n too (else `checkpointMismatch` at that frame).
/// 3. H'n differs: frame n is bad. With the recorded H(n-1) as the previous hash and the
///    next frame read ahead: frame n hashing to the recorded H(n+1) means frame n is the
///    recorded frame n+1 (`dropped`); the next frame hashing to Hn means it is the
///    recorded frame n (`inserted`); both (`reordered`, a swap); neither (`modified`).
/// 4. More frames than recorded hashes: `inserted` at the first extra frame; fewer:
///    `truncated` at the first missing one.
/// 5. The recorded final hash must be the last H' (`finalHashMismatch`). The
///    attestation: complete, its hash and frame count must be the last H' and the frames
///    read; partial (checkpoint c), its hash must be H' of frame (c+1) x 150. An attested
///    frame count above the frames read is `truncated` at the first missing frame.
public enum HashChainVerifier {
    /// Verifies `source` against `record`.
    /// - Throws: only what `source` throws when it cannot read a frame.
    public static func verify(_ source: inout some ChainFrameSource, against record: HashChainRecord) throws
        -> HashChainVerification
    {
        let recorded = record.frameHashes
        let named = record.checkpoints.map(\.index) + [record.attestation?.checkpointIndex].compactMap { $0 }
        if let bad = named.first(where: { !FrameHashLayout.checkpointIndices.contains($0) }) {
            return HashChainVerification(
                status: .broken, framesRead: 0, firstBadFrame: nil, tamper: .malformed, attestedFrames: 0,
                detail: "checkpoint index \(bad) is not in 0...\(FrameHashLayout.maximumCheckpoints - 1)")
        }
        let checkpoints = Dictionary(record.checkpoints.map { ($0.index, $0.hash) }, uniquingKeysWith: { a, _ in a })
        var previous: ChainHash?
        var read = 0
        var recomputedAtCheckpoint: [Int: ChainHash] = [:]
        func broken(_ tamper: HashChainVerification.Tamper, at frame: Int?, _ detail: String) -> HashChainVerification {
            HashChainVerification(
                status: .broken, framesRead: read, firstBadFrame: frame, tamper: tamper,
                attestedFrames: attestedPrefix(), detail: detail)
        }
        // A partial attestation stays valid when the break comes after its checkpoint.
        func attestedPrefix() -> Int {
            guard let attestation = record.attestation, let index = attestation.checkpointIndex,
                let hash = recomputedAtCheckpoint[index], hash == attestation.attestedHash
            else { return 0 }
            return FrameHashLayout.checkpointFrame(index: index)
        }

        while let frame = try source.nextFrame() {
            read += 1
            let n = read
            let hash = FrameHashLayout.hash(frame, previous: previous)
            guard n <= recorded.count else {
                return broken(.inserted, at: n, "frame \(n) is beyond the \(recorded.count) recorded frames")
            }
            if hash != recorded[n - 1] {
                let expectedPrevious = n > 1 ? recorded[n - 2] : nil
                let isNextRecorded =
                    n < recorded.count && FrameHashLayout.hash(frame, previous: recorded[n - 1]) == recorded[n]
                let next = try source.nextFrame()
                let nextIsThisRecorded =
                    next.map { FrameHashLayout.hash($0, previous: expectedPrevious) == recorded[n - 1] } ?? false
                let tamper: HashChainVerification.Tamper =
                    switch (isNextRecorded, nextIsThisRecorded) {
                    case (true, true): .reordered
                    case (true, false): .dropped
                    case (false, true): .inserted
                    case (false, false): .modified
                    }
                return broken(tamper, at: n, "frame \(n) does not hash to the recorded chain (\(tamper.rawValue))")
            }
            if let index = FrameHashLayout.checkpointIndex(atFrame: n) {
                recomputedAtCheckpoint[index] = hash
                if let checkpoint = checkpoints[index], checkpoint != hash {
                    return broken(.checkpointMismatch, at: n, "checkpoint \(index) is not the hash of frame \(n)")
                }
            }
            previous = hash
        }
        guard let last = previous else {
            return broken(.malformed, at: recorded.isEmpty ? nil : 1, "the recording has no frames")
        }
        if read < recorded.count {
            return broken(.truncated, at: read + 1, "the recording ends at frame \(read) of \(recorded.count) recorded")
        }
        for index in checkpoints.keys.sorted() where recomputedAtCheckpoint[index] == nil {
            return broken(
                .checkpointMismatch, at: min(FrameHashLayout.checkpointFrame(index: index), read + 1),
                "checkpoint \(index) is for frame \(FrameHashLayout.checkpointFrame(index: index)), beyond the \(read) frames"
            )
        }
        if let attestation = record.attestation, attestation.checkpointIndex == nil, attestation.frameCount > read {
            return broken(
                .truncated, at: read + 1, "the attestation is for \(attestation.frameCount) frames, \(read) read")
        }
        if let final = record.finalHash, final != last {
            return broken(.finalHashMismatch, at: read, "the final hash is not the hash of the last frame \(read)")
        }
        guard let attestation = record.attestation else {
            return HashChainVerification(
                status: .unattested, framesRead: read, firstBadFrame: nil, tamper: nil, attestedFrames: 0,
                detail: "the \(read) frames recompute to the recorded chain, but no attestation covers it")
        }
        if let index = attestation.checkpointIndex {
            guard let hash = recomputedAtCheckpoint[index] else {
                return broken(
                    .malformed, at: nil,
                    "the partial attestation names checkpoint \(index), which the recording does not reach")
            }
            guard hash == attestation.attestedHash else {
                return broken(
                    .attestationMismatch, at: nil, "the attested checkpoint \(index) hash is not the recomputed one")
            }
            let frames = FrameHashLayout.checkpointFrame(index: index)
            return HashChainVerification(
                status: .partial, framesRead: read, firstBadFrame: nil, tamper: nil, attestedFrames: frames,
                detail: "interrupted recording: frames 1-\(frames) attested by checkpoint \(index), \(read) read")
        }
        guard attestation.attestedHash == last, attestation.frameCount == read else {
            return broken(
                .attestationMismatch, at: nil, "the attested final hash or frame count is not the recomputed one")
        }
        return HashChainVerification(
            status: .intact, framesRead: read, firstBadFrame: nil, tamper: nil, attestedFrames: read,
            detail: "all \(read) frames recompute to the attested chain")
    }
}
