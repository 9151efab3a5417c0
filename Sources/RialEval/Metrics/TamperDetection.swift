import RialProvenance

/// How well the hash chain verification catches tampered recordings, by tamper kind, and
/// how often it flags an intact one (issue 15 item 5: "tamper detection rate and false
/// alarms by tamper kind").
///
/// Each labelled recording is one observation: its label (intact, or the tamper kind and
/// the 1-based frame where the tamper was introduced) and what the verifier said. Rates
/// carry Wilson 95% intervals (`ConfidenceInterval.wilson`); only kinds with at least
/// one recording have a row.
///
/// Definitions:
/// - a tampered recording is *caught* when the verification's status is `broken`;
/// - it is *placed* when, caught, the first bad frame equals the label's frame (both
///   absent counts as placed: a rewritten chain's attestation mismatch belongs to no
///   frame), and *named* when the verifier's tamper kind equals the label's;
/// - an intact recording (including an interrupted one with a partial attestation) is a
///   *false alarm* when its status is `broken`.
public struct TamperDetection: Sendable, Equatable, Codable {
    /// One recording: its label and the verifier's outcome.
    public struct Observation: Sendable, Equatable {
        /// The tamper kind (a `HashChainVerification.Tamper` raw value); nil for intact.
        public var kind: String?
        /// The 1-based frame the tamper was introduced at, when it has one.
        public var frame: Int?
        public var verification: HashChainVerification

        public init(kind: String?, frame: Int?, verification: HashChainVerification) {
            self.kind = kind
            self.frame = frame
            self.verification = verification
        }
    }

    /// The tampered recordings of one kind.
    public struct KindRow: Sendable, Equatable, Codable {
        public var kind: String
        public var recordings: Int
        public var caught: Int
        public var placed: Int
        public var named: Int
        /// caught / recordings, with its Wilson interval.
        public var detectionRate: Double
        public var detectionInterval: ConfidenceInterval
        /// placed / recordings.
        public var placedRate: Double

        enum CodingKeys: String, CodingKey {
            case kind, recordings, caught, placed, named
            case detectionRate = "detection_rate"
            case detectionInterval = "detection_interval"
            case placedRate = "placed_rate"
        }
    }

    /// Every tampered kind seen, sorted by kind.
    public var kinds: [KindRow]
    /// Tampered recordings of every kind together.
    public var tampered: Int
    public var caught: Int
    public var placed: Int
    /// Intact recordings and how many were flagged.
    public var intact: Int
    public var falseAlarms: Int
    /// falseAlarms / intact, with its Wilson interval; nil without intact recordings.
    public var falseAlarmRate: Double?
    public var falseAlarmInterval: ConfidenceInterval?
    /// The frames of the tampered recordings that were caught at another frame than
    /// labelled, or missed: `id` and what happened, for the report (at most 20).
    public var misses: [String]

    enum CodingKeys: String, CodingKey {
        case kinds, tampered, caught, placed, intact, misses
        case falseAlarms = "false_alarms"
        case falseAlarmRate = "false_alarm_rate"
        case falseAlarmInterval = "false_alarm_interval"
    }

    /// Summarises `observations` (id, observation pairs).
    public init(_ observations: [(id: String, observation: Observation)]) {
        var rows: [String: KindRow] = [:]
        var intact = 0, falseAlarms = 0, misses: [String] = []
        for (id, o) in observations {
            let broken = o.verification.status == .broken
            guard let kind = o.kind else {
                intact += 1
                if broken {
                    falseAlarms += 1
                    if misses.count < 20 { misses.append("\(id): intact but flagged (\(o.verification.detail))") }
                }
                continue
            }
            var row =
                rows[kind]
                ?? KindRow(
                    kind: kind, recordings: 0, caught: 0, placed: 0, named: 0, detectionRate: 0,
                    detectionInterval: .wilson(successes: 0, trials: 1), placedRate: 0)
            row.recordings += 1
            if broken {
                row.caught += 1
                if o.verification.firstBadFrame == o.frame {
                    row.placed += 1
                } else if misses.count < 20 {
                    misses.append(
                        "\(id): \(kind) at frame \(o.frame.map(String.init) ?? "none") caught at frame "
                            + "\(o.verification.firstBadFrame.map(String.init) ?? "none")")
                }
                if o.verification.tamper?.rawValue == kind { row.named += 1 }
            } else if misses.count < 20 {
                misses.append("\(id): \(kind) at frame \(o.frame.map(String.init) ?? "none") not caught")
            }
            rows[kind] = row
        }
        kinds = rows.values.sorted { $0.kind < $1.kind }.map { row in
            var row = row
            row.detectionRate = Double(row.caught) / Double(row.recordings)
            row.detectionInterval = .wilson(successes: row.caught, trials: row.recordings)
            row.placedRate = Double(row.placed) / Double(row.recordings)
            return row
        }
        tampered = kinds.reduce(0) { $0 + $1.recordings }
        caught = kinds.reduce(0) { $0 + $1.caught }
        placed = kinds.reduce(0) { $0 + $1.placed }
        self.intact = intact
        self.falseAlarms = falseAlarms
        falseAlarmRate = intact > 0 ? Double(falseAlarms) / Double(intact) : nil
        falseAlarmInterval = intact > 0 ? .wilson(successes: falseAlarms, trials: intact) : nil
        self.misses = misses
    }
}
