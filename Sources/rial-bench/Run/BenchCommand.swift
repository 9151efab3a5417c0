import ArgumentParser
import Foundation
import RialDetection
import RialEval

/// `rial-bench bench`: per-method latency on a fixed 12 MP capture.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Measure per-method latency on a fixed, generated 12 MP capture against the targets (exit 2 on a FAIL).",
        discussion: """
            The capture is deterministic (a synthetic real scene, 4032x3024 JPEG q90, 256x192 depth; parallax \
            on a 1600x1200 pair). Methods are timed one at a time on one thread, warm-up separate from \
            measured iterations; then all methods concurrently, and end to end (decode + the methods \
            that feed aggregation, one version per family, as a capture is analysed + aggregation; the goal \
            is at most 1.5 x decode), and end to end with every configured version (for information). \
            Then, paired, each iteration times the decode and every deployed method alone and then end to \
            end, with the CPU time of the process: the median ratio to decode, the CPU used against the \
            single-threaded work, and how busy the cores were, taken under the same machine state \
            (docs/end-to-end-latency.md). Those decodes and method times are a second measurement of their \
            rows minutes later: bench prints both p50s and names any verdict they put on both sides of its \
            target (unsettled by the machine's drift; the row's verdict and the exit status stand). Every \
            item that decodes reuses its output buffer from the previous iteration, as a process analysing \
            captures one after another would (new memory would add page faults to whichever item the \
            allocator did not recycle for). Percentiles are nearest-rank. Refuses debug \
            builds unless --allow-debug-build.

            Last, video_decode_1080p: a 5 s 1920x1080 30 fps H.264 MP4 made in code (cached under \
            .cache/rial-bench/bench, or $RIAL_CACHE) decoded to NV12 on one thread, in ms per frame per \
            pass against real time (33.33 ms), with `ffmpeg -threads 1 -i clip -f null -` timed in the same \
            run when ffmpeg is installed (scripts/setup --bench).
            """)

    @Option(help: "Measured iterations per item.")
    var iterations: Int = 30

    @Option(help: "Measured decodes of the 1080p video clip (after one warm-up); 0 skips the video row.")
    var videoPasses: Int = 5

    @Option(help: "Warm-up iterations per item (not measured).")
    var warmup: Int = 3

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(help: "Run in a debug build anyway (numbers are then meaningless; verdicts are n/a).")
    var allowDebugBuild = false

    @Option(
        help:
            "YAML configuration file (methods, constants, learned models; see `rial-bench config print`); default: the compiled-in configuration.",
        completion: .file(extensions: ["yaml", "yml", "json"]))
    var config: String?

    func validate() throws {
        if !(1...Benchmark.maximumIterations).contains(iterations) {
            throw ValidationError("--iterations must be in 1...\(Benchmark.maximumIterations), got \(iterations)")
        }
        if !(0...100).contains(videoPasses) {
            throw ValidationError("--video-passes must be in 0...100, got \(videoPasses)")
        }
        if !(0...Benchmark.maximumIterations).contains(warmup) {
            throw ValidationError("--warmup must be in 0...\(Benchmark.maximumIterations), got \(warmup)")
        }
        try ReleaseBuildCheck.require(allowDebugBuild: allowDebugBuild)
    }

    func run() throws {
        var configuration = PipelineConfiguration.standard
        if let config {
            do { configuration = try ConfigurationFile.load(path: config) } catch {
                throw CLIError.badInput(error.description)
            }
        }
        if !json { FileHandle.standardError.write(Data("bench: generating the 12 MP capture...\n".utf8)) }
        let report: Benchmark.Report
        do {
            report = try Benchmark.run(
                iterations: iterations, warmup: warmup, build: BuildInfo.configuration, configuration: configuration,
                videoPasses: videoPasses,
                videoCache: DefaultData.cacheDirectory(
                    root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)),
                toolVersion: RialBenchVersion.string
            ) { key in
                if !json { FileHandle.standardError.write(Data("bench: \(key)\n".utf8)) }
            }
        } catch {
            throw CLIError.badInput(CLIError.configurationMessage(error, file: config))
        }
        if json {
            Terminal.out(String(decoding: try report.jsonData(), as: UTF8.self))
        } else {
            var table = TextTable([
                "item", "n", "min", "mean", "p50", "p90", "p99", "max", "target", "verdict", "target source",
            ])
            func f(_ v: Double) -> String { v.isFinite ? String(format: "%.2f", v) : "-" }
            for e in report.entries {
                let s = e.statistics
                table.append([
                    e.key, "\(s.n)", f(s.min), f(s.mean), f(s.p50), f(s.p90), f(s.p99), f(s.max),
                    e.targetMs.map(f) ?? "-", e.verdict, e.targetSource ?? "",
                ])
            }
            Terminal.out("capture: \(report.capture)")
            for (method, model) in (report.models ?? [:]).sorted(by: { $0.key < $1.key }) {
                Terminal.out("\(method) model: \(model.modelID ?? model.path) (sha256 \(model.sha256 ?? "unknown"))")
            }
            Terminal.out(
                "machine: \(report.environment.machineDescription), \(report.environment.cores) cores; \(report.build) build; ms, nearest-rank percentiles"
            )
            Terminal.out(table.render())
            Terminal.out(String(format: "end to end / decode = %.2f (goal <= 1.5)", report.endToEndOverDecode))
            if let bound = report.endToEndBound {
                let decode = report.entries.first { $0.key == "decode" }?.statistics.p50 ?? .nan
                Terminal.out(
                    String(
                        format:
                            "end to end can take no less than %.2f ms here (%.2f x decode): %.2f ms of single-threaded "
                            + "work (decode, sha256, %@) over %d cores%@",
                        bound.boundMs, bound.boundMs / decode, bound.cpuMs, bound.methods.joined(separator: ", "),
                        bound.cores,
                        bound.boundMs > 1.5 * decode
                            ? "; above the goal, so only cheaper methods or more cores meet it" : ""))
            }
            if let usage = report.endToEndUsage {
                Terminal.out(
                    String(
                        format:
                            "paired (%d iterations, each timing decode and every method alone, then end to end): "
                            + "end to end / decode = %.2f; end to end used %.2f ms of CPU, %.2f x the %.2f ms of "
                            + "single-threaded work, keeping its %d cores %.0f%% busy",
                        usage.iterations, usage.overDecode, usage.cpuMs, usage.workInflation, usage.singleThreadedMs,
                        usage.cores, 100 * usage.utilisation))
            }
            if let remeasured = report.remeasured, !remeasured.isEmpty {
                let items = remeasured.map {
                    String(format: "%@ %.2f -> %.2f ms (%+.0f%%)", $0.key, $0.p50Ms, $0.repeatP50Ms, 100 * $0.drift)
                }
                let unsettled = remeasured.filter(\.unsettled).map {
                    String(
                        format: "%@ (p50 %.2f ms in its row, %.2f ms again, target %.2f)", $0.key, $0.p50Ms,
                        $0.repeatP50Ms, $0.targetMs ?? .nan)
                }
                Terminal.out(
                    "measured again in the paired iterations (p50, row -> end of the run): "
                        + items.joined(separator: ", "))
                Terminal.out(
                    unsettled.isEmpty
                        ? "no verdict changes when measured again"
                        : "verdict unsettled by the machine's drift (the two p50s lie on both sides of the target): "
                            + unsettled.joined(separator: "; "))
            }
            if let video = report.video {
                Terminal.out("video clip: \(video.clip); \(video.libraries)")
                Terminal.out(
                    String(
                        format: "video_decode_1080p: %.1f fps = %.2f x real time on %d thread (goal >= %.0f x): %@",
                        video.framesPerSecond, video.realTimeFactor, video.threads, video.targetRealTimeFactor,
                        video.verdict))
                if let fps = video.ffmpegFramesPerSecond, let factor = video.ffmpegRealTimeFactor {
                    Terminal.out(
                        String(
                            format:
                                "peer ffmpeg -threads 1 -f null: %.1f fps = %.2f x real time (%@); ours / ffmpeg = %.2f",
                            fps, factor, video.ffmpegVersion ?? "ffmpeg", video.framesPerSecond / fps))
                }
                if let note = video.ffmpegNote { Terminal.out("peer: \(note)") }
            }
            if let error = report.videoError { Terminal.error("video_decode_1080p: \(error)") }
        }
        if !report.passed { throw ExitStatus.regression }
    }
}
