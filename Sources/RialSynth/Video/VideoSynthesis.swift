import Foundation
import RialMedia
import RialProvenance

/// What `rial-bench synth --video` generates: how many recordings, of which classes,
/// how long and how large, and whether a tamper suite comes with them.
public struct VideoSynthOptions: Codable, Sendable, Equatable {
    /// Recordings (intact, one sample each).
    public var count: Int
    public var seed: UInt64
    /// Classes, assigned round-robin: recording `i` has class `classes[i % classes.count]`.
    public var classes: [SynthClass]
    /// Length of each recording, s (frames = round(seconds x 30), 1...450).
    public var seconds: Double
    /// Frame size (even, at least 32) and depth grid.
    public var width: Int
    public var height: Int
    public var depthWidth: Int
    public var depthHeight: Int
    public var camera: SynthCameraProfile
    /// Extra recordings the tamper suite is made from (0: no suite), each giving the
    /// suite's labelled copies (`TamperSuite`), `tamperSeconds` long: at least 5 s (150
    /// frames) gives the interrupted control and the wrong checkpoint too.
    public var tamperRecordings: Int
    public var tamperSeconds: Double

    /// 2.5 s recordings at 160 x 120 with 256 x 192 depth; tamper suites of 5.5 s.
    public init(
        count: Int, seed: UInt64 = 1, classes: [SynthClass] = SynthClass.allCases, seconds: Double = 2.5,
        width: Int = 160, height: Int = 120, depthWidth: Int = 256, depthHeight: Int = 192,
        camera: SynthCameraProfile = .standard, tamperRecordings: Int = 0, tamperSeconds: Double = 5.5
    ) {
        self.count = count
        self.seed = seed
        self.classes = classes
        self.seconds = seconds
        self.width = width
        self.height = height
        self.depthWidth = depthWidth
        self.depthHeight = depthHeight
        self.camera = camera
        self.tamperRecordings = tamperRecordings
        self.tamperSeconds = tamperSeconds
    }

    /// Frames of a recording of `seconds` at 30 fps.
    public static func frameCount(seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int((min(max(seconds, 0), 1e6) * VideoOptions.framesPerSecond).rounded())
    }

    /// The options of recording `index` (0..<count: the recordings; count..<count +
    /// tamperRecordings: the tamper suite's sources).
    public func recordingOptions(index: Int) -> VideoOptions {
        VideoOptions(
            width: width, height: height,
            frameCount: Self.frameCount(seconds: index < count ? seconds : tamperSeconds), depthWidth: depthWidth,
            depthHeight: depthHeight, camera: camera)
    }

    /// Recordings to render: `count + tamperRecordings`.
    public var recordingCount: Int { count + tamperRecordings }

    /// Everything wrong with the options, one line each (empty when they are usable).
    public var problems: [String] {
        var found: [String] = []
        if count < 0 || count > 100_000 { found.append("video count \(count) is not in 0...100000") }
        if tamperRecordings < 0 || tamperRecordings > 10_000 {
            found.append("tamper recordings \(tamperRecordings) is not in 0...10000")
        }
        if count + max(tamperRecordings, 0) < 1 { found.append("at least one recording is needed") }
        if classes.isEmpty { found.append("at least one class is needed") }
        for (name, value) in [("seconds", seconds), ("tamper seconds", tamperSeconds)] {
            let frames = Self.frameCount(seconds: value)
            if !(1...FrameHashLayout.maximumFrames).contains(frames) {
                found.append(
                    "\(name) \(value) gives \(frames) frames at 30 fps, not 1...\(FrameHashLayout.maximumFrames)")
            }
        }
        if tamperRecordings > 0 && Self.frameCount(seconds: tamperSeconds) < 4 {
            found.append("tamper seconds \(tamperSeconds) is too short: a tamper suite needs at least 4 frames")
        }
        var probe = VideoOptions(width: width, height: height, depthWidth: depthWidth, depthHeight: depthHeight)
        probe.frameCount = 1
        if let problem = probe.problem { found.append(problem) }
        return found
    }

