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

    /// The ranges one phone camera version draws from (`PhoneCamera.draw`); each range's
    /// origin is in docs/phone-camera.md.
    struct Ranges {
        var stream: UInt64
        /// Merged frames are 1...maxFrames.
        var maxFrames: UInt64
        var fullWellE: ClosedRange<Float>
        var readNoiseE: ClosedRange<Float>
        var sharpenAmount: ClosedRange<Float>
        var lumaDenoise: ClosedRange<Float>
        var lumaDenoiseThreshold: ClosedRange<Float>
        var chromaDenoiseRadiusPx: ClosedRange<Float>
        var localToneStrength: ClosedRange<Float>
        var toneContrast: ClosedRange<Float>
        var highlightPercentile: ClosedRange<Float>
        /// nil: the highlight target is 1 (no draw).
        var highlightTarget: ClosedRange<Float>?
        var maxHighlightReductionEv: ClosedRange<Float>
        /// nil: the standard sampler's halftone period is kept (no draw).
        var printPeriodPx: ClosedRange<Float>?
    }

    /// phone/1's ranges, set from the standard camera's gap report (`reports/gap/rial-synth-5`).
    static let version1Ranges = Ranges(
        stream: 5, maxFrames: 4, fullWellE: 1500...10000, readNoiseE: 1.5...5, sharpenAmount: 0.2...0.8,
        lumaDenoise: 0.5...0.9, lumaDenoiseThreshold: 0.02...0.05, chromaDenoiseRadiusPx: 3...8,
        localToneStrength: 0...0.15, toneContrast: 1.4...2, highlightPercentile: 0.99...0.999,
        highlightTarget: 0.95...1, maxHighlightReductionEv: 0.3...1, printPeriodPx: nil)

    /// phone/2's ranges, moved from phone/1's on what phone/1's own gap report
    /// (`reports/gap/phone-1`) still showed against real-dev:
    /// - flat-block luma noise 0.054 simulated vs 0.10 real (screens 0.058 vs 0.21): 1-2
    ///   merged frames, a smaller full well, more read noise, weaker luma denoising;
    /// - chroma noise in flat blocks 0.000 vs 0.003: a chroma noise-reduction radius of 1-3 px;
    /// - std of Y 35 vs 53: a steeper tone curve (its contrast clamp is 3) and almost no
    ///   local flattening of the tones;
    /// - real photos clip small highlights, phone/1 never did: highlights metered lower, a
    ///   target of 1 and at most 0.5 EV of protection;
    /// - halos 0.036 vs 0.068: stronger sharpening;
    /// - prints: high-frequency energy -0.48 vs -1.97, spectral slope -1.4 vs -3.9: an
    ///   85-175 lpi print at 0.25-1.5 m has 0.12-1.5 px per cell at the 1600 px output
    ///   (focal ~1200 px), finer than the standard sampler's 2-8; drawn 0.4-1.5 (finer cells
    ///   are far below the sensor pitch and come out as flat tone).
    static let version2Ranges = Ranges(
        stream: 7, maxFrames: 2, fullWellE: 1000...6000, readNoiseE: 2...6, sharpenAmount: 0.6...1.4,
        lumaDenoise: 0.3...0.7, lumaDenoiseThreshold: 0.015...0.04, chromaDenoiseRadiusPx: 1...3,
        localToneStrength: 0...0.08, toneContrast: 1.8...2.6, highlightPercentile: 0.97...0.995,
        highlightTarget: nil, maxHighlightReductionEv: 0...0.5, printPeriodPx: 0.4...1.5)

    /// phone/1 (`version1Ranges`).
    static func apply(to p: inout SynthParameters) { draw(version1Ranges, profile: version, to: &p) }

    /// phone/2 (`version2Ranges`).
    static func applyVersion2(to p: inout SynthParameters) { draw(version2Ranges, profile: version2, to: &p) }

    /// Replaces the camera parameters of `p` (drawn by the standard sampler, so the scene
    /// is the same as the standard camera's) with draws from `r` on
    /// `SynthRandom(seed: p.noiseSeed, stream: r.stream)`, in a fixed order (a version's
    /// captures depend on it).
    static func draw(_ r: Ranges, profile: String, to p: inout SynthParameters) {
        var rng = SynthRandom(seed: p.noiseSeed, stream: r.stream)
        let frames = 1 + Int(rng.next() % r.maxFrames)
        let fullWell = exp(rng.uniform(log(r.fullWellE.lowerBound)...log(r.fullWellE.upperBound))) * Float(frames)
        let readNoise = rng.uniform(r.readNoiseE) / Float(frames).squareRoot()
        p.sensor.fullWellE = fullWell
        p.sensor.readNoiseE = readNoise
        // Lens blur and sharpening at the sensor's scale (twice the output's).
        p.sensor.lensBlurSigmaPx = rng.uniform(0.5...0.9)
        p.sensor.sharpenAmount = rng.uniform(r.sharpenAmount)
        p.sensor.exposureTarget = rng.uniform(0.12...0.2)
        p.sensor.whiteBalanceStrength = rng.uniform(0.85...1)
        p.sensor.demosaic = .malvarHeCutler
        if var isp = p.sensor.isp {
            isp.lumaDenoise = rng.uniform(r.lumaDenoise)
            isp.lumaDenoiseThreshold = rng.uniform(r.lumaDenoiseThreshold)
            isp.chromaDenoiseRadiusPx = rng.uniform(r.chromaDenoiseRadiusPx)
            isp.localToneStrength = rng.uniform(r.localToneStrength)
            isp.toneContrast = rng.uniform(r.toneContrast)
            isp.midtoneOutput = rng.uniform(0.16...0.22)
            isp.highlightPercentile = rng.uniform(r.highlightPercentile)
            isp.highlightTarget = r.highlightTarget.map { rng.uniform($0) } ?? 1
            isp.maxHighlightReductionEv = rng.uniform(r.maxHighlightReductionEv)
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
        if let range = r.printPeriodPx, var print = p.print, print.process == .cmykHalftone {
            let periodPx = exp(rng.uniform(log(range.lowerBound)...log(range.upperBound)))
            let periodMm = periodPx * p.subject.distanceM / p.focalPx * 1000
            print.periodPx = periodPx
            print.lpi = 25.4 / periodMm
            p.print = print
        }
        p.phone = PhoneCameraParameters(profile: profile, supersampling: 2, mergedFrames: frames)
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
