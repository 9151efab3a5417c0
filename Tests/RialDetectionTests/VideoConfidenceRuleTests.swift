import Testing

@testable import RialDetection

/// methods.md section 6, "Video confidence (deployed rule)": each expectation quotes the
/// clause it checks.
@Suite struct VideoConfidenceRuleTests {
    let rule = VideoConfidenceRule()
    static let goodChain = VideoConfidenceRule.Chain(
        status: .pass, intact: true, attestationValid: true, partialCheckpointVerified: false)
    static let realDepth = VideoConfidenceRule.Depth(isReal: true, consistency: 0.9, stability: 0.95)

    @Test func defaultsAreTheDocumentsThresholds() {
        // "consistency >= 0.7 and stability >= 0.8"
        #expect(rule.depthConsistencyMinimum == 0.7)
        #expect(rule.sceneStabilityMinimum == 0.8)
    }

    @Test func suspicious() {
        // "SUSPICIOUS if hardware fails"
        #expect(rule.level(hardware: .fail, chain: Self.goodChain, depth: Self.realDepth) == .suspicious)
        // "the chain fails"
        var chain = Self.goodChain
        chain.status = .fail
        #expect(rule.level(hardware: .pass, chain: chain, depth: Self.realDepth) == .suspicious)
        // "or is not intact"
        chain = Self.goodChain
        chain.intact = false
        #expect(rule.level(hardware: .pass, chain: chain, depth: Self.realDepth) == .suspicious)
        // "or depth is present and not real"
        let flat = VideoConfidenceRule.Depth(isReal: false, consistency: 1, stability: 1)
        #expect(rule.level(hardware: .pass, chain: Self.goodChain, depth: flat) == .suspicious)
    }

    @Test func high() {
        // "HIGH if hardware passes, the chain passes intact with a valid attestation, and
        // depth is present, real, consistency >= 0.7 and stability >= 0.8"
        #expect(rule.level(hardware: .pass, chain: Self.goodChain, depth: Self.realDepth) == .high)
        let edge = VideoConfidenceRule.Depth(isReal: true, consistency: 0.7, stability: 0.8)
        #expect(rule.level(hardware: .pass, chain: Self.goodChain, depth: edge) == .high)
    }

    @Test func mediumWhenAHighConditionIsMissing() {
        // "MEDIUM if hardware and chain pass": below a threshold, no depth, no attestation.
        let lowConsistency = VideoConfidenceRule.Depth(isReal: true, consistency: 0.69, stability: 0.9)
        let lowStability = VideoConfidenceRule.Depth(isReal: true, consistency: 0.9, stability: 0.79)
        #expect(rule.level(hardware: .pass, chain: Self.goodChain, depth: lowConsistency) == .medium)
        #expect(rule.level(hardware: .pass, chain: Self.goodChain, depth: lowStability) == .medium)
        #expect(rule.level(hardware: .pass, chain: Self.goodChain, depth: nil) == .medium)
        var unattested = Self.goodChain
        unattested.attestationValid = false
        #expect(rule.level(hardware: .pass, chain: unattested, depth: Self.realDepth) == .medium)
        // "or a partial recording has a verified checkpoint and hardware passes"
        let partial = VideoConfidenceRule.Chain(
            status: .unavailable, intact: true, attestationValid: true, partialCheckpointVerified: true)
        #expect(rule.level(hardware: .pass, chain: partial, depth: Self.realDepth) == .medium)
        // "or hardware is unavailable and the chain passes"
        #expect(rule.level(hardware: .unavailable, chain: Self.goodChain, depth: Self.realDepth) == .medium)
    }

    @Test func lowOtherwise() {
        // "LOW otherwise": no chain checked and no verified checkpoint.
        let none = VideoConfidenceRule.Chain(
            status: .unavailable, intact: false, attestationValid: false, partialCheckpointVerified: false)
        #expect(rule.level(hardware: .pass, chain: none, depth: Self.realDepth) == .low)
        #expect(rule.level(hardware: .unavailable, chain: none, depth: nil) == .low)
    }

    @Test func thresholdsAreConfigurable() throws {
        var strict = VideoConfidenceRule()
        strict.depthConsistencyMinimum = 0.95
        #expect(strict.level(hardware: .pass, chain: Self.goodChain, depth: Self.realDepth) == .medium)
        try strict.validate()
        strict.sceneStabilityMinimum = 1.5
        #expect(throws: ConfigurationError(key: "scene_stability_minimum", "must be in 0...1, got 1.5")) {
            try strict.validate()
        }
    }
}
