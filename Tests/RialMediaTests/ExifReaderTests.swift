import Foundation
import Testing

@testable import RialMedia

/// Expected EXIF fields of a mirror file.
struct ExifGolden: Sendable, CustomTestStringConvertible {
    var path: String
    var make: String?
    var model: String?
    var dateTimeOriginal: String?
    var offsetTimeOriginal: String?
    var orientation: Int?
    var pixelX: Int?
    var pixelY: Int?
    var latitude: Double?
    var longitude: Double?
    var lensModel: String?
    var software: String?
    var dateTime: String?

    var testDescription: String { path }
}

/// Golden values read with ExifTool 12.57, independent of this code:
///   exiftool -n -j -Make -Model -DateTimeOriginal -OffsetTimeOriginal -Orientation \
///     -ExifImageWidth -ExifImageHeight -GPSLatitude -GPSLongitude -LensModel \
///     -Software -ModifyDate FILE
/// (ExifImageWidth/Height are tags 0xA002/0xA003, ModifyDate is 0x0132; the composite
/// GPSLatitude/GPSLongitude are signed decimal degrees). `exiftool -a -G1 -s` confirmed
/// which IFD each tag is in; Pillow 13 `Image.getexif()` gives the same values.
/// Apple's Software is the string "8.0" (`-j -n` prints it as a number).
let exifGoldens: [ExifGolden] = [
    ExifGolden(
        path: "metadata-extractor/Apple_iPhone_6.jpg", make: "Apple", model: "iPhone 6",
        dateTimeOriginal: "2014:09:16 14:05:12", orientation: 1,
        pixelX: 3264, pixelY: 2448,
        latitude: 51.7624083333333, longitude: -0.317891666666667,
        lensModel: "iPhone 6 back camera 4.15mm f/2.2", software: "8.0",
        dateTime: "2014:09:16 14:05:12"),
    ExifGolden(
        path: "metadata-extractor/Samsung_SM-G935L_Galaxy_S7_Edge.jpg", make: "samsung",
        model: "SM-G935L", dateTimeOriginal: "2017:02:09 19:51:38", orientation: 1,
        pixelX: 4032, pixelY: 3024, latitude: 48.8925, longitude: 2.23638888888889,
        software: "G935LKLU1APL1", dateTime: "2017:02:09 19:51:38"),
    ExifGolden(
        path: "exifpy/DSCN0010.jpg", make: "NIKON", model: "COOLPIX P6000",
        dateTimeOriginal: "2008:10:22 16:28:39", orientation: 1, pixelX: 640, pixelY: 480,
        latitude: 43.4674483333333, longitude: 11.8851266666639,
        software: "Nikon Transfer 1.1 W", dateTime: "2008:11:01 21:15:07"),
    // PixelX/YDimension written as SLONG (exiftool -v3: int32s[1]).
    ExifGolden(
        path: "silentface/image_T1.jpg", orientation: 6, pixelX: 480, pixelY: 640,
        software: "Shotwell 0.22.0"),
    ExifGolden(
        path: "exifpy/Xiaomi_Mi_9T_KeyError.jpg", make: "Xiaomi", model: "Mi 9T",
        dateTimeOriginal: "2022:07:16 16:27:30", orientation: 6, pixelX: 4000, pixelY: 3000,
        dateTime: "2022:07:16 16:27:30"),
    // GPS written as SRATIONAL (exiftool -v3: rational64s[3]); no PixelX/YDimension.
    ExifGolden(
        path: "exifpy/HMD_Nokia_8.3_5G.jpg", make: "HMD Global", model: "Nokia 8.3 5G",
        dateTimeOriginal: "2022:08:14 14:12:31", offsetTimeOriginal: "+03:00",
        orientation: 1, latitude: 60.1467055555556, longitude: 24.9067722222222,
        software: "00WW_3_380_SP02"),
]

