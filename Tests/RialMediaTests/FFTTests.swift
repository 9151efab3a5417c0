import Foundation
import RialMedia
import Testing

/// Hand-computable transforms: DFT definitions, not values produced by the code.
@Suite struct FFTTests {
    /// X[j] = sum_k x[k] e^{-2 pi i j k / n}: an impulse at 0 is flat, a cosine of k
    /// cycles puts n/2 at bins k and n-k, and the inverse (sign +1) returns n x.
    @Test func impulseCosineAndInverse() {
        let n = 16, fft = FFT(size: n)
        var re = [Double](repeating: 0, count: n), im = re
        re[0] = 1
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: 0, stride: 1, sign: -1)
            }
        }
        #expect(re.allSatisfy { abs($0 - 1) < 1e-12 } && im.allSatisfy { abs($0) < 1e-12 })

        let cycles = 3
        var cre = (0..<n).map { cos(2 * Double.pi * Double(cycles * $0) / Double(n)) }
        var cim = [Double](repeating: 0, count: n)
        let original = cre
        cre.withUnsafeMutableBufferPointer { r in
            cim.withUnsafeMutableBufferPointer { i in
                fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: 0, stride: 1, sign: -1)
            }
        }
        for j in 0..<n {
            let expected = (j == cycles || j == n - cycles) ? Double(n) / 2 : 0
            #expect(abs(cre[j] - expected) < 1e-9 && abs(cim[j]) < 1e-9, "bin \(j)")
        }
        cre.withUnsafeMutableBufferPointer { r in
            cim.withUnsafeMutableBufferPointer { i in
                fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: 0, stride: 1, sign: 1)
            }
        }
        for k in 0..<n { #expect(abs(cre[k] / Double(n) - original[k]) < 1e-12) }
    }

    /// A 2D plane wave with (fx, fy) = (2, 5) cycles per 8 samples concentrates n²
    /// at the single bin (row 5, column 2) for the complex exponential e^{+i...}.
    @Test func planeWave2D() {
        let n = 8, fft = FFT(size: n)
        var re = [Double](repeating: 0, count: n * n), im = re
        for y in 0..<n {
            for x in 0..<n {
                let phase = 2 * Double.pi * Double(2 * x + 5 * y) / Double(n)
                re[y * n + x] = cos(phase)
                im[y * n + x] = sin(phase)
            }
        }
        fft.transform2D(re: &re, im: &im, sign: -1)
        for index in 0..<(n * n) {
            let expected = index == 5 * n + 2 ? Double(n * n) : 0
            #expect(abs(re[index] - expected) < 1e-9 && abs(im[index]) < 1e-9, "bin \(index)")
        }
    }
}

/// `FFT.transformColumns` against the DFT computed from its definition, sample by sample.
@Suite struct FFTColumnTests {
    /// X[j] = sum_k x[k] e^{sign 2 pi i j k / n}, directly (O(n²)).
    static func directDFT(_ re: [Double], _ im: [Double], sign: Double) -> (re: [Double], im: [Double]) {
        let n = re.count
        var outRe = [Double](repeating: 0, count: n), outIm = outRe
        for j in 0..<n {
            for k in 0..<n {
                let angle = sign * 2 * Double.pi * Double((j * k) % n) / Double(n)
                outRe[j] += re[k] * cos(angle) - im[k] * sin(angle)
                outIm[j] += re[k] * sin(angle) + im[k] * cos(angle)
            }
        }
        return (outRe, outIm)
    }

