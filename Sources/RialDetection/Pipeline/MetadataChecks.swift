import Foundation

/// The metadata checks of the evidence package (specs/methods.md section 8): the
/// capture time agrees with the reference time, the device model has LiDAR, and the
/// resolution is one a phone camera produces. Each check is `pass`, `fail` or
/// `unavailable` (input missing) with the values it compared.
///
/// The device checks judge the device the capture declares (PRD 2.0 puts `device_model`
/// in `hardware_attestation`; FR24 "Backend validates device model is iPhone Pro"): the
/// manifest's `device_model` or `analyze --device-model`. A photo's EXIF Model is written
/// by whatever camera took it and is not a declaration of a rial capture: under the default
/// `device_source: declared` it is shown as evidence in the detail and never fails a check,
/// so a public photo from a Canon or a Pixel, which claims nothing, is `unavailable`, not
/// SUSPICIOUS. `device_source: declared_or_exif` judges the EXIF Model when nothing is
/// declared. The resolution check ("Resolution matches device capability", PRD 1.1/2.0
/// "Metadata Validation") needs a device to match against under the default
/// `resolution_needs_device: true`; `false` checks every capture's size against the
/// phone-camera ranges.
public struct MetadataChecks: Sendable, Equatable, Codable {
    /// `|capture time - reference time| <= max_clock_skew_seconds`.
    public var timestamp: Check
    /// The device model is on the LiDAR list.
    public var deviceHasLidar: Check
    /// Pixel count and aspect ratio are plausible.
    public var resolution: Check
    /// What the user chose not to share (PRD 1.1 "Granular Metadata Controls"), sorted:
    /// noted in the evidence as "User opted out", never a failure. Nil when none.
    public var optedOut: [OptOut]?

    enum CodingKeys: String, CodingKey {
        case timestamp
        case deviceHasLidar = "device_has_lidar"
        case resolution
        case optedOut = "opted_out"
    }

    /// A field the user may withhold (PRD 1.1 "Granular Metadata Controls" table:
    /// Location, Timestamp, Device Info, Depth Map in Privacy Mode).
    public enum OptOut: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        case location
        case timestamp
        case deviceInfo = "device_info"
        case depthMap = "depth_map"

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The detail of a check the user opted out of.
    public static let optedOutDetail = "User opted out"

    /// Each check's status under its evidence name (`metadata.timestamp`,
    /// `metadata.device_has_lidar`, `metadata.resolution`): what aggregation reads.
    public var statuses: [String: EvidenceCheckStatus] {
        [
            "metadata.\(CodingKeys.timestamp.stringValue)": timestamp.status,
            "metadata.\(CodingKeys.deviceHasLidar.stringValue)": deviceHasLidar.status,
            "metadata.\(CodingKeys.resolution.stringValue)": resolution.status,
        ]
    }

    /// One check's outcome and what it saw.
    public struct Check: Sendable, Equatable, Codable {
        public var status: EvidenceCheckStatus
        /// What was compared, e.g. `skew 12 s <= 900 s`, or why it could not run.
        public var detail: String

        public init(_ status: EvidenceCheckStatus, _ detail: String) {
            self.status = status
            self.detail = detail
        }
    }

    /// What the checks compare against.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Largest accepted difference between the capture time (EXIF) and the reference
        /// time (upload or manifest `captured_at`), seconds. 900; finite, >= 0.
        public var maxClockSkewSeconds: Double = 900
        /// Model names with a LiDAR scanner, matched case-insensitively as a prefix of the
        /// device model after trimming (`iPhone 15 Pro` matches `iPhone 15 Pro Max`).
        public var lidarDevices: [String] = [
            "iPhone 12 Pro", "iPhone 13 Pro", "iPhone 14 Pro", "iPhone 15 Pro", "iPhone 16 Pro", "iPhone 17 Pro",
            "iPad Pro (11-inch) (2nd generation)", "iPad Pro (11-inch) (3rd generation)",
            "iPad Pro (11-inch) (4th generation)", "iPad Pro (12.9-inch) (4th generation)",
            "iPad Pro (12.9-inch) (5th generation)", "iPad Pro (12.9-inch) (6th generation)",
            "iPad Pro 11-inch (M4)", "iPad Pro 13-inch (M4)", "iPad Pro 11-inch (M5)", "iPad Pro 13-inch (M5)",
        ]
        /// Fewest megapixels a camera capture has. 0.3 (VGA-class thumbnails fail); > 0.
        public var minMegapixels: Double = 0.3
        /// Most megapixels. 50; > min.
        public var maxMegapixels: Double = 50
        /// Accepted long:short side ratios. 4:3, 16:9, 3:2, 1:1.
        public var aspectRatios: [Double] = [4.0 / 3.0, 16.0 / 9.0, 3.0 / 2.0, 1.0]
        /// Relative tolerance on the aspect ratio. 0.02; in 0...0.5.
        public var aspectTolerance: Double = 0.02
        /// Which device model the device checks judge: `declared` (manifest `device_model`,
        /// `--device-model`; the default: a rial capture declares its device in its
        /// attestation) or `declared_or_exif` (the EXIF Model when nothing is declared).
        public var deviceSource: DeviceSource = .declared
        /// The resolution check runs only when there is a device to match (PRD "Resolution
        /// matches device capability"). true; false checks every capture's size.
        public var resolutionNeedsDevice: Bool = true

