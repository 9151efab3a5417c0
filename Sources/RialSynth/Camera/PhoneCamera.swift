import Foundation
import RialMedia

/// The camera a synthetic dataset is captured with.
///
/// - `standard`: the rial-synth/5 camera (sensor at the output size, the ranges of
///   `ParameterSampler` and `ImageSignalProcessor.sampleParameters`).
/// - `phone`: `PhoneCamera` (phone/1), calibrated on real phone photos with the
///   domain-gap report (`rial-bench dataset gap`; see docs/phone-camera.md).
/// - `phone2`: phone/2, phone/1 recalibrated on what phone/1's own gap report still
///   showed (docs/phone-camera.md, "phone/2").
public enum SynthCameraProfile: String, Codable, Sendable, CaseIterable, Equatable {
    case standard
    case phone
    case phone2

    /// The phone camera version of this profile (nil for the standard camera).
    public var phoneVersion: String? {
        switch self {
        case .standard: nil
        case .phone: PhoneCamera.version
        case .phone2: PhoneCamera.version2
        }
    }

    /// The profile whose phone camera is `version` (`standard` for nil; an unknown
    /// version is the newest phone camera).
    static func profile(ofPhoneVersion version: String?) -> SynthCameraProfile {
        switch version {
        case nil: .standard
        case PhoneCamera.version: .phone
        default: .phone2
        }
    }
}

/// What the phone camera adds to a capture's parameters (`SynthParameters.phone`).
public struct PhoneCameraParameters: Codable, Sendable, Equatable {
    /// Profile version.
    public var profile: String
    /// The sensor has `supersampling` x the output's pixels per side; the developed
    /// frame is area-averaged down to the output size, as a 12 MP phone photo is
    /// downscaled by the app that shares it. 1 = no supersampling.
    public var supersampling: Int
    /// Frames merged by multi-frame noise reduction: the sampled full well is multiplied
    /// by it and the read noise divided by its square root (the noise of a mean of N
    /// aligned frames).
    public var mergedFrames: Int

    public init(profile: String = PhoneCamera.version, supersampling: Int = 2, mergedFrames: Int = 1) {
        self.profile = profile
        self.supersampling = supersampling
        self.mergedFrames = mergedFrames
    }

    enum CodingKeys: String, CodingKey {
        case profile, supersampling
        case mergedFrames = "merged_frames"
    }
}

/// The phone/1 camera: sensor and ISP ranges set from measurements of real phone photos
/// (each range's origin is in docs/phone-camera.md), a sensor with twice the output's
/// resolution whose developed frame is downscaled to the output (phone photo shared at
/// 1600 x 1200: less noise per pixel, finer halos, and display aliasing formed at the
/// sensor's pitch that reaches the output as broad bands after demosaicing, noise
/// reduction and downscaling), and displays whose pixel pitch at that sensor is what a
/// phone at 0.25-1.5 m sees.
public enum PhoneCamera {
    public static let version = "phone/1"
    public static let version2 = "phone/2"

    /// Replaces the camera parameters of `p` with those of the phone camera of `profile`
    /// (`p` unchanged for `standard`).
    static func apply(_ profile: SynthCameraProfile, to p: inout SynthParameters) {
        switch profile {
        case .standard: break
        case .phone: apply(to: &p)
        case .phone2: applyVersion2(to: &p)
        }
    }

