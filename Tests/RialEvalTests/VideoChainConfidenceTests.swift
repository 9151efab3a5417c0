import RialDetection
import RialProvenance
import Testing

@testable import RialEval

/// A recomputed chain through the deployed video rule (methods.md section 6, "Video
/// confidence (deployed rule)"), hardware passing and depth real with consistency 0.9 and
/// stability 0.95.
@Suite struct VideoChainConfidenceTests {
    static func frames(_ count: Int) -> [ChainFrame] {
        (0..<count).map { ChainFrame(pixels: [UInt8(truncatingIfNeeded: $0), 1, 2, 3], timestamp: Double($0) / 30) }
    }

    static func level(_ frames: [ChainFrame], _ record: HashChainRecord) throws -> ConfidenceLevel {
        var source = InMemoryFrameSource(frames)
        let verification = try HashChainVerifier.verify(&source, against: record)
        return VideoConfidenceRule().level(
            hardware: .pass, chain: .init(verification),
            depth: .init(isReal: true, consistency: 0.9, stability: 0.95))
    }

    @Test func levels() throws {
        let frames = Self.frames(200)
        // "HIGH if hardware passes, the chain passes intact with a valid attestation, and depth is ... real"
        #expect(try Self.level(frames, HashChainRecord.chain(frames)) == .high)
        // "MEDIUM if ... a partial recording has a verified checkpoint and hardware passes"
        #expect(try Self.level(frames, HashChainRecord.chain(frames, interruptedAtCheckpoint: 0)) == .medium)
        // "SUSPICIOUS if ... the chain fails or is not intact"
        var tampered = frames
        tampered[42].pixels[1] = 9
        #expect(try Self.level(tampered, HashChainRecord.chain(frames)) == .suspicious)
    }
}
