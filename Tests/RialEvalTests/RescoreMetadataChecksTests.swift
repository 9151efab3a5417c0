import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// A rescore applies the metadata checks a run recorded (`metadata_checks`), on both
/// the scanner and the decoder path: a failed check is SUSPICIOUS under the default
/// `level_caps.metadata_fail` (PRD "Evidence Status Values": FAIL is a "Red flag—possible
/// manipulation"), and a changed `metadata` section is refused (the run holds the
/// checks' outcomes, not their inputs).
@Suite(.serialized) struct RescoreMetadataChecksTests {
    @Test func recordedFailedCheckIsAppliedOnBothPaths() throws {
        let original = try #require(RescorerTests.records.first { $0.status == .evaluated })
        #expect(original.metadataChecks?["metadata.device_has_lidar"] != nil)
        var record = original
        record.metadataChecks = [
            "metadata.device_has_lidar": .fail, "metadata.timestamp": .unavailable, "metadata.resolution": .pass,
        ]
        let rescorer = try Rescorer(configuration: .standard)
        let slow = rescorer.rescore(record)
        #expect(slow.aggregate?.level == .suspicious)
        #expect(slow.aggregate?.flags.contains(.metadataCheckFailed) == true)
        #expect(slow.aggregate?.mvpLevel == .suspicious)
        let line = Array(record.jsonLine().utf8)
        let fast = try #require(line.withUnsafeBufferPointer { SampleRecordLine.rescore($0, rescorer: rescorer) })
        #expect(fast.record == slow.slimmed())
        #expect(String(decoding: fast.line, as: UTF8.self) == slow.jsonLine())
    }

    @Test func changedMetadataSectionIsRefused() throws {
        var changed = PipelineConfiguration.standard
        changed.metadata.maxClockSkewSeconds = 60
        #expect(throws: RunError.self) {
            try Rescorer.compatibility(of: changed, with: .standard)
        }
    }
}
