import ArgumentParser
import Foundation
import RialEval

/// `rial-bench gate`: fail CI when a run regresses against a baseline.
struct Gate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare a run with a baseline results.json; exit 2 on a regression, 4 when the baseline is missing.",
        discussion: """
            Every check is printed with the baseline and current values, the limit and the rule. \
            Default policy: strict on accuracy (AUC -0.02, EER +0.02, APCER max/BPCER/ACER +0.05 for every \
            method and the aggregate), tolerant on latency (each method's median as a ratio to the same \
            run's JPEG decode median may grow by 100%). Writes Markdown (also appended to \
            $GITHUB_STEP_SUMMARY when set) and JUnit XML on request. The gate fails closed: a check it \
            cannot evaluate (a metric missing, null or NaN in either file, an unknown metric or policy key, \
            another schema or dataset) is an error, exit 65, never a pass.
            """)

    @Option(help: "Baseline results.json (e.g. reports/baseline.json).", completion: .file(extensions: ["json"]))
    var baseline: String

    @Option(help: "Current run folder (or its results.json).", completion: .directory)
    var current: String

    @Option(help: "Policy file (YAML/JSON); default: the built-in policy.", completion: .file())
    var policy: String?

    @Option(help: "Write the Markdown report here.", completion: .file(extensions: ["md"]))
    var markdown: String?

    @Option(help: "Write JUnit XML here.", completion: .file(extensions: ["xml"]))
    var junit: String?

    func run() throws {
        let report: GateReport
        do { report = try evaluate() } catch { throw reportingFailure(error) }
        var table = TextTable(["check", "kind", "baseline", "current", "limit", "rule", "result"])
        for c in report.checks {
            table.append([
                c.name, c.kind, GateReportFormat.number(c.baseline), GateReportFormat.number(c.current),
                GateReportFormat.number(c.limit), c.rule, c.passed ? "pass" : "FAIL" + (c.note.map { ": \($0)" } ?? ""),
            ])
        }
        Terminal.out(table.render())
        Terminal.out(
            report.passed
                ? "gate: PASS (\(report.checks.count) checks)"
                : "gate: FAIL (\(report.failures.count) of \(report.checks.count) checks)")
        let md = report.markdown()
        if let markdown { try OutputFile.write(Data(md.utf8), to: markdown) }
        if let junit { try OutputFile.write(Data(report.junitXML().utf8), to: junit) }
        Self.appendStepSummary(md)
        if !report.passed { throw ExitStatus.regression }
    }

    /// Reads the policy and both runs and evaluates every check; any problem is a
    /// `CLIError`: exit 4 for a missing baseline, 65 for input that cannot be evaluated.
    func evaluate() throws(CLIError) -> GateReport {
        guard FileManager.default.fileExists(atPath: baseline) else {
            throw CLIError.baselineMissing(
                "\(baseline): baseline missing (create one with `cp RUN/results.json \(baseline)`)")
        }
        do {
            let gatePolicy = try policy.map { path throws(RunError) in try GatePolicy.load(path: path) } ?? .standard
            let base = try GateReport.readResults(path: baseline)
            let (currentPath, now) = try Self.readCurrent(current)
            return try GateReport.evaluate(
                baseline: base, current: now, policy: gatePolicy, baselinePath: baseline,
                currentPath: currentPath)
        } catch let error as GateError {
            throw CLIError.badInput(lines: error.problems)
        } catch {
            throw CLIError.badInput("\(error)")
        }
    }

    /// Fails closed, but visibly: writes the requested Markdown and JUnit reports with the
    /// problems of `error` (creating their folders) and returns the error to throw, its exit
    /// status kept; a report that cannot be written adds its own line.
    func reportingFailure(_ error: CLIError) -> CLIError {
        var failure = error
        let md = GateReport.errorMarkdown(error.messages)
        do {
            if let markdown { try OutputFile.write(Data(md.utf8), to: markdown) }
            if let junit { try OutputFile.write(Data(GateReport.errorJUnitXML(error.messages).utf8), to: junit) }
        } catch {
            failure.messages += error.messages
        }
        Self.appendStepSummary(md)
        return failure
    }

    /// Appends `markdown` to the file `$GITHUB_STEP_SUMMARY` names, when set and writable.
    static func appendStepSummary(_ markdown: String) {
        guard let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty,
            let handle = FileHandle(forWritingAtPath: summary)
        else { return }
        handle.seekToEndOfFile()
        handle.write(Data(markdown.utf8))
        try? handle.close()
    }

    /// The current run's results: a run folder, or a `results.json` inside one, must pass
    /// `RunOutput.verifiedResults(folder:)`; any other file is read as it is, like a baseline.
    static func readCurrent(_ current: String) throws(RunError) -> (path: String, results: RunResults) {
        let url = URL(fileURLWithPath: current)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: current, isDirectory: &isDirectory), isDirectory.boolValue {
            return (
                url.appendingPathComponent(RunOutput.resultsFile).path, try RunOutput.verifiedResults(folder: current)
            )
        }
        let folder = url.deletingLastPathComponent()
        // A run folder's results.json (its records beside it, or named by a rescore from
        // columns, which leaves its metric columns there) is checked as the folder.
        if url.lastPathComponent == RunOutput.resultsFile,
            [RunOutput.samplesFile, MetricColumns.fileName].contains(where: {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            })
        {
            return (current, try RunOutput.verifiedResults(folder: folder.path))
        }
        return (current, try GateReport.readResults(path: current))
    }
}

enum GateReportFormat {
    static func number(_ v: Double?) -> String {
        guard let v else { return "-" }
        return v.isFinite ? String(format: "%.4g", v) : "nan"
    }
}
