import Foundation

/// Procedural textures, used when the caller passes no real textures and for paper
/// fibres and text pages. All are tileable (the lattice wraps), values in 0...1 linear
/// reflectance (albedo) or sRGB-encoded (text pages, which are display/print content).
enum ProceduralTextures {
    /// The bank, built once per process from a fixed seed (deterministic, thread-safe
    /// lazy initialisation of a static).
    static let bank: Bank = Bank()

    /// Indices into `Bank.textures`.
    enum Kind: Int, CaseIterable {
        case plaster, stone, bricks, woodPlanks, fabric, tiles, paperFibres, textPage, textPageColor
    }

    final class Bank: Sendable {
        let textures: [MipTexture]
        init() {
            var rng = SynthRandom(seed: 0x7E47_0BA2_2024_0001)
            var list: [MipTexture] = []
            for kind in Kind.allCases {
                list.append(ProceduralTextures.make(kind, rng: &rng))
            }
            textures = list
        }
        subscript(kind: Kind) -> MipTexture { textures[kind.rawValue] }
        /// Albedo textures usable on room surfaces.
        static let surfaceKinds: [Kind] = [.plaster, .stone, .bricks, .woodPlanks, .fabric, .tiles]
    }

    static func make(_ kind: Kind, rng: inout SynthRandom) -> MipTexture {
        switch kind {
        case .plaster:
            let n = ValueNoise(period: 16 << 4, rng: &rng)
            // Painted plaster: nearly uniform, a faint fine grain and very faint
            // large-scale unevenness (no cloudy blotches).
            return grey(size: 256) { x, y in
                0.70 + 0.05 * n.fbm(x * 64, y * 64, octaves: 3, periodScale: 64)
                    + 0.05 * n.fbm(x * 4, y * 4, octaves: 2, periodScale: 4)
            }
        case .stone:
            let n = ValueNoise(period: 8 << 5, rng: &rng)
            return grey(size: 256) { x, y in
                let f = n.fbm(x * 8, y * 8, octaves: 6, periodScale: 8)
                return 0.35 + 0.45 * f * f
            }
        case .bricks: return bricks(rng: &rng)
        case .woodPlanks: return wood(rng: &rng)
        case .fabric:
            let n = ValueNoise(period: 64 << 2, rng: &rng)
            return grey(size: 256) { x, y in
                let weave = 0.5 + 0.5 * FastMath.cos2pi(x * 128) * FastMath.cos2pi(y * 128)
                return 0.45 + 0.15 * weave + 0.2 * (n.fbm(x * 64, y * 64, octaves: 3, periodScale: 64) - 0.5)
            }
        case .tiles: return tiles(rng: &rng)
        case .paperFibres: return paper(rng: &rng)
        case .textPage: return TextPage.render(width: 512, height: 724, colour: false, rng: &rng)
        case .textPageColor: return TextPage.render(width: 512, height: 724, colour: true, rng: &rng)
        }
    }

    private static func grey(size: Int, _ f: (Float, Float) -> Float) -> MipTexture {
        var data = [Float](repeating: 0, count: size * size)
        let inv = 1 / Float(size)
        for y in 0..<size {
            for x in 0..<size {
                data[y * size + x] = min(max(f((Float(x) + 0.5) * inv, (Float(y) + 0.5) * inv), 0), 1)
            }
        }
        return MipTexture(width: size, height: size, channels: 1, level0: data)
    }

    private static func rgb(size: Int, _ f: (Float, Float) -> (Float, Float, Float)) -> MipTexture {
        let n = size * size
        var data = [Float](repeating: 0, count: 3 * n)
        let inv = 1 / Float(size)
        for y in 0..<size {
            for x in 0..<size {
                let c = f((Float(x) + 0.5) * inv, (Float(y) + 0.5) * inv)
                data[y * size + x] = min(max(c.0, 0), 1)
                data[n + y * size + x] = min(max(c.1, 0), 1)
                data[2 * n + y * size + x] = min(max(c.2, 0), 1)
            }
        }
        return MipTexture(width: size, height: size, channels: 3, level0: data)
    }

