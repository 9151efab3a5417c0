import Foundation
import RialCodecs
import RialMedia
import RialProvenance

/// `rial-bench bench-chain`: hash chain verification of a full-length recording from raw
/// frames against OpenSSL's own SHA-256 throughput measured in the same run (issue 15,
/// "Performance": at least 80 %).
///
/// The recording is 15 s of 1920x1080 at 30 fps (450 frames, PRD 1.1 FR47) with a
/// 256x192 float32 depth keyframe on every 3rd frame (10 fps). Frame bytes are either the
/// NV12 buffer the phone hashes (`ARFrame.capturedImage`, 4:2:0 bi-planar, 1.5 bytes per
/// pixel: 3,110,400 bytes) or 4-byte RGBA (8,294,400 bytes). Eight distinct frame buffers
/// and two depth buffers are cycled (every frame still hashes differently: its timestamp
/// and the previous hash differ), so memory stays bounded at the frame sizes the chain
/// reads. The chain is computed once (not timed); each iteration verifies all 450 frames
/// with `HashChainVerifier`.
///
/// The baseline is one `EVP_DigestUpdate` of SHA-256 over a 64 MiB buffer (what
/// `openssl speed -evp sha256` measures at its largest block, without the 16 KiB block
/// loop). Baseline and chain iterations alternate so both see the same machine load;
/// throughputs compare medians. Both are wall-clock, as `openssl speed -elapsed -evp
/// sha256`; plain `openssl speed` divides by user CPU time, which reads higher on a
/// loaded machine.
public enum ChainBenchmark {
    /// The frame byte layout the chain hashes.
    public enum FrameFormat: String, Sendable, Codable, CaseIterable {
        /// YCbCr 4:2:0 bi-planar (the phone's capture buffer), 1.5 bytes per pixel.
        case nv12
        /// 8-bit RGBA, 4 bytes per pixel.
        case rgba

        public func byteCount(width: Int, height: Int) -> Int {
            switch self {
            case .nv12: width * height * 3 / 2
            case .rgba: width * height * 4
            }
        }
    }

    /// The share of OpenSSL's throughput the chain must reach (issue 15).
    public static let targetRatio = 0.8
    /// The baseline buffer: 64 MiB.
    public static let baselineByteCount = 64 << 20

    public struct Report: Sendable, Codable {
        public var schema = "rial-bench-bench-chain/1"
        public var build: String
        public var environment: RunEnvironment
        public var frames: Int
        public var width: Int
        public var height: Int
        public var frameFormat: FrameFormat
        public var frameBytes: Int
        public var depthKeyframes: Int
        public var depthBytes: Int
        /// Bytes one verification hashes (frames, depth, timestamps, previous hashes).
        public var bytesHashed: Int
        /// One full verification, ms.
        public var verify: LatencyStatistics
        /// One SHA-256 over `baselineByteCount` bytes, ms.
        public var openSSLBaseline: LatencyStatistics
        /// MB/s (10^6 bytes) at the median.
        public var chainMBps: Double
        public var openSSLMBps: Double
        public var ratio: Double
        public var targetRatio: Double
        /// `PASS`, `FAIL`, or `n/a` outside release builds.
        public var verdict: String
        /// The verifier's status on the benchmark recording (must be `intact`).
        public var chainStatus: String
        /// Where the verifier read the frames: `memory`, or `file` (a raw frame sequence,
        /// `.rlfs`, streamed with one frame in memory; the page cache is warm, so the disk
        /// is not measured).
        public var source: String = Source.memory.rawValue

        enum CodingKeys: String, CodingKey {
            case schema, build, environment, frames, width, height
            case frameFormat = "frame_format"
            case frameBytes = "frame_bytes"
            case depthKeyframes = "depth_keyframes"
            case depthBytes = "depth_bytes"
            case bytesHashed = "bytes_hashed"
            case verify
            case openSSLBaseline = "openssl_baseline"
            case chainMBps = "chain_mb_per_s"
            case openSSLMBps = "openssl_mb_per_s"
            case ratio
            case targetRatio = "target_ratio"
            case verdict
            case chainStatus = "chain_status"
            case source
        }

        public var passed: Bool { verdict != "FAIL" && chainStatus == HashChainVerification.Status.intact.rawValue }
    }

