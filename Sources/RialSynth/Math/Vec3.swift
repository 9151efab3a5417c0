import Foundation

/// A 3-vector of `Float` in camera coordinates (metres): x right, y down, z along the
/// optical axis. A plain struct rather than `SIMD3<Float>` so debug builds stay usable.
struct Vec3: Sendable, Equatable {
    var x: Float
    var y: Float
    var z: Float

    @inline(__always) init(_ x: Float, _ y: Float, _ z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }

    static let zero = Vec3(0, 0, 0)

    @inline(__always) static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inline(__always) static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inline(__always) static prefix func - (a: Vec3) -> Vec3 { Vec3(-a.x, -a.y, -a.z) }
    @inline(__always) static func * (a: Vec3, s: Float) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @inline(__always) static func * (s: Float, a: Vec3) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @inline(__always) static func += (a: inout Vec3, b: Vec3) { a = a + b }

    /// Component-wise product (colours).
    @inline(__always) func scaled(by b: Vec3) -> Vec3 { Vec3(x * b.x, y * b.y, z * b.z) }
    @inline(__always) func dot(_ b: Vec3) -> Float { x * b.x + y * b.y + z * b.z }
    @inline(__always) func cross(_ b: Vec3) -> Vec3 {
        Vec3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }
    @inline(__always) var length: Float { dot(self).squareRoot() }
    /// The unit vector; the zero vector stays zero.
    @inline(__always) var normalized: Vec3 {
        let l = length
        return l > 0 ? self * (1 / l) : self
    }

    /// Rotates `self` about the unit `axis` by `angle` radians (Rodrigues' formula).
    func rotated(about axis: Vec3, by angle: Float) -> Vec3 {
        let c = cos(angle), s = sin(angle)
        return self * c + axis.cross(self) * s + axis * (axis.dot(self) * (1 - c))
    }
}

/// An orthonormal frame: `origin` plus axes `u`, `v`, `w` (right-handed or not, the
/// renderer only uses projections onto the axes).
struct Frame: Sendable {
    var origin: Vec3
    var u: Vec3
    var v: Vec3
    var w: Vec3

    /// Camera coordinates of the local point (a, b, c).
    @inline(__always) func point(_ a: Float, _ b: Float, _ c: Float) -> Vec3 {
        origin + u * a + v * b + w * c
    }
    /// Camera-frame direction of the local direction (a, b, c).
    @inline(__always) func direction(_ a: Float, _ b: Float, _ c: Float) -> Vec3 {
        u * a + v * b + w * c
    }
}