    /// Seeded values in -1...1.
    static func values(_ count: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in Double(rng.next() >> 11) / Double(1 << 52) - 1 }
    }

    /// Every column of a row-major array with padding (row stride > columns, more columns
    /// than one block) equals the direct DFT of that column; the padding is untouched.
    @Test(arguments: [(2, 3, 3), (8, 5, 7), (16, 19, 21), (64, 9, 9)])
    func columnsMatchDirectDFT(n: Int, columns: Int, rowStride: Int) {
        let fft = FFT(size: n)
        for sign in [-1.0, 1.0] {
            var re = Self.values(n * rowStride, seed: UInt64(n * 31 + columns))
            var im = Self.values(n * rowStride, seed: UInt64(n * 37 + columns))
            let (re0, im0) = (re, im)
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { i in
                    fft.transformColumns(
                        re: r.baseAddress!, im: i.baseAddress!, count: columns, rowStride: rowStride,
                        sign: sign)
                }
            }
            for s in 0..<rowStride {
                let column = (0..<n).map { $0 * rowStride + s }
                if s >= columns {
                    #expect(column.allSatisfy { re[$0] == re0[$0] && im[$0] == im0[$0] }, "padding column \(s)")
                    continue
                }
                let expected = Self.directDFT(column.map { re0[$0] }, column.map { im0[$0] }, sign: sign)
                for j in 0..<n {
                    #expect(abs(re[column[j]] - expected.re[j]) < 1e-11 * Double(n), "n \(n) column \(s) bin \(j)")
                    #expect(abs(im[column[j]] - expected.im[j]) < 1e-11 * Double(n), "n \(n) column \(s) bin \(j)")
                }
            }
        }
    }

    /// Parseval: sum |X|² = n sum |x|² for every column.
    @Test func parsevalPerColumn() {
        let n = 256, columns = 12
        let fft = FFT(size: n)
        var re = Self.values(n * columns, seed: 5), im = Self.values(n * columns, seed: 6)
        var energy = [Double](repeating: 0, count: columns)
        for j in 0..<n {
            for s in 0..<columns {
                energy[s] += re[j * columns + s] * re[j * columns + s] + im[j * columns + s] * im[j * columns + s]
            }
        }
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                fft.transformColumns(
                    re: r.baseAddress!, im: i.baseAddress!, count: columns, rowStride: columns, sign: -1)
            }
        }
        for s in 0..<columns {
            var spectral = 0.0
            for j in 0..<n {
                spectral += re[j * columns + s] * re[j * columns + s] + im[j * columns + s] * im[j * columns + s]
            }
            #expect(abs(spectral - Double(n) * energy[s]) <= 1e-9 * spectral, "column \(s)")
        }
    }

    /// A cosine of 5 cycles in column 2 gives n/2 at bins 5 and n - 5 and nothing else;
    /// the other (zero) columns stay zero.
    @Test func cosineInOneColumn() {
        let n = 32, columns = 4
        let fft = FFT(size: n)
        var re = [Double](repeating: 0, count: n * columns), im = re
        for j in 0..<n { re[j * columns + 2] = cos(2 * Double.pi * Double(5 * j) / Double(n)) }
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                fft.transformColumns(
                    re: r.baseAddress!, im: i.baseAddress!, count: columns, rowStride: columns, sign: -1)
            }
        }
        for j in 0..<n {
            for s in 0..<columns {
                let expected = s == 2 && (j == 5 || j == n - 5) ? Double(n) / 2 : 0
                #expect(
                    abs(re[j * columns + s] - expected) < 1e-12 && abs(im[j * columns + s]) < 1e-12,
                    "bin \(j) column \(s)")
            }
        }
    }

    /// Same operations in the same order as `transform` on each column alone: equal bits.
    @Test(arguments: [64, 128, 256])
    func bitIdenticalToSingleTransforms(n: Int) {
        let columns = 11
        let fft = FFT(size: n)
        for sign in [-1.0, 1.0] {
            var re = Self.values(n * columns, seed: UInt64(9 + n)), im = Self.values(n * columns, seed: UInt64(10 + n))
            var singleRe = re, singleIm = im
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { i in
                    fft.transformColumns(
                        re: r.baseAddress!, im: i.baseAddress!, count: columns, rowStride: columns, sign: sign)
                }
            }
            singleRe.withUnsafeMutableBufferPointer { r in
                singleIm.withUnsafeMutableBufferPointer { i in
                    for s in 0..<columns {
                        fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: s, stride: columns, sign: sign)
                    }
                }
            }
            #expect(re == singleRe && im == singleIm, "n \(n) sign \(sign)")
        }
    }
}

/// `FFT.transformRows` against the direct DFT, and against `transform` row by row.
@Suite struct FFTRowTests {
    /// Rows (more than one SIMD group, plus left-overs) with padding between them: each
    /// row equals the direct DFT of that row; the padding is untouched.
    @Test(arguments: [(2, 3, 5), (8, 6, 9), (16, 9, 16), (64, 5, 70)])
    func rowsMatchDirectDFT(n: Int, rows: Int, rowStride: Int) {
        let fft = FFT(size: n)
        for sign in [-1.0, 1.0] {
            var re = FFTColumnTests.values(rows * rowStride, seed: UInt64(n * 41 + rows))
            var im = FFTColumnTests.values(rows * rowStride, seed: UInt64(n * 43 + rows))
            let (re0, im0) = (re, im)
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { i in
                    fft.transformRows(
                        re: r.baseAddress!, im: i.baseAddress!, count: rows, rowStride: rowStride, sign: sign)
                }
            }
            for t in 0..<rows {
                let row = (0..<n).map { t * rowStride + $0 }
                let expected = FFTColumnTests.directDFT(row.map { re0[$0] }, row.map { im0[$0] }, sign: sign)
                for j in 0..<n {
                    #expect(abs(re[row[j]] - expected.re[j]) < 1e-11 * Double(n), "n \(n) row \(t) bin \(j)")
                    #expect(abs(im[row[j]] - expected.im[j]) < 1e-11 * Double(n), "n \(n) row \(t) bin \(j)")
                }
                for pad in (t * rowStride + n)..<((t + 1) * rowStride) {
                    #expect(re[pad] == re0[pad] && im[pad] == im0[pad], "padding \(pad)")
                }
            }
        }
    }

    /// Same operations in the same order as `transform` on each row alone: equal bits, at
    /// every size from 2 (no twiddled stage) through 1024, in both directions.
    @Test(arguments: [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
    func bitIdenticalToSingleTransforms(n: Int) {
        let rows = 7
        let fft = FFT(size: n)
        for sign in [-1.0, 1.0] {
            var re = FFTColumnTests.values(n * rows, seed: UInt64(19 + n)),
                im = FFTColumnTests.values(
                    n * rows, seed: UInt64(20 + n))
            var singleRe = re, singleIm = im
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { i in
                    fft.transformRows(re: r.baseAddress!, im: i.baseAddress!, count: rows, rowStride: n, sign: sign)
                }
            }
            singleRe.withUnsafeMutableBufferPointer { r in
                singleIm.withUnsafeMutableBufferPointer { i in
                    for t in 0..<rows {
                        fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: t * n, stride: 1, sign: sign)
                    }
                }
            }
            #expect(re == singleRe && im == singleIm, "n \(n) sign \(sign)")
        }
    }
}