    /// The benchmark recording: 450 frames sharing eight frame and two depth buffers.
    public static func recording(format: FrameFormat, width: Int = 1920, height: Int = 1080) -> [ChainFrame] {
        var random = SplitMix64(seed: 15)
        func buffer(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let pixels = (0..<8).map { _ in buffer(format.byteCount(width: width, height: height)) }
        let depth = (0..<2).map { _ in buffer(256 * 192 * 4) }
        return (0..<FrameHashLayout.maximumFrames).map { i in
            ChainFrame(
                pixels: pixels[i % pixels.count], depth: i % 3 == 0 ? depth[(i / 3) % 2] : [], timestamp: Double(i) / 30
            )
        }
    }

    /// Where the verifier reads the recording's frames.
    public enum Source: String, Sendable, CaseIterable {
        /// `InMemoryFrameSource`: hashing alone.
        case memory
        /// A raw frame sequence file (`RawFrameSequenceReader`, NV12 only): what `run` does
        /// for a video sample's `frames`, reading included.
        case file
    }

    /// Runs `iterations` measured (and `warmup` unmeasured) rounds of baseline then chain.
    ///
    /// - Parameter file: with `source` `.file`, where to write the recording's `.rlfs`
    ///   (removed at the end).
    /// - Throws: only for `.file`, what writing or opening the sequence throws (`.file`
    ///   with the `rgba` format is refused: the sequence holds NV12).
    public static func run(
        format: FrameFormat, iterations: Int, warmup: Int, build: String, source: Source = .memory,
        file: String? = nil
    ) throws -> Report {
        if source == .file, format != .nv12 || file == nil {
            throw MediaError(
                .invalidArgument, source: file ?? inMemorySource, "a raw frame sequence holds NV12 frames only")
        }
        let frames = recording(format: format)
        let record = HashChainRecord.chain(frames)
        var depthByFrame: [Int: [UInt8]] = [:]
        if source == .file, let file {
            try RawFrameSequence.write(frames, width: 1920, height: 1080, to: file)
            for (i, frame) in frames.enumerated() where !frame.depth.isEmpty { depthByFrame[i] = frame.depth }
        }
        defer { if source == .file, let file { try? FileManager.default.removeItem(atPath: file) } }
        let baseline = [UInt8](repeating: 0xa5, count: baselineByteCount)
        let clock = ContinuousClock()
        var chainTimes: [Double] = [], baselineTimes: [Double] = []
        var status = ""
        for round in 0..<(warmup + iterations) {
            var start = clock.now
            var hasher = SHA256Hasher()
            hasher.update(baseline)
            _ = hasher.finalize()
            let baselineMs = (clock.now - start).milliseconds
            start = clock.now
            let result: HashChainVerification?
            switch source {
            case .memory:
                var frameSource = InMemoryFrameSource(frames)
                result = try? HashChainVerifier.verify(&frameSource, against: record)
            case .file:
                var frameSource = try RawFrameSequenceReader(path: file!, depth: depthByFrame)
                result = try? HashChainVerifier.verify(&frameSource, against: record)
            }
            let chainMs = (clock.now - start).milliseconds
            status = result?.status.rawValue ?? "error"
            if round >= warmup {
                baselineTimes.append(baselineMs)
                chainTimes.append(chainMs)
            }
        }
        let depthFrames = frames.filter { !$0.depth.isEmpty }
        let bytes = frames.reduce(0) { $0 + $1.pixels.count + $1.depth.count + 8 } + (frames.count - 1) * 32
        let verify = LatencyStatistics(milliseconds: chainTimes)
        let openSSL = LatencyStatistics(milliseconds: baselineTimes)
        let chainMBps = Double(bytes) / 1e6 / (verify.p50 / 1000)
        let openSSLMBps = Double(baselineByteCount) / 1e6 / (openSSL.p50 / 1000)
        let ratio = chainMBps / openSSLMBps
        return Report(
            build: build, environment: .current(), frames: frames.count, width: 1920, height: 1080,
            frameFormat: format, frameBytes: frames[0].pixels.count, depthKeyframes: depthFrames.count,
            depthBytes: depthFrames.first?.depth.count ?? 0, bytesHashed: bytes, verify: verify,
            openSSLBaseline: openSSL, chainMBps: chainMBps, openSSLMBps: openSSLMBps, ratio: ratio,
            targetRatio: targetRatio,
            verdict: build != "release" ? "n/a" : (ratio >= targetRatio ? "PASS" : "FAIL"), chainStatus: status,
            source: source.rawValue)
    }
}
