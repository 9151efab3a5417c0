import Foundation
import RialDetection
import RialMedia

/// `reports/methodology.md`: how rial-bench evaluates the rial. detection pipeline, for
/// reviewers. Generated from a run folder (`rial-bench methodology --from DIR`), so
/// every number in it comes from that run's `results.json`, with the commands that
/// reproduce it.
public enum MethodologyReport {
    /// What each method looks at and what it cannot see (stated once, here).
    public struct MethodNote: Sendable {
        public var key: String
        public var title: String
        public var signal: String
        public var blindTo: String
    }

    public static let notes: [MethodNote] = [
        .init(key: "depth/1", title: "LiDAR depth, deployed reference",
              signal: "Statistics of the valid depths (0.1-20 m): population std > 0.5 m, at least 3 histogram peaks (50 bins, 3-tap smoothing, 5% threshold), depth-gradient 'edge coherence' > 0.3, and not screen-like (range < 0.15 m, 85% within 5 cm of the median, mean 0.2-1.5 m). Reproduced exactly, strict and non-strict comparisons included; its score takes three values (1.0, 0.2, 0.1), so the continuous `margin` (depth/1:margin) is evaluated beside it.",
              blindTo: "Planarity: a tilted screen or a print held at an angle has a large std and passes; three clean planes give only 2 histogram peaks and fail; ±2 cm sensor noise on a flat surface creates spurious peaks; real flat subjects (a wall, a document) always fail. It never looks at the RGB image."),
        .init(key: "depth/2", title: "LiDAR depth, planarity of the point cloud",
              signal: "Back-projects valid depths with pinhole intrinsics (given, else a 65° horizontal field of view), finds up to 4 planes by seeded sequential RANSAC with a range-dependent noise model (5 mm + 5 mm/m² · z²), scores inlier fraction, residual relative to the noise model and depth range; checks that depth discontinuities align with RGB edges.",
              blindTo: "A real flat subject filling the frame is a plane too (reported as `is_planar_subject`, left to the other signals); a strongly curved or folded print can split into several planes; a screen inside a furnished room is only part of the point cloud."),
        .init(key: "parallax/1", title: "Multi-camera parallax",
              signal: "Block matching on the rectified pair of the phone's two cameras; a planar target gives a disparity field that is affine in (x, y), a 3D scene does not: robust affine fit, residual and inlier fraction.",
              blindTo: "Real flat subjects (planar too); textureless scenes (no disparity); tiny baselines at long range (disparity below matching noise)."),
        .init(key: "moire/1", title: "Moire FFT",
              signal: "Windowed power spectra of full-resolution tiles: isolated peaks above 3x the median noise floor in the subpixel-scale band, each conjugate pair counted once, frequencies in cycles per pixel; the JPEG 8x8 block grid is excluded.",
              blindTo: "Screens whose subpixel grid is far above the sensor's Nyquist frequency or blurred away (defocus, distance), OLED panels with fine pitch, and adversarial recaptures that band-limit the display (Chimera, USENIX Security 2025). Periodic real textures can trigger it."),
        .init(key: "texture/1", title: "Texture classifier",
              signal: "A trained multinomial classifier over texture descriptors (local binary patterns, subpixel-band spectral energy, colour and gradient statistics) with weights versioned in the repository; score = probability of real_scene.",
              blindTo: "Everything it was not trained on: its training data is synthetic (RialSynth) with the provenance recorded in the model; real-world generalisation is measured only on the small real public set. Adversarial recaptures defeat it."),
        .init(key: "artifacts/1", title: "Display and print artifacts",
              signal: "PWM/refresh banding in the row-mean spectrum (rolling shutter), specular glare regions (large, low-saturation, near-saturated, sharp regular borders), halftone peaks at print rulings and rosette angles; overall = 0.35 pwm + 0.30 specular + 0.35 halftone.",
              blindTo: "Displays without PWM dimming or at refresh rates aliasing to DC, matte screens without glare, prints without a visible dot screen (continuous-tone photo prints, high-ruling offset at distance)."),
        .init(key: "aggregate", title: "Confidence aggregation",
              signal: "Weighted mean of the available methods' scores (ios_pro: lidar 0.55, moire 0.15, texture 0.15, supporting 0.15; android: attestation 0.20, parallax 0.30, moire 0.15, texture 0.20, supporting 0.15), renormalised over the methods that scored; +0.05 when all agree the capture is real; level caps for disagreement, screen/print detections, a missing primary signal and attestation.",
              blindTo: "Whatever all its inputs miss; image-only detectors are SUPPORTING by design because adversarial recaptures defeat them, so the physical signals (depth, parallax) and hardware attestation dominate."),
    ]

