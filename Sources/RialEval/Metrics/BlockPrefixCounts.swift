/// Cumulative sample counts per column of a ranked entry list (`TiedBlockEntries`) at
/// chosen tied-block boundaries: what makes a bootstrap resample's statistics cost
/// O(columns) per boundary instead of a pass over every sample.
///
/// A resample weights every sample by its cluster's multiplicity, so a weighted count
/// up to a boundary is `Σ_c w(c) · counts[row][c]` over the columns `c` (each column one
/// cluster, or one cluster and class): exact integers, equal to the sum a pass over the
/// entries gives. Row `r` counts every entry of the blocks `0..<blocks[r]`.
struct BlockPrefixCounts: Sendable {
    /// Columns per row.
    let width: Int
    /// Block index of each row (increasing): the row counts the blocks before it.
    let blocks: [Int]
    /// Entry index of each row: the first entry of block `blocks[r]`.
    let entries: [Int]
    /// Row-major, `blocks.count × width`.
    let counts: [Int32]

    var rows: Int { blocks.count }

    /// Rows at the block indices `at` (non-decreasing, each in `0...blockEnds.count`) of
    /// entries with column `column[e]` and sample count `count[e]`, tied blocks ending at
    /// `blockEnds` (exclusive entry indices).
    init(column: [Int32], count: [Int32], blockEnds: [Int32], width: Int, at rowBlocks: [Int]) {
        self.width = width
        blocks = rowBlocks
        var entries: [Int] = []
        entries.reserveCapacity(rowBlocks.count)
        var table = [Int32](repeating: 0, count: rowBlocks.count * width)
        var running = [Int32](repeating: 0, count: width)
        var e = 0, b = 0
        for (r, target) in rowBlocks.enumerated() {
            while b < target {
                let end = Int(blockEnds[b])
                while e < end {
                    running[Int(column[e])] += count[e]
                    e += 1
                }
                b += 1
            }
            entries.append(e)
            table.withUnsafeMutableBufferPointer { t in
                running.withUnsafeBufferPointer {
                    t.baseAddress!.advanced(by: r * width).update(from: $0.baseAddress!, count: width)
                }
            }
        }
        self.entries = entries
        counts = table
    }

    /// Rows at block 0 and then at the first block boundary at or after every further
    /// `spacing` entries.
    static func blocks(every spacing: Int, blockEnds: [Int32]) -> [Int] {
        var rows = [0]
        var next = spacing
        for (b, end) in blockEnds.enumerated() where Int(end) >= next {
            rows.append(b + 1)
            next = Int(end) + spacing
        }
        return rows
    }

    /// `Σ_c weight(c) · counts[row][c]` for the columns `columns`.
    @inline(__always)
    func weighted(row: Int, columns: Range<Int>, weight: (Int) -> Int) -> Int {
        counts.withUnsafeBufferPointer { t in
            var sum = 0
            let base = row * width
            for c in columns { sum &+= weight(c) &* Int(t[base + c]) }
            return sum
        }
    }
}
