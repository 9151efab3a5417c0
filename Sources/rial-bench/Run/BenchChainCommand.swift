import ArgumentParser
import Foundation
import RialEval
import RialMedia

extension ChainBenchmark.FrameFormat: ExpressibleByArgument {}
extension ChainBenchmark.Source: ExpressibleByArgument {}

/// `rial-bench bench-chain`: hash chain verification throughput against OpenSSL's SHA-256.
struct BenchChainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-chain",
        abstract:
            "Measure hash chain verification of a 15 s 1080p 30 fps recording against OpenSSL's SHA-256 throughput (exit 2 below 80 %).",
        discussion: """
            The recording is 450 raw frames of 1920x1080 (--frame-format nv12: the phone's 4:2:0 capture \
            buffer, 3,110,400 bytes; rgba: 8,294,400 bytes) with a 256x192 float32 depth keyframe on every \
            3rd frame. Each iteration recomputes the whole chain from the frames and checks it against the \
            recorded one; the baseline is one SHA-256 over a 64 MiB buffer through OpenSSL's EVP API, \
            alternated with the chain so both see the same load. Throughputs compare medians of wall-clock times (as `openssl \
            speed -elapsed`; plain `openssl speed` divides by CPU time, higher on a loaded machine). Refuses debug \
            builds unless --allow-debug-build.
            """)

    @Option(help: "Frame byte layout (nv12: the phone's capture buffer; rgba: 4 bytes per pixel).")
    var frameFormat: ChainBenchmark.FrameFormat = .nv12

    @Option(
        help:
            "Where the verifier reads the frames: memory (hashing alone) or file (a raw frame sequence written to --file and streamed as `run` reads a video sample's frames; nv12 only)."
    )
    var source: ChainBenchmark.Source = .memory

    @Option(help: "With --source file: the .rlfs to write (1.4 GB for nv12; removed afterwards).")
    var file: String = ".cache/rial-bench/bench/chain.rlfs"

    @Option(help: "Measured iterations.")
    var iterations: Int = 7

    @Option(help: "Warm-up iterations (not measured).")
    var warmup: Int = 1

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(help: "Run in a debug build anyway (numbers are then meaningless; the verdict is n/a).")
    var allowDebugBuild = false

    func validate() throws {
        if !(1...1000).contains(iterations) {
            throw ValidationError("--iterations must be in 1...1000, got \(iterations)")
        }
        if !(0...1000).contains(warmup) { throw ValidationError("--warmup must be in 0...1000, got \(warmup)") }
        try ReleaseBuildCheck.require(allowDebugBuild: allowDebugBuild)
    }

    func run() throws {
        if !json { FileHandle.standardError.write(Data("bench-chain: building the recording...\n".utf8)) }
        let report: ChainBenchmark.Report
        do {
            report = try ChainBenchmark.run(
                format: frameFormat, iterations: iterations, warmup: warmup, build: BuildInfo.configuration,
                source: source, file: file)
        } catch let error as MediaError {
            throw CLIError.badInput(error.description)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.out(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            Terminal.out(
                "recording: \(report.frames) frames \(report.width)x\(report.height) \(report.frameFormat.rawValue) (\(report.frameBytes) bytes each), \(report.depthKeyframes) depth keyframes of \(report.depthBytes) bytes; \(report.bytesHashed) bytes hashed per verification; frames read from \(report.source)"
            )
            Terminal.out(
                "machine: \(report.environment.machineDescription), \(report.environment.cores) cores; \(report.build) build; ms, nearest-rank percentiles"
            )
            var table = TextTable(["item", "n", "min", "p50", "max", "MB/s at p50"])
            func f(_ v: Double) -> String { v.isFinite ? String(format: "%.2f", v) : "-" }
            for (name, s, rate) in [
                ("chain_verify", report.verify, report.chainMBps),
                ("openssl_sha256_64MiB", report.openSSLBaseline, report.openSSLMBps),
            ] {
                table.append([name, "\(s.n)", f(s.min), f(s.p50), f(s.max), String(format: "%.0f", rate)])
            }
            Terminal.out(table.render())
            Terminal.out(
                String(
                    format: "chain / OpenSSL = %.3f (goal >= %.2f): %@; chain status: %@", report.ratio,
                    report.targetRatio, report.verdict, report.chainStatus))
        }
        if !report.passed { throw ExitStatus.regression }
    }
}
