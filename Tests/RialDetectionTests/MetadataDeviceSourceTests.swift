import Foundation
import Testing

@testable import RialDetection

/// Which device the metadata checks judge (`metadata.device_source`,
/// `metadata.resolution_needs_device`).
///
/// Sources (../shared/product):
/// - PRD 2.0 evidence JSON: `device_model` sits in `hardware_attestation` (the device the
///   capture's attestation declares).
/// - PRD 1.1 / 2.0 "Metadata Validation": "Device model matches iPhone Pro (has LiDAR)",
///   "Resolution matches device capability"; FR24 "Backend validates device model is
///   iPhone Pro (has LiDAR)".
/// - PRD "Evidence Status Values": UNAVAILABLE "Reduces confidence ceiling, not
///   suspicious".
@Suite struct MetadataDeviceSourceTests {
    let standard = MetadataChecks.Configuration()

    /// A public photo that declares nothing: its EXIF Model (a phone without LiDAR) is
    /// evidence only under the default, so neither device check fails.
    @Test func exifModelAloneIsEvidenceNotADeclaration() {
        let checks = MetadataChecks(
            .init(exifModel: "Pixel 3", width: 600, height: 450), configuration: standard)
        #expect(checks.deviceHasLidar.status == .unavailable)
        #expect(checks.deviceHasLidar.detail.contains("EXIF Model 'Pixel 3' is not a declaration"))
        // 0.27 MP would fail the size range, but there is no device capability to match.
        #expect(checks.resolution.status == .unavailable)
        #expect(!checks.statuses.values.contains(.fail))
    }

    /// `declared_or_exif`: the EXIF Model is judged when nothing is declared.
    @Test func declaredOrEXIFJudgesTheEXIFModel() {
        var c = standard
        c.deviceSource = .declaredOrEXIF
        let pixel = MetadataChecks(.init(exifModel: "Pixel 3", width: 4032, height: 3024), configuration: c)
        #expect(pixel.deviceHasLidar.status == .fail)
        #expect(pixel.deviceHasLidar.detail.hasPrefix("EXIF Model 'Pixel 3'"))
        #expect(pixel.resolution.status == .pass) // 12.2 MP, 4:3
        let pro = MetadataChecks(.init(exifModel: "iPhone 13 Pro", width: 4032, height: 3024), configuration: c)
        #expect(pro.deviceHasLidar.status == .pass)
    }

    /// A declared device wins over the EXIF Model under either source; a different EXIF
    /// Model is noted beside it.
    @Test func declaredDeviceIsJudgedAndADifferentEXIFModelNoted() {
        for source in MetadataChecks.DeviceSource.allCases {
            var c = standard
            c.deviceSource = source
            let checks = MetadataChecks(
                .init(deviceModel: "iPhone 15 Pro", exifModel: "Pixel 3", width: 4032, height: 3024),
                configuration: c)
            #expect(checks.deviceHasLidar.status == .pass)
            #expect(checks.deviceHasLidar.detail.contains("EXIF Model 'Pixel 3' differs"))
            let failing = MetadataChecks(.init(deviceModel: "Pixel 3", width: 4032, height: 3024), configuration: c)
            #expect(failing.deviceHasLidar.status == .fail)
            #expect(!failing.deviceHasLidar.detail.contains("differs"))
        }
    }

    /// `resolution_needs_device: false` checks every capture's size against the phone
    /// ranges (0.3-50 MP, 4:3 / 16:9 / 3:2 / 1:1): 600 x 450 is 0.27 MP, below 0.3.
    @Test func resolutionWithoutADeviceWhenConfigured() {
        var c = standard
        c.resolutionNeedsDevice = false
        #expect(MetadataChecks(.init(width: 600, height: 450), configuration: c).resolution.status == .fail)
        #expect(MetadataChecks(.init(width: 4032, height: 3024), configuration: c).resolution.status == .pass)
    }

    /// Configurations written before the two keys existed decode with the defaults.
    @Test func olderMetadataSectionsDecodeWithTheDefaults() throws {
        let json = Data(
            #"{"max_clock_skew_seconds":900,"lidar_devices":["iPhone 15 Pro"],"min_megapixels":0.3,"max_megapixels":50,"aspect_ratios":[1.3333333333333333],"aspect_tolerance":0.02}"#
                .utf8)
        let decoded = try JSONDecoder().decode(MetadataChecks.Configuration.self, from: json)
        #expect(decoded.deviceSource == .declared)
        #expect(decoded.resolutionNeedsDevice)
        var changed = standard
        changed.deviceSource = .declaredOrEXIF
        changed.resolutionNeedsDevice = false
        let roundTrip = try JSONDecoder().decode(
            MetadataChecks.Configuration.self, from: JSONEncoder().encode(changed))
        #expect(roundTrip == changed)
    }
}
