import Foundation
import RialMedia
import RialProvenance

/// What one simulated recording is made of: frame and depth grid sizes, length, camera.
public struct VideoOptions: Codable, Sendable, Equatable {
    /// Frame size in px (even, at least 32; NV12 needs even sizes).
    public var width: Int
    public var height: Int
    /// Frames at 30 fps, 1...450 (15 s, PRD 1.1 FR47).
    public var frameCount: Int
    /// Depth keyframe grid (ARKit's 256 x 192 by default; smaller for fast tests).
    public var depthWidth: Int
    public var depthHeight: Int
    public var camera: SynthCameraProfile
    /// Set for an interrupted recording: the attestation covers this checkpoint (0-based,
    /// taken at frame (index + 1) x 150), not the end.
    public var interruptedAtCheckpoint: Int?

    /// Frames per second (the product's 30) and video frames per depth keyframe (3:
    /// depth at 10 fps), methods.md section 6.
    public static let framesPerSecond = 30.0
    public static let framesPerKeyframe = 3

    /// 160 x 120 frames, 75 frames (2.5 s), 256 x 192 depth, standard camera.
    public init(
        width: Int = 160, height: Int = 120, frameCount: Int = 75, depthWidth: Int = 256, depthHeight: Int = 192,
        camera: SynthCameraProfile = .standard, interruptedAtCheckpoint: Int? = nil
    ) {
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.depthWidth = depthWidth
        self.depthHeight = depthHeight
        self.camera = camera
        self.interruptedAtCheckpoint = interruptedAtCheckpoint
    }

    /// Why these options cannot make a recording (nil when they can), one line.
    public var problem: String? {
        if width < 32 || height < 32 || width % 2 != 0 || height % 2 != 0 {
            return "video frame size \(width)x\(height) must be even and at least 32x32"
        }
        if width > 4096 || height > 4096 { return "video frame size \(width)x\(height) is above 4096x4096" }
        if !(1...FrameHashLayout.maximumFrames).contains(frameCount) {
            return "video frame count \(frameCount) is not in 1...\(FrameHashLayout.maximumFrames)"
        }
        if !(4...1024).contains(depthWidth) || !(3...1024).contains(depthHeight) {
            return "depth grid \(depthWidth)x\(depthHeight) is not within 4x3...1024x1024"
        }
        if let index = interruptedAtCheckpoint {
            guard FrameHashLayout.checkpointIndices.contains(index) else {
                return "checkpoint \(index) is not in 0...\(FrameHashLayout.maximumCheckpoints - 1)"
            }
            let frame = FrameHashLayout.checkpointFrame(index: index)
            if frameCount < frame {
                return "an interruption after checkpoint \(index) needs at least \(frame) frames, not \(frameCount)"
            }
        }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case width, height
        case frameCount = "frame_count"
        case depthWidth = "depth_width"
        case depthHeight = "depth_height"
        case camera
        case interruptedAtCheckpoint = "interrupted_at_checkpoint"
    }
}

/// One simulated recording and everything needed to reproduce it.
public struct SynthVideo: Sendable, Equatable {
    /// The dataset label (`parameters.synthClass`).
    public var label: SynthClass
    /// The scene, subject, camera and depth sensor (the photo simulator's parameters of
    /// the same index; `width` and `height` are the frame size).
    public var parameters: SynthParameters
    public var options: VideoOptions
    public var trajectory: HandheldTrajectory
    /// The camera of every frame.
    public var poses: [CameraPose]
    /// Frames (NV12), depth keyframes and the hash chain the phone would have recorded.
    public var recording: VideoRecording

    public init(
        label: SynthClass, parameters: SynthParameters, options: VideoOptions, trajectory: HandheldTrajectory,
        poses: [CameraPose], recording: VideoRecording
    ) {
        self.label = label
        self.parameters = parameters
        self.options = options
        self.trajectory = trajectory
        self.poses = poses
        self.recording = recording
    }
}

/// The video simulator: a hand-held phone recording a bona fide 3D scene, or a screen or
/// print (the attacker filming it), as the product records video (methods.md section 6,
/// PRD 1.1 FR47-FR50): 30 fps frames in NV12, LiDAR depth keyframes on every 3rd frame
/// (10 fps), timestamps n / 30 s, and the frame hash chain with its checkpoints and
/// attestation.
///
/// Reuses the photo simulator for everything but the motion: the parameters of sample
/// `index` (`SynthGenerator.sampleParameters`, so the scene is the photo sample's),
/// the scene (`SynthGenerator.buildScene`, built once), the renderer, camera pipeline
/// (`CameraPipeline`, `PhoneCamera`) and depth sensor model (`DepthSensor`). Per frame:
/// 1. the camera pose of `HandheldTrajectory` at t = n / 30 (drawn from
///    `SynthRandom(seed: noise_seed, stream: 6)`);
/// 2. the scene rendered from that pose; a display's PWM flicker advances with t
///    (rolling-shutter phase f t); sensor noise from stream 0x1000_0000 + n;
/// 3. developed to RGB, converted to NV12 (`NV12`);
/// 4. on frames n = 0, 3, 6, ...: depth from the same pose on the depth grid with the
///    photo simulator's noise model, noise from stream 0x2000_0000 + n (each keyframe
///    draws its own noise: the model has no temporal correlation);
/// then `HashChainRecord.chain` over the frames.
///
/// Not modelled: rolling-shutter skew from camera motion, motion blur, video
/// compression (frames are the raw buffers the chain hashes), auto-exposure
/// smoothing over time (each frame meters on its own).
///
/// Deterministic: the same arguments give the same frames, depth and chain.
///
/// - Complexity: O(frames x (width x height + depth cells x 9 / 3)). Release build, one
///   core, CPU time per recording at 160 x 120 with 256 x 192 depth (standard camera,
///   2 recordings per class at 2.5 s, 1 at 15 s, while other builds shared the
///   machine): 75 frames 1.1-2.0 s; 450 frames 7.2 s (print) to 10.4 s (OLED).
public enum VideoGenerator {
    /// Version of the video simulator (with `SynthGenerator.version` for the scenes).
    public static let version = "rial-synth-video/1"

