import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// `MethodMetrics` end to end, its JSON shape (NaN as null) and `MetricsConfiguration`.
@Suite struct MetricsJSONTests {
    static let example = MetricsPresentationAttackTests.example
    static let configuration = MetricsConfiguration(
        threshold: 0.5, bootstrap: BootstrapSettings(resamples: 100, seed: 7))

    static func json(_ metrics: MethodMetrics) throws -> [String: Any] {
        let data = try JSONEncoder().encode(metrics)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func computeCombinesTheIndividualMetrics() {
        let m = MethodMetrics.compute(samples: Self.example, configuration: Self.configuration)
        #expect(m.sampleCount == 12 && m.bonaFideCount == 5 && m.attackCount == 7 && m.excludedCount == 0)
        // 5 ungrouped bona fide + 1 group (lcd) + 3 ungrouped prints.
        #expect(m.clusterCount == 9)
        // AUC: lcd 13 of 20 pairs (see the breakdown test) + print 13 of 15 = 26 / 35.
        #expect(abs(m.auc - 26.0 / 35) < 1e-15)
        #expect(m.bpcer == 0.4 && m.acer == 0.45 && m.tprAtOperatingPoint == 0.6)
        #expect(m.apcer.perSpecies == ["lcd_screen": 0.5, "printed_paper": 1.0 / 3])
        #expect(m.apcer.attacksPerSpecies == ["lcd_screen": 4, "printed_paper": 3])
        #expect(m.apcer.max == 0.5 && m.apcer.maxSpecies == "lcd_screen" && m.apcer.pooled == 3.0 / 7)
        #expect(m.confusion.counts == [[4, 3], [2, 3]])
        // Top score 0.95 is bona fide, next 0.9 an lcd attack (1/4 > 5 %): threshold 0.95, BPCER 4/5.
        #expect(m.bpcer20 == 0.8 && m.bpcer20Threshold == 0.95)
        #expect(m.bpcer100Pooled == 0.8)
        let eer = EqualErrorRate(curve: ROCCurve(samples: Self.example))
        #expect(m.eer == eer.rate && m.eerThreshold == eer.threshold)
        #expect(m.averagePrecision == PrecisionRecallCurve(samples: Self.example).averagePrecision)
        #expect(m.aucCI?.resamples == 100 && m.aucCI?.seed == 7)
        #expect(m.apcer.perSpeciesCI["lcd_screen"] == .wilson(successes: 2, trials: 4))
        #expect(m.breakdowns?.perLabel?.count == 3)
    }

    @Test func jsonShapeHasTheDocumentedKeys() throws {
        let object = try Self.json(MethodMetrics.compute(samples: Self.example, configuration: Self.configuration))
        for key in [
            "n_samples", "n_excluded", "n_bona_fide", "n_attack", "n_clusters", "threshold", "auc", "auc_ci",
            "average_precision", "eer", "eer_threshold", "eer_ci", "apcer", "bpcer", "bpcer_ci", "acer",
            "acer_ci", "bpcer20", "bpcer20_threshold", "bpcer100", "bpcer100_threshold", "bpcer20_pooled",
            "bpcer100_pooled", "tpr_at_operating_point", "tpr_ci", "confusion", "warnings", "breakdowns",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let apcer = try #require(object["apcer"] as? [String: Any])
        #expect(
            Set(apcer.keys) == [
                "per_species", "attacks_per_species", "per_species_ci", "max", "max_species",
                "max_ci", "pooled", "pooled_ci", "min_attacks_for_max", "species_below_minimum", "max_counted",
                "max_counted_ci",
            ])
        let ci = try #require(object["auc_ci"] as? [String: Any])
        #expect(ci["method"] as? String == "cluster_bootstrap_percentile")
        #expect(ci["resamples"] as? Int == 100 && ci["seed"] as? Int == 7 && ci["level"] as? Double == 0.95)
        let confusion = try #require(object["confusion"] as? [String: Any])
        #expect(confusion["labels"] as? [String] == ["attack", "bona_fide"])
        #expect(confusion["counts"] as? [[Int]] == [[4, 3], [2, 3]])
    }

    @Test func undefinedValuesAreNullInJSON() throws {
        let onlyBonaFide = Array(Self.example.prefix(5))
        let m = MethodMetrics.compute(samples: onlyBonaFide, configuration: Self.configuration)
        #expect(m.auc.isNaN)
        #expect(m.warnings.contains(.noAttack))
        let object = try Self.json(m)
        for key in ["auc", "eer", "eer_threshold", "acer", "bpcer20", "bpcer20_threshold"] {
            #expect(object[key] is NSNull, "\(key) should be null")
        }
        #expect((object["apcer"] as? [String: Any])?["max"] is NSNull)
        #expect((object["auc_ci"] as? [String: Any])?["lower"] is NSNull)
        #expect(object["bpcer"] as? Double == 0.4)
        #expect((object["warnings"] as? [String])?.contains("no_attack") == true)
    }

    @Test func emptyInputComputesWithoutTrapping() throws {
        let m = MethodMetrics.compute(samples: [], configuration: Self.configuration)
        #expect(m.sampleCount == 0 && m.auc.isNaN && m.bpcer.isNaN && m.averagePrecision.isNaN)
        #expect(m.warnings.first == .empty)
        _ = try Self.json(m)
    }

    @Test func jsonRoundTripsByteForByte() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for samples in [Self.example, Array(Self.example.prefix(5)), []] {
            let m = MethodMetrics.compute(samples: samples, configuration: Self.configuration)
            let data = try encoder.encode(m)
            let decoded = try JSONDecoder().decode(MethodMetrics.self, from: data)
            #expect(try encoder.encode(decoded) == data)
        }
    }

    @Test func configurationDecodesPartiallyAndValidates() throws {
        let partial = try JSONValue.parse(#"{"threshold": 0.7, "bootstrap": {"seed": 5}}"#).decode(
            MetricsConfiguration.self, overlaying: .standard)
        #expect(partial.threshold == 0.7)
        #expect(partial.bootstrap == BootstrapSettings(resamples: 1000, seed: 5, confidenceLevel: 0.95, parallel: true))
        #expect(partial.breakdowns == BreakdownDimension.allCases)
        #expect(try JSONValue.parse("{}").decode(MetricsConfiguration.self, overlaying: .standard) == .standard)
        try MetricsConfiguration.standard.validate()

        var bad = MetricsConfiguration.standard
        bad.bootstrap.confidenceLevel = 1
        #expect(throws: ConfigurationError(key: "bootstrap.confidence_level", "must be in (0, 1), e.g. 0.95, got 1.0"))
        {
            try bad.validate()
        }
        bad = .standard
        bad.threshold = .nan
        #expect { try bad.validate() } throws: { ($0 as? ConfigurationError)?.key == "threshold" }
        bad = .standard
        bad.bootstrap.resamples = -1
        #expect { try bad.validate() } throws: { ($0 as? ConfigurationError)?.key == "bootstrap.resamples" }
        // compute does not trap on it: no intervals.
        #expect(MethodMetrics.compute(samples: Self.example, configuration: bad).aucCI == nil)
    }

    @Test func scoredSampleFromADatasetSample() {
        let dataset = DatasetSample(
            id: "x", image: "x.jpg", label: .oledScreen, attestation: .tee, group: "g",
            tags: ["flat_subject"])
        let sample = ScoredSample(dataset, score: 0.3)
        #expect(
            sample
                == ScoredSample(
                    id: "x", score: 0.3, bonaFide: false, species: "oled_screen", group: "g",
                    tags: ["flat_subject"], attestation: "tee"))
    }
}
