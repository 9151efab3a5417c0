import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialDetection

#if canImport(Glibc)
    import Glibc
#endif

/// Manual evaluation of `artifacts/1` on the default data sets and its release timing.
/// Runs only with `RIAL_ARTIFACTS_EVAL=1` (it reads 226 images); meant for a release
/// build: `swift test -c release --filter ArtifactEvaluation`. Optional:
/// `RIAL_ARTIFACTS_SYNTH` (synthetic manifest), `RIAL_ARTIFACTS_REAL` (real manifest),
/// `RIAL_ARTIFACTS_OUT` (report path, default stdout only). Prints per-label detection
/// rates, AUCs (Mann-Whitney, ties count 1/2) and per-image timing; asserts nothing
/// about the numbers.
@Suite struct ArtifactEvaluationTests {
    static let environment = ProcessInfo.processInfo.environment
    static var enabled: Bool { environment["RIAL_ARTIFACTS_EVAL"] == "1" }

    struct Row {
        var id: String
        var label: String
        var tags: [String]
        var result: ArtifactAnalyzer.Result
        var expectedBandRows: Double?
        var bandAmplitude: Double?
        var expectedHalftonePx: Double?
        var tiltDeg: Double?
    }

    /// P(score of a positive > score of a negative) + 1/2 P(tie) (Mann-Whitney AUC).
    static func auc(positives: [Double], negatives: [Double]) -> Double {
        guard !positives.isEmpty, !negatives.isEmpty else { return .nan }
        var wins = 0.0
        for p in positives {
            for n in negatives { wins += p > n ? 1 : (p == n ? 0.5 : 0) }
        }
        return wins / Double(positives.count * negatives.count)
    }

    static func load(manifest path: String) throws -> (root: URL, samples: [[String: Any]]) {
        let url = URL(fileURLWithPath: path)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        return (url.deletingLastPathComponent(), json["samples"] as? [[String: Any]] ?? [])
    }

    /// Peak-to-peak / 2 of the rolling-shutter row gains (RollingShutter's formula), the
    /// band amplitude a flicker block predicts.
    static func bandAmplitude(_ f: [String: Any], rows: Int) -> Double {
        let hz = f["hz"] as? Double ?? 0, d = min(max(f["duty_cycle"] as? Double ?? 0.5, 0.01), 1)
        let m = f["modulation_depth"] as? Double ?? 0, exposure = (f["exposure_ms"] as? Double ?? 1) * 1e-3
        let rowTime = (f["row_time_us"] as? Double ?? 0) * 1e-6, phase = f["phase"] as? Double ?? 0
        func onTime(_ x: Double) -> Double {
            let fl = x.rounded(.down)
            return fl * d + min(x - fl, d)
        }
        var lo = Double.infinity, hi = -Double.infinity
        for y in 0..<rows {
            let x0 = phase + Double(y) * rowTime * hz, x1 = x0 + exposure * hz
            let g = 1 - m + m * (onTime(x1) - onTime(x0)) / (x1 - x0) / d
            lo = min(lo, g)
            hi = max(hi, g)
        }
        return (hi - lo) / 2
    }

    func run(manifest: String, synthetic: Bool) throws -> [Row] {
        let (root, samples) = try Self.load(manifest: manifest)
        let analyzer = ArtifactAnalyzer()
        var rows: [Row] = []
        for s in samples {
            guard let id = s["id"] as? String, let label = s["label"] as? String, let image = s["image"] as? String
            else { continue }
            let path = image.hasPrefix("/") ? image : root.appendingPathComponent(image).path
            guard let loaded = try? ImageReader.read(path: path) else {
                print("unreadable \(id) \(path)")
                continue
            }
            let result = analyzer.analyze(loaded.image)
            var row = Row(id: id, label: label, tags: s["tags"] as? [String] ?? [], result: result)
            if let synth = s["synth"] as? [String: Any] {
                if let display = synth["display"] as? [String: Any], let f = display["flicker"] as? [String: Any],
                    let hz = f["hz"] as? Double, let rowTime = f["row_time_us"] as? Double
                {
                    row.expectedBandRows = 1 / (hz * rowTime * 1e-6)
                    row.bandAmplitude = Self.bandAmplitude(f, rows: loaded.image.height)
                }
                if let printBlock = synth["print"] as? [String: Any],
                    (printBlock["process"] as? String) == "cmyk_halftone"
                {
                    row.expectedHalftonePx = printBlock["period_px"] as? Double
                }
                row.tiltDeg = (synth["subject"] as? [String: Any])?["tilt_deg"] as? Double
            }
            rows.append(row)
        }
        _ = synthetic
        return rows
    }

