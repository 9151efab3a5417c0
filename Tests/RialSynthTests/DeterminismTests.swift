import Foundation
import RialMedia
import Testing

@testable import RialSynth

@Suite struct DeterminismTests {
    /// Same (seed, index, class, size) -> identical bytes in image, right view and depth;
    /// another index -> different pixels. Sizes are small to keep the debug suite fast.
    @Test(arguments: SynthClass.allCases)
    func sameArgumentsSameBytes(_ c: SynthClass) {
        let a = SynthGenerator.generate(index: 3, seed: 42, class: c, width: 96, height: 72, withSecondView: true)
        let b = SynthGenerator.generate(index: 3, seed: 42, class: c, width: 96, height: 72, withSecondView: true)
        #expect(a.image.samples == b.image.samples)
        #expect(a.right?.samples == b.right?.samples)
        #expect(a.depth == b.depth)
        #expect(a.parameters == b.parameters)
        let other = SynthGenerator.generate(index: 4, seed: 42, class: c, width: 96, height: 72)
        #expect(other.image.samples != a.image.samples)
        #expect(other.parameters != a.parameters)
    }

    @Test func shapesAndLabels() {
        let c = SynthGenerator.generate(
            index: 0, seed: 7, class: .oledScreen, width: 64, height: 48, withSecondView: true)
        #expect(c.label == .oledScreen)
        #expect(c.image.width == 64 && c.image.height == 48 && c.image.channels == 3)
        #expect(c.depth.width == 256 && c.depth.height == 192)
        #expect(c.right?.width == 64)
        #expect(c.tags.contains("synthetic"))
        #expect(SynthClass.realScene.rawValue == "real_scene")
        #expect(SynthClass.lcdScreen.rawValue == "lcd_screen")
        #expect(SynthClass.oledScreen.rawValue == "oled_screen")
        #expect(SynthClass.printedPaper.rawValue == "printed_paper")
    }

    /// Rendering the recorded parameters reproduces the capture (the "synth" block is
    /// enough to regenerate a dataset sample).
    @Test func parametersReproduceCapture() throws {
        let a = SynthGenerator.generate(index: 5, seed: 9, class: .printedPaper, width: 80, height: 60)
        let json = try JSONEncoder().encode(a.parameters)
        let p = try JSONDecoder().decode(SynthParameters.self, from: json)
        let b = SynthGenerator.render(p)
        #expect(a.image.samples == b.image.samples)
        #expect(a.depth == b.depth)
    }
}
