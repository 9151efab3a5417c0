import Foundation

/// How a phone held in the hand moves while it records: the camera pose at any time of
/// a recording, relative to the photo simulator's camera (centre at the origin, looking
/// along +z), in the scene's metres.
///
/// Model (per recording, drawn by `sample`):
/// - **Aim.** The person keeps the subject in view: the optical axis points from the
///   camera centre at the fixation point (0, 0, `fixation_m`) on the reference axis
///   (the subject's distance; 1 m for rooms and table tops), then the rotational drift
///   and tremor below turn it away.
/// - **Sweep.** A slow deliberate move along a horizontal direction in the x-z plane,
///   `sweep_m` in total, spread over the recording by a smooth ease (1 - cos)/2; with the
///   aim it is an arc around the subject, the motion someone makes to show a scene (or
///   an attacker filming a screen or print to fake one).
/// - **Drift.** Postural and arm sway: per axis, the sum of 3 sinusoids with
///   log-uniform frequencies in 0.1-1 Hz and random phases, scaled to an rms of
///   `drift_translation_mm` (x, y, z) and `drift_rotation_deg` (yaw, pitch, roll).
/// - **Tremor.** Physiological tremor: per axis, 2 sinusoids in 8-12 Hz scaled to
///   `tremor_translation_mm` and `tremor_rotation_deg` rms.
///
/// Magnitudes and where they come from (orders of magnitude from the literature, none
/// calibrated on our own phone recordings):
/// - drift translation 3-10 mm rms per axis: the body sway of quiet standing is of the
///   order of 5 mm (centre-of-pressure rms distance, Prieto et al., "Measures of
///   postural steadiness", IEEE TBME 43(9), 1996), and the arm holding the phone adds
///   to it;
/// - drift rotation 0.2-1 degree rms per axis at 0.1-1 Hz: hand-held camera shake is
///   dominated by frequencies below ~15 Hz with excursions from tenths of a degree to
///   about a degree (the image-stabilisation test literature: Golik, "Development of a
///   test method for image stabilizing systems", Cologne University of Applied
///   Sciences, 2006; the CIPA DC-011 shake profiles);
/// - tremor band 8-12 Hz: physiological tremor (McAuley and Marsden, "Physiological and
///   pathological tremors and rhythmic central motor control", Brain 123, 2000); the
///   amplitudes are derived from assumed tremor-band rms levels of 0.5-2 deg/s angular
///   velocity (amplitude = velocity / (2 pi f): 0.01-0.03 degree at 10 Hz) and
///   0.01-0.1 m/s^2 acceleration (displacement = acceleration / (2 pi f)^2: 0.003-0.03
///   mm), far below a pixel at these frame sizes;
/// - sweep 0-8 cm over the recording: a design choice (a slow arc that keeps the
///   subject in frame), the same for bona fide scenes and for screens and prints, so
///   that motion alone never tells them apart.
public struct HandheldTrajectory: Codable, Sendable, Equatable {
    /// Distance of the point the person keeps in view, m.
    public var fixationM: Float
    /// Total deliberate move, m, and its direction in the x-z plane (degrees from +x).
    public var sweepM: Float
    public var sweepDirectionDeg: Float
    /// Drift and tremor components: one list of sinusoids per axis, axes in the order
    /// x, y, z (metres) then yaw, pitch, roll (radians).
    public var drift: [[Sinusoid]]
    public var tremor: [[Sinusoid]]

    /// a sin(2 pi f t + phase).
    public struct Sinusoid: Codable, Sendable, Equatable {
        public var amplitude: Float
        public var hz: Float
        public var phase: Float

        public init(amplitude: Float, hz: Float, phase: Float) {
            self.amplitude = amplitude
            self.hz = hz
            self.phase = phase
        }

        func value(at t: Double) -> Double {
            Double(amplitude) * sin(2 * Double.pi * Double(hz) * t + Double(phase))
        }
    }

    /// The ranges `sample` draws from (see the type's documentation for their sources).
    public static let driftTranslationMm: ClosedRange<Float> = 3...10
    public static let driftRotationDeg: ClosedRange<Float> = 0.2...1
    public static let driftHz: ClosedRange<Float> = 0.1...1
    public static let tremorTranslationMm: ClosedRange<Float> = 0.003...0.03
    public static let tremorRotationDeg: ClosedRange<Float> = 0.01...0.03
    public static let tremorHz: ClosedRange<Float> = 8...12
    public static let sweepM: ClosedRange<Float> = 0...0.08

    public init(
        fixationM: Float, sweepM: Float = 0, sweepDirectionDeg: Float = 0, drift: [[Sinusoid]] = [],
        tremor: [[Sinusoid]] = []
    ) {
        self.fixationM = fixationM
        self.sweepM = sweepM
        self.sweepDirectionDeg = sweepDirectionDeg
        self.drift = drift
        self.tremor = tremor
    }

