import Foundation
import Testing

@testable import RialEval

/// ISO/IEC 30107-3 rates, BPCER at fixed APCER and confusion matrices on hand-calculated
/// examples.
@Suite struct MetricsPresentationAttackTests {
    static func sample(
        _ id: String, _ score: Double, _ species: String, group: String? = nil,
        tags: [String] = [], attestation: String? = nil
    ) -> ScoredSample {
        ScoredSample(
            id: id, score: score, bonaFide: species == "real_scene", species: species, group: group,
            tags: tags, attestation: attestation)
    }

    /// Bona fide 0.95 0.8 0.7 0.45 0.3; lcd_screen 0.9 0.6 0.4 0.1; printed_paper 0.52 0.2 0.15.
    static let example: [ScoredSample] = {
        var samples: [ScoredSample] = []
        for (i, s) in [0.95, 0.8, 0.7, 0.45, 0.3].enumerated() {
            samples.append(
                sample("r\(i)", s, "real_scene", tags: i < 2 ? ["flat_subject"] : [], attestation: "secure_enclave"))
        }
        for (i, s) in [0.9, 0.6, 0.4, 0.1].enumerated() {
            samples.append(sample("l\(i)", s, "lcd_screen", group: "session-a", tags: i == 0 ? ["flat_subject"] : []))
        }
        for (i, s) in [0.52, 0.2, 0.15].enumerated() { samples.append(sample("p\(i)", s, "printed_paper")) }
        return samples
    }()

    @Test func ratesAtTheOperatingThreshold() {
        let pad = PresentationAttackMetrics(samples: Self.example, threshold: 0.5)
        // lcd: 0.9 and 0.6 accepted of 4; print: 0.52 of 3.
        #expect(pad.species.map(\.species) == ["lcd_screen", "printed_paper"])
        #expect(pad.species.map(\.accepted) == [2, 1])
        #expect(pad.species[0].apcer == 0.5)
        #expect(pad.species[1].apcer == 1.0 / 3)
        #expect(pad.apcerMax == 0.5)
        #expect(pad.apcerMaxSpecies == "lcd_screen")
        #expect(pad.apcerPooled == 3.0 / 7)
        // Bona fide 0.45 and 0.3 rejected of 5.
        #expect(pad.bpcer == 0.4)
        #expect(pad.acer == 0.45)
        #expect(pad.truePositiveRate == 0.6)
        #expect(pad.warnings.isEmpty)
    }

    @Test func thresholdIsInclusive() {
        // At 0.52 the printed attack scoring exactly 0.52 is accepted.
        let pad = PresentationAttackMetrics(samples: Self.example, threshold: 0.52)
        #expect(pad.species[1].accepted == 1)
    }

    @Test func missingClassesGiveNaNRates() {
        let onlyBonaFide = PresentationAttackMetrics(samples: Array(Self.example.prefix(5)), threshold: 0.5)
        #expect(onlyBonaFide.apcerMax.isNaN && onlyBonaFide.apcerPooled.isNaN && onlyBonaFide.acer.isNaN)
        #expect(onlyBonaFide.bpcer == 0.4)
        #expect(onlyBonaFide.warnings == [.noAttack])
        let empty = PresentationAttackMetrics(samples: [], threshold: 0.5)
        #expect(empty.bpcer.isNaN && empty.apcerMax.isNaN && empty.truePositiveRate.isNaN)
        #expect(empty.warnings == [.empty])
        let nan = PresentationAttackMetrics(samples: [Self.sample("x", .nan, "real_scene")], threshold: 0.5)
        #expect(nan.excludedCount == 1)
        #expect(nan.warnings == [.nonFiniteScoresExcluded, .empty])
    }

    /// Species A: 20 attacks, B: 40. Bona fide 0.99 0.97 0.95 0.93 0.91 0.89 0.5 0.4 0.3 0.2.
    /// High attacks: A 0.98, A 0.96, B 0.94, B 0.92; the rest 0.05.
    static let fixedAPCERSet: [ScoredSample] = {
        var samples: [ScoredSample] = []
        for (i, s) in [0.99, 0.97, 0.95, 0.93, 0.91, 0.89, 0.5, 0.4, 0.3, 0.2].enumerated() {
            samples.append(sample("bf\(i)", s, "real_scene"))
        }
        samples += [sample("a0", 0.98, "A"), sample("a1", 0.96, "A"), sample("b0", 0.94, "B"), sample("b1", 0.92, "B")]
        for i in 2..<20 { samples.append(sample("a\(i)", 0.05, "A")) }
        for i in 2..<40 { samples.append(sample("b\(i)", 0.05, "B")) }
        return samples
    }()