    /// Draws sample `index` of a dataset seeded with `seed` and renders its recording.
    /// - Precondition: `options.problem == nil` (callers validate options first).
    public static func generate(
        index: Int, seed: UInt64, class synthClass: SynthClass, options: VideoOptions = VideoOptions(),
        textures: [PlanarImage] = []
    ) -> SynthVideo {
        precondition(options.problem == nil, options.problem ?? "")
        let p = SynthGenerator.sampleParameters(
            index: index, seed: seed, class: synthClass, width: options.width, height: options.height,
            contentTextures: textures.indices.filter { !SceneBuilder.isMaterialScan(textures[$0]) },
            camera: options.camera)
        return render(p, options: options, textures: textures)
    }

    /// Renders the recording of explicit parameters (`options.width`, `height` and
    /// `camera` are taken from the parameters).
    public static func render(
        _ output: SynthParameters, options: VideoOptions = VideoOptions(), textures: [PlanarImage] = []
    ) -> SynthVideo {
        var options = options
        options.width = output.width
        options.height = output.height
        options.camera = SynthCameraProfile.profile(ofPhoneVersion: output.phone?.profile)
        precondition(options.problem == nil, options.problem ?? "")
        let p = PhoneCamera.sensorParameters(output)
        let scene = SynthGenerator.buildScene(p, textures: textures)
        var motion = SynthRandom(seed: p.noiseSeed, stream: 6)
        let trajectory = HandheldTrajectory.sample(
            fixationM: output.subject.distanceM > 0 ? output.subject.distanceM : 1, rng: &motion)
        let light = ColorScience.illuminant(kelvin: p.lighting.colorTemperatureK)
        let illuminant = Vec3(light.0, light.1, light.2)
        let fps = VideoOptions.framesPerSecond
        let duration = Double(options.frameCount - 1) / fps

        var frames: [ChainFrame] = []
        var keyframes: [DepthKeyframe] = []
        var poses: [CameraPose] = []
        frames.reserveCapacity(options.frameCount)
        for n in 0..<options.frameCount {
            let t = Double(n) / fps
            let pose = trajectory.pose(at: t, duration: duration)
            poses.append(pose)
            let origin = Vec3(Float(pose.positionM[0]), Float(pose.positionM[1]), Float(pose.positionM[2]))
            let view = CameraView(origin: origin, width: p.width, height: p.height, focal: p.focalPx, axes: pose.axes)
            let gains = p.display?.flicker.map {
                RollingShutter.rowGains(
                    $0, rows: p.height, phaseOffset: (Double($0.hz) * t).truncatingRemainder(dividingBy: 1))
            }
            let renderer = SceneRenderer(scene: scene, view: view, rowGains: gains)
            var noise = SynthRandom(seed: p.noiseSeed, stream: 0x1000_0000 + UInt64(n))
            let image = PhoneCamera.output(
                CameraPipeline.develop(renderer.render(), sensor: p.sensor, illuminant: illuminant, rng: &noise),
                output)
            let pixels = NV12.encode(image)
            guard n % VideoOptions.framesPerKeyframe == 0 else {
                frames.append(ChainFrame(pixels: pixels, timestamp: t))
                continue
            }
            let samples = renderer.depthSamples(
                columns: options.depthWidth, rows: options.depthHeight, sub: DepthSensor.raysPerAxis)
            var depthNoise = SynthRandom(seed: p.noiseSeed, stream: 0x2000_0000 + UInt64(n))
            let depth = DepthSensor.measure(
                samples: samples, parameters: p.depthSensor, rng: &depthNoise, width: options.depthWidth,
                height: options.depthHeight)
            keyframes.append(DepthKeyframe(timestamp: t, videoFrameIndex: n, depth: depth))
            frames.append(ChainFrame(pixels: pixels, depthMetres: depth.metres, timestamp: t))
        }
        // One size and increasing timestamps by construction.
        let sequence =
            (try? DepthKeyframes(keyframes)) ?? DepthKeyframes(width: options.depthWidth, height: options.depthHeight)
        let chain = HashChainRecord.chain(frames, interruptedAtCheckpoint: options.interruptedAtCheckpoint)
        let recording = VideoRecording(
            frameWidth: output.width, frameHeight: output.height, framesPerSecond: fps, frames: frames,
            keyframes: sequence, chain: chain)
        return SynthVideo(
            label: output.synthClass, parameters: output, options: options, trajectory: trajectory, poses: poses,
            recording: recording)
    }
}
