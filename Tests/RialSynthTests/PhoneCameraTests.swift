import Foundation
import RialMedia
import Testing

@testable import RialSynth

@Suite struct PhoneCameraTests {
    /// A standard-camera spec encodes as before (no `camera` key), so the default set's
    /// cache key does not change; a phone spec names its camera and decodes back.
    @Test func specEncodesTheCameraOnlyWhenNotStandard() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let standard = String(decoding: try encoder.encode(SynthDatasetSpec(count: 4, seed: 1)), as: UTF8.self)
        #expect(!standard.contains("camera"))
        let phoneSpec = SynthDatasetSpec(count: 4, seed: 1, camera: .phone)
        let phone = try encoder.encode(phoneSpec)
        #expect(String(decoding: phone, as: UTF8.self).contains("\"camera\":\"phone\""))
        #expect(try JSONDecoder().decode(SynthDatasetSpec.self, from: phone) == phoneSpec)
        #expect(try JSONDecoder().decode(SynthDatasetSpec.self, from: Data(standard.utf8)).camera == .standard)
    }

    /// The phone camera keeps the scene of the standard draw and changes only the camera.
    @Test(arguments: SynthClass.allCases)
    func phoneKeepsTheSceneAndRecordsItsCamera(synthClass: SynthClass) {
        let standard = SynthGenerator.sampleParameters(index: 3, seed: 9, class: synthClass, width: 160, height: 120)
        let phone = SynthGenerator.sampleParameters(
            index: 3, seed: 9, class: synthClass, width: 160, height: 120, camera: .phone)
        #expect(standard.phone == nil)
        #expect(phone.phone?.profile == PhoneCamera.version)
        #expect(phone.sceneSeed == standard.sceneSeed && phone.subject == standard.subject)
        #expect(phone.lighting == standard.lighting && phone.content == standard.content)
        #expect(phone.sensor.fullWellE != standard.sensor.fullWellE)
    }

    /// Every length in px doubles at the sensor; the row time halves (same readout).
    @Test func sensorParametersScaleLengthsBySupersampling() throws {
        var p = SynthGenerator.sampleParameters(
            index: 1, seed: 5, class: .lcdScreen, width: 160, height: 120, camera: .phone)
        p.display?.flicker = FlickerParameters(
            hz: 120, dutyCycle: 0.5, modulationDepth: 1, rowTimeUs: 20, exposureMs: 5, phase: 0)
        let q = PhoneCamera.sensorParameters(p)
        #expect(q.width == 320 && q.height == 240)
        #expect(q.focalPx == 2 * p.focalPx)
        #expect(q.sensor.lensBlurSigmaPx == 2 * p.sensor.lensBlurSigmaPx)
        #expect(try #require(q.display).pixelPitchPx == 2 * (try #require(p.display)).pixelPitchPx)
        #expect(q.display?.flicker?.rowTimeUs == 10)
        #expect(q.lighting.lightingCellPx == 2 * p.lighting.lightingCellPx)
    }

    /// A phone capture comes out at the requested size, deterministically, and its JSON
    /// parameters round-trip.
    @Test func phoneCaptureHasTheOutputSizeAndIsDeterministic() throws {
        let a = SynthGenerator.generate(index: 0, seed: 2, class: .realScene, width: 96, height: 64, camera: .phone)
        let b = SynthGenerator.generate(index: 0, seed: 2, class: .realScene, width: 96, height: 64, camera: .phone)
        #expect(a.image.width == 96 && a.image.height == 64)
        #expect(a.image == b.image)
        let json = try JSONEncoder().encode(a.parameters)
        #expect(try JSONDecoder().decode(SynthParameters.self, from: json) == a.parameters)
        // The standard camera's JSON has no phone block.
        let s = SynthGenerator.sampleParameters(index: 0, seed: 2, class: .realScene, width: 96, height: 64)
        #expect(!String(decoding: try JSONEncoder().encode(s), as: UTF8.self).contains("phone"))
    }

    /// phone/2 keeps the standard draw's scene, records its own version, and takes its
    /// camera from its own random stream: a phone/2 capture is not a phone/1 capture.
    @Test(arguments: SynthClass.allCases)
    func phone2KeepsTheSceneAndRecordsItsVersion(synthClass: SynthClass) {
        let standard = SynthGenerator.sampleParameters(index: 3, seed: 9, class: synthClass, width: 160, height: 120)
        let phone1 = SynthGenerator.sampleParameters(
            index: 3, seed: 9, class: synthClass, width: 160, height: 120, camera: .phone)
        let phone2 = SynthGenerator.sampleParameters(
            index: 3, seed: 9, class: synthClass, width: 160, height: 120, camera: .phone2)
        #expect(phone2.phone?.profile == "phone/2")
        #expect(phone2.sceneSeed == standard.sceneSeed && phone2.subject == standard.subject)
        #expect(phone2.lighting == standard.lighting && phone2.content == standard.content)
        #expect(phone2.sensor.fullWellE != phone1.sensor.fullWellE)
        #expect(SynthCameraProfile.profile(ofPhoneVersion: phone2.phone?.profile) == .phone2)
        #expect(SynthCameraProfile.profile(ofPhoneVersion: phone1.phone?.profile) == .phone)
        #expect(SynthCameraProfile.profile(ofPhoneVersion: standard.phone?.profile) == .standard)
    }

    /// A print seen by phone/2: 85-175 lpi (0.145-0.30 mm per cell) at 0.25-1.5 m with a
    /// 1600 px output of a 65-70 degree field (focal 800 / tan 33.75 deg = 1197 to 1256 px)
    /// is 0.12-1.5 px per cell (0.30 mm x 1256 / 0.25 m = 1.5), so the drawn period must stay
    /// at most 1.5 output px (the renderer's floor is 0.4 px), and its lpi must be the one the
    /// period gives at the subject's distance: lpi = 25.4 / (period_px d / f 1000).
    @Test(arguments: 0..<12)
    func phone2PrintsAreFinerThanThePixelGrid(index: Int) throws {
        let p = SynthGenerator.sampleParameters(
            index: index, seed: 4, class: .printedPaper, width: 1600, height: 1200, camera: .phone2)
        let print = try #require(p.print)
        guard print.process == .cmykHalftone else { return }
        #expect(print.periodPx >= 0.4 && print.periodPx <= 1.5)
        let periodMm = print.periodPx * p.subject.distanceM / p.focalPx * 1000
        #expect(abs(print.lpi - 25.4 / periodMm) <= 1e-3 * print.lpi)
    }

    /// The tone curve's contrast is used up to 3 (phone/2 draws up to 2.6): with contrast
    /// a = 2.6, shoulder d = 1 and midtone m -> o, y(x) = x^a / (x^a b + c) with
    /// b = (m^a / o - 1) / (m^a - 1) and c = 1 - b; at x = m, y = o exactly, and at
    /// x = 1, y = 1 (hand algebra: m^a / (m^a b + 1 - b) = o  <=>  b = (m^a / o - 1) / (m^a - 1)).
    @Test func toneCurveKeepsContrastUpToThree() {
        var isp = ISPParameters()
        isp.toneContrast = 2.6
        isp.toneShoulder = 1
        isp.keyAdaptation = 0
        isp.midtoneOutput = 0.2
        let curve = ImageSignalProcessor.toneCurve(meteredMean: 0.1, exposure: 1, isp: isp)
        #expect(curve.a == 2.6)
        #expect(abs(curve(0.1) - 0.2) < 1e-4)
        #expect(abs(curve(1) - 1) < 1e-5)
        isp.toneContrast = 4
        #expect(ImageSignalProcessor.toneCurve(meteredMean: 0.1, exposure: 1, isp: isp).a == 3)
    }
}
