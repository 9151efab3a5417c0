/// A 5 x 7 pixel bitmap font for heatmap legend labels: digits, `.`, `-`, `m` and space.
///
/// Drawn by hand for this project (no font library or font files are available to
/// the media module, and labels only need these few characters). Each glyph is seven
/// rows, top to bottom; in each row bit 4 is the leftmost column. Characters without
/// a glyph draw as an empty cell.
enum BitmapFont {
    static let glyphWidth = 5
    static let glyphHeight = 7
    /// Horizontal distance between the starts of two characters, in font pixels.
    static let advance = 6

    static func rows(for character: Character) -> [UInt8] {
        switch character {
        case "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E]
        case "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E]
        case "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F]
        case "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E]
        case "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02]
        case "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E]
        case "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E]
        case "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08]
        case "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E]
        case "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C]
        case ".": [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C]
        case "-": [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00]
        case "m": [0x00, 0x00, 0x1A, 0x15, 0x15, 0x15, 0x15]
        default: [0, 0, 0, 0, 0, 0, 0]
        }
    }

    /// Width in output pixels of `text` drawn at `scale` (no trailing gap).
    static func width(of text: String, scale: Int) -> Int {
        text.isEmpty ? 0 : (text.count * advance - 1) * scale
    }

    /// Draws `text` into an RGB `Image8` with its top-left corner at (`x`, `y`);
    /// each font pixel becomes a `scale` x `scale` block. Pixels outside the image are skipped.
    static func draw(_ text: String, into image: inout Image8, x: Int, y: Int, scale: Int, color: DepthHeatmap.Color) {
        let width = image.width, height = image.height
        image.samples.withUnsafeMutableBufferPointer { out in
            var originX = x
            for character in text {
                let rows = rows(for: character)
                for (row, bits) in rows.enumerated() where bits != 0 {
                    for column in 0..<glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                        for dy in 0..<scale {
                            let py = y + row * scale + dy
                            guard py >= 0, py < height else { continue }
                            for dx in 0..<scale {
                                let px = originX + column * scale + dx
                                guard px >= 0, px < width else { continue }
                                let i = (py * width + px) * 3
                                out[i] = color.r
                                out[i + 1] = color.g
                                out[i + 2] = color.b
                            }
                        }
                    }
                }
                originX += advance * scale
            }
        }
    }
}
