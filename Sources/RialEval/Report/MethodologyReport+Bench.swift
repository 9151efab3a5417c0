import Foundation

extension MethodologyReport {
    /// A `rial-bench bench --json` report shown in the methodology (`methodology --bench
    /// FILE`): the single-capture latency the targets are defined for.
    public struct BenchSummary: Sendable {
        /// The file as the user named it.
        public var path: String
        public var report: Benchmark.Report

        public init(path: String, report: Benchmark.Report) {
            self.path = path
            self.report = report
        }
    }

    /// The section "Latency on one capture": every bench row against its target, end to
    /// end against the decode, what the cores allow and how the paired iterations used
    /// them, the verdicts a second measurement put on both sides of their target, and
    /// whether the bench ran the run's configuration (`runConfigurationSHA256`).
    static func benchSection(_ bench: BenchSummary, runConfigurationSHA256: String) -> [String] {
        let b = bench.report
        func ms(_ v: Double) -> String { v.isFinite ? String(format: "%.2f", v) : "—" }
        var out = ["## Latency on one capture (`rial-bench bench`)", ""]
        var provenance = "\(MarkdownText.code(bench.path))"
        if let tool = b.tool {
            provenance += ", rial-bench \(MarkdownText.escape(tool.version))"
            if let commit = tool.gitCommit { provenance += " at \(MarkdownText.code(commit))" }
        }
        if let created = b.created { provenance += ", \(MarkdownText.escape(created))" }
        out.append(
            "Measured by `rial-bench bench` (\(provenance)) on \(MarkdownText.escape(b.environment.machineDescription)), \(b.environment.cores) cores, \(MarkdownText.escape(b.build)) build: each item \(b.iterations) times after \(b.warmup) warm-up iterations, each method alone on one thread, on one fixed capture (simulated: \(MarkdownText.escape(b.capture))). These are the figures the targets (methods.md section 9, phone budgets) are for; the spread is the machine's, not the data's, and a p50 within about a quarter of its target may fall on either side on another day (a shared virtual machine drifts). ms, nearest-rank percentiles."
        )
        out.append("")
        switch b.configurationSHA256 {
        case runConfigurationSHA256?:
            out.append("The bench ran the run's configuration (SHA-256 \(MarkdownText.code(runConfigurationSHA256))).")
        case let other?:
            out.append(
                "> **The bench ran another configuration** (SHA-256 \(MarkdownText.code(other)), the run \(MarkdownText.code(runConfigurationSHA256))): its methods' constants or models may differ from the run's."
            )
        case nil:
            out.append("> The bench report does not record its configuration: it may not be the run's.")
        }
        out.append("")
        out.append("| item | n | p50 ms | p90 ms | p99 ms | target ms | verdict |")
        out.append("|---|---:|---:|---:|---:|---:|---|")
        for e in b.entries {
            let s = e.statistics
            out.append(
                "| \(MarkdownText.code(e.key)) | \(s.n) | \(ms(s.p50)) | \(ms(s.p90)) | \(ms(s.p99)) | \(e.targetMs.map(ms) ?? "—") | \(MarkdownText.escape(e.verdict)) |"
            )
        }
        out.append("")
        var lines: [String] = []
        lines.append(
            String(
                format:
                    "End to end (`end_to_end`: decode, hash and the deployed methods, as a capture is analysed) took %@ x the decode (goal <= 1.5).",
                ms(b.endToEndOverDecode)))
        let decode = b.entries.first { $0.key == "decode" }?.statistics.p50 ?? .nan
        if let bound = b.endToEndBound {
            lines.append(
                "What the cores allow: no less than \(ms(bound.boundMs)) ms (\(ms(bound.boundMs / decode)) x the decode), \(ms(bound.cpuMs)) ms of single-threaded work (decode, sha256, \(bound.methods.map(MarkdownText.code).joined(separator: ", "))) over \(bound.cores) cores."
            )
        }
        if let usage = b.endToEndUsage {
            lines.append(
                "Paired (\(usage.iterations) iterations, each timing the decode and every method alone, then end to end): end to end / decode \(ms(usage.overDecode)); it used \(ms(usage.workInflation)) x the single-threaded work in CPU and kept its \(usage.cores) cores \(String(format: "%.0f", 100 * usage.utilisation))% busy (docs/end-to-end-latency.md)."
            )
        }
        if let remeasured = b.remeasured {
            let unsettled = remeasured.filter(\.unsettled)
            lines.append(
                unsettled.isEmpty
                    ? "Measured again in the paired iterations, no row's verdict changed."
                    : "Measured again in the paired iterations, these verdicts fell on the other side of their target (the machine's drift): "
                        + unsettled.map {
                            "\(MarkdownText.code($0.key)) \(ms($0.p50Ms)) then \(ms($0.repeatP50Ms)) ms (target \($0.targetMs.map(ms) ?? "—"))"
                        }.joined(separator: ", ") + ".")
        }
        out += lines.map { "- " + $0 }
        out.append("")
        return out
    }
}
