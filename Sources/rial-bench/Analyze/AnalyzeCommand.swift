import ArgumentParser
import Foundation
import RialCodecs
import RialDetection
import RialEval
import RialMedia

extension MetadataChecks.OptOut: ExpressibleByArgument {}

/// `rial-bench analyze`: every detection method and the aggregator on one capture.
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse one capture and print its evidence package (methods.md section 8).",
        discussion: """
            Runs every configured method on the image (and depth, second view), aggregates the scores \
            under the profile and prints a summary, or with --json the evidence package with each \
            method's full result under scene_analysis.breakdown and per-method latency. Files that \
            cannot be read exit 65 with one message naming the file.
            """)

    @Argument(help: "The photo (JPEG or PNG), in its stored orientation.", completion: .file())
    var image: String

    @Option(help: "LiDAR depth file aligned with the image.", completion: .file())
    var depth: String?

    @OptionGroup var depthOptions: DepthFormatOptions

    @Option(help: "Second camera's rectified view, for parallax.", completion: .file())
    var right: String?

    @Option(help: "Focal length of the rectified pair in pixels.")
    var focalPx: Double?

    @Option(help: "Stereo baseline in millimetres.")
    var baselineMm: Double?

    @Option(help: "Where the device's attestation key lives (passed); 'none' = no attestation.")
    var attestation: AttestationMethod = .none

    @Flag(help: "The attestation was checked and failed.")
    var attestationFailed = false

    @Option(
        help:
            "The device the capture declares, e.g. 'iPhone 15 Pro' (the EXIF Model is evidence only unless metadata.device_source is declared_or_exif)."
    )
    var deviceModel: String?

    @Option(help: "Platform recorded in the evidence package, e.g. ios or android.")
    var platform: String?

    @Option(help: "Reference time for the timestamp check, ISO 8601 (e.g. 2025-12-01T10:00:00Z).")
    var referenceTime: String?

    @Option(
        name: .customLong("opt-out"),
        help: "A field the user withheld: noted in the evidence as 'User opted out', never suspicious (repeatable).")
    var optOut: [MetadataChecks.OptOut] = []

    @Option(
        help:
            "A phone's detection payload (JSON with moire, texture, artifacts, ...): its scores replace the local methods of those families.",
        completion: .file(extensions: ["json"]))
    var payload: String?

    @OptionGroup var pipeline: PipelineOptions

    @Option(
        help: "Write a depth heatmap PNG (turbo colours, legend in metres).", completion: .file(extensions: ["png"]))
    var heatmap: String?

    @Flag(help: "Print the evidence package as JSON.")
    var json = false

    func validate() throws {
        if depth == nil, !depthOptions.isEmpty {
            throw ValidationError("--depth-format/--depth-width/--depth-height/--depth-scale need --depth")
        }
        if heatmap != nil, depth == nil { throw ValidationError("--heatmap needs --depth") }
        if let referenceTime, DatasetRunner.parseDate(referenceTime, allowDate: false) == nil {
            throw ValidationError("--reference-time '\(referenceTime)' is not ISO 8601 (e.g. 2025-12-01T10:00:00Z)")
        }
        for (name, value) in [("--focal-px", focalPx), ("--baseline-mm", baselineMm)] {
            if let value, !(value.isFinite && value > 0) {
                throw ValidationError("\(name) must be a positive number, got \(value)")
            }
        }
    }

    func run() throws {
        let configuration = try pipeline.resolvedConfiguration()
        let analyzer: CaptureAnalyzer
        do { analyzer = try CaptureAnalyzer(configuration: configuration) } catch {
            throw CLIError.badInput(CLIError.configurationMessage(error))
        }
        let evidence = AttestationEvidence(
            status: attestationFailed ? .fail : (attestation == .none ? .unavailable : .pass),
            method: attestation)
        let files = CaptureFiles(
            image: image, depth: depth, depthFormat: depthOptions.depthFormat, depthWidth: depthOptions.depthWidth,
            depthHeight: depthOptions.depthHeight, depthScale: depthOptions.depthScale, right: right, focalPx: focalPx,
            baselineMm: baselineMm, attestation: evidence,
            platform: platform, deviceModel: deviceModel,
            referenceTime: referenceTime.flatMap { DatasetRunner.parseDate($0, allowDate: false) },
            payload: payload, acceptJPEGWarnings: pipeline.acceptJPEGWarnings)
        let loaded: LoadedCapture
        // One capture: the row methods run while the photo decodes.
        do { loaded = try CaptureLoader.load(files, analyzingRowsWith: analyzer) } catch {
            throw CLIError.badInput(error.description)
        }
        for warning in loaded.warnings { Terminal.warning(warning) }
        var input = loaded.input
        input.optedOut = Set(optOut)
        let analysis = try analyzer.analyze(input, rows: loaded.rows)
        if let heatmap, let map = loaded.input.depth {
            do { try DepthHeatmap.writePNG(map, to: heatmap) } catch { throw CLIError.badInput("\(error)") }
        }
        var package = analysis.evidence
        for (key, value) in loaded.latencyMs { package.latencyMs[key] = value }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.out(String(decoding: try encoder.encode(package), as: UTF8.self))
        } else {
            Terminal.out(AnalysisSummary.render(package, image: image, decodeWarnings: loaded.jpegWarnings))
            if let heatmap { Terminal.out("heatmap written to \(heatmap)") }
        }
    }

}