    enum CodingKeys: String, CodingKey {
        case count, seed, classes, seconds, width, height
        case depthWidth = "depth_width"
        case depthHeight = "depth_height"
        case camera
        case tamperRecordings = "tamper_recordings"
        case tamperSeconds = "tamper_seconds"
    }
}

/// One sample of a simulated video dataset: an intact recording, or a copy from a
/// tamper suite with its label.
public struct VideoSynthSample: Sendable, Equatable {
    /// `video-00012` for a recording; `video-00012-t03-dropped` for case 3 of the tamper
    /// suite made from recording 12 (whose intact control is case 0).
    public var id: String
    /// The recording with its scene parameters, trajectory and poses; for a tamper-suite
    /// copy, `video.recording` is the tampered recording (the rest is its source's).
    public var video: SynthVideo
    /// The tamper-suite label (nil for the plain recordings).
    public var tamper: TamperedRecording?

    public init(id: String, video: SynthVideo, tamper: TamperedRecording?) {
        self.id = id
        self.video = video
        self.tamper = tamper
    }
}

/// Produces the samples of `VideoSynthOptions`, one recording at a time (a 15 s
/// recording at 256 x 192 depth holds ~30 MB of depth, so a writer should write and
/// drop each recording's samples before the next).
public enum VideoSynthesis {
    /// The samples of recording `index` (0..<`options.recordingCount`): the recording
    /// alone for index < count; its tamper suite (controls first) for the others.
    /// Recording `index` is sample `index` of `SynthGenerator`'s dataset `seed`
    /// (class `classes[index % classes.count]`); suite frames are drawn from
    /// `seed ^ index`.
    /// - Precondition: `options.problems` is empty and `index` is in range.
    public static func samples(
        recording index: Int, options: VideoSynthOptions, textures: [PlanarImage] = []
    ) -> [VideoSynthSample] {
        precondition(options.problems.isEmpty, options.problems.first ?? "")
        precondition((0..<options.recordingCount).contains(index), "recording \(index) out of range")
        let synthClass = options.classes[index % options.classes.count]
        let video = VideoGenerator.generate(
            index: index, seed: options.seed, class: synthClass, options: options.recordingOptions(index: index),
            textures: textures)
        let id = String(format: "video-%05d", index)
        guard index >= options.count else { return [VideoSynthSample(id: id, video: video, tamper: nil)] }
        // A generated recording is intact and long enough by construction (options
        // checked above); an empty suite would only hide a bug, so fail loudly.
        let suite: [TamperedRecording]
        do {
            suite = try TamperSuite.make(from: video.recording, seed: options.seed ^ UInt64(index))
        } catch {
            preconditionFailure("the simulator made a recording the tamper suite refuses: \(error)")
        }
        return suite.enumerated().map { k, tampered in
            var copy = video
            copy.recording = tampered.recording
            return VideoSynthSample(
                id: "\(id)-t\(String(format: "%02d", k))-\(tampered.kind)", video: copy, tamper: tampered)
        }
    }

    /// Calls `body` with the samples of every recording, in index order, rendering up
    /// to `jobs` recordings at once (at most `jobs` recordings' samples in memory).
    public static func forEachRecording(
        _ options: VideoSynthOptions, textures: [PlanarImage] = [], jobs: Int = 1,
        _ body: ([VideoSynthSample]) throws -> Void
    ) rethrows {
        let batch = max(jobs, 1)
        var start = 0
        while start < options.recordingCount {
            let end = min(start + batch, options.recordingCount)
            let rendered = (start..<end).concurrentMap(workers: batch) { index in
                samples(recording: index, options: options, textures: textures)
            }
            for samples in rendered { try body(samples) }
            start = end
        }
    }
}
