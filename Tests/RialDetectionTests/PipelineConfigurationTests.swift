import Foundation
import RialMedia
import Testing

@testable import RialDetection

@Suite struct PipelineConfigurationTests {
    @Test func defaultsValidateAndAggregateTheNewestVersion() throws {
        try PipelineConfiguration.standard.validate()
        #expect(PipelineConfiguration.standard.aggregateWith[.depth] == .depthV2)
        #expect(PipelineConfiguration.standard.methods.contains(.depthV1))
    }

    /// Methods keep their own operating point when the aggregate's moves; a configuration
    /// recorded before `method_threshold` existed reads it as its `threshold`, which methods
    /// used then.
    @Test func methodsHaveTheirOwnThreshold() throws {
        var c = PipelineConfiguration()
        c.decision.threshold = 0.7
        let moire = try MethodIdentifier(parsing: "moire/2")
        #expect(c.decision.threshold(for: nil) == 0.7)
        #expect(c.decision.threshold(for: moire) == 0.5)
        c.decision.methodThresholds = ["moire/2": 0.3]
        #expect(c.decision.threshold(for: moire) == 0.3)
        #expect(c.decision.threshold(for: try MethodIdentifier(parsing: "depth/2")) == 0.5)
        let old = try JSONDecoder().decode(
            PipelineConfiguration.DecisionConfiguration.self,
            from: Data(#"{"threshold": 0.7, "method_thresholds": {}}"#.utf8))
        #expect(old.threshold(for: moire) == 0.7)
        c.decision.methodThreshold = -0.1
        do {
            try c.validate()
            Issue.record("accepted -0.1")
        } catch { #expect(error.key == "decision.method_threshold") }
    }

    @Test func errorsNameTheDottedKey() {
        var c = PipelineConfiguration()
        c[DepthAnalyzerV2.self].sampleStride = 0
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do { try c.validate() } catch { #expect(error.key == "depth/2.sample_stride") }

        c = PipelineConfiguration()
        c.aggregation.levelBoundaries.high = 0.95
        do {
            try c.validate()
            Issue.record("accepted high > very_high")
        } catch {
            #expect(error.key == "aggregation.level_boundaries.high")
        }

        c = PipelineConfiguration()
        c.decision.methodThresholds = ["depth/1": 1.5]
        do {
            try c.validate()
            Issue.record("accepted 1.5")
        } catch { #expect(error.key == "decision.method_thresholds.depth/1") }

        c = PipelineConfiguration()
        c.profile = "ios"
        do {
            try c.validate()
            Issue.record("accepted unknown profile")
        } catch { #expect(error.key == "profile") }

        c = PipelineConfiguration()
        c.methods = [.depthV1]
        do {
            try c.validate()
            Issue.record("aggregated a method that does not run")
        } catch {
            #expect(error.key == "aggregate_with.depth")
        }
    }

    @Test func selectingAVersionReplacesItsFamilyOnly() throws {
        let c = PipelineConfiguration.standard.selecting([.depthV1])
        #expect(c.methods.filter { $0.name == "depth" } == [.depthV1])
        #expect(c.aggregateWith[.depth] == .depthV1)
        try c.validate()
    }

    @Test func partialJSONKeepsDefaults() throws {
        let json =
            #"{"depth/1": {"std_threshold": 0.4}, "aggregation": {"profiles": {"ios_pro": {"weights": {"moire": 0.2}}}}}"#
        let c = try JSONValue.parse(json).decode(PipelineConfiguration.self, overlaying: .standard)
        #expect(c[DepthAnalyzerV1.self].stdThreshold == 0.4)
        #expect(c[DepthAnalyzerV1.self].minLayers == 3)
        #expect(c.aggregation.profiles["ios_pro"]?.weights[.moire] == 0.2)
        #expect(c.aggregation.profiles["ios_pro"]?.weights[.lidar] == 0.55)
        #expect(c.profile == "ios_pro")
    }

    @Test func attestationScores() {
        let s = PipelineConfiguration.AttestationScores()
        #expect(s.score(for: .missing) == nil)
        #expect(s.score(for: AttestationEvidence(status: .pass, method: .tee)) == 0.75)
        #expect(s.score(for: AttestationEvidence(status: .fail, method: .secureEnclave)) == 0)
    }
}

@Suite struct MetadataChecksTests {
    let reference = Date(timeIntervalSince1970: 1_764_583_200) // 2025-12-01T10:00:00Z

    @Test func timestampLimitIsInclusive() {
        let c = MetadataChecks.Configuration()
        let at900 = MetadataChecks(
            .init(
                captureTime: reference.addingTimeInterval(-900), referenceTime: reference,
                width: 4032, height: 3024), configuration: c)
        let at901 = MetadataChecks(
            .init(
                captureTime: reference.addingTimeInterval(901), referenceTime: reference,
                width: 4032, height: 3024), configuration: c)
        #expect(at900.timestamp.status == .pass)
        #expect(at901.timestamp.status == .fail)
        #expect(MetadataChecks(.init(width: 4032, height: 3024), configuration: c).timestamp.status == .unavailable)
    }

    @Test func lidarDevicesMatchByPrefix() {
        let c = MetadataChecks.Configuration()
        func status(_ model: String?) -> EvidenceCheckStatus {
            MetadataChecks(.init(deviceModel: model, width: 4032, height: 3024), configuration: c).deviceHasLidar.status
        }
        #expect(status("iPhone 15 Pro Max") == .pass)
        #expect(status("iphone 13 pro") == .pass)
        #expect(status("iPhone 15") == .fail)
        #expect(status("Pixel 8") == .fail)
        #expect(status(nil) == .unavailable)
    }

    @Test func resolution() {
        let c = MetadataChecks.Configuration()
        func status(_ w: Int, _ h: Int) -> EvidenceCheckStatus {
            MetadataChecks(.init(deviceModel: "iPhone 15 Pro", width: w, height: h), configuration: c).resolution.status
        }
        #expect(status(4032, 3024) == .pass) // 12.2 MP, 4:3
        #expect(status(3024, 4032) == .pass) // portrait
        #expect(status(1920, 1080) == .pass) // 16:9
        #expect(status(640, 480) == .pass) // 0.307 MP >= 0.3
        #expect(status(600, 450) == .fail) // 0.27 MP
        #expect(status(4000, 1000) == .fail) // 4:1
        #expect(status(0, 0) == .unavailable)
    }
}
