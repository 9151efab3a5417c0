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
}
