import Foundation

@testable import RialSynth

/// Hand-set parameters for the physics tests: a subject that fills the whole frame,
/// low noise, no clutter in view.
enum TestScenes {
    /// A sensor with little noise (high full well), no sharpening, full white balance.
    static func quietSensor(sigma: Float = 0.45) -> SensorParameters {
        SensorParameters(
            lensBlurSigmaPx: sigma, fullWellE: 20000, readNoiseE: 2, exposureTarget: 0.2,
            vignetting: 0, whiteBalanceStrength: 1, sharpenAmount: 0, adcBits: 12,
            demosaic: .malvarHeCutler)
    }

    /// An LCD (or OLED) filling the frame at `distance` m, showing flat grey.
    static func display(
        layout: DisplayParameters.PanelLayout, pitchPx: Float, rotationDeg: Float = 0,
        tiltDeg: Float = 0, width: Int = 256, height: Int = 256, distance: Float = 0.5,
        flicker: FlickerParameters? = nil, grey: Float = 0.6
    ) -> SynthParameters {
        var p = SynthParameters(
            synthClass: layout == .rgbStripe ? .lcdScreen : .oledScreen, subjectKind: .monitor,
            width: width, height: height, horizontalFovDeg: 67, sceneSeed: 11, noiseSeed: 12)
        p.subject = SubjectPlacement(
            distanceM: distance, tiltDeg: tiltDeg, tiltAxisDeg: 0, rotationDeg: rotationDeg,
            fillFraction: 2.5, placement: .wall)
        // Frame width, or height when the image is taller than wide.
        let frameWidth = 2 * distance * tan(p.horizontalFovDeg * .pi / 360) * max(1, Float(height) / Float(width))
        let panel: [Float] = [2.5 * frameWidth, 2.5 * frameWidth]
        let pitchM = pitchPx * distance / p.focalPx
        p.display = DisplayParameters(
            panelLayout: layout, pixelPitchPx: pitchPx, pixelPitchMm: pitchM * 1000,
            resolution: [Int(panel[0] / pitchM), Int(panel[1] / pitchM)],
            fillFactor: layout == .rgbStripe ? 0.8 : 0.6, verticalFill: 0.85,
            brightness: 1.5, gamma: 2.2, blackLevel: 0.002, viewFalloffExponent: 1,
            bezelMm: 10, panelSizeM: panel, flicker: flicker)
        p.content = ContentParameters(kind: .flat, color: [grey, grey, grey])
        p.sensor = quietSensor()
        return p
    }

    /// A CMYK halftone print filling the frame, frontal, showing a flat colour.
    static func print(
        periodPx: Float, width: Int = 256, height: Int = 256, distance: Float = 0.5,
        colour: [Float] = [0.55, 0.5, 0.45]
    ) -> SynthParameters {
        var p = SynthParameters(
            synthClass: .printedPaper, subjectKind: .photoPrint, width: width, height: height,
            horizontalFovDeg: 67, sceneSeed: 21, noiseSeed: 22)
        p.subject = SubjectPlacement(distanceM: distance, fillFraction: 2.5, placement: .wall)
        let frameWidth = 2 * distance * tan(p.horizontalFovDeg * .pi / 360) * max(1, Float(height) / Float(width))
        let periodMm = periodPx * distance / p.focalPx * 1000
        p.print = PrintParameters(
            process: .cmykHalftone, lpi: 25.4 / periodMm, periodPx: periodPx,
            screenAnglesDeg: [15, 75, 0, 45], dotGain: 0.1, paperWhite: 0.88, inkBlack: 0.12,
            paperTexture: 0.02, grayComponentReplacement: 0.5,
            sheetSizeM: [2.5 * frameWidth, 2.5 * frameWidth])
        p.content = ContentParameters(kind: .flat, color: colour)
        p.sensor = quietSensor(sigma: 0.4)
        return p
    }
}