    static func format(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "-" }

    func summary(_ rows: [Row], title: String) -> String {
        var out = "## \(title) (\(rows.count) samples)\n"
        out +=
            "label n pwm_detect specular_detect halftone_detect artificial mean_pwm mean_spec mean_half mean_overall mean_score\n"
        let labels = Array(Set(rows.map(\.label))).sorted()
        for label in labels {
            let r = rows.filter { $0.label == label }.map(\.result).filter { $0.status == .completed }
            func rate(_ f: (ArtifactAnalyzer.Result) -> Bool?) -> String {
                let v = r.compactMap(f)
                return v.isEmpty ? "-" : String(format: "%d/%d", v.filter { $0 }.count, v.count)
            }
            func mean(_ f: (ArtifactAnalyzer.Result) -> Double?) -> String {
                let v = r.compactMap(f)
                return v.isEmpty ? "-" : String(format: "%.3f", v.reduce(0, +) / Double(v.count))
            }
            out +=
                "\(label) \(r.count) \(rate { $0.pwmFlickerDetected }) \(rate { $0.specularPatternDetected }) "
                + "\(rate { $0.halftoneDetected }) \(rate { $0.isLikelyArtificial }) \(mean { $0.pwmConfidence }) "
                + "\(mean { $0.specularConfidence }) \(mean { $0.halftoneConfidence }) \(mean { $0.overallConfidence }) "
                + "\(mean { $0.score })\n"
        }
        let real = rows.filter { $0.label == "real_scene" && $0.result.status == .completed }
        let attacks = rows.filter { $0.label != "real_scene" && $0.result.status == .completed }
        // AUCs with "attack" as the positive class on 1 - score / the detector confidence.
        func auc(_ positives: [Row], _ f: (ArtifactAnalyzer.Result) -> Double?) -> String {
            Self.format(
                Self.auc(positives: positives.compactMap { f($0.result) }, negatives: real.compactMap { f($0.result) }))
        }
        let prints = attacks.filter { $0.label == "printed_paper" }
        let screens = attacks.filter { $0.label != "printed_paper" }
        out += "AUC real vs attacks (overall_confidence = 1 - score): \(auc(attacks) { $0.overallConfidence })\n"
        out += "AUC real vs prints (halftone_confidence): \(auc(prints) { $0.halftoneConfidence })\n"
        out += "AUC real vs prints (overall): \(auc(prints) { $0.overallConfidence })\n"
        out += "AUC real vs screens (pwm_confidence): \(auc(screens) { $0.pwmConfidence })\n"
        out += "AUC real vs screens (overall): \(auc(screens) { $0.overallConfidence })\n"
        out += "AUC real vs attacks (specular_confidence): \(auc(attacks) { $0.specularConfidence })\n"
        let glare = attacks.filter { $0.tags.contains("glare") }
        if !glare.isEmpty {
            let noGlare = rows.filter { !$0.tags.contains("glare") && $0.result.status == .completed }
            let a = Self.auc(
                positives: glare.compactMap { $0.result.specularConfidence },
                negatives: noGlare.compactMap { $0.result.specularConfidence })
            out += "AUC glare-tagged vs untagged (specular_confidence): \(Self.format(a))\n"
        }
        let flicker = rows.filter { $0.expectedBandRows != nil }
        if !flicker.isEmpty {
            let screensNoFlicker = screens.filter { $0.expectedBandRows == nil }
            out +=
                "flicker-tagged screens: \(flicker.filter { $0.result.pwmFlickerDetected == true }.count)/\(flicker.count) detected; "
                + "untagged screens detected: \(screensNoFlicker.filter { $0.result.pwmFlickerDetected == true }.count)/\(screensNoFlicker.count)\n"
            let visible = flicker.filter { ($0.bandAmplitude ?? 0) >= 0.05 }
            let correct = visible.filter {
                guard let p = $0.result.pwmPeriodRows, let e = $0.expectedBandRows else { return false }
                return abs(p - e) <= 0.1 * e || abs(2 * p - e) <= 0.1 * e
            }
            out +=
                "flicker with band amplitude >= 0.05: \(visible.filter { $0.result.pwmFlickerDetected == true }.count)/\(visible.count) detected, "
                + "\(correct.count) with period within 10% (or its 2nd harmonic)\n"
            for row in flicker.sorted(by: { ($0.bandAmplitude ?? 0) > ($1.bandAmplitude ?? 0) }) {
                out +=
                    "  \(row.id) expected \(Self.format(row.expectedBandRows)) amp \(Self.format(row.bandAmplitude)) "
                    + "got \(Self.format(row.result.pwmPeriodRows)) conf \(Self.format(row.result.pwmConfidence)) "
                    + "ratio \(Self.format(row.result.pwmPeakRatio)) coh \(Self.format(row.result.pwmCoherence))\n"
            }
        }
        let halftone = rows.filter { $0.expectedHalftonePx != nil }
        if !halftone.isEmpty {
            let errors = halftone.compactMap { row -> Double? in
                guard row.result.halftoneDetected == true, let p = row.result.halftonePeriodPx,
                    let e = row.expectedHalftonePx
                else { return nil }
                return abs(p - e) / e
            }.sorted()
            let within = errors.filter { $0 <= 0.1 }.count
            out +=
                "halftone prints: \(errors.count)/\(halftone.count) detected; period within 10%: \(within); median relative error "
                + "\(Self.format(errors.isEmpty ? nil : errors[errors.count / 2]))\n"
            for row in halftone.sorted(by: { ($0.tiltDeg ?? 0) < ($1.tiltDeg ?? 0) }) {
                out +=
                    "  \(row.id) tilt \(Self.format(row.tiltDeg)) expected \(Self.format(row.expectedHalftonePx)) "
                    + "got \(Self.format(row.result.halftonePeriodPx)) conf \(Self.format(row.result.halftoneConfidence)) "
                    + "angles \((row.result.halftoneAnglesDeg ?? []).map { Int($0.rounded()) }) tags \(row.tags.filter { $0 != "synthetic" })\n"
            }
        }
        for row in rows where row.result.status != .completed {
            out += "  unavailable \(row.id): \(row.result.unavailableReason ?? "")\n"
        }
        return out
    }

