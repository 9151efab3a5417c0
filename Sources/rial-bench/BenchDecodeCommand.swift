import ArgumentParser
import Foundation
import RialCodecs
import RialEval
import RialMedia

/// `rial-bench bench-decode FILE`: in-process JPEG decode latency.
///
/// The file is read into memory once; `--warmup` decodes run unmeasured (page cache,
/// allocator and branch predictors settle), then each of `--iterations` decodes is
/// timed on its own with `ContinuousClock` (monotonic). Each decode is the public
/// `JPEGDecoder.decode` call: header parse, a fresh output `Image8`, all scanlines.
/// With `--reuse-output` each decode writes into the previous image's buffer instead
/// (`JPEGDecoder.decode(_:into:)`), which removes the page faults of a fresh buffer —
/// the figure to compare with tools that stream rows (djpeg) or reuse a buffer (tjbench).
/// Summary: `LatencyStatistics`, the run reports' latency summary (n, min, mean,
/// nearest-rank p50/p90/p95/p99, max, in milliseconds). Timings from a debug build are
/// meaningless, so it refuses to run there unless `--allow-debug-build`.
struct BenchDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-decode",
        abstract: "Measure in-process JPEG decode time of one file (release builds).",
        discussion: """
            Reads FILE once, decodes it --warmup times unmeasured, then --iterations \
            times, each timed with a monotonic clock. Prints n, min, median, mean and \
            max in milliseconds. libjpeg-turbo settings are djpeg's defaults (accurate \
            integer IDCT, fancy upsampling). Exit status 65 when FILE cannot be decoded, \
            64 for usage errors and for a debug build without --allow-debug-build.
            """)

    /// DCT-domain scale denominators libjpeg supports for 1/N output.
    enum Scale: String, ExpressibleByArgument, CaseIterable {
        case one = "1", two = "2", four = "4", eight = "8"

        var jpegScale: JPEGScale {
            switch self {
            case .one: .full
            case .two: .half
            case .four: .quarter
            case .eight: .eighth
            }
        }
    }

    /// Decoder output pixels.
    enum Output: String, ExpressibleByArgument, CaseIterable {
        case rgb, gray

        var format: JPEGOutputFormat { self == .rgb ? .rgb : .gray }
    }

    @Argument(help: "The JPEG file to decode.")
    var file: String

    @Option(help: "Number of measured decodes (at least 1).")
    var iterations = 20

    @Option(help: "Number of unmeasured decodes before timing starts (0 or more).")
    var warmup = 3

    @Option(help: "Decode at 1/N size in the DCT domain.")
    var scale: Scale = .one

    @Option(help: "Output pixels.")
    var output: Output = .rgb

    @Flag(help: "Decode into the previous image's buffer instead of a fresh one each time.")
    var reuseOutput = false

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(help: "Run even from a debug build (timings are not representative).")
    var allowDebugBuild = false

    func validate() throws {
        guard (1...Benchmark.maximumIterations).contains(iterations) else {
            throw ValidationError("--iterations must be in 1...\(Benchmark.maximumIterations), got \(iterations)")
        }
        guard (0...Benchmark.maximumIterations).contains(warmup) else {
            throw ValidationError("--warmup must be in 0...\(Benchmark.maximumIterations), got \(warmup)")
        }
    }

    func run() throws {
        #if DEBUG
            let build = "debug"
            if !allowDebugBuild {
                throw CLIError.usage(
                    "refusing to benchmark a debug build; build with `swift build -c release` "
                        + "or pass --allow-debug-build")
            }
        #else
            let build = "release"
        #endif

        let options = JPEGDecodeOptions(scale: scale.jpegScale, output: output.format)
        let data: Data
        let info: JPEGInfo
        var image: Image8
        do {
            data = try MediaFile.read(file)
            info = try JPEGDecoder.readInfo(data, source: file)
            image = try JPEGDecoder.decode(data, options: options, source: file)
        } catch let error as MediaError {
            throw CLIError.badInput(error.description)
        }

        var checksum = 0
        let reuse = reuseOutput
        func decodeOnce() throws {
            do {
                if reuse {
                    try JPEGDecoder.decode(data, into: &image, options: options, source: file)
                } else {
                    image = try JPEGDecoder.decode(data, options: options, source: file)
                }
            } catch {
                throw CLIError.badInput(error.description)
            }
        }
        for _ in 0..<warmup {
            try decodeOnce()
            checksum &+= Int(image.samples[image.samples.count / 2])
        }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = clock.now
            try decodeOnce()
            let elapsed = clock.now - start
            checksum &+= Int(image.samples[image.samples.count / 2])
            samples.append(elapsed.milliseconds)
        }
        let summary = LatencyStatistics(milliseconds: samples)

        let report = BenchDecodeReport(
            file: file, fileBytes: data.count, imageWidth: info.width, imageHeight: info.height,
            progressive: info.isProgressive, scale: scale.jpegScale.denominator,
            output: output.rawValue, outputWidth: image.width, outputHeight: image.height,
            outputBuffer: reuse ? "reused" : "fresh",
            warmup: warmup, iterations: iterations, build: build, clock: "ContinuousClock",
            libjpegTurbo: libjpegTurboVersion, toolVersion: RialBenchVersion.string,
            host: ProcessInfo.processInfo.hostName,
            cpuCount: ProcessInfo.processInfo.activeProcessorCount,
            os: ProcessInfo.processInfo.operatingSystemVersionString,
            latencyMs: summary, samplesMs: samples, checksum: checksum)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            Terminal.out(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            Terminal.out(
                "file    \(file) (\(data.count) bytes, \(info.width)x\(info.height), "
                    + "\(info.isProgressive ? "progressive" : "baseline"))")
            let buffer = reuse ? "reused" : "fresh"
            Terminal.out(
                "decode  scale 1/\(scale.rawValue) -> \(image.width)x\(image.height) "
                    + "\(output.rawValue) (\(buffer) buffer), \(warmup) warm-up + "
                    + "\(iterations) measured, \(build) build, libjpeg-turbo \(libjpegTurboVersion)")
            var table = TextTable(["n", "min_ms", "p50_ms", "mean_ms", "max_ms"])
            table.append(
                [String(summary.n)]
                    + [summary.min, summary.p50, summary.mean, summary.max]
                    .map { String(format: "%.3f", $0) })
            Terminal.out(table.render())
        }
    }
}

