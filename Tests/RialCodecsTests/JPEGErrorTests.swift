import Foundation
import RialMedia
import Testing

@testable import RialCodecs

/// Failures: each one a `MediaError` with the right kind, the source, and libjpeg's text.
/// Expected message texts are libjpeg's message table (jerror.h) as printed by
/// `djpeg` for the same inputs.
@Suite struct JPEGErrorTests {
    static let label = "photos/x.jpg"

    func expectError(
        kind: MediaError.Kind, containing text: String, source: String = label,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected \(kind) error containing \"\(text)\", got success")
        } catch let error as MediaError {
            #expect(error.kind == kind, "\(error)")
            #expect(error.source == source)
            #expect(error.description.hasPrefix("\(source): "), "\(error)")
            #expect(error.detail.contains(text), "\(error)")
        } catch {
            Issue.record("not a MediaError: \(error)")
        }
    }

    @Test func emptyDataIsCorrupt() {
        expectError(kind: .corrupt, containing: "empty input") {
            _ = try JPEGDecoder.decode(Data(), source: Self.label)
        }
        expectError(kind: .corrupt, containing: "empty input") {
            _ = try JPEGDecoder.readInfo(Data(), source: Self.label)
        }
    }

    @Test func pngBytesAreNotAJPEG() throws {
        // djpeg on a PNG: "Not a JPEG file: starts with 0x89 0x50".
        let path = Fixtures.real("promptda/arkit_depth.png")
        expectError(
            kind: .corrupt, containing: "corrupt JPEG: Not a JPEG file: starts with 0x89 0x50",
            source: path
        ) {
            _ = try JPEGDecoder.decode(contentsOf: path)
        }
        expectError(kind: .corrupt, containing: "Not a JPEG file", source: path) {
            _ = try JPEGDecoder.readInfo(contentsOf: path)
        }
    }

    @Test func missingFileAndDirectoryNameThePath() {
        let missing = "/nonexistent/rial/\(UUID().uuidString).jpg"
        expectError(kind: .notFound, containing: "no such file", source: missing) {
            _ = try JPEGDecoder.decode(contentsOf: missing)
        }
        let directory = FileManager.default.temporaryDirectory.path
        expectError(kind: .unreadable, containing: "directory", source: directory) {
            _ = try JPEGDecoder.readInfo(contentsOf: directory)
        }
    }

    @Test func truncatedFileIsCorruptByDefault() throws {
        let data = try MediaFile.read(Fixtures.real("promptda/image.jpg"))
        let half = data.prefix(data.count / 2)
        do {
            _ = try JPEGDecoder.decode(half, source: Self.label)
            Issue.record("truncated file decoded")
        } catch {
            // The exact line the brief asks for, libjpeg's JWRN_JPEG_EOF text.
            #expect(error.description == "photos/x.jpg: corrupt JPEG: Premature end of JPEG file")
            #expect(error.kind == .corrupt)
        }
        // The header is intact, so readInfo still works.
        #expect(try JPEGDecoder.readInfo(half).width == 1920)
        // Losing only the final EOI marker is still truncation.
        expectError(kind: .corrupt, containing: "Premature end of JPEG file") {
            _ = try JPEGDecoder.decode(data.dropLast(2), source: Self.label)
        }
        // Cut inside the header: readInfo fails too.
        expectError(kind: .corrupt, containing: "Premature end of JPEG file") {
            _ = try JPEGDecoder.readInfo(data.prefix(100), source: Self.label)
        }
    }

    @Test func truncatedFileDecodesWhenWarningsAreAccepted() throws {
        let data = try MediaFile.read(Fixtures.real("silentface/image_F1.jpg"))
        let result = try JPEGDecoder.decodeReporting(
            data.prefix(data.count / 2), options: JPEGDecodeOptions(warningPolicy: .acceptAll))
        #expect(result.isTruncated)
        #expect(result.warningCount >= 1)
        #expect(result.firstWarning == "Premature end of JPEG file")
        #expect(result.image.width == 640 && result.image.height == 480)
    }

    @Test func extraneousBytesAreToleratedByDefaultAndRejectedWhenStrict() throws {
        // 64 junk bytes before EOI. djpeg says "Corrupt JPEG data: N extraneous bytes
        // before marker 0xd9" (N < 64: the Huffman decoder has already buffered some).
        let clean = try JPEGEncoder.encode(JPEGTestSupport.gradient(width: 64, height: 48), quality: 75)
        let junk = clean.dropLast(2) + Data(repeating: 0x12, count: 64) + Data([0xFF, 0xD9])
        let result = try JPEGDecoder.decodeReporting(junk)
        #expect(result.warningCount == 1)
        #expect(result.firstWarning?.contains("extraneous bytes before marker 0xd9") == true)
        #expect(result.isTruncated == false)
        expectError(kind: .corrupt, containing: "extraneous bytes before marker 0xd9") {
            _ = try JPEGDecoder.decode(
                junk, options: JPEGDecodeOptions(warningPolicy: .rejectAll),
                source: Self.label)
        }
    }

    @Test func imagesAboveThePixelLimitAreRefusedBeforeDecoding() throws {
        let data = try MediaFile.read(Fixtures.real("promptda/image.jpg"))
        expectError(
            kind: .unsupported,
            containing: "image is 1920x1440 (2.8 megapixels), above the decode limit of 1.0 megapixels"
        ) {
            _ = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(maxPixels: 1_000_000), source: Self.label)
        }
        // The limit is on the stored size, whatever the scale.
        expectError(kind: .unsupported, containing: "megapixels") {
            _ = try JPEGDecoder.decode(
                data, options: JPEGDecodeOptions(scale: .eighth, maxPixels: 1_000_000),
                source: Self.label)
        }
    }

    @Test func forgedHugeDimensionsAreRefusedByTheDefaultLimit() throws {
        // A 64x48 file whose SOF claims 60000x60000 (3600 MP): refused from the header alone.
        let clean = try JPEGEncoder.encode(JPEGTestSupport.gradient(width: 64, height: 48), quality: 75)
        let sof = try #require(JPEGTestSupport.startOfFrameOffset(clean))
        // SOF layout: FF Cn, length(2), precision(1), height(2), width(2).
        let forged = JPEGTestSupport.patch(clean, at: sof + 5, with: [0xEA, 0x60, 0xEA, 0x60])
        #expect(try JPEGDecoder.readInfo(forged).width == 60000)
        expectError(
            kind: .unsupported,
            containing: "60000x60000 (3600.0 megapixels), above the decode limit of 100.0 megapixels"
        ) {
            _ = try JPEGDecoder.decode(forged, source: Self.label)
        }
    }

    @Test func progressiveScanLimitIsEnforced() throws {
        let progressive = try JPEGEncoder.encode(
            JPEGTestSupport.gradient(width: 32, height: 32),
            quality: 80, progressive: true)
        // jpeg_simple_progression writes 10 scans for YCbCr.
        expectError(kind: .unsupported, containing: "more than 3 scans") {
            _ = try JPEGDecoder.decode(progressive, options: JPEGDecodeOptions(maxScans: 3), source: Self.label)
        }
        #expect(try JPEGDecoder.decode(progressive, options: JPEGDecodeOptions(maxScans: 10)).width == 32)
    }

    @Test func unsupportedProcessesAreReportedAsUnsupported() throws {
        let clean = try JPEGEncoder.encode(JPEGTestSupport.gradient(width: 16, height: 16), quality: 75)
        let sof = try #require(JPEGTestSupport.startOfFrameOffset(clean))
        // 12-bit precision: libjpeg's "Unsupported JPEG data precision 12".
        let twelveBit = JPEGTestSupport.patch(clean, at: sof + 4, with: [12])
        expectError(kind: .unsupported, containing: "Unsupported JPEG data precision 12") {
            _ = try JPEGDecoder.readInfo(twelveBit, source: Self.label)
        }
        // SOF3 (lossless): "Unsupported JPEG process: SOF type 0xc3".
        let lossless = JPEGTestSupport.patch(clean, at: sof + 1, with: [0xC3])
        expectError(kind: .unsupported, containing: "Unsupported JPEG process: SOF type 0xc3") {
            _ = try JPEGDecoder.decode(lossless, source: Self.label)
        }
    }

    @Test func badOptionsAreInvalidArguments() throws {
        let data = try JPEGEncoder.encode(JPEGTestSupport.gradient(width: 8, height: 8), quality: 75)
        expectError(kind: .invalidArgument, containing: "maxPixels must be positive") {
            _ = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(maxPixels: 0), source: Self.label)
        }
        expectError(kind: .invalidArgument, containing: "maxScans must be positive") {
            _ = try JPEGDecoder.decode(data, options: JPEGDecodeOptions(maxScans: -1), source: Self.label)
        }
    }

    @Test func optionsDecodeFromPartialJSONWithDefaults() throws {
        let json = try JSONValue.parse(#"{"scale": 4, "output": "gray"}"#)
        let options = try json.decode(JPEGDecodeOptions.self, overlaying: JPEGDecodeOptions())
        #expect(options == JPEGDecodeOptions(scale: .quarter, output: .gray))
        #expect(options.maxPixels == 100_000_000 && options.warningPolicy == .rejectTruncated)
    }
}
