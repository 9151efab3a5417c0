import Foundation
import RialMedia

/// A texture with a box-filtered mip pyramid, sampled trilinearly, so a surface seen
/// at a distance is averaged over each sensor pixel's footprint instead of aliasing.
///
/// Values are in 0...1 (linear reflectance for albedo textures, sRGB-encoded drive
/// values for display and print content). 1 channel (grey) or 3 (RGB); level-0 input
/// is planar, the sampling storage (`TextureView`) interleaved.
final class MipTexture: @unchecked Sendable {
    let channels: Int
    let width: Int
    let height: Int
    let levelWidth: [Int]
    let levelHeight: [Int]
    let levelOffset: [Int]
    /// Raw storage of the pyramid, owned by this texture.
    let view: TextureView
    /// Mean value per channel (RGB; grey repeated).
    let mean: (Float, Float, Float)

    /// Builds the pyramid from planar level-0 data in 0...1.
    init(width: Int, height: Int, channels: Int, level0: [Float]) {
        precondition(channels == 1 || channels == 3)
        precondition(level0.count == width * height * channels)
        self.channels = channels
        self.width = width
        self.height = height
        var storage = level0
        var widths = [width], heights = [height], offsets = [0]
        var w = width, h = height, offset = 0
        while w > 1 || h > 1 {
            let nw = max(1, w / 2), nh = max(1, h / 2)
            let newOffset = storage.count
            storage.append(contentsOf: repeatElement(0, count: nw * nh * channels))
            storage.withUnsafeMutableBufferPointer { s in
                for c in 0..<channels {
                    let src = offset + c * w * h, dst = newOffset + c * nw * nh
                    for y in 0..<nh {
                        let y0 = min(2 * y, h - 1), y1 = min(2 * y + 1, h - 1)
                        for x in 0..<nw {
                            let x0 = min(2 * x, w - 1), x1 = min(2 * x + 1, w - 1)
                            s[dst + y * nw + x] =
                                0.25
                                * (s[src + y0 * w + x0] + s[src + y0 * w + x1]
                                    + s[src + y1 * w + x0] + s[src + y1 * w + x1])
                        }
                    }
                }
            }
            widths.append(nw)
            heights.append(nh)
            offsets.append(newOffset)
            w = nw
            h = nh
            offset = newOffset
        }
        levelWidth = widths
        levelHeight = heights
        levelOffset = offsets
        view = TextureView(
            levelWidth: widths, levelHeight: heights, levelOffset: offsets, data: storage, channels: channels)
        let last = offsets[offsets.count - 1]
        if channels == 3 {
            mean = (storage[last], storage[last + 1], storage[last + 2])
        } else {
            mean = (storage[last], storage[last], storage[last])
        }
    }

    /// Converts a `PlanarImage` to a texture. Values are taken as sRGB-encoded in
    /// 0...255 when any exceeds 1.5, else in 0...1; NaN and infinities become 0.
    /// 2 channels are read as grey (alpha dropped), 4 as RGB.
    /// - Parameter linearize: decode sRGB to linear reflectance (for albedo).
    convenience init(image: PlanarImage, linearize: Bool) {
        let channels = image.channels >= 3 ? 3 : 1
        let n = image.width * image.height
        var maxValue: Float = 0
        for v in image.data where v.isFinite { maxValue = max(maxValue, v) }
        let scale: Float = maxValue > 1.5 ? 1 / 255 : 1
        var out = [Float](repeating: 0, count: n * channels)
        image.data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for c in 0..<channels {
                    for i in 0..<n {
                        let v = src[c * n + i]
                        var e = v.isFinite ? min(max(v * scale, 0), 1) : 0
                        if linearize { e = ColorScience.srgbToLinear(e) }
                        dst[c * n + i] = e
                    }
                }
            }
        }
        self.init(width: image.width, height: image.height, channels: channels, level0: out)
    }

    var levelCount: Int { levelWidth.count }

    /// Trilinear sample (see `TextureView.sample`).
    @inline(__always)
    func sample(u: Float, v: Float, lod: Float, wrap: Bool) -> (Float, Float, Float) {
        view.sample(u: u, v: v, lod: lod, wrap: wrap)
    }

    deinit {
        UnsafeMutablePointer(mutating: view.scales).deallocate()
        UnsafeMutablePointer(mutating: view.meta).deallocate()
        UnsafeMutablePointer(mutating: view.data).deallocate()
    }
}

/// Raw view of a `MipTexture` for hot loops (no reference counting, no bounds
/// checks); valid while its texture is alive.
struct TextureView: @unchecked Sendable {
    /// Levels one after another, channels interleaved within a level.
    let data: UnsafePointer<Float>
    /// Per level: width, height, offset into `data`.
    let meta: UnsafePointer<Int>
    /// Per level: width / level-0 width, height / level-0 height, width, height,
    /// 1 / width, 1 / height (as Float, to keep divisions out of the sampling path).
    let scales: UnsafePointer<Float>
    let levels: Int
    let width: Int
    let height: Int
    let channels: Int

