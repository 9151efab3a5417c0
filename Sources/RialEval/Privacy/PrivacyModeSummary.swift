import Foundation
import RialDetection

/// Privacy mode over a run (issue 15 item 6): for the evaluated samples whose manifest entry
/// names a privacy-mode payload (`privacy_payload`), each payload verified against the
/// sample's own image and depth (`PrivacyVerification`). Every count is per data kind
/// (`real` photos, `simulated` captures) and over all of them (`all`).
///
/// JSON: `{"samples", "by_data": {KIND: Group}, "all": Group}`, a group being
/// `{"samples", "hash": {"pass", "fail", "unavailable"}, "depth_parity": {...},
/// "depth_parity_fields": {FIELD: {"n", "max_abs", "sample"}}, "largest": {"key",
/// "difference", "sample"}, "levels": {"full_capture": {LEVEL: n}, "privacy_deployed":
/// {...}, "privacy_sound": {...}}, "payload_bytes": {"n", "min", "median", "max",
/// "over_target"}, "payload_target_bytes"}`.
public struct PrivacyModeSummary: Sendable, Equatable, Codable {
    /// Evaluated samples with a privacy payload.
    public var samples: Int
    public var all: Group
    /// `real`, `simulated`: the groups of each data kind present.
    public var byData: [String: Group]

    enum CodingKeys: String, CodingKey {
        case samples, all
        case byData = "by_data"
    }

    /// Counts of pass / fail / unavailable of one check.
    public struct Tally: Sendable, Equatable, Codable {
        public var pass = 0
        public var fail = 0
        public var unavailable = 0

        /// `pass / (pass + fail)`; nil when nothing was checked.
        public var rate: Double? { pass + fail > 0 ? Double(pass) / Double(pass + fail) : nil }

        mutating func add(_ status: EvidenceCheckStatus?) {
            switch status {
            case .pass?: pass += 1
            case .fail?: fail += 1
            case .unavailable?, nil: unavailable += 1
            }
        }
    }

    /// The largest |phone - reference| of one depth field over the samples compared.
    public struct FieldSpread: Sendable, Equatable, Codable {
        public var n: Int
        public var maxAbs: Double
        /// The sample with `maxAbs` (the first in run order on ties).
        public var sample: String

        enum CodingKeys: String, CodingKey {
            case n
            case maxAbs = "max_abs"
            case sample
        }
    }

    /// The largest |phone - reference| of any depth field, its field and sample.
    public struct Largest: Sendable, Equatable, Codable {
        public var key: String
        public var difference: Double
        public var sample: String
    }

    /// Sizes of the payloads in bytes.
    public struct Sizes: Sendable, Equatable, Codable {
        public var n: Int
        public var min: Int
        /// The middle value (the lower of the two middle values for even n).
        public var median: Int
        public var max: Int
        /// Payloads not under the target (`>= payload_target_bytes`).
        public var overTarget: Int

        enum CodingKeys: String, CodingKey {
            case n, min, median, max
            case overTarget = "over_target"
        }
    }

    /// One data kind's (or all samples') figures.
    public struct Group: Sendable, Equatable, Codable {
        public var samples: Int
        public var hash = Tally()
        public var depthParity = Tally()
        public var depthParityFields: [String: FieldSpread] = [:]
        public var largest: Largest?
        /// Level -> samples, for the full capture (the run's `aggregate.level`), and the
        /// privacy payload under the deployed and the sound rule.
        public var levels: [String: [String: Int]] = [:]
        public var payloadBytes: Sizes?
        public var payloadTargetBytes: Int

        enum CodingKeys: String, CodingKey {
            case samples, hash
            case depthParity = "depth_parity"
            case depthParityFields = "depth_parity_fields"
            case largest, levels
            case payloadBytes = "payload_bytes"
            case payloadTargetBytes = "payload_target_bytes"
        }

        /// The level columns, in order.
        public static let columns = ["full_capture", "privacy_deployed", "privacy_sound"]

