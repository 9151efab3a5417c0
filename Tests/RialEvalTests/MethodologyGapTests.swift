import Foundation
import RialTestSupport
import Testing

@testable import RialEval

/// `methodology --gap DIR`: a `dataset gap` report read back from its `gap.json` and shown
/// as the methodology's "The simulator against real photos" section; bad folders give one
/// error naming the file.
@Suite struct MethodologyGapTests {
    /// A gap.json written by hand: one section (`bona_fide`) with a classifier AUC of 0.8125
    /// [0.75, 0.875] on 40 real and 10 simulated photos in 12 groups, and three statistics
    /// whose Cliff's deltas are +0.6, -0.3 and +0.1, plus a JPEG statistic with delta -0.9
    /// that the section must leave out (it describes the file, not the pixels).
    static let json = """
        {"analysis_short_side": 1000, "failures": [], "format": "rial-bench-gap/1",
         "reference": {"failed": 0, "manifest": "real/manifest.json", "measured": {"bona_fide": 40}, "name": "real-set"},
         "compared": {"failed": 0, "manifest": "sim/manifest.json", "measured": {"bona_fide": 10}, "name": "sim-set"},
         "sections": [{"name": "bona_fide",
           "classifier": {"auc": 0.8125, "coefficients": [1, -1, 0.5], "compared_count": 10,
             "features": ["noise_luma", "luma_contrast", "saturation"], "folds": 5, "group_count": 12,
             "interval": {"level": 0.95, "lower": 0.75, "upper": 0.875, "method": "cluster_bootstrap_percentile",
               "resamples": 100, "seed": 42, "undefined_resamples": 0},
             "reference_count": 40},
           "comparisons": [
             {"statistic": "noise_luma", "summary": "s", "cliffs_delta": 0.6,
              "reference": {"n": 40, "median": 1, "q1": 0, "q3": 2}, "compared": {"n": 10, "median": 1, "q1": 0, "q3": 2}},
             {"statistic": "luma_contrast", "summary": "s", "cliffs_delta": -0.3,
              "reference": {"n": 40, "median": 1, "q1": 0, "q3": 2}, "compared": {"n": 10, "median": 1, "q1": 0, "q3": 2}},
             {"statistic": "saturation", "summary": "s", "cliffs_delta": 0.1,
              "reference": {"n": 40, "median": 1, "q1": 0, "q3": 2}, "compared": {"n": 10, "median": 1, "q1": 0, "q3": 2}},
             {"statistic": "jpeg_luma_quality", "summary": "s", "cliffs_delta": -0.9,
              "reference": {"n": 40, "median": 1, "q1": 0, "q3": 2}, "compared": {"n": 10, "median": 1, "q1": 0, "q3": 2}}
           ]}]}
        """

    static func folder(_ contents: String?) throws -> String {
        let folder = try Fixtures.makeTemporaryFolder("rial-gap")
        if let contents { try Data(contents.utf8).write(to: folder.appendingPathComponent("gap.json")) }
        return folder.path
    }

    @Test func sectionShowsTheFigureAndTheLargestPixelDifferences() throws {
        let folder = try Self.folder(Self.json)
        let report = try DomainGapReport.read(folder: folder)
        let text = MethodologyReport.gapSection([.init(folder: "reports/gap/x", report: report)])
            .joined(separator: "\n")
        #expect(text.contains("## The simulator against real photos"))
        #expect(text.contains("| section | real n | `reports/gap/x` (sim-set) |"))
        // 0.8125 and its interval at three decimals; the real count from the classifier.
        #expect(text.contains("| bona fide | 40 | 0.812 [0.750, 0.875] (n = 10, 12 groups) |"))
        // Sections the report does not have are dashes, not zeros.
        #expect(text.contains("| screen | — | — |"))
        // Largest |delta| first, JPEG statistics left out.
        #expect(text.contains("bona fide: `noise_luma` +0.60, `luma_contrast` -0.30, `saturation` +0.10"))
        #expect(!text.contains("jpeg_luma_quality"))
    }

    /// The error `DomainGapReport.read` gives for `folder`, nil when it reads.
    static func message(_ folder: String) -> String? {
        do {
            _ = try DomainGapReport.read(folder: folder)
            return nil
        } catch { return error.description }
    }

    @Test func badFoldersAreNamed() throws {
        let missing = try Self.folder(nil)
        #expect(Self.message(missing)?.contains("\(missing)/gap.json: no such file") == true)
        let garbage = try Self.folder("{\"format\": 3}")
        #expect(Self.message(garbage)?.contains("\(garbage)/gap.json: not a domain-gap report") == true)
        let other = try Self.folder(Self.json.replacingOccurrences(of: "rial-bench-gap/1", with: "rial-bench-gap/9"))
        #expect(
            Self.message(other)?.contains("format 'rial-bench-gap/9', this rial-bench reads 'rial-bench-gap/1'") == true
        )
        #expect(Self.message(try Self.folder(Self.json)) == nil)
    }
}