    /// The methodology as Markdown.
    public static func markdown(results r: RunResults, datasets: [DatasetDescription], folder: String) -> String {
        var out: [String] = []
        func f(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "—" }
        func ci(_ c: ConfidenceInterval?) -> String { c.map { "[\(f($0.lower)), \(f($0.upper))]" } ?? "" }
        out.append("# rial-bench methodology")
        out.append("")
        out.append("How rial-bench measures whether the detection methods of **rial.** tell photos of real 3D scenes from recaptures of screens and prints. Generated by `rial-bench methodology --from \(folder)` from the run described below; every number here is in that run's `results.json`.")
        if r.testRun { out.append("\n> **This was a test run (`--limit`)**: the numbers are not representative.") }
        out.append("")
        out.append("## How to reproduce every number")
        out.append("")
        out.append("```sh")
        out.append("git checkout \(r.tool.gitCommit ?? "<commit>")")
        out.append("scripts/run                                         # = rial-bench run --out reports/latest (default data)")
        out.append("python3 scripts/check-auc-sklearn.py reports/latest  # AUC/AP/ROC against scikit-learn")
        out.append("rial-bench methodology --from reports/latest --out reports/methodology.md")
        out.append("```")
        out.append("")
        out.append("The run used configuration SHA-256 `\(r.configurationSHA256)` (the compiled-in defaults: `rial-bench config print`), profile `\(r.profile)`, bootstrap seed \(r.seeds["bootstrap"] ?? 0) with \(r.bootstrapResamples) resamples, rial-bench \(r.tool.version), \(r.build) build. The pipeline is deterministic (seeded RANSAC, no randomness elsewhere), so the same commit, configuration and data give the same scores; only timings vary.")
        out.append("")
        out.append("## Data")
        out.append("")
        out.append("Each number below says which data it rests on. **Real** = photographs of the world from public datasets; **simulated** = captures rendered by RialSynth, rial-bench's physically based generator (screens through their subpixel structure and the camera's optics, sensor and demosaicing; prints through CMYK halftone screens; an ARKit-like depth sensor).")
        out.append("")
        out.append("| dataset | data | samples | evaluated | failed | manifest SHA-256 | licences |")
        out.append("|---|---|---:|---:|---:|---|---|")
        for (i, d) in r.datasets.enumerated() {
            let description = i < datasets.count ? datasets[i] : nil
            out.append("| \(d.name) | \(d.data) | \(d.original) | \(d.evaluated) | \(d.failed) | `\(d.manifestSHA256)` | \(description?.licences.joined(separator: ", ") ?? "") |")
        }
        out.append("")
        for kind in r.counts.byData.keys.sorted() {
            let counts = r.counts.byData[kind]!
            out.append("- \(kind): " + counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", "))
        }
        for d in datasets where !d.sources.isEmpty {
            out.append("")
            out.append("### Files of \(d.name)")
            out.append("")
            out.append("Never copied into the repository: each file is referenced by its upstream location and SHA-256 and read through the data mirror (`rial-bench dataset fetch`).")
            out.append("")
            out.append("| sample | label | source | licence | image SHA-256 |")
            out.append("|---|---|---|---|---|")
            for s in d.sources { out.append("| \(s.id) | \(s.label) | \(s.source) | \(s.license) | `\(s.sha256.prefix(16))…` |") }
        }
        out.append("")
        out.append("## Metrics")
        out.append("")
        out.append("Positive class = bona fide (`real_scene`); every score is in [0, 1] with 1 = consistent with a real scene; a sample is accepted as bona fide when its score ≥ the decision threshold (\(f(r.configuration.decision.threshold))). ROC, AUC and average precision follow scikit-learn exactly (ties as diagonal segments, first threshold +inf; `scripts/check-auc-sklearn.py` checks them on the run's own `samples.jsonl`). ISO/IEC 30107-3: APCER per attack species (label) and the maximum, BPCER, ACER = (APCER max + BPCER)/2, BPCER20/BPCER100 = BPCER at the threshold where APCER max ≤ 5 % / 1 %, EER. 95 % intervals: percentile cluster bootstrap resampling whole `group`s (a scene, a session) — never individual samples of one group; Wilson intervals for per-species rates. A method that could not score a sample (e.g. no depth) leaves that sample out of its own metrics (`n_excluded`).")
        let subsets: [(String, [String: MethodMetrics])] = [("all evaluated samples", r.metrics)]
            + r.metricsByData.keys.sorted().filter { _ in r.metricsByData.count > 1 }.map { ("\($0) data only", r.metricsByData[$0]!) }
        for (title, metrics) in subsets {
            out.append("")
            out.append("### Results, \(title)")
            out.append("")
            out.append("| method | bona fide / attack | AUC [95% CI] | EER [95% CI] | EER threshold | APCER max | BPCER | ACER | BPCER20 (threshold) | BPCER100 (threshold) |")
            out.append("|---|---:|---|---|---:|---:|---:|---:|---|---|")
            for key in r.methods {
                guard let m = metrics[key] else { continue }
                out.append("| `\(key)` | \(m.bonaFideCount) / \(m.attackCount) | \(f(m.auc)) \(ci(m.aucCI)) | \(f(m.eer)) \(ci(m.eerCI)) | \(f(m.eerThreshold)) | "
                           + "\(f(m.apcer.max))\(m.apcer.maxSpecies.map { " (\($0))" } ?? "") | \(f(m.bpcer)) | \(f(m.acer)) | "
                           + "\(f(m.bpcer20)) (\(f(m.bpcer20Threshold))) | \(f(m.bpcer100)) (\(f(m.bpcer100Threshold))) |")
            }
        }
        out.append("")
        out.append("Operating points: the table's APCER/BPCER/ACER are at the configured threshold; BPCER20 and BPCER100 give the best threshold for an attack-acceptance budget of 5 % and 1 % (the threshold in brackets). Small classes make these rates coarse: one sample of 50 moves a rate by 2 points, which the intervals show.")
        out.append("")
        out.append("## Latency")
        out.append("")
        out.append("Per method per sample, in-process, monotonic clock, nearest-rank percentiles, in the run above (\(r.environment.cpu), \(r.environment.cores) cores, \(r.jobs) parallel samples, \(r.build) build). Targets: methods.md section 9 (phone budgets). `rial-bench bench` measures each method alone on a fixed 12 MP capture.")
        out.append("")
        out.append("| key | n | p50 ms | p90 ms | p99 ms | target ms | verdict |")
        out.append("|---|---:|---:|---:|---:|---:|---|")
        for key in r.latency.keys.sorted() {
            let e = r.latency[key]!
            out.append("| `\(key)` | \(e.statistics.n) | \(String(format: "%.2f", e.statistics.p50)) | \(String(format: "%.2f", e.statistics.p90)) | \(String(format: "%.2f", e.statistics.p99)) | \(e.targetMs.map { String(format: "%.0f", $0) } ?? "—") | \(e.verdict) |")
        }
        out.append("")
        out.append("## Methods, their configuration, and what each cannot see")
        for note in notes where r.methods.contains(note.key) || note.key == "aggregate" || r.methods.contains(where: { $0.hasPrefix(note.key) }) {
            out.append("")
            out.append("### `\(note.key)`: \(note.title)")
            out.append("")
            out.append("**Signal.** \(note.signal)")
            out.append("")
            out.append("**Cannot see.** \(note.blindTo)")
            if let section = configurationSection(r.configuration, key: note.key == "aggregate" ? "aggregation" : note.key) {
                out.append("")
                out.append("<details><summary>Configuration (<code>\(note.key == "aggregate" ? "aggregation" : note.key)</code> section)</summary>")
                out.append("")
                out.append("```yaml")
                out.append(section)
                out.append("```")
                out.append("")
                out.append("</details>")
            }
        }
        out.append("")
        out.append("## Limitations of this evaluation")
        out.append("")
        out.append("- The real public set is small and mostly bona fide; its attack classes (a few printed pages, screen photos) give wide intervals, and most of its photos have no depth, so the depth and parallax numbers rest on simulated data.")
        out.append("- Simulated data is as good as its physics: RialSynth models displays, prints, optics, sensor noise, LiDAR noise, an area light with soft shadows and ambient occlusion, and a single-frame phone ISP (white balance, colour matrix, tone curves, noise reduction, sharpening), but not multi-frame fusion or HDR, nor the variety of real rooms: shapes are simple and materials flat.")
        out.append("- `parallax/1` fits one affine disparity field to the whole frame. Simulated recaptures show the screen or print inside a room, so the frame is not one plane and the method scores them as real: its AUC on simulated data is near or below chance. A fit restricted to the content surface, as `depth/2` does with depth, is the obvious next version.")
        out.append("- No adversarial recaptures (Chimera-style band-limited or calibrated displays) are in the data; image detectors are expected to fail on them, which is why they only support the physical signals.")
        out.append("- Hardware attestation is not simulated: samples carry the attestation level their manifest states (`none` in the default data), which caps the aggregate level at MEDIUM.")
        out.append("")
        out.append("Environment of the run: \(r.environment.os); \(r.environment.cpu); \(r.environment.swift); created \(r.created).")
        out.append("")
        return out.joined(separator: "\n")
    }

    /// One top-level section of the configuration as commented YAML.
    static func configurationSection(_ configuration: PipelineConfiguration, key: String) -> String? {
        let yaml = ConfigurationPrinter.yaml(configuration)
        var lines: [String] = [], inside = false
        let header = "\(ConfigurationPrinter.yamlKey(key)):"
        var pendingComments: [String] = []
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if !line.hasPrefix(" ") && !line.hasPrefix("#") && !line.isEmpty {
                if inside { break }
                if line.hasPrefix(header) {
                    inside = true
                    lines += pendingComments
                    lines.append(line)
                    continue
                }
            }
            if inside { lines.append(line) } else if line.hasPrefix("#") { pendingComments.append(line) } else { pendingComments = [] }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The facts of a manifest the methodology lists.
    public struct DatasetDescription: Sendable {
        public struct Source: Sendable {
            public var id: String
            public var label: String
            public var source: String
            public var license: String
            public var sha256: String
        }
        public var name: String
        public var licences: [String]
        /// Per-sample provenance, listed for real data only.
        public var sources: [Source]
    }

    /// Reads licences and provenance of the manifests of a run.
    public static func describe(_ datasets: [RunDataset]) -> [DatasetDescription] {
        datasets.map { d in
            guard let loader = try? DatasetLoader(contentsOf: d.path), let manifest = try? loader.decodeManifest() else {
                return DatasetDescription(name: d.name, licences: [], sources: [])
            }
            var licences: [String] = []
            for s in manifest.samples {
                let l = s.license ?? "unknown"
                if !licences.contains(l) { licences.append(l) }
            }
            let sources = d.data == "real" ? manifest.samples.map {
                DatasetDescription.Source(id: $0.id, label: $0.label.rawValue, source: $0.source ?? "",
                                          license: $0.license ?? "", sha256: $0.sha256?.image ?? "")
            } : []
            return DatasetDescription(name: d.name, licences: licences.count > 4 ? Array(licences.prefix(4)) + ["…"] : licences,
                                      sources: sources)
        }
    }
}
