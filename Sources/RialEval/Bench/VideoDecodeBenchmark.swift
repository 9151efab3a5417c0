import Foundation
import RialCodecs
import RialMedia

/// The `video_decode_1080p` row of `rial-bench bench`: decoding a 1080p 30 fps H.264 MP4
/// on one core against real time (issue 15, "Performance": "video decode at least real
/// time on one core for 1080p"), with `ffmpeg -threads 1 -i clip -f null -` measured in
/// the same run when the `ffmpeg` command is installed (`scripts/setup --bench`).
///
/// The clip is made in code: 5 s (150 frames) of 1920x1080 at 30 fps, a seeded
/// multi-scale texture panning diagonally with a second textured layer (a 640x360
/// window) moving against it and a slowly cycling chroma gradient, encoded by libx264
/// (preset `medium`, High profile, B-frames, 16 Mbit/s, about what phones record 1080p30
/// H.264 at). It is cached under `<cache>/bench/` and re-encoded only when
/// `clipVersion` changes. Each pass opens the file and decodes every frame to NV12 with
/// one decoding thread into a reused buffer (the layout the hash chain reads); the
/// statistics are ms per frame, one value per pass.
public enum VideoDecodeBenchmark {
    public static let key = "video_decode_1080p"
    /// Bumped whenever the clip's content or encoding changes (names the cache file).
    public static let clipVersion = 1
    public static let width = 1920
    public static let height = 1080
    public static let framesPerSecond = 30
    public static let frameCount = 150
    public static let bitRate = 16_000_000
    /// Real time: one frame per 1/30 s.
    public static var targetMsPerFrame: Double { 1000 / Double(framesPerSecond) }

    public struct Report: Sendable, Equatable, Codable {
        /// What the clip is: stream summary, file, bytes.
        public var clip: String
        public var clipBytes: Int
        public var frames: Int
        public var threads: Int
        /// Frames per second at the median pass, and that over the clip's frame rate.
        public var framesPerSecond: Double
        public var realTimeFactor: Double
        /// The goal: at least this many times real time.
        public var targetRealTimeFactor: Double
        public var verdict: String
        /// `ffmpeg -threads 1 -i clip -f null -`, median over the same number of passes (its
        /// own `-benchmark` real time, without process start); nil when `ffmpeg` is not installed.
        public var ffmpegFramesPerSecond: Double?
        public var ffmpegRealTimeFactor: Double?
        public var ffmpegVersion: String?
        public var ffmpegNote: String?
        public var libraries: String

        enum CodingKeys: String, CodingKey {
            case clip
            case clipBytes = "clip_bytes"
            case frames, threads
            case framesPerSecond = "frames_per_second"
            case realTimeFactor = "real_time_factor"
            case targetRealTimeFactor = "target_real_time_factor"
            case verdict
            case ffmpegFramesPerSecond = "ffmpeg_frames_per_second"
            case ffmpegRealTimeFactor = "ffmpeg_real_time_factor"
            case ffmpegVersion = "ffmpeg_version"
            case ffmpegNote = "ffmpeg_note"
            case libraries
        }
    }