    /// Running bond bricks laid by hand, 16 courses of 5 bricks per tile: course
    /// heights vary by +- 20 % (normalised to fill the tile), each course starts at its
    /// own offset (half bond +- 0.15 brick), every head joint is displaced by up to
    /// +- 0.12 brick (bricks of unequal length), bed joints wander by up to +- 0.06
    /// course and vary in width; per-brick colour (value 0.6-1.25, red/brown hue
    /// shifts), per-brick shading slope, grain and pits. The irregularity keeps a level
    /// brick wall from being an exact 2D grating.
    private static func bricks(rng: inout SynthRandom) -> MipTexture {
        let n = ValueNoise(period: 32 << 3, rng: &rng)
        let rows = 16, cols = 5
        var colours: [(Float, Float, Float)] = []
        var slopes: [Float] = []
        for _ in 0..<(rows * cols) {
            let k = rng.uniform(0.6...1.25)
            colours.append(
                (
                    0.42 * k * rng.uniform(0.9...1.1), 0.16 * k * rng.uniform(0.75...1.25),
                    0.10 * k * rng.uniform(0.8...1.3)
                ))
            slopes.append(rng.uniform(-0.15...0.15))
        }
        var heights: [Float] = []
        for _ in 0..<rows { heights.append(rng.uniform(0.8...1.2)) }
        let total = heights.reduce(0, +)
        var edges: [Float] = [0]
        for h in heights { edges.append(edges[edges.count - 1] + h / total) }
        var shifts: [Float] = []
        for r in 0..<rows { shifts.append((r % 2 == 0 ? 0 : 0.5) + rng.uniform(-0.15...0.15)) }
        var joints: [Float] = []
        for _ in 0..<(rows * cols) { joints.append(rng.uniform(-0.12...0.12)) }
        return rgb(size: 512) { x, y in
            let wobble = 0.12 / Float(rows) * (n.fbm(x * 8, y * 8 + 3.5, octaves: 2, periodScale: 8) - 0.5)
            var yy = y + wobble
            yy -= yy.rounded(.down)
            var row = 0
            while row < rows - 1 && yy >= edges[row + 1] { row += 1 }
            let courseHeight = edges[row + 1] - edges[row]
            let fy = (yy - edges[row]) / courseHeight
            let rx = x * Float(cols) + shifts[row]
            let k = Int(rx.rounded(.down))
            func joint(_ b: Int) -> Float { Float(b) + joints[row * cols + ((b % cols) + cols) % cols] }
            var brick = k
            if rx < joint(k) { brick = k - 1 } else if rx > joint(k + 1) { brick = k + 1 }
            let left = joint(brick), right = joint(brick + 1)
            let grain = n.fbm(x * 32, y * 32, octaves: 4, periodScale: 32) - 0.5
            let bedJoint =
                (0.13 + 0.08 * (n.fbm(x * 16 + 7.3, y * 16, octaves: 2, periodScale: 16) - 0.5))
                / (courseHeight * Float(rows))
            let headJoint: Float = 0.03
            if rx - left < headJoint || right - rx < headJoint || fy < bedJoint {
                let m = 0.55 + 0.25 * grain
                return (m, m * 0.97, m * 0.9)
            }
            let id = row * cols + ((brick % cols) + cols) % cols
            let c = colours[id]
            let u = (rx - left) / max(right - left, 0.1) - 0.5
            let pits = n.fbm(x * 64 + 11.1, y * 64, octaves: 2, periodScale: 64)
            let g = (1 + 0.5 * grain + slopes[id] * u) * (pits > 0.72 ? 0.75 : 1)
            return (c.0 * g, c.1 * g, c.2 * g)
        }
    }

    /// Wood planks: 4 planks per tile, growth rings from distorted distance fields.
    private static func wood(rng: inout SynthRandom) -> MipTexture {
        let n = ValueNoise(period: 16, rng: &rng)
        var tints: [Float] = []
        for _ in 0..<4 { tints.append(rng.uniform(0.8...1.2)) }
        return rgb(size: 512) { x, y in
            let plank = min(Int(x * 4), 3)
            let px = x * 4 - Float(plank)
            let warp = n.fbm(x * 16 + Float(plank) * 3.7, y * 4, octaves: 3, periodScale: 4)
            let rings = FastMath.fract((px * 1.3 + warp * 2.5 + Float(plank)) * 6)
            let ring = 0.5 + 0.5 * FastMath.cos2pi(rings)
            let grain = n.fbm(x * 64, y * 4, octaves: 3, periodScale: 4)
            var k = tints[plank] * (0.8 + 0.25 * ring + 0.15 * (grain - 0.5))
            if px < 0.012 || px > 0.988 { k *= 0.45 }
            return (0.45 * k, 0.27 * k, 0.13 * k)
        }
    }

    /// Floor tiles: 4 x 4 per tile, grout lines of varying width that wander by up to
    /// +- 1 % of a tile, per-tile shade (+- 8 %), mottled glaze.
    private static func tiles(rng: inout SynthRandom) -> MipTexture {
        let n = ValueNoise(period: 32 << 3, rng: &rng)
        let base = (rng.uniform(0.4...0.8), rng.uniform(0.4...0.75), rng.uniform(0.35...0.7))
        var shades: [Float] = []
        for _ in 0..<16 { shades.append(rng.uniform(0.92...1.08)) }
        return rgb(size: 256) { x, y in
            let wx = 0.04 * (n.fbm(x * 8, y * 8 + 5.5, octaves: 2, periodScale: 8) - 0.5)
            let wy = 0.04 * (n.fbm(x * 8 + 2.5, y * 8, octaves: 2, periodScale: 8) - 0.5)
            let gx = x * 4 + wx, gy = y * 4 + wy
            let fx = gx - gx.rounded(.down), fy = gy - gy.rounded(.down)
            let grout = 0.03 + 0.015 * (n.fbm(x * 16 + 1.7, y * 16, octaves: 2, periodScale: 16) - 0.5)
            if fx < grout || fy < grout {
                let g = 0.35 + 0.08 * (n.fbm(x * 32, y * 32 + 9.1, octaves: 2, periodScale: 32) - 0.5)
                return (g, g * 0.97, g * 0.92)
            }
            let ti = ((Int(gx.rounded(.down)) % 4 + 4) % 4) + 4 * ((Int(gy.rounded(.down)) % 4 + 4) % 4)
            let m = shades[ti] * (0.9 + 0.2 * (n.fbm(x * 32, y * 32, octaves: 4, periodScale: 32) - 0.5))
            return (base.0 * m, base.1 * m, base.2 * m)
        }
    }

