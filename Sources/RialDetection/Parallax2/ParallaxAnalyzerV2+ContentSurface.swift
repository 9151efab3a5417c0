import Foundation

extension ParallaxAnalyzerV2 {
    /// A disparity surface in working px: `d = c0 + c1 u + c2 v + c3 u² + c4 u v + c5 v²`
    /// with `u = (x - x0) / s`, `v = (y - y0) / s` (centred and scaled for conditioning).
    /// A plane has `c3 = c4 = c5 = 0`.
    struct SurfaceModel: Equatable {
        var x0: Double, y0: Double, s: Double
        var c: (Double, Double, Double, Double, Double, Double)

        static func == (l: SurfaceModel, r: SurfaceModel) -> Bool {
            l.x0 == r.x0 && l.y0 == r.y0 && l.s == r.s && l.c == r.c
        }

        init(plane m: ParallaxAnalyzer.AffineModel, x0: Double, y0: Double, s: Double) {
            self.x0 = x0
            self.y0 = y0
            self.s = s
            c = (m.a * x0 + m.b * y0 + m.c, m.a * s, m.b * s, 0, 0, 0)
        }

        var isPlane: Bool { c.3 == 0 && c.4 == 0 && c.5 == 0 }

        @inline(__always) func disparity(_ x: Double, _ y: Double) -> Double {
            let u = (x - x0) / s, v = (y - y0) / s
            return c.0 + c.1 * u + c.2 * v + c.3 * u * u + c.4 * u * v + c.5 * v * v
        }

        /// Largest absolute eigenvalue of the Hessian of `d(x, y)`, working px per px².
        var secondDerivative: Double {
            let p = c.3 + c.5, q = ((c.3 - c.5) * (c.3 - c.5) + c.4 * c.4).squareRoot()
            return Swift.max(abs(p + q), abs(p - q)) / (s * s)
        }

        /// The plane `d = a x + b y + c` tangent to the model at `(x0, y0)`.
        var tangentPlane: ParallaxAnalyzer.AffineModel {
            let a = c.1 / s, b = c.2 / s
            return ParallaxAnalyzer.AffineModel(a: a, b: b, c: c.0 - a * x0 - b * y0)
        }

        /// Least squares (6x6 normal equations, Cholesky) of the quadric through the
        /// points `i` of `members`, in this model's frame; nil with fewer than 12 points or
        /// a singular system (points on a line or a conic).
        func quadricRefit(x: [Double], y: [Double], d: [Double], members: [Int]) -> SurfaceModel? {
            guard members.count >= 12 else { return nil }
            var normal = [Double](repeating: 0, count: 36), rhs = [Double](repeating: 0, count: 6)
            var phi = [Double](repeating: 0, count: 6)
            for i in members {
                let u = (x[i] - x0) / s, v = (y[i] - y0) / s
                phi[0] = 1
                phi[1] = u
                phi[2] = v
                phi[3] = u * u
                phi[4] = u * v
                phi[5] = v * v
                for j in 0..<6 {
                    rhs[j] += phi[j] * d[i]
                    for k in 0...j { normal[j * 6 + k] += phi[j] * phi[k] }
                }
            }
            guard let solution = DepthAnalyzerV2.SheetModel.choleskySolve(&normal, rhs),
                solution.allSatisfy({ $0.isFinite })
            else { return nil }
            var fitted = self
            fitted.c = (solution[0], solution[1], solution[2], solution[3], solution[4], solution[5])
            return fitted
        }

        /// Least-squares plane through `members` in this frame; nil when collinear.
        func planeRefit(x: [Double], y: [Double], d: [Double], members: [Int]) -> SurfaceModel? {
            var sums = ParallaxAnalyzer.AffineAccumulator(originX: x0, originY: y0)
            for i in members { sums.add(x[i], y[i], d[i]) }
            return sums.model.map { SurfaceModel(plane: $0, x0: x0, y0: y0, s: s) }
        }
    }

    /// The blocks as the surface analysis sees them: grid cell `(i, j)` of the matcher,
    /// its centre (working px) and disparity (NaN = invalid), and whether it lies in the
    /// content window.
    struct BlockPoints {
        var columns: Int, rows: Int
        var x: [Double], y: [Double], d: [Double]
        var window: [Bool]
        var valid: [Int]
        var windowValid: [Int]
    }

