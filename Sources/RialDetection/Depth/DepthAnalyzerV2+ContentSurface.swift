import Foundation
import RialMedia

extension DepthAnalyzerV2 {
    /// The sample grid: cell `(i, j)` is depth pixel `(i stride, j stride)`, back-projected
    /// (metres), `z = 0` when the pixel is invalid, with `σ(z)` and the inlier band.
    struct SampleGrid {
        var width: Int, height: Int
        var x: [Double], y: [Double], z: [Double], sigma: [Double], band: [Double]
        /// Cell is inside the content window.
        var window: [Bool]
        var windowValid: Int
        var valid: Int
    }

    /// What the content-surface analysis measures (see `Result` for each field).
    struct ContentSurface {
        var share = 0.0
        var windowShare = 0.0
        var tiltDegrees = 0.0
        var depth = 0.0
        var curvature = 0.0
        var residualRatio = 0.0
        var freeEdgeShare = 0.0
        var occluderShare = 0.0
    }

    /// The content surface: the plane or gently curved sheet that holds most of the
    /// content window, and how the scene around it is arranged.
    ///
    /// 1. RANSAC plane (`ransacPlane`, generator seeded `seed + 1`) on the valid cells of
    ///    the window.
    /// 2. Selection: the valid cells within the band of the model (`|residual| <=
    ///    inlierSigmas σ(z)`), split into 4-connected components on the grid; the surface
    ///    is the component holding most window cells (the first in scan order on a tie).
    /// 3. Up to `sheetRounds` times: re-fit a quadric height field to the surface
    ///    (`SheetModel.refitted`) and select again; stop early when the fit is singular,
    ///    bends more than `maxSheetCurvature` or leaves no window cell on the surface.
    /// 4. Measures, with `e` the residual against the final model (positive = behind):
    ///    - `share`: surface cells / valid cells; `windowShare`: surface window cells /
    ///      valid window cells;
    ///    - `freeEdgeShare`: over the 4-neighbour pairs (surface cell, non-surface cell)
    ///      whose non-surface cell is outside the surface's outline (4-connected to the
    ///      grid border through non-surface cells) or, inside it, valid and off the
    ///      surface by more than `max(inlierSigmas σ(z), minOccluderHeight)` (an object
    ///      standing on it, a hole onto something far behind; not a sensor outlier or a
    ///      sheet lying on it), the share whose non-surface cell is valid and behind the
    ///      surface (`e > 0`, or its ray misses the surface's plane): the surface ends at
    ///      a step down to something behind it, as a screen's bezel or a held sheet's
    ///      edge does. The rest are pairs to something in front (a crease into another
    ///      surface, an object) or to invalid cells. 0 without such pairs (a surface
    ///      filling the grid);
    ///    - `occluderShare`: valid non-surface cells, in the window or enclosed by the
    ///      surface (not 4-connected to the grid border through non-surface cells), that
    ///      are in front of the surface by more than `max(inlierSigmas σ(z),
    ///      minOccluderHeight)`, over the valid cells of window ∪ surface ∪ enclosed cells;
    ///    - `tiltDegrees`: angle between the RANSAC plane's normal and the optical axis;
    ///    - `depth`: median depth of the surface cells; `curvature`: the sheet's
    ///      (`SheetModel.curvature`); `residualRatio`: rms of `e / σ(z)` over the surface.
    ///
    /// Nil when no plane can be fitted to the window (fewer than 3 valid cells, or
    /// collinear ones).
    ///
    /// - Complexity: O(cells (1 + sheetRounds)) plus one RANSAC plane.
    static func contentSurface(
        _ grid: SampleGrid, points: SamplePoints, pointCells: [Int32],
        configuration c: Configuration
    ) -> ContentSurface? {
        let cells = grid.width * grid.height
        // 1. RANSAC on the window points (all points when the window is nearly empty).
        var windowPoints: [Int32] = []
        windowPoints.reserveCapacity(grid.windowValid)
        let wholeMap = grid.windowValid < 16
        for (p, cell) in pointCells.enumerated() where wholeMap || grid.window[Int(cell)] {
            windowPoints.append(Int32(p))
        }
        var rng = SplitMix64(seed: c.seed &+ 1)
        guard
            let plane = windowPoints.withUnsafeBufferPointer({
                ransacPlane(points, active: $0, rng: &rng, configuration: c)
            })
        else { return nil }

        var window = grid.window
        var windowValid = grid.windowValid
        if wholeMap {
            for i in 0..<cells { window[i] = true }
            windowValid = grid.valid
        }

        var selection = Selection(cells: cells)
        var candidate = Selection(cells: cells)
        var model = SheetModel(plane: plane)
        var rounds = 0
        grid.x.withUnsafeBufferPointer { x in
            grid.y.withUnsafeBufferPointer { y in
                grid.z.withUnsafeBufferPointer { z in
                    grid.sigma.withUnsafeBufferPointer { sigma in
                        grid.band.withUnsafeBufferPointer { band in
                            window.withUnsafeBufferPointer { window in
                                selection.select(
                                    model, width: grid.width, height: grid.height, x: x, y: y, z: z, band: band,
                                    window: window)
                                while rounds < c.sheetRounds, selection.windowCount > 0 {
                                    guard
                                        let fitted = selection.members.withUnsafeBufferPointer({
                                            model.refitted(x: x, y: y, z: z, sigma: sigma, cells: $0)
                                        }), fitted.curvature <= c.maxSheetCurvature
                                    else { break }
                                    candidate.select(
                                        fitted, width: grid.width, height: grid.height, x: x, y: y, z: z, band: band,
                                        window: window)
                                    guard candidate.windowCount > 0 else { break }
                                    swap(&selection, &candidate)
                                    model = fitted
                                    rounds += 1
                                }
                            }
                        }
                    }
                }
            }
        }

        var surface = ContentSurface()
        surface.tiltDegrees = plane.oriented.tiltDegrees
        surface.curvature = model.curvature
        let members = selection.members
        guard !members.isEmpty else { return surface }
        surface.share = Double(members.count) / Double(grid.valid)
        surface.windowShare = windowValid > 0 ? Double(selection.windowCount) / Double(windowValid) : 0

        let residual = selection.residual
        let onSurface = selection.label, chosen = selection.chosen
        @inline(__always) func isMember(_ i: Int) -> Bool { onSurface[i] == chosen }

        // Residual ratio and median depth of the surface.
        var squares = 0.0
        var depths = [Double]()
        depths.reserveCapacity(members.count)
        for cell in members {
            let i = Int(cell)
            let r = residual[i] / grid.sigma[i]
            squares += r * r
            depths.append(grid.z[i])
        }
        surface.residualRatio = (squares / Double(members.count)).squareRoot()
        surface.depth = quantiles(depths, [0.5])[0]

        // Cells enclosed by the surface: not reachable from the border through non-surface cells.
        let w = grid.width, h = grid.height
        var outside = [Bool](repeating: false, count: cells)
        var stack: [Int32] = []
        stack.reserveCapacity(cells)
        func seed(_ i: Int) {
            if !isMember(i) && !outside[i] {
                outside[i] = true
                stack.append(Int32(i))
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
        while let top = stack.popLast() {
            let i = Int(top), xx = i % w, yy = i / w
            if xx > 0 { seed(i - 1) }
            if xx + 1 < w { seed(i + 1) }
            if yy > 0 { seed(i - w) }
            if yy + 1 < h { seed(i + w) }
        }

        // Free edges: pairs (surface cell, non-surface neighbour) on the outline, or to a
        // hole cell that stands off the surface by more than the occluder height.
        var pairs = 0, behind = 0
        for cell in members {
            let i = Int(cell), xx = i % w, yy = i / w
            @inline(__always) func pair(_ j: Int) {
                guard !isMember(j) else { return }
                let valid = grid.z[j] > 0
                if !outside[j] && !(valid && abs(residual[j]) > Swift.max(grid.band[j], c.minOccluderHeight)) { return }
                pairs += 1
                if valid && residual[j] > 0 { behind += 1 }
            }
            if xx > 0 { pair(i - 1) }
            if xx + 1 < w { pair(i + 1) }
            if yy > 0 { pair(i - w) }
            if yy + 1 < h { pair(i + w) }
        }
        surface.freeEdgeShare = pairs > 0 ? Double(behind) / Double(pairs) : 0

        // Occluders in the window or inside the surface's outline.
        var region = 0, occluders = 0
        for i in 0..<cells where grid.z[i] > 0 {
            let member = isMember(i), enclosed = !member && !outside[i]
            guard window[i] || member || enclosed else { continue }
            region += 1
            if !member && (window[i] || enclosed)
                && residual[i] < -Swift.max(grid.band[i], c.minOccluderHeight)
            {
                occluders += 1
            }
        }
        surface.occluderShare = region > 0 ? Double(occluders) / Double(region) : 0
        return surface
    }

    /// One selection of the content surface: residuals of every valid cell against a
    /// model, and the component of in-band cells holding most window cells.
    struct Selection {
        /// Component label per cell (-1: not visited or not in the band).
        var label: [Int32]
        var residual: [Double]
        var members: [Int32] = []
        var chosen: Int32 = -2
        var windowCount = 0
        private var stack: [Int32] = []

        init(cells: Int) {
            label = [Int32](repeating: -1, count: cells)
            residual = [Double](repeating: .nan, count: cells)
            stack.reserveCapacity(cells)
        }

        mutating func select(
            _ model: SheetModel, width w: Int, height h: Int, x: UnsafeBufferPointer<Double>,
            y: UnsafeBufferPointer<Double>, z: UnsafeBufferPointer<Double>,
            band: UnsafeBufferPointer<Double>, window: UnsafeBufferPointer<Bool>
        ) {
            let cells = w * h
            for i in 0..<cells { label[i] = -1 }
            // Without branches (`residual` computes its division even for a ray that misses
            // the plane, then discards it), so this loop runs two cells per instruction.
            residual.withUnsafeMutableBufferPointer { residual in
                for i in 0..<cells {
                    let r = model.residual(x[i], y[i], z[i])
                    residual[i] = z[i] > 0 ? r : .nan
                }
            }
            @inline(__always) func inBand(_ i: Int) -> Bool { abs(residual[i]) <= band[i] }
            var next: Int32 = 0
            var bestCount = 0, bestLabel: Int32 = -2
            for start in 0..<cells where window[start] && label[start] < 0 && inBand(start) {
                var count = 0
                label[start] = next
                stack.append(Int32(start))
                while let top = stack.popLast() {
                    let i = Int(top), xx = i % w, yy = i / w
                    if window[i] { count += 1 }
                    @inline(__always) func visit(_ j: Int) {
                        if label[j] < 0 && inBand(j) {
                            label[j] = next
                            stack.append(Int32(j))
                        }
                    }
                    if xx > 0 { visit(i - 1) }
                    if xx + 1 < w { visit(i + 1) }
                    if yy > 0 { visit(i - w) }
                    if yy + 1 < h { visit(i + w) }
                }
                if count > bestCount {
                    bestCount = count
                    bestLabel = next
                }
                next += 1
            }
            chosen = bestLabel
            windowCount = bestCount
            members.removeAll(keepingCapacity: true)
            if bestCount > 0 {
                for i in 0..<cells where label[i] == bestLabel { members.append(Int32(i)) }
            }
        }
    }
}