    /// Paper fibres: a unit-mean multiplier (about 1 +- 0.5) of elongated random
    /// fibres over fine noise; one tile spans 10 mm of paper.
    private static func paper(rng: inout SynthRandom) -> MipTexture {
        let size = 512
        var data = [Float](repeating: 0, count: size * size)
        let n = ValueNoise(period: 128 << 2, rng: &rng)
        for y in 0..<size {
            for x in 0..<size {
                data[y * size + x] = n.fbm(Float(x) / 4, Float(y) / 4, octaves: 3, periodScale: 128) - 0.5
            }
        }
        // Fibres: short dark/bright segments at random orientations.
        for _ in 0..<1400 {
            let cx = rng.uniform(0...Float(size)), cy = rng.uniform(0...Float(size))
            let angle = rng.uniform(0...Float.pi)
            let length = rng.uniform(10...60), amp = rng.uniform(-0.6...0.4)
            let dx = cos(angle), dy = sin(angle)
            var s: Float = -length / 2
            while s < length / 2 {
                let px = (Int((cx + dx * s).rounded(.down)) % size + size) % size
                let py = (Int((cy + dy * s).rounded(.down)) % size + size) % size
                data[py * size + px] += amp
                s += 0.7
            }
        }
        var mean: Float = 0
        for v in data { mean += v }
        mean /= Float(data.count)
        var sq: Float = 0
        for v in data { sq += (v - mean) * (v - mean) }
        let sd = (sq / Float(data.count)).squareRoot()
        // Store as 0.5 + 0.25 * z so the texture stays in 0...1; users map to 1 + a z.
        for i in data.indices { data[i] = min(max(0.5 + 0.25 * (data[i] - mean) / sd, 0), 1) }
        return MipTexture(width: size, height: size, channels: 1, level0: data)
    }
}

/// Tileable 2D value noise: random values on an integer lattice, interpolated with
/// the quintic smoothstep; `fbm` sums octaves of doubling frequency and halving
/// amplitude, normalised to 0...1. Octave o wraps every `periodScale * 2^o` cells, so
/// the sum tiles with period `periodScale` in input units.
struct ValueNoise {
    private let size: Int
    private let lattice: [Float]

    /// `period`: the largest wrap period any octave will use (periodScale * 2^(octaves - 1));
    /// the lattice is twice that so octaves can read different regions.
    init(period: Int, rng: inout SynthRandom) {
        size = period * 2
        var values = [Float](repeating: 0, count: size * size)
        for i in values.indices { values[i] = rng.unit() }
        lattice = values
    }

    @inline(__always) func value(_ x: Float, _ y: Float, wrap p: Int, offset: Int) -> Float {
        let xf = x.rounded(.down), yf = y.rounded(.down)
        var fx = x - xf, fy = y - yf
        fx = fx * fx * fx * (fx * (fx * 6 - 15) + 10)
        fy = fy * fy * fy * (fy * (fy * 6 - 15) + 10)
        var x0 = Int(xf) % p
        if x0 < 0 { x0 += p }
        var y0 = Int(yf) % p
        if y0 < 0 { y0 += p }
        let x1 = (x0 + 1) % p, y1 = (y0 + 1) % p
        let ox = offset % (size - p + 1), oy = (offset * 7) % (size - p + 1) // size >= 2p
        let a = lattice[(y0 + oy) * size + x0 + ox], b = lattice[(y0 + oy) * size + x1 + ox]
        let c = lattice[(y1 + oy) * size + x0 + ox], d = lattice[(y1 + oy) * size + x1 + ox]
        return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy
    }

    /// Octaves at frequencies 1, 2, 4, ... times the input; input coordinates in
    /// lattice cells of the first octave; tile period `periodScale` cells (at most the
    /// `period` given at init).
    func fbm(_ x: Float, _ y: Float, octaves: Int, periodScale: Int) -> Float {
        var sum: Float = 0, amp: Float = 0.5, norm: Float = 0, f: Float = 1, p = periodScale
        for o in 0..<octaves {
            if p > size / 2 { break }
            sum += amp * value(x * f, y * f, wrap: p, offset: o * 37)
            norm += amp
            amp *= 0.5
            f *= 2
            p *= 2
        }
        return sum / norm
    }
}
