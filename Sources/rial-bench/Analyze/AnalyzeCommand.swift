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
            cannot be read exit 65 with one message naming the file. With --privacy-payload it verifies \
            a privacy-mode (hash-only) payload instead: the hash against the media file when given, the \
            phone's depth analysis against depth/1 on --depth when given, the metadata flags, for video \
            the hash chain summary (against --chain when given), and prints the deployed and the sound \
            rule's levels.
            """)

    @Argument(
        help:
            "The photo (JPEG or PNG), in its stored orientation. With --privacy-payload: the media file the payload hashes (photo or video), optional.",
        completion: .file())
    var image: String?

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

    @Option(
        help:
            "A privacy-mode (hash-only) payload to verify (capture_mode hash_only, media_hash, depth_analysis, metadata, ...).",
        completion: .file(extensions: ["json"]))
    var privacyPayload: String?

    @Option(
        help: "With --privacy-payload of a video: the recording's hash chain record (JSON) to compare hash_chain with.",
        completion: .file(extensions: ["json"]))
    var chain: String?

    @Option(
        help:
            "With --privacy-payload of a video: a reference temporal result (JSON object) to compare temporal_depth_analysis with, field by field.",
        completion: .file(extensions: ["json"]))
    var temporalReference: String?

    @Option(
        help:
            "With --privacy-payload of a video: the recording's depth keyframe blob (RLDP, or headerless with --depth-width/--depth-height); the phone's privacy-mode temporal analysis is recomputed on it and compared with temporal_depth_analysis.",
        completion: .file())
    var depthKeyframes: String?

    @OptionGroup var pipeline: PipelineOptions

    @Option(
        help: "Write a depth heatmap PNG (turbo colours, legend in metres).", completion: .file(extensions: ["png"]))
    var heatmap: String?

    @Flag(help: "Print the evidence package as JSON.")
    var json = false

    func validate() throws {
        if privacyPayload == nil {
            if image == nil { throw ValidationError("Missing expected argument '<image>'") }
            for (name, value) in [
                ("--chain", chain), ("--temporal-reference", temporalReference), ("--depth-keyframes", depthKeyframes),
            ]
            where value != nil {
                throw ValidationError("\(name) needs --privacy-payload")
            }
        } else {
            if depthKeyframes != nil, temporalReference != nil {
                throw ValidationError(
                    "--depth-keyframes and --temporal-reference both give the temporal reference; give one")
            }
            let conflicting: [(String, Bool)] = [
                ("--right", right != nil), ("--payload", payload != nil), ("--heatmap", heatmap != nil),
                ("--opt-out", !optOut.isEmpty),
            ]
            if let (name, _) = conflicting.first(where: \.1) {
                throw ValidationError(
                    "\(name) does not apply with --privacy-payload (a hash-only payload has no image to analyse)")
            }
        }
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
        if let privacyPayload { return try verifyPrivacy(privacyPayload) }
        guard let image else { throw ValidationError("Missing expected argument '<image>'") }
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

    /// `--privacy-payload`: verifies the payload with whatever files were given.
    func verifyPrivacy(_ path: String) throws {
        let configuration = try pipeline.resolvedConfiguration()
        do { try configuration.validate() } catch { throw CLIError.badInput(CLIError.configurationMessage(error)) }
        let payload: PrivacyPayload
        do { payload = try PrivacyPayload.read(path) } catch { throw CLIError.badInput(lines: error.lines) }
        let attestationEvidence = AttestationEvidence(
            status: attestationFailed ? .fail : (attestation == .none ? .unavailable : .pass), method: attestation)
        let singleFrame: DepthAnalyzerV1
        do { singleFrame = try DepthAnalyzerV1(configuration: configuration[DepthAnalyzerV1.self]) } catch {
            throw CLIError.badInput(CLIError.configurationMessage(error))
        }
        let evidence: PrivacyVerification.Evidence
        do {
            evidence = try PrivacyEvidenceLoader.load(
                .init(
                    media: image, depth: depth, depthFormat: depthOptions.depthFormat,
                    depthWidth: depthOptions.depthWidth, depthHeight: depthOptions.depthHeight,
                    depthScale: depthOptions.depthScale, chain: chain, temporalReference: temporalReference,
                    depthKeyframes: depthKeyframes, attestation: attestationEvidence),
                singleFrame: singleFrame)
        } catch { throw CLIError.badInput(error.description) }
        let verification = PrivacyVerification.verify(payload, evidence: evidence, configuration: configuration)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.out(String(decoding: try encoder.encode(verification), as: UTF8.self))
        } else {
            Terminal.out(PrivacySummary.render(verification, payload: path, media: image, depth: depth))
        }
    }
}

/// The readable summary of a privacy payload's verification.
enum PrivacySummary {
    static func render(_ v: PrivacyVerification, payload: String, media: String?, depth: String?) -> String {
        var lines: [String] = []
        let c = v.confidence
        lines.append("\(payload) (privacy mode, \(v.mediaType.rawValue))")
        lines.append(
            "confidence: \(c.level.rawValue) (sound rule; before caps \(c.sound.level.rawValue)"
                + (c.capsApplied.isEmpty ? "" : ", capped by " + c.capsApplied.joined(separator: ", "))
                + "); deployed rule \(c.deployed.level.rawValue) (trusts the phone's is_likely_real_scene)")
        lines.append(
            "evidence: hardware \(c.sound.hardware.rawValue); depth: sound \(c.sound.depth.rawValue), "
                + "deployed \(c.deployed.depth.rawValue)")
        lines.append(
            "payload: \(v.payloadBytes) bytes, " + (v.payloadWithinTarget ? "under" : "NOT under")
                + " the \(v.payloadTargetBytes)-byte target")
        switch v.hash.status {
        case .pass: lines.append("media hash: pass (\(media ?? "-") hashes to media_hash)")
        case .fail:
            lines.append(
                "media hash: FAIL (\(media ?? "-") hashes to \(v.hash.actual ?? "-"), payload says \(v.hash.expected))")
        case .unavailable: lines.append("media hash: unavailable (no media file given)")
        }
        if let numbers = v.depthNumbers {
            lines.append("phone's depth numbers: \(numbers.status.rawValue) (\(numbers.detail))")
        } else {
            lines.append("phone's depth analysis: none (depth excluded: user opted out)")
        }
        if let parity = v.depthParity {
            lines.append("depth parity against depth/1 on \(depth ?? "-"): \(parity.summary)")
        } else if v.depthNumbers != nil {
            lines.append("depth parity: unavailable (no depth map given)")
        }
        lines.append(
            "metadata flags: \(v.metadata.status.rawValue)"
                + (v.metadata.problems.isEmpty ? "" : " (" + v.metadata.problems.joined(separator: "; ") + ")"))
        for disclosure in v.metadata.disclosures { lines.append("  disclosure: \(disclosure)") }
        if let chain = v.chain {
            lines.append(
                "hash chain summary: \(chain.status.rawValue)"
                    + (chain.recordCompared ? " (against the chain record)" : "")
                    + (chain.problems.isEmpty ? "" : ": " + chain.problems.joined(separator: "; ")))
        }
        if let numbers = v.temporalNumbers {
            lines.append("phone's temporal numbers: \(numbers.status.rawValue) (\(numbers.detail))")
        }
        if let parity = v.temporalParity { lines.append("temporal parity: \(parity.summary)") }
        let failed = c.sound.checks.filter { $0.value == .fail }.map(\.key).sorted()
        if !failed.isEmpty { lines.append("failed checks: " + failed.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
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
