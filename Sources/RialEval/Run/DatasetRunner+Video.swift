import Foundation
import RialCodecs
import RialDetection
import RialMedia
import RialProvenance

extension DatasetRunner {
    /// How a still is taken from a video's raw frames: the phone's NV12 capture buffers
    /// are BT.601 video range by default (`NV12Conversion`).
    static let stillMatrix = NV12Conversion.Matrix.bt601
    static let stillRange = NV12Conversion.Range.video

    /// The middle frame of an MP4/MOV (`frame_count / 2`, or frame 0 when the container
    /// does not list a count) as RGB with the still's matrix and range, its index and
    /// timestamp; decoding streams (one frame buffer) and stops there.
    /// - Throws: `MediaError` naming the file (FFmpeg's problem, or a frame size NV12 cannot hold).
    static func middleFrame(ofMP4 path: String) throws -> (image: Image8, index: Int, timestamp: Double) {
        let decoder = try VideoDecoder(path: path)
        let target = (decoder.info.frameCount ?? 1) / 2
        var nv12: [UInt8] = []
        var index = -1, timestamp = 0.0
        while index < target, let t = try decoder.nextFrame(into: &nv12) {
            index += 1
            timestamp = t
        }
        guard index >= 0 else { throw MediaError(.corrupt, source: path, "the video has no decodable frame") }
        let image = try NV12Conversion.rgb(
            nv12, width: decoder.info.width, height: decoder.info.height, matrix: stillMatrix, range: stillRange)
        return (image, index, timestamp)
    }

    /// The record of a resolved `kind: video` sample; never throws.
    ///
    /// 1. Loads the keyframes, the recorded chain and the frame header
    ///    (`DatasetLoader.loadVideo`).
    /// 2. Checks the chain: recomputed from the raw frames (`HashChainVerifier`, streaming)
    ///    when the sample has `frames`, else the deployed verifier's structural check
    ///    (`DeployedChainCheck`), which the record says.
    /// 3. The still for the photo methods: the sample's `image` when it has one, else the
    ///    middle raw frame (index frames / 2) converted NV12 -> RGB (BT.601 video range);
    ///    its depth is the keyframe nearest in time to that frame (the middle of the
    ///    recording for an `image`). With an MP4 alone, its middle frame decoded by FFmpeg
    ///    (`VideoDecoder`) and converted the same way. With none of them, or an MP4 FFmpeg
    ///    cannot read, the sample fails with that reason, its chain block still recorded.
    /// 4. Analyses the still with the keyframes (`CaptureInput.depthKeyframes`), so the
    ///    video methods run, and aggregates as for a photo.
    /// 5. The deployed video rule (`aggregation.video_rule`) from the attestation, the
    ///    chain and temporal/1's result.
    func videoRecord(_ base: SampleRecord, resolved: ResolvedSample, loader: DatasetLoader) -> SampleRecord {
        var record = base
        let clock = ContinuousClock()
        let loaded: LoadedVideoSample
        switch loader.loadVideo(resolved) {
        case .failure(let failure):
            record.status = .failed
            record.failure = .init(stage: .load, reason: failure.reason)
            return record
        case .success(let l): loaded = l
        }
        let sample = loaded.sample
        let reference = sample.video
        let files = Self.files(resolved, loader: loader)
        let keyframes = loaded.keyframes ?? DepthKeyframes(width: 0, height: 0)
        var latency: [String: Double] = [:]

        var chain: SampleRecord.Video.Chain?
        if let recorded = loaded.chain {
            let start = clock.now
            do {
                if var source = try loaded.frameSource() {
                    chain = .init(check: .recomputed, try HashChainVerifier.verify(&source, against: recorded))
                } else {
                    let why =
                        reference?.video != nil
                        ? "no raw frames, only an MP4 ('video'), whose decoded pixels are not the hashed bytes"
                        : "no raw frames ('frames')"
                    chain = .init(check: .structural, Self.structuralVerification(recorded, why: why))
                }
            } catch {
                record.status = .failed
                record.failure = .init(stage: .load, reason: "\(error)")
                return record
            }
            latency["chain_verification"] = (clock.now - start).milliseconds
        }

        let timestamps = loaded.frameHeader?.timestamps ?? []
        let keyTimes = keyframes.frames.map(\.timestamp)
        let times = timestamps.count >= 2 ? timestamps : keyTimes
        var video = SampleRecord.Video(
            frames: loaded.frameHeader?.frameCount, keyframes: keyframes.count,
            durationSeconds: times.count >= 2 ? times[times.count - 1] - times[0] : nil,
            framesPerSecond: reference?.framesPerSecond, depthVariant: loaded.keyframeVariant?.rawValue,
            still: nil, stillDepthKeyframe: nil, stillDepthNote: nil, chain: chain,
            tamper: reference?.tamper.map { .init(kind: $0.kind?.rawValue ?? TamperLabel.intact, frame: $0.frame) },
            hardware: MVPEvidenceRule.hardware(files.attestation), ruleDepth: nil, deployedLevel: .low)
        func finish(_ record: inout SampleRecord) {
            video.deployedLevel = video.level(under: plan.configuration.aggregation.videoRule)
            record.video = video
        }

        // The still and the time it was taken at.
        let stillStart = clock.now
        var input: CaptureInput
        var stillTime: Double?
        if !sample.image.isEmpty {
            var imageFiles = files
            imageFiles.depth = nil
            imageFiles.acceptJPEGWarnings = plan.acceptJPEGWarnings
            let capture: LoadedCapture
            do { capture = try CaptureLoader.load(imageFiles) } catch {
                record.status = .failed
                record.failure = .init(stage: .load, reason: error.description)
                finish(&record)
                return record
            }
            record.sha256 = capture.sha256
            if !capture.jpegWarnings.isEmpty { record.decodeWarnings = capture.jpegWarnings }
            for (key, value) in capture.latencyMs { latency[key] = value }
            input = capture.input
            video.still = "image"
            if let first = times.first, let last = times.last { stillTime = (first + last) / 2 }
        } else if let header = loaded.frameHeader, header.frameCount > 0 {
            let index = header.frameCount / 2
            let image: Image8
            do {
                guard let reader = try loaded.frameSource() else {
                    throw MediaError(.notFound, source: sample.id, "no frames")
                }
                image = try NV12Conversion.rgb(
                    try reader.pixels(ofFrame: index), width: header.width, height: header.height,
                    matrix: Self.stillMatrix, range: Self.stillRange)
            } catch {
                record.status = .failed
                record.failure = .init(stage: .load, reason: "\(error)")
                finish(&record)
                return record
            }
            input = CaptureInput(
                image: image, attestation: files.attestation, platform: files.platform,
                referenceTime: files.referenceTime, deviceModel: files.deviceModel)
            video.still = "frame \(index) (NV12 \(Self.stillMatrix.rawValue) \(Self.stillRange.rawValue) range)"
            stillTime = header.timestamps[index]
            latency["still"] = (clock.now - stillStart).milliseconds
        } else if let path = resolved.videoPath {
            // An MP4 alone: FFmpeg decodes up to the middle frame (frame count from the
            // container; the stream's timestamps say when it was taken).
            let still: (image: Image8, index: Int, timestamp: Double)
            do { still = try Self.middleFrame(ofMP4: path) } catch {
                record.status = .failed
                record.failure = .init(stage: .load, reason: (error as? MediaError)?.description ?? "\(path): \(error)")
                finish(&record)
                return record
            }
            input = CaptureInput(
                image: still.image, attestation: files.attestation, platform: files.platform,
                referenceTime: files.referenceTime, deviceModel: files.deviceModel)
            video.still =
                "MP4 frame \(still.index) (decoded by FFmpeg, NV12 \(Self.stillMatrix.rawValue) \(Self.stillRange.rawValue) range)"
            stillTime = still.timestamp
            latency["still"] = (clock.now - stillStart).milliseconds
        } else {
            record.status = .failed
            record.failure = .init(
                stage: .load,
                reason:
                    "\(sample.id): no still for the photo methods: no 'image', no raw 'frames' and no MP4 'video'; "
                    + "the hash chain was checked structurally only")
            finish(&record)
            return record
        }
        input.depthKeyframes = keyframes
        if let stillTime, !keyframes.isEmpty {
            var nearest = 0
            for (k, frame) in keyframes.frames.enumerated()
            where abs(frame.timestamp - stillTime) < abs(keyframes.frames[nearest].timestamp - stillTime) {
                nearest = k
            }
            let depth = keyframes.frames[nearest].depth
            if let misfit = DepthAlignment.misfit(
                depthWidth: depth.width, depthHeight: depth.height, imageWidth: input.image.width,
                imageHeight: input.image.height)
            {
                video.stillDepthNote = "no depth for the still: \(misfit)"
            } else {
                input.depth = depth
                video.stillDepthKeyframe = nearest
            }
        } else {
            video.stillDepthNote = "no depth for the still: the recording has no depth keyframes"
        }

        let analysis: CaptureAnalysis
        do {
            analysis = try analyzer.analyze(input, concurrent: false)
        } catch {
            record.status = .failed
            record.failure = .init(stage: .analyze, reason: error.description)
            finish(&record)
            return record
        }
        fill(&record, analysis: analysis, input: input, latency: latency)
        if case .object(let fields)? = record.methods[MethodIdentifier.temporalV1Key] {
            video.ruleDepth = VideoConfidenceRule.Depth(temporalV1: fields)
        }
        finish(&record)
        return record
    }