    @Test(.enabled(if: ArtifactEvaluationTests.enabled))
    func defaultDataSetsAndTiming() throws {
        let synthPath =
            Self.environment["RIAL_ARTIFACTS_SYNTH"]
            ?? "/work/main/.cache/rial-bench/synth-87b3aafee695d2ea/manifest.json"
        let realPath = Self.environment["RIAL_ARTIFACTS_REAL"] ?? "/work/main/datasets/real-public/manifest.json"
        var report = ""
        let synthRows = try run(manifest: synthPath, synthetic: true)
        report += summary(synthRows, title: "synthetic \(synthPath)")
        let realRows = try run(manifest: realPath, synthetic: false)
        report += summary(realRows, title: "real public \(realPath)")
        for row in realRows {
            let r = row.result
            report +=
                "  \(row.id) [\(row.label)] \(r.status.rawValue) pwm \(Self.format(r.pwmConfidence)) "
                + "spec \(Self.format(r.specularConfidence)) half \(Self.format(r.halftoneConfidence)) "
                + "overall \(Self.format(r.overallConfidence)) artificial \(r.isLikelyArtificial.map { "\($0)" } ?? "-")\n"
        }

        // Timing: a synthetic capture resized to 4032 x 3024 (one thread, this process).
        if let first = synthRows.first, let (root, samples) = try? Self.load(manifest: synthPath),
            let image = samples.first?["image"] as? String
        {
            _ = first
            let loaded = try ImageReader.read(path: root.appendingPathComponent(image).path)
            let big = try loaded.image.resizedBilinear(width: 4032, height: 3024)
            let analyzer = ArtifactAnalyzer()
            for _ in 0..<3 { _ = analyzer.analyze(big) }
            var times: [Double] = []
            var parts: [String: [Double]] = [:]
            for _ in 0..<15 {
                times.append(analyzer.analyze(big).analysisTimeMs)
                for (name, body) in [
                    ("pwm", { _ = big.withRows { analyzer.measureBanding($0) } }),
                    ("specular", { _ = big.withRows { analyzer.measureSpecular($0) } }),
                    ("halftone", { _ = big.withRows { analyzer.measureHalftone($0) } }),
                ] as [(String, () -> Void)] {
                    let t = ContinuousClock.now
                    body()
                    let e = (ContinuousClock.now - t).components
                    parts[name, default: []].append(Double(e.seconds) * 1000 + Double(e.attoseconds) / 1e15)
                }
            }
            // Halftone breakdown: one 256-point 2D power spectrum and one peak search.
            let n = analyzer.configuration.halftoneTileSize
            let fft = FFT(size: n)
            var tile = [Double](repeating: 1, count: n * n)
            for i in tile.indices { tile[i] = Double(big.samples[3 * i] & 0xF) }
            var power = [Double](), scratch = ArtifactSpectrum.TileScratch(n: n)
            let geometry = HalftoneGeometry(n: n, configuration: analyzer.configuration)
            var fftTimes: [Double] = [], peakTimes: [Double] = []
            for _ in 0..<15 {
                var t = ContinuousClock.now
                ArtifactSpectrum.tilePower(tile, fft: fft, power: &power, scratch: &scratch)
                var e = (ContinuousClock.now - t).components
                fftTimes.append(Double(e.seconds) * 1000 + Double(e.attoseconds) / 1e15)
                t = ContinuousClock.now
                _ = geometry.peaks(power)
                e = (ContinuousClock.now - t).components
                peakTimes.append(Double(e.seconds) * 1000 + Double(e.attoseconds) / 1e15)
            }
            fftTimes.sort()
            peakTimes.sort()
            report += String(
                format: "  one tile: power spectrum %.2f ms, peak search %.2f ms\n", fftTimes[7], peakTimes[7])
            times.sort()
            report += String(
                format: "timing 4032x3024 RGB, 15 runs after 3 warm-up: median %.2f ms, min %.2f, max %.2f\n",
                times[times.count / 2], times[0], times[times.count - 1])
            #if canImport(Glibc)
                // Thread CPU time: independent of other processes competing for the cores.
                func cpuMilliseconds() -> Double {
                    var t = timespec()
                    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
                    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
                }
                var cpu: [Double] = []
                for _ in 0..<15 {
                    let t0 = cpuMilliseconds()
                    _ = analyzer.analyze(big)
                    cpu.append(cpuMilliseconds() - t0)
                }
                cpu.sort()
                report += String(
                    format: "thread CPU time per analysis, 15 runs: median %.2f ms, min %.2f, max %.2f\n",
                    cpu[7], cpu[0], cpu[14])
                for (name, body) in [
                    ("pwm", { _ = big.withRows { analyzer.measureBanding($0) } }),
                    ("specular", { _ = big.withRows { analyzer.measureSpecular($0) } }),
                    ("halftone", { _ = big.withRows { analyzer.measureHalftone($0) } }),
                ] as [(String, () -> Void)] {
                    var v: [Double] = []
                    for _ in 0..<15 {
                        let t0 = cpuMilliseconds()
                        body()
                        v.append(cpuMilliseconds() - t0)
                    }
                    v.sort()
                    report += String(format: "  %@ thread CPU median %.2f ms\n", name, v[7])
                }
            #endif
            for (name, v) in parts.sorted(by: { $0.key < $1.key }) {
                let s = v.sorted()
                report += String(format: "  %@ median %.2f ms\n", name, s[s.count / 2])
            }
        }
        print(report)
        if let out = Self.environment["RIAL_ARTIFACTS_OUT"] {
            try report.write(toFile: out, atomically: true, encoding: .utf8)
        }
    }
}