        init(_ records: [(id: String, verification: PrivacyVerification, full: ConfidenceLevel?)]) {
            samples = records.count
            payloadTargetBytes = records.first?.verification.payloadTargetBytes ?? 0
            var sizes: [Int] = []
            var over = 0
            for (id, v, full) in records {
                hash.add(v.hash.status)
                depthParity.add(v.depthParity?.status)
                if let parity = v.depthParity {
                    for field in parity.fields {
                        guard let d = field.difference.map(abs), d.isFinite else { continue }
                        if var spread = depthParityFields[field.key] {
                            spread.n += 1
                            if d > spread.maxAbs { (spread.maxAbs, spread.sample) = (d, id) }
                            depthParityFields[field.key] = spread
                        } else {
                            depthParityFields[field.key] = FieldSpread(n: 1, maxAbs: d, sample: id)
                        }
                        if d > (largest?.difference ?? -1) {
                            largest = Largest(key: field.key, difference: d, sample: id)
                        }
                    }
                }
                for (column, level) in zip(
                    Self.columns, [full, v.confidence.deployed.level, v.confidence.level])
                {
                    guard let level else { continue }
                    levels[column, default: [:]][level.rawValue, default: 0] += 1
                }
                sizes.append(v.payloadBytes)
                if !v.payloadWithinTarget { over += 1 }
            }
            if !sizes.isEmpty {
                sizes.sort()
                payloadBytes = Sizes(
                    n: sizes.count, min: sizes[0], median: sizes[(sizes.count - 1) / 2], max: sizes[sizes.count - 1],
                    overTarget: over)
            }
        }
    }

    /// The summary of `records`' privacy verifications; nil when no evaluated record has one.
    public init?(_ records: [SampleRecord]) {
        let rows = records.filter { $0.status == .evaluated }.compactMap { r in
            r.privacy.map { (id: r.id, verification: $0, full: r.aggregate?.level, data: r.data) }
        }
        guard !rows.isEmpty else { return nil }
        samples = rows.count
        all = Group(rows.map { ($0.id, $0.verification, $0.full) })
        var byData: [String: Group] = [:]
        for kind in Set(rows.map(\.data)) {
            byData[kind.rawValue] = Group(rows.filter { $0.data == kind }.map { ($0.id, $0.verification, $0.full) })
        }
        self.byData = byData
    }

    /// Markdown: per data kind (and all, when mixed), the hash and parity rates with their
    /// counts, the largest differences, the level distribution and the payload sizes.
    public func markdown() -> [String] {
        var out: [String] = []
        out.append(
            "\(samples) evaluated samples carry a privacy-mode payload (hash only: methods.md section 6, PRD 1.1 "
                + "FR56-FR62), each verified against the sample's own image (SHA-256 of the file) and depth map "
                + "(depth/1 recomputed). Rates are pass / (pass + fail), with the counts; unavailable = not checkable.")
        out.append("")
        let kinds = byData.keys.sorted()
        var groups = kinds.map { (name: "\($0) data", group: byData[$0]!) }
        if kinds.count > 1 { groups.append((name: "all data", group: all)) }
        for (name, g) in groups {
            out.append("### \(name) (\(g.samples) samples)")
            out.append("")
            out.append("| check | pass | fail | unavailable | rate |")
            out.append("|---|---:|---:|---:|---:|")
            for (label, t) in [
                ("media hash matches the image", g.hash), ("depth parity (phone vs depth/1)", g.depthParity),
            ] {
                out.append(
                    "| \(label) | \(t.pass) | \(t.fail) | \(t.unavailable) | "
                        + (t.rate.map { "\(Self.format($0 * 100))% of \(t.pass + t.fail)" } ?? "-") + " |")
            }
            out.append("")
            if !g.depthParityFields.isEmpty {
                out.append("Largest |phone - reference| per depth field (samples compared, sample with the maximum):")
                out.append("")
                out.append("| field | n | max abs | sample |")
                out.append("|---|---:|---:|---|")
                for key in g.depthParityFields.keys.sorted() {
                    let f = g.depthParityFields[key]!
                    out.append("| \(key) | \(f.n) | \(Self.format(f.maxAbs)) | \(f.sample) |")
                }
                out.append("")
            }
            let names = ConfidenceLevel.allCases.reversed().map(\.rawValue).filter { level in
                level != ConfidenceLevel.mediumHigh.rawValue || Group.columns.contains { g.levels[$0]?[level] != nil }
            }
            out.append(
                "Levels (samples): the full capture as this run aggregated it, and the payload alone under the "
                    + "deployed rule (trusts the phone's is_likely_real_scene) and the sound rule (re-checked, capped)."
            )
            out.append("")
            out.append("| level | full capture | privacy, deployed rule | privacy, sound rule |")
            out.append("|---|---:|---:|---:|")
            for level in names {
                out.append(
                    "| \(level) | " + Group.columns.map { String(g.levels[$0]?[level] ?? 0) }.joined(separator: " | ")
                        + " |")
            }
            out.append("")
            if let s = g.payloadBytes {
                out.append(
                    "Payload size (n = \(s.n)): min \(s.min), median \(s.median), max \(s.max) bytes; "
                        + "\(s.overTarget) at or over the \(g.payloadTargetBytes)-byte target (\"< 10KB\", PRD 1.1).")
                out.append("")
            }
        }
        return out
    }

    static func format(_ value: Double) -> String { String(format: "%.4g", value) }
}