    /// The deployed verifier's view of a recorded chain without frames, as a verification:
    /// its failures make it `broken` (no tamper kind or frame: nothing was recomputed);
    /// passing, `intact` with a complete attestation, `partial` with a checkpoint one,
    /// `unattested` without. `detail` says that nothing was recomputed, and why.
    static func structuralVerification(_ chain: HashChainRecord, why: String) -> HashChainVerification {
        let failures = DeployedChainCheck.failures(chain)
        let prefix = "structural check only (\(why)): "
        guard failures.isEmpty else {
            return HashChainVerification(
                status: .broken, framesRead: 0, firstBadFrame: nil, tamper: nil, attestedFrames: 0,
                detail: prefix + failures.joined(separator: "; "))
        }
        guard let attestation = chain.attestation else {
            return HashChainVerification(
                status: .unattested, framesRead: 0, firstBadFrame: nil, tamper: nil, attestedFrames: 0,
                detail: prefix + "passes; nothing attests the chain")
        }
        if let index = attestation.checkpointIndex {
            return HashChainVerification(
                status: .partial, framesRead: 0, firstBadFrame: nil, tamper: nil,
                attestedFrames: FrameHashLayout.checkpointFrame(index: index),
                detail: prefix + "passes; the attestation covers checkpoint \(index)")
        }
        return HashChainVerification(
            status: .intact, framesRead: 0, firstBadFrame: nil, tamper: nil, attestedFrames: chain.frameHashes.count,
            detail: prefix + "passes; the attestation covers the final hash")
    }
}

extension MethodIdentifier {
    /// temporal/1's breakdown key (`NAME/VERSION`), read by the deployed video rule; the
    /// method itself is registered by the temporal methods.
    static let temporalV1Key = "temporal/1"
}
