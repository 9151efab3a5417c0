import Foundation
import RialMedia
import RialProvenance
import Testing

@testable import RialSynth

/// The video simulator: deterministic, the product's recording layout (methods.md
/// section 6, PRD 1.1 FR47-FR50), a moving camera within the documented hand-held
/// ranges. Sizes are small to keep the debug suite fast.
@Suite struct VideoGeneratorTests {
    static let small = VideoOptions(width: 48, height: 36, frameCount: 10, depthWidth: 16, depthHeight: 12)

    /// Same (seed, index, class, options) -> identical frames, depth, chain and final
    /// hash; another seed -> another final hash.
    @Test(arguments: SynthClass.allCases)
    func sameSeedSameRecording(_ c: SynthClass) throws {
        let a = VideoGenerator.generate(index: 2, seed: 11, class: c, options: Self.small)
        let b = VideoGenerator.generate(index: 2, seed: 11, class: c, options: Self.small)
        #expect(a == b)
        #expect(a.recording.chain.finalHash == b.recording.chain.finalHash)
        let other = VideoGenerator.generate(index: 2, seed: 12, class: c, options: Self.small)
        #expect(other.recording.chain.finalHash != a.recording.chain.finalHash)
    }

    /// The layout of methods.md section 6: 30 fps (timestamps n / 30), NV12 frames of
    /// 1.5 bytes per pixel, depth keyframes on every 3rd frame (10 fps) carried as
    /// float32 bytes in the chain frame, and a chain that recomputes from the frames.
    @Test func recordingLayout() throws {
        let video = VideoGenerator.generate(index: 0, seed: 5, class: .realScene, options: Self.small)
        let r = video.recording
        #expect(r.frames.count == 10)
        #expect(r.framesPerSecond == 30)
        #expect(r.frameWidth == 48 && r.frameHeight == 36)
        for (n, frame) in r.frames.enumerated() {
            #expect(frame.timestamp == Double(n) / 30)
            #expect(frame.pixels.count == 48 * 36 * 3 / 2)
            // Keyframes at frames 0, 3, 6, 9: 16 x 12 float32 values.
            #expect(frame.depth.count == (n % 3 == 0 ? 16 * 12 * 4 : 0))
        }
        #expect(r.keyframes.count == 4)
        #expect(r.keyframes.frames.map(\.videoFrameIndex) == [0, 3, 6, 9])
        #expect(r.keyframes.frames.map(\.timestamp) == [0, 0.1, 0.2, 0.3])
        #expect(r.keyframes.width == 16 && r.keyframes.height == 12)
        // The keyframe's bytes are its metres, little-endian float32.
        let first = r.keyframes.frames[0].depth.metres
        let decoded = stride(from: 0, to: r.frames[0].depth.count, by: 4).map { i in
            Float(bitPattern: r.frames[0].depth[i..<i + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        #expect(zip(decoded, first).allSatisfy { $0.bitPattern == $1.bitPattern })
        var source = InMemoryFrameSource(r.frames)
        let verification = try HashChainVerifier.verify(&source, against: r.chain)
        #expect(verification.status == .intact)
        #expect(verification.attestedFrames == 10)
        #expect(r.chain.attestation?.frameCount == 10)
    }

    /// The camera moves: poses differ frame to frame, so do the frames; the scene seen
    /// is the photo sample's (same parameters).
    @Test func cameraMoves() {
        let video = VideoGenerator.generate(index: 1, seed: 3, class: .printedPaper, options: Self.small)
        let photo = SynthGenerator.sampleParameters(index: 1, seed: 3, class: .printedPaper, width: 48, height: 36)
        #expect(video.parameters == photo)
        #expect(video.poses.count == 10)
        #expect(Set(video.poses.map(\.positionM)).count == 10)
        #expect(video.recording.frames[0].pixels != video.recording.frames[9].pixels)
        #expect(video.recording.keyframes.frames[0].depth != video.recording.keyframes.frames[3].depth)
    }

    /// The drawn trajectories stay within the documented hand-held ranges
    /// (`HandheldTrajectory`: drift 3-10 mm and 0.2-1 degree rms per axis at 0.1-1 Hz,
    /// tremor 8-12 Hz, sweep 0-8 cm), measured on the poses over a long window.
    @Test func trajectoryMagnitudes() {
        for index in 0..<20 {
            var rng = SynthRandom(seed: UInt64(index), stream: 6)
            let trajectory = HandheldTrajectory.sample(fixationM: 0.5, rng: &rng)
            #expect(HandheldTrajectory.sweepM.contains(trajectory.sweepM))
            for (axis, waves) in trajectory.drift.enumerated() {
                let rms = (waves.reduce(0) { $0 + $1.amplitude * $1.amplitude } / 2).squareRoot()
                let range =
                    axis < 3
                    ? HandheldTrajectory.driftTranslationMm.lowerBound * 1e-3...HandheldTrajectory.driftTranslationMm
                        .upperBound * 1e-3
                    : HandheldTrajectory.driftRotationDeg.lowerBound * .pi / 180...HandheldTrajectory.driftRotationDeg
                        .upperBound * .pi / 180
                #expect(range.lowerBound * 0.999 <= rms && rms <= range.upperBound * 1.001)
                #expect(waves.allSatisfy { HandheldTrajectory.driftHz.contains($0.hz) })
            }
            for waves in trajectory.tremor {
                #expect(waves.allSatisfy { HandheldTrajectory.tremorHz.contains($0.hz) })
            }
            // A sum of k sinusoids of rms r never exceeds sqrt(2 k) r: per axis the drift
            // stays within sqrt(6) x 10 mm and sqrt(6) x 1 degree, the tremor within
            // 2 x 0.03 mm and 2 x 0.03 degree; over 15 s the camera centre stays within
            // sweep / 2 plus sqrt(3) x that of the reference centre.
            let translation = 6.0.squareRoot() * 0.010 + 2 * 0.03e-3
            let rotation = (6.0.squareRoot() * 1 + 2 * 0.03) * .pi / 180
            for n in stride(from: 0, through: 450, by: 5) {
                let pose = trajectory.pose(at: Double(n) / 30, duration: 15)
                let p = pose.positionM
                let distance = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).squareRoot()
                #expect(distance <= Double(trajectory.sweepM) / 2 + 3.0.squareRoot() * translation + 1e-6)
                #expect(pose.yawPitchRollRad.allSatisfy { abs($0) <= rotation + 1e-9 })
            }
        }
    }

    /// The sweep starts at -sweep/2 and ends at +sweep/2 along its direction (the ease
    /// (1 - cos)/2), without drift or tremor (to 1e-8 m: the sweep is a Float).
    @Test func sweepEndpoints() {
        let trajectory = HandheldTrajectory(fixationM: 1, sweepM: 0.06, sweepDirectionDeg: 0)
        #expect(abs(trajectory.pose(at: 0, duration: 2).positionM[0] + 0.03) < 1e-8)
        #expect(abs(trajectory.pose(at: 1, duration: 2).positionM[0]) < 1e-8)
        #expect(abs(trajectory.pose(at: 2, duration: 2).positionM[0] - 0.03) < 1e-8)
        // Aimed at (0, 0, 1) from (-0.03, 0, 0): the optical axis turns right by
        // atan(0.03 / 1).
        let axes = trajectory.pose(at: 0, duration: 2).axes
        #expect(abs(axes.forward.x - sin(atan(Float(0.03)))) < 1e-6)
    }

    /// A turned view with the identity axes renders what the unturned view renders
    /// (same rays, same tiles up to the order of equal bounds).
    @Test func identityAxesRenderAsBefore() {
        let p = SynthGenerator.sampleParameters(index: 0, seed: 9, class: .realScene, width: 48, height: 36)
        let scene = SynthGenerator.buildScene(p, textures: [])
        let plain = CameraView(origin: .zero, width: 48, height: 36, focal: p.focalPx)
        var turned = plain
        turned.axes = CameraAxes(right: Vec3(1, 0, 0), down: Vec3(0, 1, 0), forward: Vec3(0, 0, 1))
        let a = SceneRenderer(scene: scene, view: plain, rowGains: nil).render()
        let b = SceneRenderer(scene: scene, view: turned, rowGains: nil).render()
        #expect(a.depth == b.depth)
        #expect(a.base == b.base)
    }

    /// Options outside the product's limits are refused with one line.
    @Test func optionProblems() {
        #expect(VideoOptions().problem == nil)
        #expect(VideoOptions(width: 33).problem != nil)
        #expect(VideoOptions(frameCount: 451).problem != nil)
        #expect(VideoOptions(frameCount: 0).problem != nil)
        #expect(VideoOptions(frameCount: 149, interruptedAtCheckpoint: 0).problem != nil)
        #expect(VideoOptions(frameCount: 150, interruptedAtCheckpoint: 0).problem == nil)
        #expect(VideoOptions(frameCount: 300, interruptedAtCheckpoint: 3).problem != nil)
    }

    /// NV12 by the JFIF 1.02 full-range equations (Y = 0.299 R + 0.587 G + 0.114 B,
    /// Cb = 128 - 0.168736 R - 0.331264 G + 0.5 B, Cr = 128 + 0.5 R - 0.418688 G
    /// - 0.081312 B): white -> (255, 128, 128); red -> Y 76.245 -> 76, Cb 84.97 -> 85,
    /// Cr 255.5 -> 255 (clamped); the chroma of a 2 x 2 block is that of its mean.
    @Test func nv12Values() throws {
        let white: [UInt8] = [255, 255, 255], red: [UInt8] = [255, 0, 0]
        let row = white + red + white + white
        let image = try #require(Image8(width: 4, height: 2, channels: 3, samples: row + row))
        let nv12 = NV12.encode(image)
        #expect(nv12.count == 12)
        #expect(Array(nv12[0..<4]) == [255, 76, 255, 255])
        // Block 0 is two white and two red pixels: mean (255, 127.5, 127.5):
        // Cb = 128 - 43.028 - 42.236 + 63.75 = 106.49 -> 106; Cr = 128 + 127.5 - 53.383
        // - 10.367 = 191.75 -> 192. Block 1 is white.
        #expect(Array(nv12[8..<12]) == [106, 192, 128, 128])
    }
}
