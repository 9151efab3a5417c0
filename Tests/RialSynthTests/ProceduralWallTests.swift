import Foundation
import Testing
import RialMedia
@testable import RialSynth

/// Level, frontal procedural brick and tile walls (how `buildWall` lays them since
/// rial-synth/3) must not look like a display's subpixel grating to the moire
/// detector: the irregular joints keep the strongest spectral peak of the captured
/// image below 1000 x the median power (the bound of `realWallHasNoStrongPeak`).
@Suite struct ProceduralWallTests {
    static let size = 256

    @Test(arguments: [ProceduralTextures.Kind.bricks, .tiles], [Float(0.6), 1.1, 1.4])
    func levelWallHasNoStrongPeak(_ kind: ProceduralTextures.Kind, _ metresPerRepeat: Float) {
        let n = Self.size
        var p = SynthParameters(synthClass: .realScene, subjectKind: .wall, width: n, height: n, sceneSeed: 5, noiseSeed: 6)
        p.subject = SubjectPlacement(distanceM: 1.5, fillFraction: 1, placement: .wall)
        p.sensor = TestScenes.quietSensor()
        let scene = Scene()
        var m = Material()
        m.texture = scene.addTexture(ProceduralTextures.bank[kind])
        m.tint = Vec3(1, 1, 1)
        m.metresPerRepeat = metresPerRepeat
        m.rotationCos = 1; m.rotationSin = 0
        let material = scene.addMaterial(m)
        scene.add(Primitive(shape: .plane, frame: Frame(origin: Vec3(0, 0, 1.5), u: Vec3(1, 0, 0), v: Vec3(0, 1, 0), w: Vec3(0, 0, -1)),
                            half: .zero, material: material, castsShadow: false))
        scene.lightPosition = Vec3(0.5, -1.5, 0.5)
        scene.lightColour = Vec3(2, 2, 2)
        let view = CameraView(origin: .zero, width: n, height: n, focal: p.focalPx)
        let radiance = SceneRenderer(scene: scene, view: view, rowGains: nil).render()
        var rng = SynthRandom(seed: 9)
        let image = CameraPipeline.develop(radiance, sensor: p.sensor, rng: &rng)
        let s = SignalAnalysis.powerSpectrum(SignalAnalysis.luma(image), size: n)
        let median = SignalAnalysis.medianPower(s, size: n, minRadius: 0.1)
        let top = SignalAnalysis.topPeaks(s, size: n, minRadius: 0.1, count: 1)[0]
        Measurement.log("\(kind) \(metresPerRepeat) m: peak/median \(Int(top.power / median)) at \((top.fx, top.fy))")
        #expect(top.power < 1000 * median, "\(kind) \(metresPerRepeat) m: peak/median \(top.power / median) at \(top.fx), \(top.fy)")
    }
}
