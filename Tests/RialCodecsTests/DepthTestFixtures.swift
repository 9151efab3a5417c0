import Foundation
import RialTestSupport

/// A `.npy` file written by numpy 2.4 (`np.save`, or `numpy.lib.format.write_array`
/// for versions 2.0/3.0) with the values numpy holds for it, invalid ones (non-finite
/// or <= 0) as `nil`. Generated once in Python; not produced by the code under test.
struct NPYFixture: Sendable, CustomStringConvertible {
    let name: String
    /// numpy's shape (rows, columns).
    let shape: [Int]
    let base64: String
    /// Row-major values as numpy reports them (`nil` = must read as NaN).
    let expected: [Float?]

    var data: Data { Data(base64Encoded: base64)! }
    var description: String { name }
}

/// Base array (3 rows x 4 columns) for every NumPy and compressed fixture:
/// [[1.5, 2.25, nan, 0], [-1, 3.125, inf, 0.75], [4, 0.5, 10, 2]] as float32,
/// plus uint16 [[0, 1000, 65535, 1566], [3512, 0, 42, 7], [1, 2, 3, 60000]] and uint8
/// [[0, 1, 2, 255], [128, 0, 9, 10], [7, 7, 7, 0]].
enum DepthFixtures {
    static let npy: [NPYFixture] = [
        NPYFixture(
            name: "f4_le", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnPGY0JywgJ2ZvcnRyYW5fb3JkZXInOiBGYWxzZSwgJ3NoYXBlJzogKDMsIDQpLCB9ICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAMA/AAAQQAAAwH8AAAAA"
                + "AACAvwAASEAAAIB/AABAPwAAgEAAAAA/AAAgQQAAAEA=",
            expected: [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
        ),
        NPYFixture(
            name: "f4_be", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnPmY0JywgJ2ZvcnRyYW5fb3JkZXInOiBGYWxzZSwgJ3NoYXBlJzogKDMsIDQpLCB9ICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAo/wAAAQBAAAH/AAAAAAAAA"
                + "v4AAAEBIAAB/gAAAP0AAAECAAAA/AAAAQSAAAEAAAAA=",
            expected: [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
        ),
        NPYFixture(
            name: "f8_le", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnPGY4JywgJ2ZvcnRyYW5fb3JkZXInOiBGYWxzZSwgJ3NoYXBlJzogKDMsIDQpLCB9ICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAAAAAAD4PwAAAAAAAAJA"
                + "AAAAAAAA+H8AAAAAAAAAAAAAAAAAAPC/AAAAAAAACUAAAAAAAADwfwAAAAAAAOg/AAAAAAAAEEAAAAAAAADgPwAAAAAAACRA"
                + "AAAAAAAAAEA=",
            expected: [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
        ),
        NPYFixture(
            name: "u2_le", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnPHUyJywgJ2ZvcnRyYW5fb3JkZXInOiBGYWxzZSwgJ3NoYXBlJzogKDMsIDQpLCB9ICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAOgD//8eBrgNAAAqAAcA"
                + "AQACAAMAYOo=",
            expected: [nil, 1000.0, 65535.0, 1566.0, 3512.0, nil, 42.0, 7.0, 1.0, 2.0, 3.0, 60000.0]
        ),
        NPYFixture(
            name: "u2_be", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnPnUyJywgJ2ZvcnRyYW5fb3JkZXInOiBGYWxzZSwgJ3NoYXBlJzogKDMsIDQpLCB9ICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAAPo//8GHg24AAAAKgAH"
                + "AAEAAgAD6mA=",
            expected: [nil, 1000.0, 65535.0, 1566.0, 3512.0, nil, 42.0, 7.0, 1.0, 2.0, 3.0, 60000.0]
        ),
        NPYFixture(
            name: "u1", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnfHUxJywgJ2ZvcnRyYW5fb3JkZXInOiBGYWxzZSwgJ3NoYXBlJzogKDMsIDQpLCB9ICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAQL/gAAJCgcHBwA=",
            expected: [nil, 1.0, 2.0, 255.0, 128.0, nil, 9.0, 10.0, 7.0, 7.0, 7.0, nil]
        ),
        NPYFixture(
            name: "f4_fortran", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnPGY0JywgJ2ZvcnRyYW5fb3JkZXInOiBUcnVlLCAnc2hhcGUnOiAoMywgNCksIH0gICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAMA/AACAvwAAgEAAABBA"
                + "AABIQAAAAD8AAMB/AACAfwAAIEEAAAAAAABAPwAAAEA=",
            expected: [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
        ),
        NPYFixture(
            name: "f4_v2", shape: [3, 4],
            base64:
                "k05VTVBZAgB0AAAAeydkZXNjcic6ICc8ZjQnLCAnZm9ydHJhbl9vcmRlcic6IEZhbHNlLCAnc2hhcGUnOiAoMywgNCksIH0g"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAMA/AAAQQAAAwH8AAAAA"
                + "AACAvwAASEAAAIB/AABAPwAAgEAAAAA/AAAgQQAAAEA=",
            expected: [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
        ),
        NPYFixture(
            name: "f4_v3", shape: [3, 4],
            base64:
                "k05VTVBZAwB0AAAAeydkZXNjcic6ICc8ZjQnLCAnZm9ydHJhbl9vcmRlcic6IEZhbHNlLCAnc2hhcGUnOiAoMywgNCksIH0g"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAoAAMA/AAAQQAAAwH8AAAAA"
                + "AACAvwAASEAAAIB/AABAPwAAgEAAAAA/AAAgQQAAAEA=",
            expected: [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
        ),
        NPYFixture(
            name: "f8_be_fortran", shape: [3, 4],
            base64:
                "k05VTVBZAQB2AHsnZGVzY3InOiAnPmY4JywgJ2ZvcnRyYW5fb3JkZXInOiBUcnVlLCAnc2hhcGUnOiAoMywgNCksIH0gICAg"
                + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIAo/+AAAAAAAAL/wAAAAAAAA"
                + "QBAAAAAAAABAAgAAAAAAAEAJAAAAAAAAP+AAAAAAAAB/+AAAAAAAAH/wAAAAAAAAQCQAAAAAAAAAAAAAAAAAAD/oAAAAAAAA"
                + "QAAAAAAAAAA=",
            expected: [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
        ),
    ]

    /// `np.savez_compressed(f, depth=base, confidence=uint16 array)`: two deflated members.
    static let npzTwoArrays = Data(
        base64Encoded:
            "UEsDBC0AAAAIAAAAIQCqzur+//////////8JABQAZGVwdGgubnB5AQAQALAAAAAAAAAAagAAAAAAAACb7BfqGxDJyFDGUK2e"
            + "klqcXKRupaBuk2airqOgnpZfVFKUmBefX5SSChJ3S8wpTgWKF2ckFqQC+RrGOgommjoKtQpkAy4GhgP2DAwCDkC6ngEMGvYz"
            + "MHgA+Q1AvgNQrgHIZgDSCo5A2gEAUEsDBC0AAAAIAAAAIQCgv/xX//////////8OABQAY29uZmlkZW5jZS5ucHkBABAAmAAA"
            + "AAAAAABfAAAAAAAAAJvsF+obEMnIUMZQrZ6SWpxcpG6loG5TaqSuo6Cell9UUpSYF59flJIKEndLzClOBYoXZyQWpAL5GsY6"
            + "CiaaOgq1CmQDLgaGF8z//8ux7eBlYNBiYGdgZGBiYGZIeAUAUEsBAi0DLQAAAAgAAAAhAKrO6v5qAAAAsAAAAAkAAAAAAAAA"
            + "AAAAAIABAAAAAGRlcHRoLm5weVBLAQItAy0AAAAIAAAAIQCgv/xXXwAAAJgAAAAOAAAAAAAAAAAAAACAAaUAAABjb25maWRl"
            + "bmNlLm5weVBLBQYAAAAAAgACAHMAAABEAQAAAAA=")!
    static let npzConfidence: [Float?] = [nil, 1000.0, 65535.0, 1566.0, 3512.0, nil, 42.0, 7.0, 1.0, 2.0, 3.0, 60000.0]

    /// `np.savez(f, base)`: one stored member named `arr_0.npy`.
    static let npzStored = Data(
        base64Encoded:
            "UEsDBC0AAAAAAAAAIQCqzur+//////////8JABQAYXJyXzAubnB5AQAQALAAAAAAAAAAsAAAAAAAAACTTlVNUFkBAHYAeydk"
            + "ZXNjcic6ICc8ZjQnLCAnZm9ydHJhbl9vcmRlcic6IEZhbHNlLCAnc2hhcGUnOiAoMywgNCksIH0gICAgICAgICAgICAgICAg"
            + "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgCgAAwD8AABBAAADAfwAAAAAAAIC/AABIQAAAgH8A"
            + "AEA/AACAQAAAAD8AACBBAAAAQFBLAQItAy0AAAAAAAAAIQCqzur+sAAAALAAAAAJAAAAAAAAAAAAAACAAQAAAABhcnJfMC5u"
            + "cHlQSwUGAAAAAAEAAQA3AAAA6wAAAAAA")!

    /// Python `gzip.compress(base.astype('<f4').tobytes(), mtime=0)`.
    static let gzip = Data(
        base64Encoded:
            "H4sIAAAAAAACA2NgOGDPwCDgwMBwoJ4BDBr2MzB4APkNQL4DUK4ByGYA0gqOQNoBAP/cruYwAAAA")!
    /// The same payload as two concatenated gzip members (20 bytes + 28 bytes).
    static let gzipTwoMembers = Data(
        base64Encoded:
            "H4sIAAAAAAACA2NgOGDPwCDgwMBwoJ4BDBr2AwAKDIQIFAAAAB+LCAAAAAAAAgNjYPBwYGBoqGdgcLAH0kA2A5BWcATSDgCM"
            + "vvMfHAAAAA==")!
    /// Python `zlib.compress(payload, 9)`.
    static let zlib = Data(
        base64Encoded:
            "eNpjYDhgz8Ag4MDAcKCeAQwa9jMweAD5DUC+A1CuAchmANIKjkDaAQDIhwd0")!

    /// The base array row-major with invalid values as `nil` (width 4, height 3).
    static let baseExpected: [Float?] = [1.5, 2.25, nil, nil, nil, 3.125, nil, 0.75, 4.0, 0.5, 10.0, 2.0]
}

/// A fresh temporary folder per call; callers remove it with `defer`.
enum DepthTestFiles {
    static func temporaryFolder() throws -> URL {
        try Fixtures.makeTemporaryFolder("rial-depth")
    }
}
