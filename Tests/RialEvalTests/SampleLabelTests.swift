import Testing

@testable import RialEval

@Suite struct SampleLabelTests {
    @Test func onlyRealSceneIsBonaFide() {
        #expect(SampleLabel.allCases.filter(\.isBonaFide) == [.realScene])
    }

    @Test(arguments: [
        (SampleLabel.screen, SampleLabel.lcdScreen, true),
        (.oledScreen, .screen, true),
        (.lcdScreen, .oledScreen, false),
        (.screen, .printedPaper, false),
        (.realScene, .realScene, true),
    ])
    func panelLevelMatching(truth: SampleLabel, predicted: SampleLabel, expected: Bool) {
        #expect(truth.matchesAtPanelLevel(predicted) == expected)
    }
}
