import Foundation
import RialMedia
import Testing

@testable import RialSynth

/// Depth noise: on a flat target the plane-fit rms of the back-projected points must
/// be what the model says, sqrt(sigma(z)^2 + q^2 / 12) with sigma(z) = a + b z^2 and
/// q = 1 mm (uniform quantisation error). Calibration targets from ARKitScenes
/// 41069021 (see `DepthSensor`): poster ~1.3 mm, floor ~0.6 mm at 0.67-0.68 m.
@Suite struct DepthSensorTests {
    static func flatTarget(distance: Float, depth: DepthSensorParameters) -> (DepthMap, SynthParameters) {
        var p = TestScenes.print(periodPx: 4, width: 128, height: 96, distance: distance)
        p.depthSensor = depth
        return (SynthGenerator.render(p).depth, p)
    }

    @Test(arguments: [("poster", DepthSensorParameters.posterCalibration, 1.3), ("floor", .floorCalibration, 0.6)])
    func calibratedPlaneResidual(_ name: String, _ depth: DepthSensorParameters, _ measuredMm: Double) throws {
        let z: Float = 0.675
        let (map, p) = Self.flatTarget(distance: z, depth: depth)
        let points = SignalAnalysis.backProject(
            map, imageWidth: p.width, imageHeight: p.height, focal: Double(p.focalPx))
        #expect(points.count > 256 * 192 * 98 / 100)
        let rmsMm = SignalAnalysis.planeFitRMS(points) * 1000
        let sigma = Double(depth.noiseAMm + depth.noiseBMmPerM2 * z * z)
        let expected = (sigma * sigma + 1.0 / 12).squareRoot()
        Measurement.log(
            "depth \(name) at \(z) m: plane-fit rms \(rmsMm) mm, model \(expected) mm, ARKitScenes \(measuredMm) mm")
        #expect(abs(rmsMm - expected) / expected < 0.15, "\(name): rms \(rmsMm) mm, model \(expected) mm")
        // And the model reproduces the real measurement it was calibrated on.
        #expect(abs(rmsMm - measuredMm) / measuredMm < 0.2, "\(name): rms \(rmsMm) mm vs ARKitScenes \(measuredMm) mm")
    }

    /// Noise grows as a + b z^2: a target at 1.4 m is noisier than at 0.4 m by the
    /// model's ratio.
    @Test func noiseGrowsWithDistance() {
        let params = DepthSensorParameters(noiseAMm: 0.5, noiseBMmPerM2: 2.0)
        func rms(_ z: Float) -> Double {
            let (map, p) = Self.flatTarget(distance: z, depth: params)
            return SignalAnalysis.planeFitRMS(
                SignalAnalysis.backProject(
                    map, imageWidth: p.width, imageHeight: p.height,
                    focal: Double(p.focalPx))) * 1000
        }
        func model(_ z: Double) -> Double {
            let s = 0.5 + 2.0 * z * z
            return (s * s + 1.0 / 12).squareRoot()
        }
        let near = rms(0.4), far = rms(1.4)
        Measurement.log(
            "depth a=0.5 b=2: rms at 0.4 m \(near) mm (model \(model(0.4))), at 1.4 m \(far) mm (model \(model(1.4)))")
        #expect(abs(near - model(0.4)) / model(0.4) < 0.15, "near \(near)")
        #expect(abs(far - model(1.4)) / model(1.4) < 0.15, "far \(far)")
    }

    /// A 3D bona fide scene is far from a plane; the flat target is not.
    @Test func realSceneIsNotPlanar() {
        var p = SynthParameters(
            synthClass: .realScene, subjectKind: .room, width: 128, height: 96, sceneSeed: 31, noiseSeed: 32)
        p.depthSensor = .posterCalibration
        let map = SynthGenerator.render(p).depth
        let points = SignalAnalysis.backProject(
            map, imageWidth: p.width, imageHeight: p.height, focal: Double(p.focalPx))
        let rms = SignalAnalysis.planeFitRMS(points)
        Measurement.log("depth room plane-fit rms \(rms * 1000) mm")
        #expect(rms > 0.05, "room plane-fit rms \(rms) m")
    }

    /// Depth is metres along the optical axis, NaN-marked holes, quantised to 1 mm; a
    /// frontal target at z reads z.
    @Test func frontalTargetReadsItsDistance() {
        let (map, _) = Self.flatTarget(distance: 0.8, depth: .floorCalibration)
        let valid = map.metres.filter { $0.isFinite }
        let mean = valid.reduce(0, +) / Float(valid.count)
        #expect(abs(mean - 0.8) < 0.002)
        for v in valid.prefix(500) { #expect(abs(v * 1000 - (v * 1000).rounded()) < 1e-3) }
    }

    /// ARKit reports nothing nearer than ~0.1 m: a frontal target at 0.08 m gives no
    /// valid depth with the default `min_range_m` (0.1), and reads its distance when
    /// the minimum is lowered to 0.05 m.
    @Test func nearRangeIsInvalid() {
        let (near, _) = Self.flatTarget(distance: 0.08, depth: .floorCalibration)
        #expect(DepthSensorParameters.floorCalibration.minRangeM == 0.1)
        #expect(near.metres.allSatisfy { !$0.isFinite })
        var lowered = DepthSensorParameters.floorCalibration
        lowered.minRangeM = 0.05
        let (map, _) = Self.flatTarget(distance: 0.08, depth: lowered)
        let valid = map.metres.filter { $0.isFinite }
        #expect(valid.count > map.metres.count * 9 / 10)
        #expect(valid.allSatisfy { abs($0 - 0.08) < 0.005 })
    }

    /// Discontinuities produce mixed (flying) depths between the surfaces and holes.
    @Test func edgesHaveFlyingPixelsAndHoles() {
        var p = SynthParameters(
            synthClass: .lcdScreen, subjectKind: .phone, width: 128, height: 96, sceneSeed: 41, noiseSeed: 42)
        p = TestScenes.display(layout: .rgbStripe, pitchPx: 2, width: 128, height: 96, distance: 0.4)
        // A small screen in a room 1-4 m behind it.
        let frameWidth = 2 * 0.4 * tan(p.horizontalFovDeg * .pi / 360)
        p.display!.panelSizeM = [0.4 * frameWidth, 0.3 * frameWidth]
        p.subject.placement = .handheld
        p.depthSensor = DepthSensorParameters(edgeHoleProbability: 0.3, dropoutRate: 0)
        let map = SynthGenerator.render(p).depth
        var holes = 0, intermediate = 0
        for v in map.metres {
            if v.isNaN { holes += 1 } else if v > 0.45 && v < 0.9 { intermediate += 1 }
        }
        Measurement.log("depth edges: holes \(holes), flying pixels \(intermediate)")
        #expect(holes > 10, "holes \(holes)")
        #expect(intermediate > 10, "flying pixels \(intermediate)")
    }
}