    @Test func bpcer20WithMaxOverSpecies() {
        // 0.98: A 1/20 = 5 % ok; 0.97 (bona fide) ok; 0.96: A 2/20 = 10 % fails.
        // Smallest allowed threshold 0.97: bona fide >= 0.97 are 2 of 10 -> BPCER 0.8.
        let b20 = BPCERAtAPCER(samples: Self.fixedAPCERSet, target: 0.05)
        #expect(b20.kind == .maxOverSpecies)
        #expect(b20.threshold == 0.97)
        #expect(b20.bpcer == 0.8)
        #expect(b20.apcer == 0.05)
    }

    @Test func bpcer20WithPooledAPCER() {
        // Pooled over 60: 0.98 1/60, 0.96 2/60, 0.94 3/60 = 5 % ok, 0.93 (bona fide) ok,
        // 0.92 4/60 fails -> threshold 0.93, 4 of 10 bona fide accepted -> BPCER 0.6.
        let b20 = BPCERAtAPCER(samples: Self.fixedAPCERSet, target: 0.05, kind: .pooled)
        #expect(b20.threshold == 0.93)
        #expect(b20.bpcer == 0.6)
        #expect(b20.apcer == 0.05)
    }

    @Test func bpcer100() {
        // 1 %: the first attack (A 1/20, pooled 1/60) already exceeds it: threshold 0.99.
        for kind in BPCERAtAPCER.APCERKind.allCases {
            let b100 = BPCERAtAPCER(samples: Self.fixedAPCERSet, target: 0.01, kind: kind)
            #expect(b100.threshold == 0.99)
            #expect(b100.bpcer == 0.9)
            #expect(b100.apcer == 0)
        }
    }

    @Test func aTiedBlockThatJumpsPastTheTargetIsNotAllowed() {
        // Bona fide 0.9 0.8 0.7; 20 attacks: 2 at 0.8 (tied with a bona fide), 18 at 0.1.
        // 0.9: APCER 0; 0.8: 2/20 = 10 % > 5 % -> threshold 0.9, BPCER 2/3.
        var samples = [0.9, 0.8, 0.7].enumerated().map { Self.sample("r\($0)", $1, "real_scene") }
        samples += (0..<20).map { Self.sample("x\($0)", $0 < 2 ? 0.8 : 0.1, "lcd_screen") }
        let b20 = BPCERAtAPCER(samples: samples, target: 0.05)
        #expect(b20.threshold == 0.9)
        #expect(b20.bpcer == 2.0 / 3)
    }

    @Test func noAttainableThresholdGivesInfinityAndBPCEROne() {
        // The top score is an attack: only +inf meets APCER <= 1 %.
        let samples = [Self.sample("a", 0.9, "lcd_screen"), Self.sample("r", 0.5, "real_scene")]
        let b = BPCERAtAPCER(samples: samples, target: 0.01)
        #expect(b.threshold == .infinity)
        #expect(b.bpcer == 1)
        let undefined = BPCERAtAPCER(samples: [Self.sample("r", 0.5, "real_scene")], target: 0.05)
        #expect(undefined.bpcer.isNaN && undefined.threshold.isNaN)
        for target in [Double.nan, -0.1, 1.5] {
            #expect(BPCERAtAPCER(samples: Self.fixedAPCERSet, target: target).bpcer.isNaN)
        }
    }

