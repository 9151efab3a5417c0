import Testing

@testable import RialDetection

/// The MVP evidence rule of methods.md section 7: any check failed -> SUSPICIOUS;
/// hardware pass and depth pass -> HIGH; exactly one -> MEDIUM; neither -> LOW.
@Suite struct AggregationMVPRuleTests {
    /// The full 3 x 3 truth table of hardware x depth, with no other checks.
    @Test(arguments: [
        (EvidenceCheckStatus.pass, EvidenceCheckStatus.pass, ConfidenceLevel.high),
        (.pass, .unavailable, .medium),
        (.unavailable, .pass, .medium),
        (.unavailable, .unavailable, .low),
        (.fail, .pass, .suspicious),
        (.pass, .fail, .suspicious),
        (.fail, .fail, .suspicious),
        (.fail, .unavailable, .suspicious),
        (.unavailable, .fail, .suspicious),
    ])
    func truthTable(hardware: EvidenceCheckStatus, depth: EvidenceCheckStatus, level: ConfidenceLevel) {
        #expect(MVPEvidenceRule.level(hardware: hardware, depth: depth) == level)
        // Passing or unavailable extra checks change nothing.
        #expect(MVPEvidenceRule.level(hardware: hardware, depth: depth, otherChecks: [.pass, .unavailable]) == level)
    }

    /// Any other failed check (e.g. the metadata timestamp) -> SUSPICIOUS even with both passes.
    @Test func anyFailedCheckIsSuspicious() {
        #expect(MVPEvidenceRule.level(hardware: .pass, depth: .pass, otherChecks: [.pass, .fail]) == .suspicious)
        #expect(MVPEvidenceRule.level(hardware: .unavailable, depth: .unavailable, otherChecks: [.fail]) == .suspicious)
    }
}