/// The readable summary of an evidence package.
enum AnalysisSummary {
    /// `decodeWarnings`: libjpeg warnings of an image evaluated with
    /// `--accept-jpeg-warnings`, shown under the file name so the score is never read
    /// without them.
    static func render(_ p: EvidencePackage, image: String, decodeWarnings: [String] = []) -> String {
        var lines: [String] = []
        lines.append("\(image)")
        for warning in decodeWarnings { lines.append("FLAGGED: decoded from damaged JPEG data: \(warning)") }
        lines.append(
            "confidence: \(p.confidenceLevel.rawValue) \(format(p.confidenceScore)) (ranking score "
                + "\(format(p.aggregation.rankingScore)); profile \(p.profile); "
                + "real scene: \(p.sceneAnalysis.isLikelyRealScene ? "yes" : "no"); primary \(p.sceneAnalysis.primaryMethod ?? "none"))"
        )
        lines.append(
            "attestation: \(p.hardwareAttestation.status.rawValue) (\(p.hardwareAttestation.method.rawValue))"
                + (p.hardwareAttestation.deviceModel.map { ", device \($0)" } ?? ""))
        var table = TextTable(["method", "status", "score", "weight", "ms", "detail"])
        let familyKeys = Set(MethodFamily.allCases.map(FamilyEvidence.key) + [FamilyEvidence.supportingKey])
        for (key, value) in p.sceneAnalysis.breakdown where !familyKeys.contains(key) {
            let entry = value.objectValue ?? [:]
            let status = entry["status"]?.stringValue ?? "?"
            var score = entry["score"]?.numberValue.map(format) ?? "-"
            if let calibrated = entry["calibrated_score"]?.numberValue { score += " -> \(format(calibrated))" }
            let weight = (entry["aggregated"] == .bool(true)) ? (entry["weight"]?.numberValue.map(format) ?? "-") : "-"
            let ms = p.latencyMs[key].map { String(format: "%.1f", $0) } ?? "-"
            table.append([key, status, score, weight, ms, detail(entry)])
        }
        lines.append("")
        lines.append(table.render())
        lines.append("")
        lines.append(
            "evidence (PASS / FAIL / UNAVAILABLE): scene \(p.sceneAnalysis.status.rawValue); "
                + MethodFamily.allCases.filter {
                    !$0.needsVideo || p.sceneAnalysis.breakdown[FamilyEvidence.key($0)] != nil
                }.map { family in
                    let entry = p.sceneAnalysis.breakdown[FamilyEvidence.key(family)]?.objectValue ?? [:]
                    return "\(FamilyEvidence.key(family)) \(entry["status"]?.stringValue ?? "?")"
                        + " (\(entry["decided_by"]?.stringValue ?? "-"))"
                }.joined(separator: "; "))
        let flags = p.sceneAnalysis.crossValidation.flags.map(\.rawValue)
        lines.append(
            "cross-validation: methods \(p.sceneAnalysis.crossValidation.methodsAgree ? "agree" : "disagree"), "
                + "spread \(format(p.sceneAnalysis.crossValidation.disagreementScore)); flags: \(flags.isEmpty ? "none" : flags.joined(separator: ", "))"
        )
        if let cv = p.sceneAnalysis.crossValidation.analysis {
            let interval = cv.aggregatedInterval.map {
                "[\(format($0.lower)), \(format($0.upper))] width \(format($0.width))"
            }
            lines.append(
                "  status \(cv.validationStatus.rawValue) (\(cv.mode.rawValue) mode); interval \(interval ?? "-")"
                    + (cv.highUncertainty ? " HIGH UNCERTAINTY" : "") + "; temporal \(cv.temporal.status.rawValue)"
                    + (cv.temporal.reason.map { " (\($0))" } ?? ""))
            for a in cv.anomalies {
                lines.append(
                    "  anomaly \(a.severity.rawValue): \(a.type) (\(a.methods.map(\.rawValue).joined(separator: ", "))), "
                        + "impact -\(format(a.confidenceImpact))" + (cv.mode == .full ? "" : " (not applied)"))
            }
        }
        if let missing = p.aggregation.missingRequired {
            lines.append(
                "attestation \(p.hardwareAttestation.method.rawValue) requires detection that is missing: "
                    + missing.map(\.rawValue).joined(separator: ", "))
        }
        if p.aggregation.attestationRejected {
            lines.append(
                "attestation rejected (\(p.hardwareAttestation.method.rawValue), \(p.hardwareAttestation.status.rawValue))"
            )
        }
        if !p.aggregation.capsApplied.isEmpty {
            lines.append("caps: " + p.aggregation.capsApplied.joined(separator: "; "))
        }
        if let mvp = p.aggregation.mvp {
            let rule = p.aggregation.rule ?? .weighted
            lines.append(
                "levels: weighted \((p.aggregation.weightedLevel ?? p.confidenceLevel).rawValue), "
                    + "MVP \(mvp.level.rawValue) (hardware \(mvp.hardware.rawValue), depth \(mvp.depth.rawValue)); "
                    + "confidence from the \(rule.rawValue) rule")
        }
        if let failed = p.aggregation.failedChecks, !failed.isEmpty {
            lines.append("failed checks (red flag, possible manipulation): " + failed.joined(separator: ", "))
        }
        lines.append(
            "metadata: timestamp \(p.metadata.timestamp.status.rawValue) (\(p.metadata.timestamp.detail)); "
                + "lidar device \(p.metadata.deviceHasLidar.status.rawValue) (\(p.metadata.deviceHasLidar.detail)); "
                + "resolution \(p.metadata.resolution.status.rawValue) (\(p.metadata.resolution.detail))"
                + (p.metadata.optedOut.map { "; user opted out: " + $0.map(\.rawValue).joined(separator: ", ") } ?? "")
        )
        lines.append("sha256: \(p.provenance.sha256 ?? "-")")
        if let overlapped = p.latencyMs["decode_and_row_methods"] {
            lines.append(
                String(
                    format: "total %.1f ms (decode with the row methods beside it %.1f ms, sha256 %.1f ms)",
                    p.latencyMs["total"] ?? 0, overlapped, p.latencyMs["sha256"] ?? 0))
        } else {
            lines.append(
                String(
                    format: "total %.1f ms (decode %.1f ms, sha256 %.1f ms)", p.latencyMs["total"] ?? 0,
                    p.latencyMs["decode"] ?? 0, p.latencyMs["sha256"] ?? 0))
        }
        return lines.joined(separator: "\n")
    }

    /// The most telling fields of a method's result, or its reason when not completed.
    static func detail(_ entry: JSONObject) -> String {
        if let reason = entry["unavailable_reason"]?.stringValue { return reason }
        let keys = [
            "is_likely_real_scene", "classification", "screen_type", "detected", "is_planar_subject",
            "depth_variance", "depth_layers", "plane_count", "dominant_inlier_fraction", "disparity_coverage",
            "inlier_fraction", "is_likely_artificial", "is_likely_recaptured",
        ]
        var parts: [String] = []
        for key in keys {
            guard let value = entry[key] else { continue }
            switch value {
            case .bool(let b): parts.append("\(key)=\(b)")
            case .number(let n): parts.append("\(key)=\(format(n))")
            case .string(let s): parts.append("\(key)=\(s)")
            default: continue
            }
        }
        return parts.joined(separator: " ")
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