    /// Replaces the camera parameters of `p` (drawn by the standard sampler, so the
    /// scene is the same as the standard camera's) with phone/1 draws from
    /// `SynthRandom(seed: p.noiseSeed, stream: 5)`.
    static func apply(to p: inout SynthParameters) {
        var rng = SynthRandom(seed: p.noiseSeed, stream: 5)
        let frames = 1 + Int(rng.next() % 4) // 1-4 merged frames
        let fullWell = exp(rng.uniform(log(1500)...log(10000))) * Float(frames)
        let readNoise = rng.uniform(1.5...5) / Float(frames).squareRoot()
        p.sensor.fullWellE = fullWell
        p.sensor.readNoiseE = readNoise
        // Lens blur and sharpening at the sensor's scale (twice the output's).
        p.sensor.lensBlurSigmaPx = rng.uniform(0.5...0.9)
        p.sensor.sharpenAmount = rng.uniform(0.2...0.8)
        p.sensor.exposureTarget = rng.uniform(0.12...0.2)
        p.sensor.whiteBalanceStrength = rng.uniform(0.85...1)
        p.sensor.demosaic = .malvarHeCutler
        if var isp = p.sensor.isp {
            isp.lumaDenoise = rng.uniform(0.5...0.9)
            isp.lumaDenoiseThreshold = rng.uniform(0.02...0.05)
            isp.chromaDenoiseRadiusPx = rng.uniform(3...8)
            isp.localToneStrength = rng.uniform(0...0.15)
            isp.toneContrast = rng.uniform(1.4...2)
            isp.midtoneOutput = rng.uniform(0.16...0.22)
            isp.highlightPercentile = rng.uniform(0.99...0.999)
            isp.highlightTarget = rng.uniform(0.95...1)
            isp.maxHighlightReductionEv = rng.uniform(0.3...1)
            isp.awbErrorR = rng.uniform(-0.1...0)
            isp.awbErrorB = rng.uniform(-0.02...0.1)
            p.sensor.isp = isp
        }
        p.jpegQuality = 72 + Int(rng.next() % 9) // 72-80
        if var display = p.display, display.panelSizeM.count == 2 {
            // Pixel pitch at the output: what a phone sees of a 0.1-0.3 mm panel at
            // 0.25-1.5 m, 0.5-3 output px (1-6 px at the sensor).
            let pitchPx = exp(rng.uniform(log(0.5)...log(3)))
            let pitchM = pitchPx * p.subject.distanceM / p.focalPx
            display.pixelPitchPx = pitchPx
            display.pixelPitchMm = pitchM * 1000
            display.resolution = [
                max(1, Int((display.panelSizeM[0] / pitchM).rounded())),
                max(1, Int((display.panelSizeM[1] / pitchM).rounded())),
            ]
            p.display = display
        }
        p.phone = PhoneCameraParameters(supersampling: 2, mergedFrames: frames)
    }

