import Foundation
import RialMedia

/// A small ray-caster for depth keyframes: planes and axis-aligned boxes seen by a pinhole
/// camera on a path, rendered as LiDAR-like depth maps (metres along the optical axis, NaN
/// where a ray hits nothing). World coordinates: x right, y down, z forward (the camera at
/// rest looks along +z). No noise: the tests argue their expectations from the geometry.
public struct DepthScene: Sendable {
    public enum Shape: Sendable {
        /// The plane `normal · X = offset`.
        case plane(normal: SIMD3<Double>, offset: Double)
        /// The axis-aligned box between two corners.
        case box(min: SIMD3<Double>, max: SIMD3<Double>)
    }

    public var shapes: [Shape]

    public init(_ shapes: [Shape]) { self.shapes = shapes }

    /// A camera pose: position in the world and rotation (camera to world) `Ry(yaw) Rx(-pitchDown) Rz(roll)`,
    /// angles in radians (`pitchDown` > 0 tilts the view toward +y, down).
    public struct Pose: Sendable {
        public var position: SIMD3<Double>
        public var yaw: Double, pitchDown: Double, roll: Double

        public init(position: SIMD3<Double>, yaw: Double = 0, pitchDown: Double = 0, roll: Double = 0) {
            self.position = position
            self.yaw = yaw
            self.pitchDown = pitchDown
            self.roll = roll
        }

        /// `R v` for a camera-frame vector `v`.
        func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
            let (cz, sz) = (cos(roll), sin(roll))
            let a = SIMD3(cz * v.x - sz * v.y, sz * v.x + cz * v.y, v.z)
            let p = -pitchDown
            let (cx, sx) = (cos(p), sin(p))
            let b = SIMD3(a.x, cx * a.y - sx * a.z, sx * a.y + cx * a.z)
            let (cy, sy) = (cos(yaw), sin(yaw))
            return SIMD3(cy * b.x + sy * b.z, b.y, -sy * b.x + cy * b.z)
        }

        /// A hand-held phone at keyframe `k` (10 fps) around `base`: sways of 10 cm left and
        /// right (4 s period), 3 cm up and down, 4 cm in and out, yaw ±3°, pitch ±2°, roll ±1°.
        public static func handHeld(_ k: Int, base: Pose) -> Pose {
            let t = Double(k) / 10, tau = 2 * Double.pi, degree = Double.pi / 180
            return Pose(
                position: base.position
                    + SIMD3(0.10 * sin(tau * t / 4), 0.03 * sin(tau * t / 2.5), 0.04 * sin(tau * t / 6)),
                yaw: base.yaw + 3 * degree * sin(tau * t / 5),
                pitchDown: base.pitchDown + 2 * degree * sin(tau * t / 3.5),
                roll: base.roll + 1 * degree * sin(tau * t / 7))
        }
    }

    /// The nearest hit along `origin + t direction`, `t > 0`; nil when nothing is hit.
    func hit(origin o: SIMD3<Double>, direction d: SIMD3<Double>) -> Double? {
        var best = Double.infinity
        for shape in shapes {
            switch shape {
            case .plane(let n, let offset):
                let denominator = (n * d).sum()
                guard abs(denominator) > 1e-12 else { continue }
                let t = (offset - (n * o).sum()) / denominator
                if t > 1e-9 { best = min(best, t) }
            case .box(let lo, let hi):
                var near = -Double.infinity, far = Double.infinity
                for axis in 0..<3 {
                    if abs(d[axis]) < 1e-15 {
                        if o[axis] < lo[axis] || o[axis] > hi[axis] { near = .infinity }
                        continue
                    }
                    let t1 = (lo[axis] - o[axis]) / d[axis], t2 = (hi[axis] - o[axis]) / d[axis]
                    near = max(near, min(t1, t2))
                    far = min(far, max(t1, t2))
                }
                if near <= far && near > 1e-9 { best = min(best, near) }
            }
        }
        return best.isFinite ? best : nil
    }

    /// The depth map seen from `pose` with pinhole intrinsics (pixel centres at integer
    /// coordinates): each pixel's ray `((x - cx)/fx, (y - cy)/fy, 1)` in camera
    /// coordinates, so the hit's ray parameter is its depth along the optical axis.
    public func render(
        width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double, pose: Pose
    ) -> DepthMap {
        var metres = [Float](repeating: .nan, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let ray = SIMD3((Double(x) - cx) / fx, (Double(y) - cy) / fy, 1)
                if let t = hit(origin: pose.position, direction: pose.rotate(ray)) { metres[y * width + x] = Float(t) }
            }
        }
        return DepthMap(width: width, height: height, metres: metres)!
    }

    /// `count` keyframes at 10 fps seen along `path`, with the intrinsics of a
    /// `horizontalFieldOfViewDegrees` field of view over the width, principal point at the
    /// centre (the assumption of depth/2 and temporal/2 when intrinsics are unknown).
    public func keyframes(
        count: Int, width: Int, height: Int, horizontalFieldOfViewDegrees: Double = 65, path: (Int) -> Pose
    ) -> DepthKeyframes {
        let f = Double(width) / (2 * tan(horizontalFieldOfViewDegrees * Double.pi / 360))
        let frames = (0..<count).map { k in
            DepthKeyframe(
                timestamp: Double(k) / 10, videoFrameIndex: 3 * k,
                depth: render(
                    width: width, height: height, fx: f, fy: f, cx: Double(width - 1) / 2, cy: Double(height - 1) / 2,
                    pose: path(k)))
        }
        return try! DepthKeyframes(frames)
    }
}