    /// Copies the pyramid into freshly allocated storage (owned by the texture).
    init(levelWidth: [Int], levelHeight: [Int], levelOffset: [Int], data: [Float], channels: Int) {
        let meta = UnsafeMutablePointer<Int>.allocate(capacity: 3 * levelWidth.count)
        for l in levelWidth.indices {
            meta[3 * l] = levelWidth[l]
            meta[3 * l + 1] = levelHeight[l]
            meta[3 * l + 2] = levelOffset[l]
        }
        // Interleave the channels of each level (one cache line holds a texel's RGB).
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(data.count, 1))
        for l in levelWidth.indices {
            let n = levelWidth[l] * levelHeight[l], o = levelOffset[l]
            for i in 0..<n {
                for c in 0..<channels { storage[o + i * channels + c] = data[o + c * n + i] }
            }
        }
        let scales = UnsafeMutablePointer<Float>.allocate(capacity: 6 * levelWidth.count)
        for l in levelWidth.indices {
            let w = Float(levelWidth[l]), h = Float(levelHeight[l])
            scales[6 * l] = w / Float(levelWidth[0])
            scales[6 * l + 1] = h / Float(levelHeight[0])
            scales[6 * l + 2] = w
            scales[6 * l + 3] = h
            scales[6 * l + 4] = 1 / w
            scales[6 * l + 5] = 1 / h
        }
        self.meta = UnsafePointer(meta)
        self.scales = UnsafePointer(scales)
        self.data = UnsafePointer(storage)
        levels = levelWidth.count
        width = levelWidth[0]
        height = levelHeight[0]
        self.channels = channels
    }

    /// Mip-filtered sample at level-0 texel coordinates (u, v) (texel centres at +0.5),
    /// level of detail `lod` = log2(texels per sample footprint), clamped to the pyramid.
    /// `wrap`: repeat the texture; else clamp to the edge.
    @inline(__always)
    func sample(u: Float, v: Float, lod: Float, wrap: Bool) -> (Float, Float, Float) {
        let maxLevel = Float(levels - 1)
        let l = min(max(lod, 0), maxLevel)
        let l0 = Int(l)
        // "Brilinear" filtering: blend the two levels only in the middle half of the
        // interval (weight 2 (t - 1/4), clamped), a single bilinear read elsewhere;
        // continuous in the level of detail, half the reads of trilinear.
        let t = min(max(2 * (l - Float(l0)) - 0.5, 0), 1)
        if t <= 0 || l0 + 1 >= levels { return bilinear(level: l0, u: u, v: v, wrap: wrap) }
        if t >= 1 { return bilinear(level: l0 + 1, u: u, v: v, wrap: wrap) }
        let a = bilinear(level: l0, u: u, v: v, wrap: wrap)
        let b = bilinear(level: l0 + 1, u: u, v: v, wrap: wrap)
        let s = 1 - t
        return (a.0 * s + b.0 * t, a.1 * s + b.1 * t, a.2 * s + b.2 * t)
    }

    /// Bilinear sample on one level (`level` clamped to the pyramid).
    @inline(__always)
    func sample(u: Float, v: Float, level: Int, wrap: Bool) -> (Float, Float, Float) {
        bilinear(level: min(max(level, 0), levels - 1), u: u, v: v, wrap: wrap)
    }

    @inline(__always)
    private func bilinear(level: Int, u: Float, v: Float, wrap: Bool) -> (Float, Float, Float) {
        let w = meta[3 * level], h = meta[3 * level + 1], base = meta[3 * level + 2]
        let sc = scales + 6 * level
        var x = u * sc[0] - 0.5, y = v * sc[1] - 0.5
        if wrap {
            // Reduce to [0, w) x [0, h) in floating point (no integer division).
            x -= FastMath.floor(x * sc[4]) * sc[2]
            y -= FastMath.floor(y * sc[5]) * sc[3]
        }
        let xf = FastMath.floor(x), yf = FastMath.floor(y)
        let fx = x - xf, fy = y - yf
        var x0 = Int(xf), y0 = Int(yf)
        var x1 = x0 + 1, y1 = y0 + 1
        if wrap {
            if x0 >= w || x0 < 0 { x0 = 0 }
            if y0 >= h || y0 < 0 { y0 = 0 }
            x1 = x0 + 1 == w ? 0 : x0 + 1
            y1 = y0 + 1 == h ? 0 : y0 + 1
        } else {
            x0 = min(max(x0, 0), w - 1)
            x1 = min(max(x1, 0), w - 1)
            y0 = min(max(y0, 0), h - 1)
            y1 = min(max(y1, 0), h - 1)
        }
        let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
        let d = data + base
        if channels == 1 {
            let r = w00 * d[y0 * w + x0] + w10 * d[y0 * w + x1] + w01 * d[y1 * w + x0] + w11 * d[y1 * w + x1]
            return (r, r, r)
        }
        let a = d + (y0 * w + x0) * 3, b = d + (y0 * w + x1) * 3, c = d + (y1 * w + x0) * 3, e = d + (y1 * w + x1) * 3
        return (
            w00 * a[0] + w10 * b[0] + w01 * c[0] + w11 * e[0],
            w00 * a[1] + w10 * b[1] + w01 * c[1] + w11 * e[1],
            w00 * a[2] + w10 * b[2] + w01 * c[2] + w11 * e[2]
        )
    }
}
