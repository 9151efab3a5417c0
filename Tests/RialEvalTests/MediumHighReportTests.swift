import Foundation
import RialDetection
import Testing

@testable import RialEval

/// Reports with the MEDIUM_HIGH level (`aggregation.medium_high: level`; PRD 2.0 "Evidence
/// Impact by Attestation Level": StrongBox "Max Confidence MEDIUM-HIGH"): the level tables
/// gain a MEDIUM_HIGH column between MEDIUM and HIGH only when a sample carries it, and
/// the output-level rows a "≥ MEDIUM_HIGH" row; records round-trip.
@Suite struct MediumHighReportTests {
    /// Counts by hand: one real scene MEDIUM_HIGH (MVP HIGH), one real scene HIGH (MVP
    /// HIGH), one screen MEDIUM (MVP MEDIUM).
    @Test func levelTablesShowMediumHighWhenPresent() throws {
        let records = [
            RuleLevelsLatencyTests.record("a", label: "real_scene", weighted: .mediumHigh, mvp: .high),
            RuleLevelsLatencyTests.record("b", label: "real_scene", weighted: .high, mvp: .high),
            RuleLevelsLatencyTests.record("c", label: "lcd_screen", weighted: .medium, mvp: .medium),
        ]
        let text = RuleLevels(records, rule: .weighted).markdown().joined(separator: "\n")
        #expect(text.contains("| weighted: label | SUSPICIOUS | LOW | MEDIUM | MEDIUM_HIGH | HIGH | VERY_HIGH |"))
        // real_scene under weighted: MEDIUM_HIGH 1, HIGH 1.
        #expect(text.contains("| real\\_scene | 0 | 0 | 0 | 1 | 1 | 0 |"))
        // Without a MEDIUM_HIGH sample the five levels of methods.md section 7 only.
        let five = RuleLevels(Array(records.dropFirst()), rule: .weighted).markdown().joined(separator: "\n")
        #expect(!five.contains("MEDIUM_HIGH"))

        // Output levels as decisions: accepting at >= MEDIUM_HIGH takes a and b (2 of 2 bona
        // fide accepted, BPCER 0), rejects the screen (APCER 0); at >= HIGH, a is rejected
        // (BPCER 1/2).
        let rows = OutputLevelRow.rows(samples: [
            (level: .mediumHigh, bonaFide: true, species: ""), (level: .high, bonaFide: true, species: ""),
            (level: .medium, bonaFide: false, species: "lcd_screen"),
        ])
        #expect(rows.map(\.level) == [.low, .medium, .mediumHigh, .high, .veryHigh])
        #expect(rows[2].bpcer == 0 && rows[2].apcerPooled == 0)
        #expect(rows[3].bpcer == 0.5)

        let data = try JSONEncoder().encode(records[0])
        #expect(try JSONDecoder().decode(SampleRecord.self, from: data) == records[0])
    }
}