    /// The cached clip's path under `cache`, encoding it first when missing.
    /// - Throws: `MediaError` when the clip cannot be encoded or written.
    public static func clip(cache: URL) throws(MediaError) -> String {
        let folder = cache.appendingPathComponent("bench")
        let path = folder.appendingPathComponent("video-1080p30-h264-v\(clipVersion).mp4").path
        if FileManager.default.fileExists(atPath: path) { return path }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw MediaError(
                .writeFailed, source: folder.path, "cannot create the folder: \(error.localizedDescription)")
        }
        // Written beside the final name, then renamed: an interrupted run leaves no half clip.
        let partial = folder.appendingPathComponent(".partial-\(UUID().uuidString).mp4").path
        let encoder = try VideoEncoder(
            path: partial, width: width, height: height,
            options: VideoEncodeOptions(
                framesPerSecond: framesPerSecond, rate: .bitRate(bitRate), preset: "medium", keyframeInterval: 60))
        let pattern = ClipPattern()
        var frame = [UInt8](repeating: 0, count: width * height * 3 / 2)
        for index in 0..<frameCount {
            pattern.render(frame: index, into: &frame)
            try encoder.append(nv12: frame)
        }
        try encoder.finish()
        do {
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            if !FileManager.default.fileExists(atPath: path) {
                throw MediaError(.writeFailed, source: path, "cannot store the clip: \(error.localizedDescription)")
            }
        }
        return path
    }

    /// Decodes `path` once on `threads` threads; ms per frame and the frame count.
    public static func decodePass(path: String, threads: Int, buffer: inout [UInt8]) throws(MediaError) -> (
        msPerFrame: Double, frames: Int
    ) {
        let clock = ContinuousClock(), start = clock.now
        let decoder = try VideoDecoder(path: path, options: VideoDecodeOptions(threads: threads))
        var frames = 0
        while try decoder.nextFrame(into: &buffer) != nil { frames += 1 }
        let ms = (clock.now - start).milliseconds
        return (frames > 0 ? ms / Double(frames) : .nan, frames)
    }

    /// Times `passes` decodes (after one warm-up) of the clip under `cache`, then the
    /// `ffmpeg` command the same number of times when it is on PATH.
    /// - Returns: the row's statistics (ms per frame per pass) and the report.
    public static func run(cache: URL, passes: Int, build: String, progress: (String) -> Void = { _ in })
        throws(MediaError) -> (statistics: LatencyStatistics, report: Report)
    {
        progress("\(key): preparing the clip")
        let path = try clip(cache: cache)
        let info = try VideoDecoder.info(path: path)
        var buffer: [UInt8] = []
        progress(key)
        _ = try decodePass(path: path, threads: 1, buffer: &buffer)
        var times: [Double] = []
        var frames = 0
        for _ in 0..<passes {
            let pass = try decodePass(path: path, threads: 1, buffer: &buffer)
            times.append(pass.msPerFrame)
            frames = pass.frames
        }
        let statistics = LatencyStatistics(milliseconds: times)
        let fps = 1000 / statistics.p50
        let factor = fps / Double(framesPerSecond)
        var report = Report(
            clip: "\(info.summary), \(URL(fileURLWithPath: path).lastPathComponent)",
            clipBytes: (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0,
            frames: frames, threads: 1, framesPerSecond: fps, realTimeFactor: factor, targetRealTimeFactor: 1,
            verdict: build != "release" ? "n/a" : (factor >= 1 ? "PASS" : "FAIL"), libraries: ffmpegLibraryVersions)
        if let ffmpeg = FFmpegPeer.locate() {
            progress("\(key): ffmpeg -threads 1")
            report.ffmpegVersion = FFmpegPeer.version(ffmpeg)
            var peerTimes: [Double] = []
            var note: String?
            for _ in 0..<(passes + 1) {
                switch FFmpegPeer.decodeSeconds(ffmpeg, path: path) {
                case .success(let seconds): peerTimes.append(seconds * 1000 / Double(max(frames, 1)))
                case .failure(let failure): note = failure.description
                }
            }
            if peerTimes.count > 1 {
                let peer = LatencyStatistics(milliseconds: Array(peerTimes.dropFirst())) // first is the warm-up
                report.ffmpegFramesPerSecond = 1000 / peer.p50
                report.ffmpegRealTimeFactor = 1000 / peer.p50 / Double(framesPerSecond)
            }
            report.ffmpegNote = note
        } else {
            report.ffmpegNote = "ffmpeg not installed (scripts/setup --bench installs it)"
        }
        return (statistics, report)
    }

    /// The clip's content: a seeded 1024x1024 tiling texture of four octaves of smoothed
    /// noise, sampled with a diagonal pan (5 px right, 3 px down per frame), a 640x360
    /// window of the same texture mirrored and moving the other way (7 px left, 2 px up
    /// per frame), and chroma as a slowly turning gradient.
    final class ClipPattern {
        static let size = 1024
        let texture: [UInt8]

        init() {
            let n = Self.size
            var random = SplitMix64(seed: 1_080_030)
            var sum = [Double](repeating: 0, count: n * n)
            var amplitude = 1.0
            for cell in [128, 32, 8, 2] {
                let grid = n / cell
                let values = (0..<(grid * grid)).map { _ in Double.random(in: -1...1, using: &random) }
                for y in 0..<n {
                    let gy = Double(y) / Double(cell), y0 = Int(gy) % grid, fy = gy - gy.rounded(.down)
                    let y1 = (y0 + 1) % grid
                    for x in 0..<n {
                        let gx = Double(x) / Double(cell), x0 = Int(gx) % grid, fx = gx - gx.rounded(.down)
                        let x1 = (x0 + 1) % grid
                        let top = values[y0 * grid + x0] * (1 - fx) + values[y0 * grid + x1] * fx
                        let bottom = values[y1 * grid + x0] * (1 - fx) + values[y1 * grid + x1] * fx
                        sum[y * n + x] += amplitude * (top * (1 - fy) + bottom * fy)
                    }
                }
                amplitude *= 0.6
            }
            texture = sum.map { UInt8(clamping: Int((128 + 55 * $0).rounded())) }
        }

        func render(frame index: Int, into frame: inout [UInt8]) {
            let (w, h, n) = (VideoDecodeBenchmark.width, VideoDecodeBenchmark.height, Self.size)
            let mask = n - 1
            let (bx, by) = (5 * index, 3 * index)
            let (wx, wy) = (200 + (1000 - 7 * index % 1000), 300 - 2 * index % 300)
            texture.withUnsafeBufferPointer { t in
                frame.withUnsafeMutableBufferPointer { out in
                    for y in 0..<h {
                        let row = ((y + by) & mask) * n
                        let inWindow = y >= wy && y < wy + 360
                        let mirrored = (n - 1 - ((y - wy + 4 * index) & mask)) * n
                        for x in 0..<w {
                            if inWindow && x >= wx && x < wx + 640 {
                                out[y * w + x] = t[mirrored + ((x - wx + 11 * index) & mask)] &+ 20
                            } else {
                                out[y * w + x] = t[row + ((x + bx) & mask)]
                            }
                        }
                    }
                    let chroma = w * h
                    let phase = Double(index) / Double(VideoDecodeBenchmark.frameCount) * 2 * Double.pi
                    let (cu, cv) = (cos(phase), sin(phase))
                    for y in 0..<(h / 2) {
                        for x in 0..<(w / 2) {
                            let s = Double(x) / Double(w / 2) - 0.5, r = Double(y) / Double(h / 2) - 0.5
                            out[chroma + y * w + 2 * x] = UInt8(clamping: Int(128 + 60 * (s * cu - r * cv)))
                            out[chroma + y * w + 2 * x + 1] = UInt8(clamping: Int(128 + 60 * (s * cv + r * cu)))
                        }
                    }
                }
            }
        }
    }
}

