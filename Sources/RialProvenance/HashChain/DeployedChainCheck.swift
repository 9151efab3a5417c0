/// The deployed backend's hash chain check, reproduced (methods.md section 6, "Deployed
/// verifier (structural only, never recomputes)"): it looks at the recorded chain alone,
/// so it passes any frames at all as long as the chain is self-consistent in form. For
/// comparison with `HashChainVerifier` where frames are available, and as the only check
/// where they are not.
///
/// Checks, each one failure line: 1...450 frames; every hash base64 of 32 bytes (a
/// `HashChainRecord` decodes only such hashes); checkpoint i equals the hash of frame
/// (i+1) x 150; the final hash is the last frame's hash; the attested hash equals the
/// final hash, or for a partial attestation its checkpoint's hash; |chain length -
/// attested frame count| <= 5; a partial attestation needs its checkpoint.
public enum DeployedChainCheck {
    /// The frame-count slack the deployed check allows.
    public static let frameCountTolerance = 5

    /// The failures (empty when the deployed check passes).
    public static func failures(_ record: HashChainRecord) -> [String] {
        var failures: [String] = []
        let hashes = record.frameHashes
        if !(1...FrameHashLayout.maximumFrames).contains(hashes.count) {
            failures.append("chain length \(hashes.count) is not in 1...\(FrameHashLayout.maximumFrames)")
        }
        for checkpoint in record.checkpoints {
            guard FrameHashLayout.checkpointIndices.contains(checkpoint.index) else {
                failures.append(
                    "checkpoint index \(checkpoint.index) is not in 0...\(FrameHashLayout.maximumCheckpoints - 1)")
                continue
            }
            let frame = FrameHashLayout.checkpointFrame(index: checkpoint.index)
            if frame > hashes.count || hashes[frame - 1] != checkpoint.hash {
                failures.append("checkpoint \(checkpoint.index) is not the hash of frame \(frame)")
            }
        }
        if record.finalHash != hashes.last {
            failures.append("final hash is not the last frame's hash")
        }
        if let attestation = record.attestation {
            if let index = attestation.checkpointIndex {
                if let checkpoint = record.checkpoints.first(where: { $0.index == index }) {
                    if checkpoint.hash != attestation.attestedHash {
                        failures.append("attested hash is not checkpoint \(index)'s hash")
                    }
                } else {
                    failures.append("partial attestation names checkpoint \(index), which the chain lacks")
                }
            } else if attestation.attestedHash != record.finalHash {
                failures.append("attested hash is not the final hash")
            }
            // Compared without subtracting, so no frame count can overflow.
            if attestation.frameCount < hashes.count - frameCountTolerance
                || attestation.frameCount > hashes.count + frameCountTolerance
            {
                failures.append(
                    "chain length \(hashes.count) and attested frame count \(attestation.frameCount) differ by more than \(frameCountTolerance)"
                )
            }
        }
        return failures
    }
}
