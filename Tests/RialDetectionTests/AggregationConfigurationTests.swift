import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// `AggregationConfiguration`: the spec defaults, validation naming the key, Codable.
@Suite struct AggregationConfigurationTests {
    func keys(_ value: some Encodable) throws -> Set<String> {
        Set((try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as! [String: Any]).keys)
    }

    /// The defaults of methods.md section 7; each profile's `max_level` is PRD 2.0
    /// "Detection Capabilities Matrix", row "Max Confidence": iOS Pro VERY HIGH, iOS
    /// Standard HIGH, Android MEDIUM-HIGH.
    @Test func referenceDefaults() {
        let c = AggregationConfiguration.reference
        #expect(
            c.profiles["ios_pro"]
                == AggregationProfile(
                    primary: .lidar, weights: [.lidar: 0.55, .moire: 0.15, .texture: 0.15, .supporting: 0.15],
                    maxLevel: .veryHigh))
        #expect(
            c.profiles["android"]
                == AggregationProfile(
                    primary: .parallax,
                    weights: [.attestation: 0.20, .parallax: 0.30, .moire: 0.15, .texture: 0.20, .supporting: 0.15],
                    maxLevel: .mediumHigh))
        // iOS Standard: "Multi-Cam Parallax ✅ PRIMARY", LiDAR ❌, max HIGH; the iOS Pro
        // weights ("iOS Pro: LiDAR is primary, others reinforce") with parallax as primary.
        #expect(
            c.profiles["ios_standard"]
                == AggregationProfile(
                    primary: .parallax, weights: [.parallax: 0.55, .moire: 0.15, .texture: 0.15, .supporting: 0.15],
                    maxLevel: .high))
        #expect(c.profiles.count == 3)
        #expect(c.agreementBoost == 0.05 && c.realThreshold == 0.5 && c.minMethodsForAgreement == 2)
        let b = c.levelBoundaries
        #expect(b.veryHigh == 0.90 && b.high == 0.75 && b.medium == 0.50 && b.low == 0.25)
        #expect(c.ambiguityBand == 0.05 && c.cappedScoreMargin == 0.01)
        #expect(c.levelCaps.disagreement == .medium && c.levelCaps.screen == .medium && c.levelCaps.print == .medium)
        let a = c.attestationCaps
        // PRD 2.0 "Evidence Impact by Attestation Level": StrongBox MEDIUM-HIGH, TEE MEDIUM;
        // MEDIUM-HIGH resolves to HIGH by default.
        #expect(a.secureEnclave == .veryHigh && a.strongbox == .mediumHigh && a.tee == .medium)
        #expect(c.mediumHigh == .high && c.resolved(.mediumHigh) == .high && c.resolved(.medium) == .medium)
        #expect(c.levels == [.suspicious, .low, .medium, .high, .veryHigh])
        // "StrongBox | Parallax OR Moiré", "TEE | Parallax AND Moiré AND Texture".
        let r = c.attestationRequirements
        #expect(r.strongbox.methods == [.parallax, .moire] && r.strongbox.match == .any)
        #expect(r.tee.methods == [.parallax, .moire, .texture] && r.tee.match == .all)
        #expect(r.secureEnclave.methods.isEmpty && r.satisfiedBy == .passed)
        #expect(r.strongbox.unmetCap == .medium && r.tee.unmetCap == .low)
        #expect(a.software == .suspicious && a.none == .medium && a.failed == .suspicious)
        #expect(throws: Never.self) { try c.validate() }
    }

    /// One invalid value per entry, with the key the error must name.
    static let invalidConfigurations: [(String, AggregationConfiguration)] = {
        func changed(_ change: (inout AggregationConfiguration) -> Void) -> AggregationConfiguration {
            var c = AggregationConfiguration.reference
            change(&c)
            return c
        }
        return [
            ("profiles.ios_pro.weights.moire", changed { $0.profiles["ios_pro"]!.weights[.moire] = -1 }),
            ("profiles.android.weights.texture", changed { $0.profiles["android"]!.weights[.texture] = .infinity }),
            (
                "profiles.ios_pro.weights",
                changed {
                    $0.profiles["ios_pro"]!.weights = [.lidar: 0, .moire: 0]
                }
            ),
            ("profiles.ios_pro.primary", changed { $0.profiles["ios_pro"]!.weights[.lidar] = 0 }),
            ("profiles.ios_pro.primary", changed { $0.profiles["ios_pro"]!.primary = .parallax }),
            ("profiles.ios_pro.primary", changed { $0.profiles["ios_pro"]!.primary = nil }),
            ("profiles", changed { $0.profiles = [:] }),
            ("agreement_boost", changed { $0.agreementBoost = -0.05 }),
            ("real_threshold", changed { $0.realThreshold = .nan }),
            ("min_methods_for_agreement", changed { $0.minMethodsForAgreement = 0 }),
            ("level_boundaries.very_high", changed { $0.levelBoundaries.veryHigh = 1.1 }),
            ("level_boundaries.high", changed { $0.levelBoundaries.high = 0.95 }),
            ("level_boundaries.medium", changed { $0.levelBoundaries.medium = 0.75 }),
            ("level_boundaries.low", changed { $0.levelBoundaries.low = 0 }),
            ("ambiguity_band", changed { $0.ambiguityBand = -1 }),
            ("capped_score_margin", changed { $0.cappedScoreMargin = 0 }),
            ("capped_score_margin", changed { $0.cappedScoreMargin = 0.2 }), // narrowest band 0.90 - 0.75 = 0.15
            (
                "level_boundaries.medium_high",
                changed {
                    $0.mediumHigh = .level
                    $0.levelBoundaries.mediumHigh = 0.8
                }
            ),
            (
                "capped_score_margin",
                changed {
                    $0.mediumHigh = .level
                    $0.levelBoundaries.mediumHigh = 0.51 // band 0.50...0.51 (0.01) narrower than the margin
                    $0.cappedScoreMargin = 0.02
                }
            ),
            (
                "attestation_requirements.tee.methods",
                changed { $0.attestationRequirements.tee.methods = [.moire, .moire] }
            ),
        ]
    }()

    @Test(arguments: invalidConfigurations)
    func invalidConfigurationIsRefused(key: String, configuration: AggregationConfiguration) {
        do {
            _ = try ConfidenceAggregator(configuration: configuration)
            Issue.record("accepted an invalid \(key)")
        } catch {
            #expect(error.key == key)
            #expect(error.description.hasPrefix("\(key): "))
        }
    }

    @Test func errorMessageNamesKeyAndValue() {
        var c = AggregationConfiguration.reference
        c.profiles["ios_pro"]!.weights[.moire] = -1
        #expect(throws: ConfigurationError(key: "profiles.ios_pro.weights.moire", "must be >= 0, got -1.0")) {
            try c.validate()
        }
        #expect(throws: ConfigurationError.self) { try c.profile(named: "ios") }
        do {
            _ = try AggregationConfiguration.reference.profile(named: "ios")
        } catch {
            #expect(error.key == "profiles.ios")
            #expect(
                error.description == "profiles.ios: no such profile; known profiles: android, ios_pro, ios_standard")
        }
    }

    @Test func roundTripsWithSnakeCaseKeys() throws {
        var custom = AggregationConfiguration.reference
        custom.profiles["ios_pro"]!.weights[.moire] = 0.2
        custom.profiles["lab"] = AggregationProfile(primary: .lidar, weights: [.lidar: 1])
        custom.levelBoundaries.high = 0.8
        custom.attestationCaps.strongbox = .medium
        custom.levelCaps.screen = .low
        custom.ambiguityBand = 0
        let data = try JSONEncoder().encode(custom)
        #expect(try JSONDecoder().decode(AggregationConfiguration.self, from: data) == custom)
        #expect(
            try keys(custom) == [
                "profiles", "agreement_boost", "real_threshold", "min_methods_for_agreement", "level_boundaries",
                "ambiguity_band", "capped_score_margin", "level_caps", "ranking", "ranking_penalty",
                "attestation_caps", "rule", "medium_high",
                "attestation_requirements", "cross_validation", "video_rule",
            ])
        #expect(try keys(custom.levelBoundaries) == ["very_high", "high", "medium", "low", "medium_high"])
        #expect(
            try keys(custom.attestationCaps) == ["secure_enclave", "strongbox", "tee", "software", "none", "failed"])
        #expect(try keys(custom.levelCaps) == ["disagreement", "screen", "print", "metadata_fail"])
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let profiles = object["profiles"] as! [String: [String: Any]]
        #expect(profiles["ios_pro"]?["primary"] as? String == "lidar")
        #expect((profiles["ios_pro"]?["weights"] as? [String: Double])?["moire"] == 0.2)
        #expect((object["attestation_caps"] as? [String: String])?["strongbox"] == "MEDIUM")
    }

    @Test func decodesPartiallyOverDefaults() throws {
        let decode = { (json: String) in
            try JSONValue.parse(json)
                .decode(
                    AggregationConfiguration.self, overlaying: .reference, rules: AggregationConfiguration.overlayRules)
        }
        #expect(try decode("{}") == .reference)
        #expect(try decode(#"{"profiles": null}"#) == .reference)

        // One weight of one profile: the other weights, the primary and the other profile stay.
        var moire = AggregationConfiguration.reference
        moire.profiles["ios_pro"]!.weights[.moire] = 0.2
        #expect(try decode(#"{"profiles": {"ios_pro": {"weights": {"moire": 0.2}}}}"#) == moire)

        // A new profile starts empty.
        var lab = AggregationConfiguration.reference
        lab.profiles["lab"] = AggregationProfile(primary: .lidar, weights: [.lidar: 1])
        #expect(try decode(#"{"profiles": {"lab": {"primary": "lidar", "weights": {"lidar": 1}}}}"#) == lab)

        var nested = AggregationConfiguration.reference
        nested.levelBoundaries.high = 0.8
        nested.attestationCaps.strongbox = .medium
        nested.levelCaps.print = .low
        nested.agreementBoost = 0.1
        #expect(
            try decode(
                #"""
                {"level_boundaries": {"high": 0.8}, "attestation_caps": {"strongbox": "MEDIUM"},
                 "level_caps": {"print": "LOW"}, "agreement_boost": 0.1}
                """#) == nested)

        #expect(throws: DecodingError.self) { try decode(#"{"profiles": {"ios_pro": {"weights": {"sonar": 1}}}}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"attestation_caps": {"tee": "MEDIUM-HIGH"}}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"medium_high": "between"}"#) }
        var level = AggregationConfiguration.reference
        level.mediumHigh = .level
        level.attestationCaps.tee = .mediumHigh
        level.attestationRequirements.tee.unmetCap = .medium
        #expect(
            try decode(
                #"{"medium_high": "level", "attestation_caps": {"tee": "MEDIUM_HIGH"}, "#
                    + #""attestation_requirements": {"tee": {"unmet_cap": "MEDIUM"}}}"#) == level)
        #expect(throws: DecodingError.self) { try decode(#"{"agreement_boost": "five"}"#) }
        #expect(throws: DecodingError.self) { try decode("[]") }
    }
}
