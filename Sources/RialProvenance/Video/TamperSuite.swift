import RialMedia

/// One recording of a tamper suite: an intact control or a tampered copy, labelled with
/// what was done and where, and what a verifier recomputing the chain must report.
public struct TamperedRecording: Sendable, Equatable {
    /// `intact` for controls, else the `HashChainVerification.Tamper` raw value.
    public var kind: String
    /// The tamper (nil for controls).
    public var tamper: HashChainVerification.Tamper?
    /// The 1-based frame where the tamper was introduced (nil for controls): the
    /// modified, dropped (its original position), inserted or first swapped frame, the
    /// first missing frame of a truncation, the checkpoint's frame, the last frame for
    /// a wrong final hash, the modified frame under a rewritten chain.
    public var frame: Int?
    /// What a verifier recomputing the chain must report: the status (`intact`,
    /// `partial` for an interrupted control, `broken` for every tamper) and the first
    /// bad frame (the introduced frame, except for an attestation mismatch: a rewritten
    /// chain is consistent with its frames, only the signed hash betrays it, and that
    /// hash cannot say where the recording was changed: nil).
    public var expectedStatus: HashChainVerification.Status
    public var expectedFirstBadFrame: Int?
    /// One line: what was done.
    public var detail: String
    public var recording: VideoRecording

    public init(
        kind: String, tamper: HashChainVerification.Tamper?, frame: Int?,
        expectedStatus: HashChainVerification.Status, expectedFirstBadFrame: Int?, detail: String,
        recording: VideoRecording
    ) {
        self.kind = kind
        self.tamper = tamper
        self.frame = frame
        self.expectedStatus = expectedStatus
        self.expectedFirstBadFrame = expectedFirstBadFrame
        self.detail = detail
        self.recording = recording
    }

    /// The control label.
    public static let intactKind = "intact"
}

/// Labelled tampered copies of an intact recording, and intact controls: what the hash
/// chain verification of methods.md section 6 must catch (issue 15 item 3: a modified,
/// dropped, inserted or reordered frame, a truncated recording, a wrong checkpoint) and
/// what it must not flag (the recording itself; an interrupted recording attested at a
/// checkpoint, PRD 1.1 FR50).
///
/// Lives beside the chain rather than in the simulator: it needs only a
/// `VideoRecording`, so recordings read from a video dataset get the same suite as
/// simulated ones.
///
/// Cases, each from the one source recording (n frames, complete attestation):
/// - `intact`: the recording unchanged (expect `intact`);
/// - `intact` (interrupted, n >= 150): the chain the phone computes when the recording
///   is cut before it can attest its end, attested at a checkpoint the recording reaches,
///   drawn from the seed (expect `partial`);
/// - `modified`: frame k's pixels changed (a 4 x 4 luma block inverted, one chroma pair
///   swapped);
/// - `dropped`: frame k removed;
/// - `inserted`: a frame not in the recording put before frame k (the mean of frames
///   k-1 and k, timestamp between theirs: what a frame interpolator or splice adds);
/// - `reordered`: frames k and k+1 swapped;
/// - `truncated`: frames k...n removed;
/// - `checkpoint_mismatch` (n > 150): a checkpoint before frame n, drawn from the seed,
///   has one bit flipped, at its frame;
/// - `final_hash_mismatch`: the recorded final hash has one bit flipped (frame n);
/// - `attestation_mismatch`: frame k modified and the chain (hashes, checkpoints, final
///   hash) recomputed over the changed frames, the device's attestation kept.
/// k is drawn from `SplitMix64(seed)` per case in 2...n-1 (2...n-2 for a swap): never the
/// first frame, and not the last except where the layout fixes it (the final hash).
/// Depth keyframes follow their frames (`videoFrameIndex` renumbered).
public enum TamperSuite {
    /// Why a recording cannot seed a suite.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooShort(frames: Int)
        case notIntact(String)