    /// What the content-surface analysis measures (see `Result` for each field).
    struct ContentSurface {
        var model: SurfaceModel
        var members = 0
        var windowMembers = 0
        var share = 0.0
        var windowShare = 0.0
        var occluderShare = 0.0
        var freeEdgeShare = 0.0
        var residualRatio = 0.0
        var offSurfaceResidualRatio = 0.0
        var structureShare = 0.0
    }

    /// The content surface and how the scene around it is arranged.
    ///
    /// 1. RANSAC plane (`ParallaxAnalyzer.fitPlane`, band `t`) on the valid window blocks
    ///    (all valid blocks when the window holds fewer than 16).
    /// 2. The surface: valid blocks with `|d - d̂| <= t`. Up to `sheetRounds` times
    ///    re-fit a quadric to the surface and re-select; a quadric whose largest second
    ///    derivative exceeds `maxSecondDerivative` (working px per px²) or that leaves no
    ///    window block on the surface is refused, and the plane is refitted by least
    ///    squares to the surface instead (the final model is that plane when no quadric
    ///    is kept).
    /// 3. Measures, with `e = d - d̂` (positive: in front) and the step
    ///    `s(d̂) = max(t, relief d̂²)` (`relief` = `h / (f B)` in working units, 0 when
    ///    unknown):
    ///    - `share`, `windowShare`: surface blocks over valid blocks, in the window over
    ///      valid window blocks;
    ///    - `occluderShare`: valid non-surface blocks in the window or enclosed by the
    ///      surface (not 4-connected to the grid border through non-surface blocks) with
    ///      `e > s` and a 4-neighbour that also has `e > s` at a disparity within `2 t`
    ///      of theirs, over the valid blocks of window ∪ surface ∪ enclosed;
    ///    - `freeEdgeShare`: over 4-neighbour pairs (surface block, non-surface block)
    ///      whose other block is outside the outline or valid with `|e| > s`, the share
    ///      whose other block is valid and behind (`e < 0`); 0 without such pairs;
    ///    - `residualRatio`: RMS of `e` over the surface / σ;
    ///    - `offSurfaceResidualRatio`: median `|e|` of the valid window blocks off the
    ///      surface / σ (0 when there are none).
    ///
    /// Nil when no plane can be fitted (fewer than 3 points, or collinear ones).
    static func contentSurface(
        _ b: BlockPoints, threshold t: Double, noise: Double, relief: Double,
        maxSecondDerivative: Double, configuration c: Configuration
    ) -> ContentSurface? {
        let fitSet = b.windowValid.count >= 16 ? b.windowValid : b.valid
        let fx = fitSet.map { b.x[$0] }, fy = fitSet.map { b.y[$0] }, fd = fitSet.map { b.d[$0] }
        let cellArea = Double(c.gridStep * c.gridStep)
        guard
            let fit = ParallaxAnalyzer.fitPlane(
                x: fx, y: fy, d: fd, threshold: t, minimumArea2: cellArea, configuration: c.matching)
        else { return nil }
        let width = Double(b.columns * c.gridStep), height = Double(b.rows * c.gridStep)
        let x0 = Double(c.blockRadius) + Double((b.columns - 1) * c.gridStep) / 2
        let y0 = Double(c.blockRadius) + Double((b.rows - 1) * c.gridStep) / 2
        var model = SurfaceModel(plane: fit.model, x0: x0, y0: y0, s: Swift.max(width, height) / 2)

        func members(of m: SurfaceModel) -> [Int] {
            b.valid.filter { abs(b.d[$0] - m.disparity(b.x[$0], b.y[$0])) <= t }
        }
        func windowCount(_ list: [Int]) -> Int { list.reduce(0) { $0 + (b.window[$1] ? 1 : 0) } }
        var surface = members(of: model)
        for _ in 0..<c.sheetRounds {
            guard let sheet = model.quadricRefit(x: b.x, y: b.y, d: b.d, members: surface),
                sheet.secondDerivative <= maxSecondDerivative
            else { break }
            let next = members(of: sheet)
            guard windowCount(next) > 0 else { break }
            model = sheet
            surface = next
        }
        if model.isPlane, let refined = model.planeRefit(x: b.x, y: b.y, d: b.d, members: surface) {
            let next = members(of: refined)
            if windowCount(next) > 0 {
                model = refined
                surface = next
            }
        }

        var result = ContentSurface(model: model)
        let cells = b.columns * b.rows
        var isMember = [Bool](repeating: false, count: cells)
        for i in surface { isMember[i] = true }
        var residual = [Double](repeating: .nan, count: cells)
        for i in b.valid { residual[i] = b.d[i] - model.disparity(b.x[i], b.y[i]) }
        @inline(__always) func step(_ i: Int) -> Double {
            let predicted = model.disparity(b.x[i], b.y[i])
            return Swift.max(t, relief * predicted * predicted)
        }
        result.members = surface.count
        result.windowMembers = windowCount(surface)
        result.share = b.valid.isEmpty ? 0 : Double(surface.count) / Double(b.valid.count)
        result.windowShare =
            b.windowValid.isEmpty ? 0 : Double(result.windowMembers) / Double(b.windowValid.count)

        // Blocks outside the surface's outline: reachable from the border through non-surface blocks.
        let w = b.columns, h = b.rows
        var outside = [Bool](repeating: false, count: cells)
        var stack: [Int] = []
        stack.reserveCapacity(cells)
        func seed(_ i: Int) {
            if !isMember[i] && !outside[i] {
                outside[i] = true
                stack.append(i)
            }
        }
        for xx in 0..<w {
            seed(xx)
            seed((h - 1) * w + xx)
        }
        for yy in 0..<h {
            seed(yy * w)
            seed(yy * w + w - 1)
        }
        while let i = stack.popLast() {
            let xx = i % w, yy = i / w
            if xx > 0 { seed(i - 1) }
            if xx + 1 < w { seed(i + 1) }
            if yy > 0 { seed(i - w) }
            if yy + 1 < h { seed(i + w) }
        }

        var pairs = 0, behind = 0
        for i in surface {
            let xx = i % w, yy = i / w
            @inline(__always) func pair(_ j: Int) {
                guard !isMember[j] else { return }
                let valid = b.d[j].isFinite
                if !outside[j] && !(valid && abs(residual[j]) > step(j)) { return }
                pairs += 1
                if valid && residual[j] < 0 { behind += 1 }
            }
            if xx > 0 { pair(i - 1) }
            if xx + 1 < w { pair(i + 1) }
            if yy > 0 { pair(i - w) }
            if yy + 1 < h { pair(i + w) }
        }
        result.freeEdgeShare = pairs > 0 ? Double(behind) / Double(pairs) : 0

        // Off-surface structure: a valid block off the surface by more than the step,
        // with a 4-neighbour off it on the same side at a disparity within 2 t (a
        // physical surface spans blocks with a smooth disparity; an isolated false match,
        // e.g. on a display's moire, does not). Occluders are such blocks in front.
        @inline(__always) func side(_ i: Int) -> Int {
            guard !isMember[i], b.d[i].isFinite else { return 0 }
            let e = residual[i], s = step(i)
            return e > s ? 1 : (e < -s ? -1 : 0)
        }
        func coherent(_ i: Int) -> Int {
            let own = side(i)
            guard own != 0 else { return 0 }
            let xx = i % w, yy = i / w
            @inline(__always) func agrees(_ j: Int) -> Bool { side(j) == own && abs(b.d[j] - b.d[i]) <= 2 * t }
            if (xx > 0 && agrees(i - 1)) || (xx + 1 < w && agrees(i + 1)) || (yy > 0 && agrees(i - w))
                || (yy + 1 < h && agrees(i + w))
            {
                return own
            }
            return 0
        }
        var region = 0, occluders = 0
        for i in b.valid {
            let member = isMember[i], enclosed = !member && !outside[i]
            guard b.window[i] || member || enclosed else { continue }
            region += 1
            if !member && coherent(i) > 0 { occluders += 1 }
        }
        var structure = 0
        for i in b.windowValid where coherent(i) != 0 { structure += 1 }
        result.structureShare = b.windowValid.isEmpty ? 0 : Double(structure) / Double(b.windowValid.count)
        result.occluderShare = region > 0 ? Double(occluders) / Double(region) : 0

        var squares = 0.0
        for i in surface { squares += residual[i] * residual[i] }
        result.residualRatio = surface.isEmpty ? 0 : (squares / Double(surface.count)).squareRoot() / noise
        var off = b.windowValid.filter { !isMember[$0] }.map { abs(residual[$0]) }
        if !off.isEmpty {
            off.sort()
            let m = off.count
            result.offSurfaceResidualRatio = (m % 2 == 1 ? off[m / 2] : (off[m / 2 - 1] + off[m / 2]) / 2) / noise
        }
        return result
    }
}
