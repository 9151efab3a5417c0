import Foundation

/// A procedural text page: margins, a heading, paragraphs of "words" made of random
/// glyphs (stems, bowls, bars, ascenders and descenders at a fixed x-height), sRGB
/// encoded in 0...1. Reads as text at a glance and has text's spectrum (strong
/// line-pitch periodicity, sharp glyph edges) without any font data.
enum TextPage {
    /// A glyph: a 6 x 12 bitmap (x-height rows 3...8, ascender rows 0-2, descender 9-11).
    private struct Glyph {
        var bits: [Bool]
        var width: Int
    }

    private static func makeGlyphs(rng: inout SynthRandom) -> [Glyph] {
        var glyphs: [Glyph] = []
        for _ in 0..<48 {
            var b = [Bool](repeating: false, count: 6 * 12)
            func set(_ x: Int, _ y: Int) { if x >= 0 && x < 6 && y >= 0 && y < 12 { b[y * 6 + x] = true } }
            let width = Int(rng.uniform(3...5.99))
            let kind = Int(rng.uniform(0...5.99))
            // Left stem (most glyphs), optional ascender/descender.
            let asc = rng.unit() < 0.3, desc = !asc && rng.unit() < 0.2
            let top = asc ? 0 : 3, bottom = desc ? 11 : 8
            switch kind {
            case 0, 1: // n/h/b-like: stem + arch
                for y in top...bottom { set(0, y) }
                for x in 0..<width { set(x, 3) }
                for y in 3...8 { set(width - 1, y) }
            case 2: // o/c-like: bowl
                for x in 1..<(width - 1) {
                    set(x, 3)
                    set(x, 8)
                }
                for y in 4...7 {
                    set(0, y)
                    if rng.unit() < 0.8 { set(width - 1, y) }
                }
            case 3: // e/a-like: bowl with bar
                for x in 0..<width {
                    set(x, 3)
                    set(x, 5)
                    set(x, 8)
                }
                for y in 3...8 { set(0, y) }
                for y in 3...5 { set(width - 1, y) }
            case 4: // t/f/l-like: stem with cross bar
                for y in top...bottom { set(width / 2, y) }
                for x in 0..<width { set(x, 3) }
            default: // v/x-like: diagonals
                for y in 3...8 {
                    let t = Float(y - 3) / 5
                    set(Int(t * Float(width - 1) / 2), y)
                    set(width - 1 - Int(t * Float(width - 1) / 2), y)
                }
            }
            glyphs.append(Glyph(bits: b, width: width))
        }
        return glyphs
    }

    /// Renders a page of `width` x `height` texels. `colour`: a coloured heading, a
    /// coloured figure block and some coloured text.
    static func render(width: Int, height: Int, colour: Bool, rng: inout SynthRandom) -> MipTexture {
        let glyphs = makeGlyphs(rng: &rng)
        let n = width * height
        var page = [Float](repeating: 1, count: 3 * n)
        let paper: (Float, Float, Float) = (0.97, 0.97, 0.95)
        for i in 0..<n {
            page[i] = paper.0
            page[n + i] = paper.1
            page[2 * n + i] = paper.2
        }
        func plot(_ x: Int, _ y: Int, _ c: (Float, Float, Float)) {
            guard x >= 0, x < width, y >= 0, y < height else { return }
            page[y * width + x] = c.0
            page[n + y * width + x] = c.1
            page[2 * n + y * width + x] = c.2
        }
        let margin = width / 10
        var y = margin
        // Heading: larger glyphs (scale 2).
        let headingColour: (Float, Float, Float) =
            colour
            ? (rng.uniform(0...0.6), rng.uniform(0...0.4), rng.uniform(0.2...0.8)) : (0.05, 0.05, 0.05)
        var x = margin
        for _ in 0..<Int(rng.uniform(8...18)) {
            let g = glyphs[Int(rng.next() % UInt64(glyphs.count))]
            for gy in 0..<12 {
                for gx in 0..<6 where g.bits[gy * 6 + gx] {
                    for sy in 0..<2 { for sx in 0..<2 { plot(x + gx * 2 + sx, y + gy * 2 + sy, headingColour) } }
                }
            }
            x += (g.width + 1) * 2
            if rng.unit() < 0.18 { x += 8 }
        }
        y += 40
        // Optional figure block.
        var figure: (Int, Int, Int, Int)? = nil
        if colour {
            let fw = Int(Float(width - 2 * margin) * rng.uniform(0.4...0.9)),
                fh = Int(Float(height) * rng.uniform(0.12...0.25))
            let fx = margin + (rng.unit() < 0.5 ? 0 : width - 2 * margin - fw)
            figure = (fx, y, fw, fh)
            let c0 = (rng.unit(), rng.unit(), rng.unit()), c1 = (rng.unit(), rng.unit(), rng.unit())
            for yy in 0..<fh {
                for xx in 0..<fw {
                    let t = Float(xx + yy) / Float(fw + fh)
                    let wave = 0.5 + 0.5 * FastMath.cos2pi(Float(xx) / 37 + Float(yy) / 53)
                    plot(
                        fx + xx, y + yy,
                        (c0.0 + (c1.0 - c0.0) * t * wave, c0.1 + (c1.1 - c0.1) * t, c0.2 + (c1.2 - c0.2) * wave))
                }
            }
            if fw > (width - 2 * margin) * 2 / 3 {
                y += fh + 20
                figure = nil
            }
        }
        let lineHeight = 17
        let ink: (Float, Float, Float) = (0.06, 0.06, 0.07)
        while y + 12 < height - margin {
            x = margin
            var right = width - margin
            if let f = figure, y < f.1 + f.3 + 10 {
                if f.0 == margin { x = f.0 + f.2 + 12 } else { right = f.0 - 12 }
            }
            let paragraphEnd = rng.unit() < 0.12
            let lineEnd = paragraphEnd ? x + Int(Float(right - x) * rng.uniform(0.2...0.8)) : right
            let lineColour = colour && rng.unit() < 0.1 ? headingColour : ink
            while x < lineEnd - 8 {
                let letters = Int(rng.uniform(1...9))
                for _ in 0..<letters {
                    let g = glyphs[Int(rng.next() % UInt64(glyphs.count))]
                    if x + g.width >= lineEnd { break }
                    for gy in 0..<12 { for gx in 0..<6 where g.bits[gy * 6 + gx] { plot(x + gx, y + gy, lineColour) } }
                    x += g.width + 1
                }
                x += 4
            }
            y += paragraphEnd ? lineHeight * 2 : lineHeight
        }
        return MipTexture(width: width, height: height, channels: 3, level0: page)
    }
}