    /// A trajectory drawn from `rng` for a subject at `fixationM`.
    static func sample(fixationM: Float, rng: inout SynthRandom) -> HandheldTrajectory {
        func components(count: Int, hz: ClosedRange<Float>, logFrequency: Bool, rms: Float) -> [Sinusoid] {
            var waves = (0..<count).map { _ in
                let f = logFrequency ? exp(rng.uniform(log(hz.lowerBound)...log(hz.upperBound))) : rng.uniform(hz)
                return Sinusoid(amplitude: rng.uniform(0.5...1), hz: f, phase: rng.uniform(0...(2 * .pi)))
            }
            // rms of a sum of sinusoids of distinct frequencies: sqrt(sum a^2 / 2).
            let current = (waves.reduce(0) { $0 + $1.amplitude * $1.amplitude } / 2).squareRoot()
            for k in waves.indices { waves[k].amplitude *= rms / max(current, 1e-9) }
            return waves
        }
        let degree = Float.pi / 180
        var drift: [[Sinusoid]] = []
        var tremor: [[Sinusoid]] = []
        for axis in 0..<6 {
            let rotation = axis >= 3
            let driftRms = rotation ? rng.uniform(driftRotationDeg) * degree : rng.uniform(driftTranslationMm) * 1e-3
            let tremorRms =
                rotation ? rng.uniform(tremorRotationDeg) * degree : rng.uniform(tremorTranslationMm) * 1e-3
            drift.append(components(count: 3, hz: driftHz, logFrequency: true, rms: driftRms))
            tremor.append(components(count: 2, hz: tremorHz, logFrequency: false, rms: tremorRms))
        }
        return HandheldTrajectory(
            fixationM: fixationM, sweepM: rng.uniform(sweepM),
            sweepDirectionDeg: rng.uniform(-30...30)
                + (rng.unit() < 0.5 ? 0 : 180), drift: drift, tremor: tremor)
    }

    /// The camera pose at `t` seconds of a recording lasting `duration` seconds.
    public func pose(at t: Double, duration: Double) -> CameraPose {
        var axis = [Double](repeating: 0, count: 6)
        for k in 0..<6 {
            if k < drift.count { axis[k] += drift[k].reduce(0) { $0 + $1.value(at: t) } }
            if k < tremor.count { axis[k] += tremor[k].reduce(0) { $0 + $1.value(at: t) } }
        }
        let progress = duration > 0 ? min(max(t / duration, 0), 1) : 0
        let ease = (1 - cos(Double.pi * progress)) / 2
        let direction = Double(sweepDirectionDeg) * Double.pi / 180
        // The sweep is centred on the reference pose: -sweep/2 ... +sweep/2.
        let along = Double(sweepM) * (ease - 0.5)
        let position = (axis[0] + along * cos(direction), axis[1], axis[2] + along * sin(direction))
        return CameraPose(
            positionM: [position.0, position.1, position.2],
            aimM: [0, 0, Double(fixationM)], yawPitchRollRad: [axis[3], axis[4], axis[5]])
    }

    enum CodingKeys: String, CodingKey {
        case fixationM = "fixation_m"
        case sweepM = "sweep_m"
        case sweepDirectionDeg = "sweep_direction_deg"
        case drift, tremor
    }
}

/// The camera of one video frame: centre, the point it aims at, and the small turn of
/// the hand away from that aim (yaw about the image's down axis, pitch about its right
/// axis, roll about the optical axis, applied in that order), in the reference camera's
/// coordinates (x right, y down, z forward; metres and radians).
public struct CameraPose: Codable, Sendable, Equatable {
    public var positionM: [Double]
    public var aimM: [Double]
    public var yawPitchRollRad: [Double]

    public init(positionM: [Double], aimM: [Double], yawPitchRollRad: [Double]) {
        self.positionM = positionM
        self.aimM = aimM
        self.yawPitchRollRad = yawPitchRollRad
    }

    /// The view's axes: forward toward the aim, right perpendicular to it and to the
    /// reference down axis (no roll when aiming), then yaw, pitch and roll.
    var axes: CameraAxes {
        let p = Vec3(Float(positionM[0]), Float(positionM[1]), Float(positionM[2]))
        let aim = Vec3(Float(aimM[0]), Float(aimM[1]), Float(aimM[2]))
        var forward = (aim - p).normalized
        var right = Vec3(0, 1, 0).cross(forward).normalized
        var down = forward.cross(right)
        let (yaw, pitch, roll) = (
            Float(yawPitchRollRad[0]), Float(yawPitchRollRad[1]), Float(yawPitchRollRad[2])
        )
        forward = forward.rotated(about: down, by: yaw)
        right = right.rotated(about: down, by: yaw)
        forward = forward.rotated(about: right, by: pitch)
        down = down.rotated(about: right, by: pitch)
        right = right.rotated(about: forward, by: roll)
        down = down.rotated(about: forward, by: roll)
        return CameraAxes(right: right, down: down, forward: forward)
    }

    enum CodingKeys: String, CodingKey {
        case positionM = "position_m"
        case aimM = "aim_m"
        case yawPitchRollRad = "yaw_pitch_roll_rad"
    }
}