/// The `--json` output of `bench-decode`.
struct BenchDecodeReport: Codable {
    var file: String
    var fileBytes: Int
    var imageWidth: Int
    var imageHeight: Int
    var progressive: Bool
    var scale: Int
    var output: String
    var outputWidth: Int
    var outputHeight: Int
    /// "fresh" (a new image per decode) or "reused" (`--reuse-output`).
    var outputBuffer: String
    var warmup: Int
    var iterations: Int
    var build: String
    var clock: String
    var libjpegTurbo: String
    var toolVersion: String
    var host: String
    var cpuCount: Int
    var os: String
    var latencyMs: LatencyStatistics
    var samplesMs: [Double]
    /// Sum of one sample per decode, so the work cannot be optimised away.
    var checksum: Int

    enum CodingKeys: String, CodingKey {
        case file, progressive, scale, output, warmup, iterations, build, clock, host, os, checksum
        case fileBytes = "file_bytes"
        case imageWidth = "image_width"
        case imageHeight = "image_height"
        case outputWidth = "output_width"
        case outputHeight = "output_height"
        case outputBuffer = "output_buffer"
        case libjpegTurbo = "libjpeg_turbo"
        case toolVersion = "tool_version"
        case cpuCount = "cpu_count"
        case latencyMs = "latency_ms"
        case samplesMs = "samples_ms"
    }
}
