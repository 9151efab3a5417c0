import RialProvenance
import Testing

@testable import RialEval

@Suite("Tamper detection summary")
struct TamperDetectionTests {
    private func verification(
        _ status: HashChainVerification.Status, _ tamper: HashChainVerification.Tamper?, at frame: Int?
    )
        -> HashChainVerification
    {
        HashChainVerification(
            status: status, framesRead: 90, firstBadFrame: frame, tamper: tamper, attestedFrames: 0, detail: "test")
    }

    @Test("Caught, placed and named counts by kind; false alarms on intact recordings")
    func counts() throws {
        let observations: [(id: String, observation: TamperDetection.Observation)] = [
            // dropped at 40: caught at 40 with the right kind.
            ("a", .init(kind: "dropped", frame: 40, verification: verification(.broken, .dropped, at: 40))),
            // dropped at 12: caught at 13 (placed wrong), kind modified (named wrong).
            ("b", .init(kind: "dropped", frame: 12, verification: verification(.broken, .modified, at: 13))),
            // modified at 7: missed.
            ("c", .init(kind: "modified", frame: 7, verification: verification(.intact, nil, at: nil))),
            // attestation mismatch belongs to no frame: both absent counts as placed.
            (
                "d",
                .init(
                    kind: "attestation_mismatch", frame: nil,
                    verification: verification(.broken, .attestationMismatch, at: nil))
            ),
            // intact controls: one passes, one partial (not an alarm), one flagged.
            ("e", .init(kind: nil, frame: nil, verification: verification(.intact, nil, at: nil))),
            ("f", .init(kind: nil, frame: nil, verification: verification(.partial, nil, at: nil))),
            ("g", .init(kind: nil, frame: nil, verification: verification(.broken, .modified, at: 3))),
        ]
        let summary = TamperDetection(observations)
        // Hand count: kinds sorted attestation_mismatch, dropped, modified.
        #expect(summary.kinds.map(\.kind) == ["attestation_mismatch", "dropped", "modified"])
        let dropped = summary.kinds[1]
        #expect(dropped.recordings == 2 && dropped.caught == 2 && dropped.placed == 1 && dropped.named == 1)
        #expect(dropped.detectionRate == 1 && dropped.placedRate == 0.5)
        #expect(summary.kinds[2].caught == 0 && summary.kinds[2].detectionRate == 0)
        #expect(summary.kinds[0].placed == 1)
        #expect(summary.tampered == 4 && summary.caught == 3 && summary.placed == 2)
        #expect(summary.intact == 3 && summary.falseAlarms == 1)
        #expect(summary.falseAlarmRate == 1.0 / 3.0)
        // Wilson 95% interval of 1/3 (Wilson 1927; z = 1.959964, z² = 3.84146): centre
        // (1/3 + z²/6) / (1 + z²/3) = 0.97358 / 2.28049 = 0.42692, half-width
        // z / 2.28049 x sqrt((2/9)/3 + z²/36) = 0.36542: [0.0615, 0.7923] (hand calculation).
        let interval = try #require(summary.falseAlarmInterval)
        #expect(abs(interval.lower - 0.0615) < 1e-3 && abs(interval.upper - 0.7923) < 1e-3)
        #expect(summary.misses.count == 3)
        #expect(summary.misses.contains("b: dropped at frame 12 caught at frame 13"))
        #expect(summary.misses.contains("c: modified at frame 7 not caught"))
    }

    @Test("No intact recordings: no false-alarm rate")
    func noIntact() {
        let summary = TamperDetection([
            ("a", .init(kind: "truncated", frame: 5, verification: verification(.broken, .truncated, at: 5)))
        ])
        #expect(summary.falseAlarmRate == nil && summary.falseAlarmInterval == nil)
        #expect(summary.kinds.first?.detectionInterval.upper == 1)
    }
}
