import Foundation
import RialMedia
import Testing

@testable import RialCodecs

@Suite struct ImageReaderTests {
    /// A JPEG whose only EXIF field is Orientation = `value`: a hand-built APP1 segment
    /// (little-endian TIFF, one IFD0 entry 0x0112 SHORT) spliced in right after SOI.
    static func jpegWithOrientation(_ value: UInt16, image: Image8) throws -> Data {
        let encoded = try JPEGEncoder.encode(image, quality: 95, progressive: false, subsampling: .yuv444)
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] // "II", 42, IFD0 at 8
        tiff += [0x01, 0x00] // one entry
        tiff += [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00] // 0x0112 SHORT x1
        tiff += [UInt8(value & 0xFF), UInt8(value >> 8), 0x00, 0x00] // inline value
        tiff += [0x00, 0x00, 0x00, 0x00] // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Data(encoded.prefix(2)) + Data(app1) + Data(encoded.dropFirst(2))
    }

    /// A 16x8 image of four flat quadrants (JPEG keeps flat 8x8 blocks nearly exact),
    /// so any orientation mistake moves colours to the wrong place.
    static let quadrants: Image8 = {
        var image = Image8(width: 16, height: 8, channels: 3)
        let colours: [[UInt8]] = [[250, 10, 10], [10, 250, 10], [10, 10, 250], [240, 240, 240]]
        for y in 0..<8 {
            for x in 0..<16 {
                let q = (y >= 4 ? 2 : 0) + (x >= 8 ? 1 : 0)
                for c in 0..<3 { image[x, y, c] = colours[q][c] }
            }
        }
        return image
    }()

    @Test(arguments: ExifOrientation.allCases)
    func appliesEveryOrientationOnRequest(orientation: ExifOrientation) throws {
        let data = try Self.jpegWithOrientation(UInt16(orientation.rawValue), image: Self.quadrants)
        let stored = try ImageReader.read(data: data)
        let upright = try ImageReader.read(data: data, options: .init(applyOrientation: true))
        #expect(stored.exif?.orientation == orientation)
        #expect(stored.appliedOrientation == .up)
        #expect(stored.image.width == 16 && stored.image.height == 8)
        #expect(upright.appliedOrientation == orientation)
        #expect(upright.image == stored.image.oriented(orientation))
        let swapped = orientation.rawValue >= 5
        #expect(upright.image.width == (swapped ? 8 : 16))
        #expect(upright.storedWidth == 16 && upright.storedHeight == 8)
    }

    /// Orientation 6 (rotate 90 degrees clockwise to display): the stored top-left
    /// quadrant (red) ends at the top-right of the displayed image, by the EXIF table.
    @Test func orientationSixPutsTheStoredTopLeftAtTheTopRight() throws {
        let data = try Self.jpegWithOrientation(6, image: Self.quadrants)
        let upright = try ImageReader.read(data: data, options: .init(applyOrientation: true)).image
        #expect(upright.width == 8 && upright.height == 16)
        #expect(upright[7, 0, 0] > 200 && upright[7, 0, 1] < 60) // red
        // Rotating 90 degrees clockwise: stored bottom-left (blue) -> top-left, stored
        // top-right (green) -> bottom-right, stored bottom-right (white) -> bottom-left.
        #expect(upright[0, 0, 2] > 200 && upright[0, 0, 0] < 60)
        #expect(upright[7, 15, 1] > 200 && upright[7, 15, 0] < 60)
        #expect(upright[0, 15, 0] > 200 && upright[0, 15, 2] > 200)
    }

    @Test func realPhotoWithOrientationSixIsUprightWhenAsked() throws {
        let upright = try ImageReader.read(
            path: Fixtures.real("silentface/image_T1.jpg"),
            options: .init(applyOrientation: true))
        // Pillow: size (640, 480); exiftool: Orientation 6 -> displayed 480 x 640.
        #expect(upright.image.width == 480 && upright.image.height == 640)
        #expect(upright.storedWidth == 640 && upright.storedHeight == 480)
    }

    @Test func pngIsReadAndOtherBytesAreRefused() throws {
        let brick = try ImageReader.read(path: Fixtures.real("skimage/brick.png"))
        #expect(brick.format == .png && brick.image.width == 512 && brick.image.channels == 1)
        #expect(throws: MediaError.self) { try ImageReader.read(data: Data("not an image".utf8), source: "x.txt") }
        let empty = #expect(throws: MediaError.self) { try ImageReader.read(data: Data(), source: "empty.jpg") }
        #expect(empty?.kind == .corrupt && empty?.source == "empty.jpg")
    }
}