    @Test func binaryConfusionMatrix() {
        let matrix = BinaryConfusionMatrix(
            samples: Self.example + [Self.sample("n", .nan, "lcd_screen")], threshold: 0.5)
        // Attacks: 4 rejected, 3 accepted; bona fide: 2 rejected, 3 accepted.
        #expect(matrix.counts == [[4, 3], [2, 3]])
        let expected: [[Double]] = [[4.0 / 7, 3.0 / 7], [0.4, 0.6]]
        #expect(matrix.normalized == expected)
        #expect(matrix.excludedCount == 1)
        #expect(BinaryConfusionMatrix.labels == ["attack", "bona_fide"])
        let onlyAttacks = BinaryConfusionMatrix(samples: Array(Self.example.suffix(3)), threshold: 0.5)
        #expect(onlyAttacks.normalized[1].allSatisfy { $0.isNaN })
    }

    @Test func multiclassConfusionMatrix() {
        let classes = ["real_scene", "lcd_screen", "printed_paper", "lcd_screen"]
        let truth = [
            "real_scene", "real_scene", "lcd_screen", "lcd_screen", "lcd_screen", "printed_paper", "oled_screen",
        ]
        let predicted = [
            "real_scene", "lcd_screen", "lcd_screen", "printed_paper", "lcd_screen", "printed_paper", "lcd_screen",
        ]
        let matrix = MulticlassConfusionMatrix(classes: classes, truth: truth, predicted: predicted)
        #expect(matrix.classes == ["real_scene", "lcd_screen", "printed_paper"])
        #expect(matrix.counts == [[1, 1, 0], [0, 2, 1], [0, 0, 1]])
        #expect(matrix.count(truth: "lcd_screen", predicted: "printed_paper") == 1)
        #expect(matrix.excludedCount == 1)
        #expect(matrix.normalized[0] == [0.5, 0.5, 0])
        let secondRow: [Double] = [0, 2.0 / 3, 1.0 / 3]
        #expect(matrix.normalized[1] == secondRow)
        #expect(matrix.accuracy == 4.0 / 6)
        let empty = MulticlassConfusionMatrix(classes: ["a", "b"], truth: [], predicted: [])
        #expect(empty.normalized.allSatisfy { $0.allSatisfy { $0.isNaN } })
        #expect(empty.accuracy.isNaN)
    }

    @Test func breakdownPerLabelTagGroupAndAttestation() {
        let breakdown = MetricsBreakdown(samples: Self.example, threshold: 0.5)
        let labels = breakdown.perLabel ?? []
        #expect(labels.map(\.key) == ["lcd_screen", "printed_paper", "real_scene"])
        // lcd against all 5 bona fide: pairs won 4 + 3 + 3 + 2 + 1 = 13 of 20.
        #expect(labels[0].auc == 0.65)
        #expect(labels[0].aucAgainstAllBonaFide)
        #expect(labels[0].nAttack == 4 && labels[0].nBonaFide == 0)
        #expect(labels[0].apcer == 0.5)
        // print (0.52 0.2 0.15) against bona fide: 0.95, 0.8, 0.7 beat all three, 0.45 and 0.3
        // beat 0.2 and 0.15 only: 3 + 3 + 3 + 2 + 2 = 13 of 15.
        #expect(abs(labels[1].auc - 13.0 / 15) < 1e-15)
        #expect(labels[2].auc.isNaN)
        #expect(labels[2].bpcer == 0.4)
        #expect(labels[2].warnings == [.noAttack])
        #expect(!labels[2].aucAgainstAllBonaFide)

        let tags = breakdown.perTag ?? []
        #expect(tags.map(\.key) == ["flat_subject"])
        // flat_subject: bona fide 0.95 0.8, attack 0.9: pairs 1 + 0 of 2.
        #expect(tags[0].auc == 0.5)
        #expect(tags[0].nBonaFide == 2 && tags[0].nAttack == 1)
        #expect(abs(tags[0].meanScore - (0.95 + 0.8 + 0.9) / 3) < 1e-15)
        #expect(tags[0].acceptanceRate == 1)

        #expect((breakdown.perGroup ?? []).map(\.key) == ["session-a"])
        let attestation = breakdown.perAttestation ?? []
        #expect(attestation.map(\.key) == ["none", "secure_enclave"])
        #expect(attestation[0].nAttack == 7 && attestation[1].nBonaFide == 5)

        let only = MetricsBreakdown(samples: Self.example, threshold: 0.5, dimensions: [.tag])
        #expect(only.perLabel == nil && only.perGroup == nil && only.perTag != nil)
    }
}
