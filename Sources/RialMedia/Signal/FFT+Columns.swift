extension FFT {
    /// Transforms the `count` columns of a row-major array at once: column `s` (in
    /// `0..<count`) is the sequence `x[j] = re[j * rowStride + s] + i im[j * rowStride + s]`,
    /// `j` in `0..<n`, and becomes `X[j] = sum_k x[k] exp(sign * 2 pi i j k / n)` in place.
    /// No normalisation; `sign = +1` is the inverse.
    ///
    /// The same radix-2 algorithm as `transform(re:im:offset:stride:sign:)` (bit-reversal
    /// permutation, twiddle-free size-2 stage, stages 4...n) with the same operations in
    /// the same order on every value, so each column's result is bit-identical to
    /// `transform` applied to that column alone. Only the loop order differs: blocks of
    /// `blockColumns` adjacent columns are copied into a contiguous buffer of SIMD rows
    /// (a power-of-two `rowStride` would otherwise put every row of a column in the same
    /// few cache sets), every butterfly runs on a whole SIMD row (one lane per column,
    /// lane-wise IEEE operations, so no rounding changes), and the block is copied back.
    /// Columns left over after the last full block are transformed one by one.
    ///
    /// - Parameters:
    ///   - count: columns to transform, >= 0.
    ///   - rowStride: distance between rows in elements, >= `count`.
    /// - Complexity: O(count x n log n); a temporary buffer of `2 n blockColumns` doubles.
    public func transformColumns(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
        count: Int, rowStride: Int, sign: Double
    ) {
        precondition(count >= 0 && rowStride >= count, "columns must fit in a row")
        let n = self.n
        let fullBlocks = count / Self.blockColumns
        if fullBlocks > 0 {
            withUnsafeTemporaryAllocation(of: Row.self, capacity: 2 * n) { block in
                let blockRe = block.baseAddress!, blockIm = blockRe + n
                for b in 0..<fullBlocks {
                    let first = b * Self.blockColumns
                    for j in 0..<n {
                        let source = j * rowStride + first
                        blockRe[j] = UnsafeRawPointer(re + source).loadUnaligned(as: Row.self)
                        blockIm[j] = UnsafeRawPointer(im + source).loadUnaligned(as: Row.self)
                    }
                    transformRows(re: blockRe, im: blockIm, sign: sign)
                    for j in 0..<n {
                        let target = j * rowStride + first
                        UnsafeMutableRawPointer(re + target).storeBytes(of: blockRe[j], as: Row.self)
                        UnsafeMutableRawPointer(im + target).storeBytes(of: blockIm[j], as: Row.self)
                    }
                }
            }
        }
        for column in (fullBlocks * Self.blockColumns)..<count {
            transform(re: re, im: im, offset: column, stride: rowStride, sign: sign)
        }
    }

    /// Transforms `count` rows of a row-major array at once: row `t` (in `0..<count`) is
    /// the sequence `x[j] = re[t * rowStride + j] + i im[t * rowStride + j]`, `j` in
    /// `0..<n`, transformed in place as by `transform(re:im:offset:stride:sign:)` with
    /// `offset = t * rowStride`, `stride = 1`, bit for bit (same kernel as
    /// `transformColumns`: groups of `blockColumns` rows are interleaved into SIMD rows,
    /// one lane per row, transformed, and written back). Rows left over after the last
    /// full group are transformed one by one.
    ///
    /// - Parameters:
    ///   - count: rows to transform, >= 0.
    ///   - rowStride: distance between rows in elements, >= n.
    /// - Complexity: O(count x n log n); a temporary buffer of `2 n blockColumns` doubles.
    public func transformRows(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
        count: Int, rowStride: Int, sign: Double
    ) {
        precondition(count >= 0 && rowStride >= n, "rows must not overlap")
        let n = self.n
        let lanes = 4 // Row.scalarCount, spelled out in the gather and scatter below
        let fullGroups = count / lanes
        if fullGroups > 0 {
            withUnsafeTemporaryAllocation(of: Row.self, capacity: 2 * n) { block in
                let blockRe = block.baseAddress!, blockIm = blockRe + n
                for g in 0..<fullGroups {
                    let first = g * lanes * rowStride
                    let r0 = re + first, r1 = r0 + rowStride, r2 = r1 + rowStride, r3 = r2 + rowStride
                    let i0 = im + first, i1 = i0 + rowStride, i2 = i1 + rowStride, i3 = i2 + rowStride
                    for j in 0..<n {
                        blockRe[j] = Row(r0[j], r1[j], r2[j], r3[j])
                        blockIm[j] = Row(i0[j], i1[j], i2[j], i3[j])
                    }
                    transformRows(re: blockRe, im: blockIm, sign: sign)
                    for j in 0..<n {
                        let vr = blockRe[j], vi = blockIm[j]
                        r0[j] = vr[0]
                        r1[j] = vr[1]
                        r2[j] = vr[2]
                        r3[j] = vr[3]
                        i0[j] = vi[0]
                        i1[j] = vi[1]
                        i2[j] = vi[2]
                        i3[j] = vi[3]
                    }
                }
            }
        }
        for row in (fullGroups * lanes)..<count {
            transform(re: re, im: im, offset: row * rowStride, stride: 1, sign: sign)
        }
    }

    /// One row of a block: `blockColumns` adjacent columns.
    typealias Row = SIMD4<Double>

    /// Columns transformed together by `transformColumns`.
    static let blockColumns = Row.scalarCount

    /// `transform`'s algorithm on `n` SIMD rows, lane by lane.
    private func transformRows(re r: UnsafeMutablePointer<Row>, im i: UnsafeMutablePointer<Row>, sign: Double) {
        let n = self.n
        bitReverse.withUnsafeBufferPointer { br in
            for a in 0..<n {
                let b = br[a]
                if b > a {
                    let tr = r[a]
                    r[a] = r[b]
                    r[b] = tr
                    let ti = i[a]
                    i[a] = i[b]
                    i[b] = ti
                }
            }
        }
        // Size 2: twiddle 1.
        var start = 0
        while start < n {
            let a = start, b = a + 1
            let tr = r[b], ti = i[b]
            r[b] = r[a] - tr
            i[b] = i[a] - ti
            r[a] = r[a] + tr
            i[a] = i[a] + ti
            start += 2
        }
        stageCos.withUnsafeBufferPointer { tc in
            stageSin.withUnsafeBufferPointer { ts in
                var size = 4
                while size <= n {
                    let half = size / 2, base = half - 2
                    var start = 0
                    while start < n {
                        for k in 0..<half {
                            let c = tc[base + k], s = sign * ts[base + k]
                            let a = start + k, b = a + half
                            let br = r[b], bi = i[b]
                            let tr = br * c - bi * s
                            let ti = br * s + bi * c
                            r[b] = r[a] - tr
                            i[b] = i[a] - ti
                            r[a] = r[a] + tr
                            i[a] = i[a] + ti
                        }
                        start += size
                    }
                    size *= 2
                }
            }
        }
    }
}