@Suite("EXIF reader")
struct ExifReaderTests {
    @Test(arguments: exifGoldens)
    func mirrorFileMatchesExifTool(_ golden: ExifGolden) throws {
        let meta = try #require(try ExifReader.read(fileAt: Fixtures.real(golden.path)))
        #expect(meta.make == golden.make)
        #expect(meta.model == golden.model)
        #expect(meta.dateTimeOriginal == golden.dateTimeOriginal)
        #expect(meta.offsetTimeOriginal == golden.offsetTimeOriginal)
        #expect(meta.orientation?.rawValue == golden.orientation)
        #expect(meta.pixelXDimension == golden.pixelX)
        #expect(meta.pixelYDimension == golden.pixelY)
        #expect(meta.lensModel == golden.lensModel)
        #expect(meta.software == golden.software)
        #expect(meta.dateTime == golden.dateTime)
        #expect((meta.gpsLatitude == nil) == (golden.latitude == nil))
        #expect((meta.gpsLongitude == nil) == (golden.longitude == nil))
        if let lat = meta.gpsLatitude, let expected = golden.latitude {
            #expect(abs(lat - expected) < 1e-6)
        }
        if let lon = meta.gpsLongitude, let expected = golden.longitude {
            #expect(abs(lon - expected) < 1e-6)
        }
        #expect(meta.warnings.isEmpty, "\(meta.warnings)")
    }

    @Test func strippedJPEGHasNoExif() throws {
        // promptda/image.jpg: `exiftool -a -G1 FILE` lists no EXIF group (SOURCES.csv:
        // "EXIF stripped"); its only APPn-like segment is a COM "Lavc58".
        #expect(try ExifReader.read(fileAt: Fixtures.real("promptda/image.jpg")) == nil)
    }

