import Foundation

/// The metadata checks of the evidence package (specs/methods.md section 8): the
/// capture time agrees with the reference time, the device model has LiDAR, and the
/// resolution is one a phone camera produces. Each check is `pass`, `fail` or
/// `unavailable` (input missing) with the values it compared.
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

        enum CodingKeys: String, CodingKey {
            case maxClockSkewSeconds = "max_clock_skew_seconds"
            case lidarDevices = "lidar_devices"
            case minMegapixels = "min_megapixels"
            case maxMegapixels = "max_megapixels"
            case aspectRatios = "aspect_ratios"
            case aspectTolerance = "aspect_tolerance"
        }

        public init() {}

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
        /// e.g. `iPhone 15 Pro` (manifest `device_model`, else EXIF Model).
        public var deviceModel: String?
        /// Stored image size in pixels.
        public var width: Int
        public var height: Int
        /// What the user withheld: a withheld timestamp or device info makes its check
        /// `unavailable` ("User opted out") whatever the other fields say.
        public var optedOut: Set<OptOut>

        public init(
            captureTime: Date? = nil, referenceTime: Date? = nil, deviceModel: String? = nil,
            width: Int, height: Int, optedOut: Set<OptOut> = []
        ) {
            self.captureTime = captureTime
            self.referenceTime = referenceTime
            self.deviceModel = deviceModel
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
        if input.optedOut.contains(.deviceInfo) {
            deviceHasLidar = Check(.unavailable, Self.optedOutDetail)
        } else if let model = input.deviceModel?.trimmingCharacters(in: .whitespaces), !model.isEmpty {
            let lower = model.lowercased()
            let match = c.lidarDevices.first { lower.hasPrefix($0.lowercased()) }
            deviceHasLidar =
                match.map { Check(.pass, "'\(model)' matches '\($0)'") }
                ?? Check(.fail, "'\(model)' is not on the LiDAR device list")
        } else {
            deviceHasLidar = Check(.unavailable, "no device model")
        }
        let long = Double(max(input.width, input.height)), short = Double(min(input.width, input.height))
        let megapixels = Double(input.width) * Double(input.height) / 1e6
        if short <= 0 {
            resolution = Check(.unavailable, "no image size")
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

    static func format(_ value: Double) -> String {
        String(format: "%.3g", value)
    }
}