    /// phone/2: the scene of the standard draw, camera draws from
    /// `SynthRandom(seed: p.noiseSeed, stream: 7)`. Each range moved from phone/1's on
    /// what phone/1's gap report (`reports/gap/phone-1`) still showed against real-dev;
    /// the reasons are in docs/phone-camera.md ("phone/2").
    static func applyVersion2(to p: inout SynthParameters) {
        var rng = SynthRandom(seed: p.noiseSeed, stream: 7)
        // Flat-block luma noise 0.054 simulated vs 0.10 real (screens 0.058 vs 0.21):
        // fewer merged frames and a smaller full well.
        let frames = 1 + Int(rng.next() % 2) // 1-2 merged frames
        let fullWell = exp(rng.uniform(log(1000)...log(6000))) * Float(frames)
        let readNoise = rng.uniform(2...6) / Float(frames).squareRoot()
        p.sensor.fullWellE = fullWell
        p.sensor.readNoiseE = readNoise
        // Halos 0.036 simulated vs 0.068 real (bona fide): stronger sharpening.
        p.sensor.lensBlurSigmaPx = rng.uniform(0.5...0.9)
        p.sensor.sharpenAmount = rng.uniform(0.6...1.4)
        p.sensor.exposureTarget = rng.uniform(0.12...0.2)
        p.sensor.whiteBalanceStrength = rng.uniform(0.85...1)
        p.sensor.demosaic = .malvarHeCutler
        if var isp = p.sensor.isp {
            isp.lumaDenoise = rng.uniform(0.3...0.7)
            isp.lumaDenoiseThreshold = rng.uniform(0.015...0.04)
            // Chroma noise in flat blocks 0.000 simulated vs 0.003 real: a smaller
            // chroma noise-reduction radius.
            isp.chromaDenoiseRadiusPx = rng.uniform(1...3)
            // Std of Y 35 simulated vs 53 real: a steeper tone curve (the curve's
            // contrast clamp is 3) and no local flattening of the tones.
            isp.localToneStrength = rng.uniform(0...0.08)
            isp.toneContrast = rng.uniform(1.8...2.6)
            isp.midtoneOutput = rng.uniform(0.16...0.22)
            // Real photos clip small highlights (over half clip some pixels); phone/1 never
            // did: meter the highlights lower in the histogram and allow at most 0.5 EV of
            // highlight protection.
            isp.highlightPercentile = rng.uniform(0.97...0.995)
            isp.highlightTarget = 1
            isp.maxHighlightReductionEv = rng.uniform(0...0.5)
            isp.awbErrorR = rng.uniform(-0.1...0)
            isp.awbErrorB = rng.uniform(-0.02...0.1)
            p.sensor.isp = isp
        }
        p.jpegQuality = 72 + Int(rng.next() % 9) // 72-80
        if var display = p.display, display.panelSizeM.count == 2 {
            let pitchPx = exp(rng.uniform(log(0.5)...log(3)))
            let pitchM = pitchPx * p.subject.distanceM / p.focalPx
            display.pixelPitchPx = pitchPx
            display.pixelPitchMm = pitchM * 1000
            display.resolution = [
                max(1, Int((display.panelSizeM[0] / pitchM).rounded())),
                max(1, Int((display.panelSizeM[1] / pitchM).rounded())),
            ]
            p.display = display
        }
        if var print = p.print, print.process == .cmykHalftone {
            // Prints: high-frequency energy -0.48 simulated vs -1.97 real, spectral slope
            // -1.4 vs -3.9: an 85-175 lpi print at 0.25-1.5 m has a period of 0.12-1.5 px at
            // the 1600 px output (focal ~1200 px), finer than phone/1's 2-8; drawn 0.4-1.5
            // (finer cells are far below the sensor pitch and come out as flat tone).
            let periodPx = exp(rng.uniform(log(0.4)...log(1.5)))
            let periodMm = periodPx * p.subject.distanceM / p.focalPx * 1000
            print.periodPx = periodPx
            print.lpi = 25.4 / periodMm
            p.print = print
        }
        p.phone = PhoneCameraParameters(profile: version2, supersampling: 2, mergedFrames: frames)
    }

    /// The parameters at the sensor's resolution: every length in px multiplied by the
    /// supersampling factor s (size, focal length, lens blur, chroma noise-reduction
    /// radius, display pitch, halftone period, lighting cells), the rolling shutter's row
    /// time divided by s (the same readout over s x the rows).
    static func sensorParameters(_ p: SynthParameters) -> SynthParameters {
        guard let phone = p.phone, phone.supersampling > 1 else { return p }
        let s = phone.supersampling, f = Float(s)
        var q = p
        q.width = p.width * s
        q.height = p.height * s
        q.focalPx = p.focalPx * f
        q.sensor.lensBlurSigmaPx *= f
        q.sensor.isp?.chromaDenoiseRadiusPx *= f
        q.display?.pixelPitchPx *= f
        q.display?.flicker?.rowTimeUs /= f
        q.print?.periodPx *= f
        q.lighting.lightingCellPx *= s
        return q
    }

    /// `image` area-averaged by the supersampling factor of `p` (unchanged without one).
    static func output(_ image: Image8, _ p: SynthParameters) -> Image8 {
        guard let phone = p.phone, phone.supersampling > 1,
            let small = try? image.downscaled(by: phone.supersampling),
            small.width == p.width, small.height == p.height
        else { return image }
        return small
    }
}
