import Testing

@testable import RialMedia

/// The stored 3x2 image
///
///     1 2 3
///     4 5 6
///
/// and what a viewer shows for each EXIF orientation, written by hand from the table
/// in ExifOrientation's doc comment (value: stored image is ... -> to display ...).
let orientationExpectations: [(ExifOrientation, width: Int, height: Int, pixels: [UInt8])] = [
    // 1: nothing.
    (
        .up, 3, 2,
        [
            1, 2, 3,
            4, 5, 6,
        ]
    ),
    // 2: flip horizontally.
    (
        .upMirrored, 3, 2,
        [
            3, 2, 1,
            6, 5, 4,
        ]
    ),
    // 3: rotate 180.
    (
        .down, 3, 2,
        [
            6, 5, 4,
            3, 2, 1,
        ]
    ),
    // 4: flip vertically.
    (
        .downMirrored, 3, 2,
        [
            4, 5, 6,
            1, 2, 3,
        ]
    ),
    // 5: transpose (mirror about the main diagonal): rows become columns.
    (
        .leftMirrored, 2, 3,
        [
            1, 4,
            2, 5,
            3, 6,
        ]
    ),
    // 6: rotate 90 clockwise: the left column (1, 4) read bottom-up becomes the top row.
    (
        .right, 2, 3,
        [
            4, 1,
            5, 2,
            6, 3,
        ]
    ),
    // 7: transverse (mirror about the anti-diagonal): 6 goes to the top-left corner.
    (
        .rightMirrored, 2, 3,
        [
            6, 3,
            5, 2,
            4, 1,
        ]
    ),
    // 8: rotate 90 counter-clockwise: the right column (3, 6) becomes the top row.
    (
        .left, 2, 3,
        [
            3, 6,
            2, 5,
            1, 4,
        ]
    ),
]

@Suite("Orientation")
struct ImageOrientationTests {
    static let stored = imageOpImage8(3, 2, 1, [1, 2, 3, 4, 5, 6])

    @Test(arguments: orientationExpectations.indices)
    func allEightOrientationsOnImage8(_ i: Int) {
        let (o, w, h, pixels) = orientationExpectations[i]
        let shown = Self.stored.oriented(o)
        #expect(shown.width == w && shown.height == h, "\(o)")
        #expect(shown.samples == pixels, "\(o)")
        #expect(o.swapsDimensions == (w != 3))
    }

    @Test(arguments: orientationExpectations.indices)
    func channelsMoveTogether(_ i: Int) {
        // Two channels: (v, 10 v). Same pixel order, channels kept together.
        let (o, w, h, pixels) = orientationExpectations[i]
        let twoChannel = imageOpImage8(3, 2, 2, [1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60])
        let shown = twoChannel.oriented(o)
        #expect(shown.width == w && shown.height == h)
        #expect(shown.samples == pixels.flatMap { [$0, $0 * 10] })
    }

    @Test(arguments: orientationExpectations.indices)
    func planarAndDepthFollowTheSameMapping(_ i: Int) {
        let (o, w, h, pixels) = orientationExpectations[i]
        let p = imageOpPlanar(3, 2, [1, 2, 3, 4, 5, 6, 101, 102, 103, 104, 105, 106], channels: 2)
        let shown = p.oriented(o)
        let expected = pixels.map(Float.init)
        #expect(shown.width == w && shown.height == h)
        #expect(shown.data == expected + expected.map { $0 + 100 })
        let d = DepthMap(width: 3, height: 2, metres: [1, 2, 3, 4, 5, 6])!.oriented(o)
        #expect(d.width == w && d.height == h && d.metres == expected)
    }

    @Test func inversePairsAreIdentity() {
        var rng = SeededGenerator(seed: 9)
        let img = imageOpImage8(5, 3, 3, (0..<45).map { _ in UInt8.random(in: 0...255, using: &rng) })
        // Rotations undo each other; flips, 180 and the two diagonal mirrors are involutions.
        let pairs: [(ExifOrientation, ExifOrientation)] = [
            (.right, .left), (.left, .right), (.down, .down), (.upMirrored, .upMirrored),
            (.downMirrored, .downMirrored), (.leftMirrored, .leftMirrored),
            (.rightMirrored, .rightMirrored), (.up, .up),
        ]
        for (a, b) in pairs {
            #expect(img.oriented(a).oriented(b) == img, "\(a) then \(b)")
        }
        // Four quarter turns, and 6 twice is 3.
        #expect(img.oriented(.right).oriented(.right) == img.oriented(.down))
        #expect(img.oriented(.right).oriented(.right).oriented(.right).oriented(.right) == img)
    }
}