        public var description: String {
            switch self {
            case .tooShort(let frames): "a tamper suite needs a recording of at least 4 frames, not \(frames)"
            case .notIntact(let why): "a tamper suite needs an intact, completely attested recording: \(why)"
            }
        }
    }

    /// The suite for `recording` (which must verify as intact: its chain is the one
    /// `HashChainRecord.chain` computes over its frames, attested over the final hash).
    /// - Throws: `Problem` when the recording is shorter than 4 frames or not intact.
    public static func make(from recording: VideoRecording, seed: UInt64) throws(Problem) -> [TamperedRecording] {
        let n = recording.frames.count
        guard n >= 4 else { throw .tooShort(frames: n) }
        let recomputed = HashChainRecord.chain(recording.frames)
        guard recomputed == recording.chain else {
            throw .notIntact("its chain is not the one its frames compute, or not attested over the final hash")
        }
        var rng = SplitMix64(seed: seed ^ 0x7A3B_E5C1_0D15_EA5E)
        /// A 1-based frame in `range`.
        func pick(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(rng.bounded(UInt64(range.count)))
        }
        var cases: [TamperedRecording] = []
        func add(
            _ tamper: HashChainVerification.Tamper?, frame: Int?, status: HashChainVerification.Status? = nil,
            firstBad: Int?? = nil, _ detail: String, _ changed: VideoRecording
        ) {
            cases.append(
                TamperedRecording(
                    kind: tamper?.rawValue ?? TamperedRecording.intactKind, tamper: tamper, frame: frame,
                    expectedStatus: status ?? (tamper == nil ? .intact : .broken),
                    expectedFirstBadFrame: firstBad ?? frame, detail: detail, recording: changed))
        }

        add(nil, frame: nil, "the recording unchanged", recording)
        let reached = FrameHashLayout.checkpointIndices.filter { FrameHashLayout.checkpointFrame(index: $0) <= n }
        if !reached.isEmpty {
            let index = reached[pick(1...reached.count) - 1]
            var interrupted = recording
            interrupted.chain = HashChainRecord.chain(recording.frames, interruptedAtCheckpoint: index)
            add(
                nil, frame: nil, status: .partial,
                "interrupted: attested at checkpoint \(index) (frame \(FrameHashLayout.checkpointFrame(index: index)))",
                interrupted)
        }

        var frames = Edit(recording)
        let modified = pick(2...(n - 1))
        frames.modify(modified)
        add(.modified, frame: modified, "frame \(modified)'s pixels changed", frames.recording(chain: recording.chain))

        frames = Edit(recording)
        let dropped = pick(2...(n - 1))
        frames.items.remove(at: dropped - 1)
        add(.dropped, frame: dropped, "frame \(dropped) removed", frames.recording(chain: recording.chain))

        frames = Edit(recording)
        let inserted = pick(2...(n - 1))
        frames.insertInterpolated(before: inserted)
        add(
            .inserted, frame: inserted, "an interpolated frame put before frame \(inserted)",
            frames.recording(chain: recording.chain))

        frames = Edit(recording)
        let swapped = pick(2...(n - 2))
        frames.items.swapAt(swapped - 1, swapped)
        add(
            .reordered, frame: swapped, "frames \(swapped) and \(swapped + 1) swapped",
            frames.recording(chain: recording.chain))

        frames = Edit(recording)
        let cut = pick(2...(n - 1))
        frames.items.removeSubrange((cut - 1)...)
        add(.truncated, frame: cut, "frames \(cut)-\(n) removed", frames.recording(chain: recording.chain))

        // A checkpoint before the last frame (one at the last frame would be caught, but
        // at the frame the final hash also covers).
        let inside = reached.filter { FrameHashLayout.checkpointFrame(index: $0) < n }
        if !inside.isEmpty {
            let index = inside[pick(1...inside.count) - 1]
            var changed = recording
            if let k = changed.chain.checkpoints.firstIndex(where: { $0.index == index }) {
                changed.chain.checkpoints[k].hash = flipped(changed.chain.checkpoints[k].hash)
                let frame = FrameHashLayout.checkpointFrame(index: index)
                add(
                    .checkpointMismatch, frame: frame, "checkpoint \(index) (frame \(frame)) has a bit flipped", changed
                )
            }
        }

        var wrongFinal = recording
        wrongFinal.chain.finalHash = recording.chain.finalHash.map(flipped)
        add(.finalHashMismatch, frame: n, "the final hash has a bit flipped", wrongFinal)

        frames = Edit(recording)
        let rewritten = pick(2...(n - 1))
        frames.modify(rewritten)
        var rewrittenChain = HashChainRecord.chain(frames.items.map(\.frame))
        rewrittenChain.attestation = recording.chain.attestation
        add(
            .attestationMismatch, frame: rewritten, firstBad: .some(nil),
            "frame \(rewritten) changed and the chain recomputed; the device's attestation kept",
            frames.recording(chain: rewrittenChain))
        return cases
    }

    /// `hash` with the lowest bit of its first byte flipped.
    static func flipped(_ hash: ChainHash) -> ChainHash {
        var bytes = hash.bytes
        bytes[0] ^= 1
        return ChainHash(bytes: bytes)
    }

    /// The frames of a recording with their depth keyframes, edited together.
    struct Edit {
        var items: [(frame: ChainFrame, keyframe: DepthKeyframe?)]
        let width: Int
        let height: Int
        let frameWidth: Int
        let frameHeight: Int
        let framesPerSecond: Double

        init(_ recording: VideoRecording) {
            var byFrame: [Int: DepthKeyframe] = [:]
            for keyframe in recording.keyframes.frames {
                if let index = keyframe.videoFrameIndex { byFrame[index] = keyframe }
            }
            items = recording.frames.enumerated().map { ($0.element, byFrame[$0.offset]) }
            width = recording.keyframes.width
            height = recording.keyframes.height
            frameWidth = recording.frameWidth
            frameHeight = recording.frameHeight
            framesPerSecond = recording.framesPerSecond
        }

        /// Frame `frame` (1-based): a 4 x 4 luma block at the centre inverted and the
        /// first chroma pair swapped (or, for a buffer too small, every byte inverted).
        mutating func modify(_ frame: Int) {
            var pixels = items[frame - 1].frame.pixels
            let w = frameWidth, h = frameHeight
            if w >= 4, h >= 4, pixels.count == VideoRecording.nv12FrameBytes(width: w, height: h) {
                for y in (h / 2 - 2)..<(h / 2 + 2) { for x in (w / 2 - 2)..<(w / 2 + 2) { pixels[y * w + x] ^= 0xFF } }
                pixels.swapAt(w * h, w * h + 1)
                if pixels == items[frame - 1].frame.pixels { pixels[w * h] ^= 0xFF }
            } else {
                pixels = pixels.isEmpty ? [0] : pixels.map { $0 ^ 0xFF }
            }
            items[frame - 1].frame.pixels = pixels
        }

        /// A frame before `frame` (1-based, at least 2): the byte-wise mean of frames
        /// frame-1 and frame, no depth, timestamp halfway.
        mutating func insertInterpolated(before frame: Int) {
            let a = items[frame - 2].frame, b = items[frame - 1].frame
            var pixels =
                a.pixels.count == b.pixels.count
                ? zip(a.pixels, b.pixels).map { UInt8((UInt16($0) + UInt16($1) + 1) / 2) } : a.pixels
            // Two equal frames would give a copy of one: not a new frame.
            if pixels == a.pixels || pixels == b.pixels { pixels = pixels.isEmpty ? [0] : pixels.map { $0 ^ 0x55 } }
            let inserted = ChainFrame(pixels: pixels, timestamp: (a.timestamp + b.timestamp) / 2)
            items.insert((inserted, nil), at: frame - 1)
        }

        /// The edited recording with `chain`; keyframes renumbered to their frames.
        func recording(chain: HashChainRecord) -> VideoRecording {
            let keyframes = items.enumerated().compactMap { offset, item in
                item.keyframe.map { DepthKeyframe(timestamp: $0.timestamp, videoFrameIndex: offset, depth: $0.depth) }
            }
            // Keyframes keep their order (a swap of adjacent frames never passes another
            // keyframe: they are 3 frames apart), so the sequence stays valid; an
            // invalid one falls back to no keyframes rather than failing.
            let sequence =
                keyframes.isEmpty
                ? DepthKeyframes(width: width, height: height)
                : (try? DepthKeyframes(keyframes)) ?? DepthKeyframes(width: width, height: height)
            return VideoRecording(
                frameWidth: frameWidth, frameHeight: frameHeight, framesPerSecond: framesPerSecond,
                frames: items.map(\.frame), keyframes: sequence, chain: chain)
        }
    }
}
