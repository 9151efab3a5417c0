import Foundation

/// In-place box filters (mean over 2 r + 1 samples, clamped edges) by running sums.
///
/// Both directions filter lines of the w x h plane that starts at `offset` in `a`:
/// each line is copied to `scratch` (at least max(w, h) values), then out[x] =
/// sum of line[clamp(x + k)] for k in -r...r, divided by 2 r + 1, updated by adding
/// the sample entering the window and removing the one leaving it. `radius` must be
/// at least 0.
enum BoxFilter {
    /// Filters each of the `h` rows (w samples, contiguous).
    static func rows(
        _ a: inout [Float], offset: Int, width w: Int, height h: Int, radius r: Int,
        scratch: inout [Float]
    ) {
        lines(&a, start: offset, count: h, lineStride: w, length: w, sampleStride: 1, radius: r, scratch: &scratch)
    }

    /// Filters each of the `w` columns (h samples, `w` apart).
    static func columns(
        _ a: inout [Float], offset: Int, width w: Int, height h: Int, radius r: Int,
        scratch: inout [Float]
    ) {
        lines(&a, start: offset, count: w, lineStride: 1, length: h, sampleStride: w, radius: r, scratch: &scratch)
    }

    /// Filters `count` lines of `length` samples: sample x of line k is
    /// a[start + k * lineStride + x * sampleStride].
    private static func lines(
        _ a: inout [Float], start: Int, count: Int, lineStride: Int, length: Int,
        sampleStride: Int, radius r: Int, scratch: inout [Float]
    ) {
        let inv = 1 / Float(2 * r + 1)
        a.withUnsafeMutableBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { line in
                for k in 0..<count {
                    let first = start + k * lineStride
                    for x in 0..<length { line[x] = p[first + x * sampleStride] }
                    var acc: Float = 0
                    for j in -r...r { acc += line[min(max(j, 0), length - 1)] }
                    for x in 0..<length {
                        p[first + x * sampleStride] = acc * inv
                        acc += line[min(x + r + 1, length - 1)] - line[max(x - r, 0)]
                    }
                }
            }
        }
    }
}