    @Test func missingFileNamesPath() {
        let path = "/nonexistent/dir/photo.jpg"
        #expect(throws: MediaError(.notFound, source: path, "no such file")) {
            try ExifReader.read(fileAt: path)
        }
    }

    // MARK: Hand-built TIFF blocks

    /// A block with every field, in either byte order. Make and Orientation are inline
    /// (<= 4 bytes), Model and the rationals are stored at offsets.
    static func fullBlock(_ order: ExifTestTIFF.Order) -> ExifTestTIFF {
        ExifTestTIFF(
            order: order,
            ifds: [
                [
                    .init(0x010F, .ascii("Abc")), // 4 bytes with NUL: inline
                    .init(0x0110, .ascii("Model X 1000")), // 13 bytes: at an offset
                    .init(0x0112, .shorts([8])),
                    .init(0x0131, .ascii("fw 1.0  ")), // trailing spaces trimmed
                    .init(0x0132, .ascii("2024:01:02 03:04:05")),
                    .init(0x8769, .pointer(1)),
                    .init(0x8825, .pointer(2)),
                ],
                [
                    .init(0x9003, .ascii("2023:12:31 23:59:58")),
                    .init(0x9011, .ascii("-05:00")),
                    .init(0xA002, .shorts([640])),
                    .init(0xA003, .longs([480])),
                    .init(0xA434, .bytes(Array("Lens 50mm".utf8) + [0, 0, 0x20])),
                ],
                [
                    .init(0x0001, .ascii("S")),
                    .init(0x0002, .rationals([(33, 1), (52, 1), (1_234, 100)])),
                    .init(0x0003, .ascii("W")),
                    .init(0x0004, .rationals([(151, 1), (12, 1), (3, 4)])),
                ],
            ])
    }

    @Test(arguments: [ExifTestTIFF.Order.little, .big])
    func handBuiltBlockBothByteOrders(_ order: ExifTestTIFF.Order) throws {
        let block = Self.fullBlock(order)
        let meta = try #require(try ExifReader.read(jpeg: block.jpeg))
        #expect(meta.make == "Abc")
        #expect(meta.model == "Model X 1000")
        #expect(meta.orientation == .left)
        #expect(meta.software == "fw 1.0")
        #expect(meta.dateTime == "2024:01:02 03:04:05")
        #expect(meta.dateTimeOriginal == "2023:12:31 23:59:58")
        #expect(meta.offsetTimeOriginal == "-05:00")
        #expect(meta.pixelXDimension == 640)
        #expect(meta.pixelYDimension == 480)
        #expect(meta.lensModel == "Lens 50mm")
        // Hand: -(33 + 52/60 + 12.34/3600) = -33.870094444...; -(151 + 12/60 + 0.75/3600).
        #expect(abs(meta.gpsLatitude! - -33.870094444444) < 1e-9)
        #expect(abs(meta.gpsLongitude! - -151.200208333333) < 1e-9)
        #expect(meta.warnings.isEmpty, "\(meta.warnings)")
        // The bare TIFF entry point gives the same result.
        #expect(ExifReader.read(tiff: Data(block.bytes)) == meta)
    }

    @Test func inlineAndOffsetValuesAreDistinguishedBySize() {
        // "Abcd" + NUL is 5 bytes: must be read from the offset, not the entry.
        let block = ExifTestTIFF(
            order: .big,
            ifds: [
                [
                    .init(0x010F, .ascii("Abcd")),
                    .init(0x0110, .ascii("Ab")), // 3 bytes: inline
                ]
            ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.make == "Abcd")
        #expect(meta.model == "Ab")
    }

    @Test func exifPointerToIFD0IsALoopAndSkipped() {
        var block = ExifTestTIFF(ifds: [
            [
                .init(0x010F, .ascii("Loop")),
                .init(0x8769, .pointer(0)), // Exif IFD = IFD0 itself
                .init(0x8825, .pointer(0)), // GPS IFD = IFD0 too
            ]
        ])
        block.order = .big
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.make == "Loop")
        #expect(meta.warnings.count == 2)
        #expect(meta.warnings.allSatisfy { $0.contains("already read (IFD loop)") })
    }

    @Test func gpsPointerIntoExifIFDIsSkipped() {
        let block = ExifTestTIFF(ifds: [
            [.init(0x8769, .pointer(1)), .init(0x8825, .pointer(1))],
            [.init(0x9003, .ascii("2020:01:01 00:00:00"))],
        ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.dateTimeOriginal == "2020:01:01 00:00:00")
        let exifOffset = block.ifdOffsets()[1] // 8 + 2 + 2 * 12 + 4 = 38
        #expect(exifOffset == 38)
        #expect(meta.warnings == ["GPS IFD at offset 38 was already read (IFD loop); skipped"])
    }

    @Test func countsThatOverflowOrRunPastTheEndAreSkipped() {
        let block = ExifTestTIFF(ifds: [
            [
                .init(0x010F, .ascii("Good")),
                // 0xFFFFFFFF ASCII bytes: fits in Int, runs past the end.
                .init(0x0110, .raw(16), type: 2, count: 0xFFFF_FFFF),
                .init(0x8825, .pointer(1)),
            ],
            [
                .init(0x0001, .ascii("N")),
                // 0x2000_0000 RATIONALs = 2^32 bytes: more than a TIFF offset can span.
                .init(0x0002, .raw(8), type: 5, count: 0x2000_0000),
                .init(0x0003, .ascii("E")),
                // 0xFFFF_FFFF RATIONALs.
                .init(0x0004, .raw(8), type: 5, count: 0xFFFF_FFFF),
            ],
        ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.make == "Good")
        #expect(meta.model == nil)
        #expect(meta.gpsLatitude == nil)
        #expect(meta.gpsLongitude == nil)
        #expect(meta.warnings.count == 3, "\(meta.warnings)")
        #expect(meta.warnings[0].contains("0x0110 Model") && meta.warnings[0].contains("past the end"))
        #expect(meta.warnings[1].contains("0x0002 GPSLatitude") && meta.warnings[1].contains("overflows"))
        #expect(meta.warnings[2].contains("0x0004 GPSLongitude") && meta.warnings[2].contains("overflows"))
    }

    @Test func offsetsPastTheEndAreSkipped() {
        let block = ExifTestTIFF(ifds: [
            [
                .init(0x010F, .raw(0xFFFF_FFF0), type: 2, count: 20), // value offset past end
                .init(0x0110, .ascii("Still read")),
                .init(0x8769, .raw(0x7FFF_FFFF)), // Exif IFD past end
                .init(0x8825, .raw(4)), // GPS IFD inside the header
            ]
        ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.make == nil)
        #expect(meta.model == "Still read")
        #expect(meta.warnings.count == 3, "\(meta.warnings)")
        #expect(meta.warnings[0].contains("0x010F Make"))
        #expect(meta.warnings[1].hasPrefix("Exif IFD: offset 2147483647 is not inside"))
        #expect(meta.warnings[2].hasPrefix("GPS IFD: offset 4 is not inside"))
    }

    @Test func absurdEntryCountIsClampedToWhatFits() {
        var block = ExifTestTIFF(ifds: [
            [
                .init(0x010F, .ascii("Canon")),
                .init(0x0112, .shorts([3])),
            ]
        ])
        block.declaredCounts[0] = 0xFFFF
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.make == "Canon")
        #expect(meta.orientation == .down)
        #expect(meta.warnings.first?.contains("declares 65535 entries") == true)
    }

    @Test func wrongTypesAreIgnored() {
        let block = ExifTestTIFF(ifds: [
            [
                .init(0x010F, .shorts([1, 2, 3])), // Make must be ASCII
                .init(0x0112, .longs([6])), // Orientation must be SHORT
                .init(0x8769, .pointer(1)),
            ],
            [
                .init(0xA002, .longs([4000])), // SHORT or LONG: both fine
                .init(0xA003, .ascii("3000")), // ASCII: not allowed
                .init(0x9003, .shorts([2020])),
                .init(0xA434, .raw(0), type: 99, count: 1), // unknown type
            ],
        ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.make == nil)
        #expect(meta.orientation == nil)
        #expect(meta.pixelXDimension == 4000)
        #expect(meta.pixelYDimension == nil)
        #expect(meta.dateTimeOriginal == nil)
        #expect(meta.lensModel == nil)
        #expect(
            meta.warnings == [
                "IFD0 tag 0x010F Make: type SHORT, expected ASCII or UTF-8; skipped",
                "IFD0 tag 0x0112 Orientation: type LONG, expected SHORT; skipped",
                "Exif IFD tag 0xA003 PixelYDimension: type ASCII, expected SHORT, LONG or SLONG; skipped",
                "Exif IFD tag 0x9003 DateTimeOriginal: type SHORT, expected ASCII or UTF-8; skipped",
                "Exif IFD tag 0xA434 LensModel: unknown field type 99; skipped",
            ])
    }

    @Test func signedDimensionsAreAcceptedWhenNotNegative() {
        let block = ExifTestTIFF(ifds: [
            [.init(0x8769, .pointer(1))],
            [
                .init(0xA002, .longs([480]), type: 9), // SLONG 480
                .init(0xA003, .longs([UInt32(bitPattern: -640)]), type: 9),
            ],
        ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.pixelXDimension == 480)
        #expect(meta.pixelYDimension == nil)
        #expect(meta.warnings == ["Exif IFD tag 0xA003 PixelYDimension: negative value -640; ignored"])
    }

    @Test(arguments: [0, 9, 0xFFFF])
    func orientationOutsideOneToEightIsNil(_ raw: Int) {
        let block = ExifTestTIFF(ifds: [[.init(0x0112, .shorts([UInt16(raw)]))]])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.orientation == nil)
        #expect(meta.warnings == ["IFD0 tag 0x0112 Orientation: value \(raw) is outside 1...8; ignored"])
    }

    @Test func zeroDenominatorDropsTheCoordinate() {
        let block = ExifTestTIFF(ifds: [
            [.init(0x8825, .pointer(1))],
            [
                .init(0x0001, .ascii("N")),
                .init(0x0002, .rationals([(10, 1), (0, 0), (0, 1)])),
                .init(0x0003, .ascii("E")),
                .init(0x0004, .rationals([(10, 1), (30, 1), (0, 1)])),
            ],
        ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.gpsLatitude == nil)
        #expect(meta.gpsLongitude == 10.5)
        #expect(meta.warnings == ["GPS IFD tag 0x0002 GPSLatitude: component 2 has denominator 0; skipped"])
    }

    @Test func gpsReferencesAndRanges() {
        let block = ExifTestTIFF(
            order: .big,
            ifds: [
                [.init(0x8825, .pointer(1))],
                [
                    // No latitude reference; longitude reference "X"; SRATIONAL accepted.
                    .init(0x0002, .srationals([(45, 1), (0, 1), (0, 1)])),
                    .init(0x0003, .ascii("X")),
                    .init(0x0004, .srationals([(10, 1), (0, 1), (0, 1)])),
                ],
            ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.gpsLatitude == nil)
        #expect(meta.gpsLongitude == nil)
        #expect(meta.warnings.count == 2)

        let outOfRange = ExifTestTIFF(ifds: [
            [.init(0x8825, .pointer(1))],
            [
                .init(0x0001, .ascii("N")),
                .init(0x0002, .rationals([(91, 1), (0, 1), (0, 1)])),
                .init(0x0003, .ascii("e")), // lower case accepted
                .init(0x0004, .srationals([(-10, 1), (0, 1), (0, 1)])),
            ],
        ])
        let meta2 = ExifReader.read(tiff: Data(outOfRange.bytes))
        #expect(meta2.gpsLatitude == nil)
        #expect(meta2.gpsLongitude == nil)
        #expect(
            meta2.warnings == [
                "GPS IFD tag 0x0004 GPSLongitude: component 1 is negative; skipped",
                "GPS IFD: GPSLatitude 91.0 degrees exceeds 90.0; coordinate dropped",
            ])
    }

    @Test func stringsAreCutAtNULTrimmedAndDecodedAsUTF8() {
        let block = ExifTestTIFF(ifds: [
            [
                .init(0x010F, .bytes([0x43, 0xFF, 0x61, 0x00])), // invalid UTF-8
                .init(0x0110, .bytes(Array("Café".utf8) + [0x00, 0x41, 0x42])), // text after NUL
                .init(0x0131, .bytes([0x20, 0x20, 0x00, 0x00])), // blank: nil
                .init(0x0132, .bytes(Array("no terminator".utf8))),
            ]
        ])
        let meta = ExifReader.read(tiff: Data(block.bytes))
        #expect(meta.make == "C\u{FFFD}a")
        #expect(meta.model == "Café")
        #expect(meta.software == nil)
        #expect(meta.dateTime == "no terminator")
        #expect(meta.warnings == ["IFD0 tag 0x010F Make: not valid UTF-8; invalid bytes replaced with U+FFFD"])
    }

    @Test func firstOccurrenceOfADuplicateTagWins() {
        let block = ExifTestTIFF(ifds: [
            [
                .init(0x010F, .ascii("First")),
                .init(0x010F, .ascii("Second")),
            ]
        ])
        #expect(ExifReader.read(tiff: Data(block.bytes)).make == "First")
    }

    @Test func unreadableTIFFHeaderGivesEmptyMetadataWithAWarning() throws {
        var badMagic = ExifTestTIFF(ifds: [[.init(0x010F, .ascii("X"))]])
        badMagic.magic = 43
        var badIFD0 = ExifTestTIFF(ifds: [[.init(0x010F, .ascii("X"))]])
        badIFD0.ifd0Offset = 1_000
        let cases: [([UInt8], String)] = [
            ([], "TIFF header: block is 0 bytes, shorter than the 8-byte header"),
            ([0x49, 0x49, 0x2A], "TIFF header: block is 3 bytes, shorter than the 8-byte header"),
            ([0x49, 0x4D, 0x2A, 0, 8, 0, 0, 0], "TIFF header: byte order mark is 0x494D, expected II or MM"),
            (badMagic.bytes, "TIFF header: magic number is 43, expected 42"),
            (badIFD0.bytes, "IFD0: offset 1000 is not inside the 26-byte TIFF block after its header; IFD skipped"),
        ]
        for (bytes, warning) in cases {
            let jpeg = ExifTestTIFF.jpeg(segments: [(0xE1, ExifTestTIFF.exifSignature + bytes)])
            let meta = try #require(try ExifReader.read(jpeg: jpeg))
            #expect(meta.hasNoFields)
            #expect(meta.warnings == [warning])
        }
    }

    // MARK: JPEG marker walk

    @Test func otherSegmentsFillBytesAndStandaloneMarkersAreSkipped() throws {
        let tiff = Self.fullBlock(.little).bytes
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x07] + Array("JFIF".utf8) + [0] // APP0
        bytes += [0xFF, 0xFF, 0xFF, 0xD3] // fill + RST3
        bytes += [0xFF, 0x01] // TEM
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0, 0x3C]
        bytes += [0xFF, 0xE1, 0x00, UInt8(xmp.count + 2)] + xmp // XMP APP1
        bytes += [0xFF, 0xFE, 0x00, 0x04, 0x68, 0x69] // COM
        let app1 = ExifTestTIFF.exifSignature + tiff
        bytes += [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        // Truncated right after the EXIF segment: not looked at.
        let meta = try #require(try ExifReader.read(jpeg: Data(bytes)))
        #expect(meta.make == "Abc")
        #expect(meta.warnings.isEmpty)
    }

    @Test func extraneousBytesBetweenSegmentsAreSkippedWithAWarning() throws {
        let app1 = ExifTestTIFF.exifSignature + Self.fullBlock(.big).bytes
        var bytes: [UInt8] = [0xFF, 0xD8, 0x12, 0x34, 0xFF, 0x00, 0x56]
        bytes += [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        let meta = try #require(try ExifReader.read(jpeg: Data(bytes)))
        #expect(meta.make == "Abc")
        #expect(meta.warnings == ["JPEG: 5 extraneous bytes before marker FFE1 at offset 7"])
    }

    @Test func exifAfterStartOfScanIsNotRead() throws {
        var data = ExifTestTIFF.jpeg(segments: [(0xE0, Array("JFIF".utf8) + [0])])
        data.removeLast(2) // keep SOS open, then an APP1 that must not be reached
        data += [0xFF, 0xE1, 0x00, 0x08] + ExifTestTIFF.exifSignature
        #expect(try ExifReader.read(jpeg: data) == nil)
        let noSOS = Data([0xFF, 0xD8, 0xFF, 0xD9])
        #expect(try ExifReader.read(jpeg: noSOS) == nil)
    }

    @Test func brokenMarkerStructureThrowsCorrupt() {
        let source = "broken.jpg"
        let cases: [([UInt8], String)] = [
            ([], "not a JPEG: does not start with the SOI marker FF D8"),
            (Array("GIF89a".utf8), "not a JPEG: does not start with the SOI marker FF D8"),
            ([0xFF, 0xD8], "JPEG ends at byte 2 before the start-of-scan marker; the file is truncated"),
            (
                [0xFF, 0xD8, 0xFF, 0xE0, 0x00],
                "JPEG ends inside the length of segment FFE0 at offset 2; the file is truncated"
            ),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01], "segment FFE0 at offset 2 has length 1, less than 2"),
            (
                [0xFF, 0xD8, 0xFF, 0xE1, 0x01, 0x00, 0x45],
                "segment FFE1 at offset 2 declares 256 bytes but only 3 remain; the file is truncated"
            ),
            ([0xFF, 0xD8, 0xFF, 0xD8], "second SOI marker at offset 2; the JPEG structure is invalid"),
        ]
        for (bytes, detail) in cases {
            #expect(throws: MediaError(.corrupt, source: source, detail)) {
                try ExifReader.read(jpeg: Data(bytes), source: source)
            }
        }
    }

    @Test func dataSliceWithNonZeroStartIndexIsRead() throws {
        let whole = Data([0xAA, 0xBB]) + Self.fullBlock(.little).jpeg
        let slice = whole[2...]
        #expect(try ExifReader.read(jpeg: slice)?.make == "Abc")
    }

    // MARK: Codable

    @Test func jsonUsesSnakeCaseKeysAndRoundTrips() throws {
        let meta = ExifMetadata(
            make: "Apple", model: "iPhone 6", software: "8.0",
            dateTime: "2014:09:16 14:05:12",
            dateTimeOriginal: "2014:09:16 14:05:12",
            offsetTimeOriginal: "+01:00", orientation: .right,
            pixelXDimension: 3264, pixelYDimension: 2448,
            gpsLatitude: 51.5, gpsLongitude: -0.25,
            lensModel: "back camera", warnings: ["w"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(meta), as: UTF8.self)
        #expect(
            json
                == #"{"datetime":"2014:09:16 14:05:12","datetime_original":"2014:09:16 14:05:12","gps_latitude":51.5,"gps_longitude":-0.25,"lens_model":"back camera","make":"Apple","model":"iPhone 6","offset_time_original":"+01:00","orientation":6,"pixel_x_dimension":3264,"pixel_y_dimension":2448,"software":"8.0","warnings":["w"]}"#
        )
        #expect(try JSONDecoder().decode(ExifMetadata.self, from: Data(json.utf8)) == meta)
        // Absent fields are omitted; a missing warnings key decodes as none.
        #expect(String(decoding: try encoder.encode(ExifMetadata()), as: UTF8.self) == #"{"warnings":[]}"#)
        #expect(try JSONDecoder().decode(ExifMetadata.self, from: Data("{}".utf8)) == ExifMetadata())
    }
}