        enum CodingKeys: String, CodingKey {
            case maxClockSkewSeconds = "max_clock_skew_seconds"
            case lidarDevices = "lidar_devices"
            case minMegapixels = "min_megapixels"
            case maxMegapixels = "max_megapixels"
            case aspectRatios = "aspect_ratios"
            case aspectTolerance = "aspect_tolerance"
            case deviceSource = "device_source"
            case resolutionNeedsDevice = "resolution_needs_device"
        }

        public init() {}

        /// Configurations written before `device_source` and `resolution_needs_device`
        /// existed (baselines, run folders) decode with their defaults.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            maxClockSkewSeconds = try c.decode(Double.self, forKey: .maxClockSkewSeconds)
            lidarDevices = try c.decode([String].self, forKey: .lidarDevices)
            minMegapixels = try c.decode(Double.self, forKey: .minMegapixels)
            maxMegapixels = try c.decode(Double.self, forKey: .maxMegapixels)
            aspectRatios = try c.decode([Double].self, forKey: .aspectRatios)
            aspectTolerance = try c.decode(Double.self, forKey: .aspectTolerance)
            deviceSource = try c.decodeIfPresent(DeviceSource.self, forKey: .deviceSource) ?? .declared
            resolutionNeedsDevice = try c.decodeIfPresent(Bool.self, forKey: .resolutionNeedsDevice) ?? true
        }

        func validate() throws(ConfigurationError) {
            guard maxClockSkewSeconds.isFinite, maxClockSkewSeconds >= 0 else {
                throw ConfigurationError(
                    key: CodingKeys.maxClockSkewSeconds, "must be finite and >= 0, got \(maxClockSkewSeconds)")
            }
            guard minMegapixels.isFinite, minMegapixels > 0 else {
                throw ConfigurationError(key: CodingKeys.minMegapixels, "must be finite and > 0, got \(minMegapixels)")
            }
            guard maxMegapixels.isFinite, maxMegapixels > minMegapixels else {
                throw ConfigurationError(
                    key: CodingKeys.maxMegapixels,
                    "must be finite and > min_megapixels (\(minMegapixels)), got \(maxMegapixels)")
            }
            for (index, ratio) in aspectRatios.enumerated() where !(ratio.isFinite && ratio >= 1) {
                throw ConfigurationError(
                    key: "\(CodingKeys.aspectRatios.stringValue)[\(index)]",
                    "must be a long:short ratio >= 1, got \(ratio)")
            }
            guard aspectTolerance.isFinite, (0...0.5).contains(aspectTolerance) else {
                throw ConfigurationError(key: CodingKeys.aspectTolerance, "must be in 0...0.5, got \(aspectTolerance)")
            }
        }
    }

    /// What the checks look at; every field may be missing.
    public struct Input: Sendable, Equatable {
        /// When the camera says it took the picture (EXIF DateTimeOriginal with its offset).
        public var captureTime: Date?
        /// The time to compare with (upload time, manifest `captured_at`).
        public var referenceTime: Date?
        /// The declared device, e.g. `iPhone 15 Pro` (manifest `device_model`,
        /// `--device-model`).
        public var deviceModel: String?
        /// The photo's EXIF Model: evidence, judged only under `device_source:
        /// declared_or_exif`.
        public var exifModel: String?
        /// Stored image size in pixels.
        public var width: Int
        public var height: Int
        /// What the user withheld: a withheld timestamp or device info makes its check
        /// `unavailable` ("User opted out") whatever the other fields say.
        public var optedOut: Set<OptOut>

        public init(
            captureTime: Date? = nil, referenceTime: Date? = nil, deviceModel: String? = nil,
            exifModel: String? = nil, width: Int, height: Int, optedOut: Set<OptOut> = []
        ) {
            self.captureTime = captureTime
            self.referenceTime = referenceTime
            self.deviceModel = deviceModel
            self.exifModel = exifModel
            self.width = width
            self.height = height
            self.optedOut = optedOut
        }
    }

    /// Runs the three checks.
    public init(_ input: Input, configuration c: Configuration) {
        optedOut = input.optedOut.isEmpty ? nil : input.optedOut.sorted()
        if input.optedOut.contains(.timestamp) {
            timestamp = Check(.unavailable, Self.optedOutDetail)
        } else if let capture = input.captureTime, let reference = input.referenceTime {
            let skew = abs(capture.timeIntervalSince(reference))
            timestamp = Check(
                skew <= c.maxClockSkewSeconds ? .pass : .fail,
                "capture time differs from the reference time by \(Self.format(skew)) s (limit \(Self.format(c.maxClockSkewSeconds)) s)"
            )
        } else {
            timestamp = Check(
                .unavailable,
                input.captureTime == nil
                    ? "no capture time (EXIF DateTimeOriginal)"
                    : "no reference time to compare with")
        }
        let device = Self.device(input, source: c.deviceSource)
        if input.optedOut.contains(.deviceInfo) {
            deviceHasLidar = Check(.unavailable, Self.optedOutDetail)
        } else if let (model, origin) = device {
            let lower = model.lowercased()
            let match = c.lidarDevices.first { lower.hasPrefix($0.lowercased()) }
            deviceHasLidar =
                match.map { Check(.pass, "\(origin) '\(model)' matches '\($0)'\(device.exifNote(input))") }
                ?? Check(.fail, "\(origin) '\(model)' is not on the LiDAR device list\(device.exifNote(input))")
        } else {
            deviceHasLidar = Check(.unavailable, "no declared device model\(Self.undeclaredNote(input))")
        }
        let long = Double(max(input.width, input.height)), short = Double(min(input.width, input.height))
        let megapixels = Double(input.width) * Double(input.height) / 1e6
        if short <= 0 {
            resolution = Check(.unavailable, "no image size")
        } else if c.resolutionNeedsDevice && (device == nil || input.optedOut.contains(.deviceInfo)) {
            resolution = Check(
                .unavailable,
                "\(input.width)x\(input.height): no declared device whose capability to match (resolution_needs_device)"
            )
        } else {
            let ratio = long / short
            let ratioOK = c.aspectRatios.contains { abs(ratio / $0 - 1) <= c.aspectTolerance }
            let sizeOK = megapixels >= c.minMegapixels && megapixels <= c.maxMegapixels
            resolution = Check(
                ratioOK && sizeOK ? .pass : .fail,
                "\(input.width)x\(input.height) = \(Self.format(megapixels)) MP (allowed \(Self.format(c.minMegapixels))-\(Self.format(c.maxMegapixels))), "
                    + "aspect \(Self.format(ratio)) (\(ratioOK ? "allowed" : "not in \(c.aspectRatios.map(Self.format))"))"
            )
        }
    }

    /// Which device model the device checks judge, and where it came from.
    static func device(_ input: Input, source: DeviceSource) -> (model: String, origin: String)? {
        if let declared = nonEmpty(input.deviceModel) { return (declared, "declared device") }
        if source == .declaredOrEXIF, let exif = nonEmpty(input.exifModel) { return (exif, "EXIF Model") }
        return nil
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// The EXIF Model beside an undeclared device: evidence, not judged.
    static func undeclaredNote(_ input: Input) -> String {
        nonEmpty(input.exifModel).map { "; EXIF Model '\($0)' is not a declaration (device_source: declared)" } ?? ""
    }

    static func format(_ value: Double) -> String {
        String(format: "%.3g", value)
    }
}

extension MetadataChecks {
    /// Which device model the device checks judge (`metadata.device_source`).
    public enum DeviceSource: String, Sendable, Equatable, Codable, CaseIterable {
        /// The manifest's `device_model` or `--device-model` only.
        case declared
        /// The declared device, else the photo's EXIF Model.
        case declaredOrEXIF = "declared_or_exif"
    }
}

extension Optional where Wrapped == (model: String, origin: String) {
    /// A declared device judged beside a different EXIF Model: the EXIF Model is noted.
    fileprivate func exifNote(_ input: MetadataChecks.Input) -> String {
        guard let self, self.origin != "EXIF Model", let exif = MetadataChecks.nonEmpty(input.exifModel),
            exif.lowercased() != self.model.lowercased()
        else { return "" }
        return "; EXIF Model '\(exif)' differs"
    }
}