/// The `ffmpeg` command as the benchmark's peer.
enum FFmpegPeer {
    /// `ffmpeg` on PATH, nil when absent.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(folder)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `ffmpeg` with `arguments`; its exit status and standard error.
    static func run(_ ffmpeg: String, _ arguments: [String]) -> (status: Int32, stderr: String, stdout: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments
        let err = Pipe(), out = Pipe()
        process.standardError = err
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: errData, as: UTF8.self),
            String(decoding: outData, as: UTF8.self)
        )
    }

    /// The first line of `ffmpeg -version`'s output, e.g. "ffmpeg version 5.1.9-0+deb12u1".
    static func version(_ ffmpeg: String) -> String? {
        guard let result = run(ffmpeg, ["-hide_banner", "-version"]) else { return nil }
        let line = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
        return line.components(separatedBy: " Copyright").first
    }

    /// Seconds `ffmpeg -threads 1 -i path -f null -` spends decoding, from its own
    /// `-benchmark` line (`rtime=`, real time without process start and exit).
    static func decodeSeconds(_ ffmpeg: String, path: String) -> Result<Double, PeerFailure> {
        let arguments = [
            "-hide_banner", "-nostdin", "-nostats", "-loglevel", "info", "-benchmark", "-threads", "1", "-i", path,
            "-f", "null", "-",
        ]
        guard let result = run(ffmpeg, arguments) else { return .failure(PeerFailure("ffmpeg did not start")) }
        guard result.status == 0 else {
            let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
            return .failure(PeerFailure("ffmpeg exited with status \(result.status): \(last)"))
        }
        guard let range = result.stderr.range(of: #"rtime=[0-9.]+s"#, options: .regularExpression),
            let seconds = Double(result.stderr[range].dropFirst(6).dropLast())
        else { return .failure(PeerFailure("no 'rtime=' in ffmpeg's -benchmark output")) }
        return .success(seconds)
    }

    struct PeerFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
