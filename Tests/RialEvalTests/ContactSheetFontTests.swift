import RialMedia
import Testing

@testable import RialEval

/// `PixelFont`, the caption font of contact sheets.
@Suite struct ContactSheetFontTests {
    @Test func everyClaimedGlyphDrawsPixels() {
        #expect(PixelFont.characters.count == 95 + 1)
        for character in PixelFont.characters {
            let rows = PixelFont.glyph(for: character)
            #expect(rows?.count == PixelFont.rowsPerGlyph, "\(character)")
            #expect(rows?.allSatisfy { $0 < 32 } == true, "\(character) uses more than 5 columns")
            // Render it and count lit pixels: only the space is blank.
            var image = Image8(width: 8, height: 10, channels: 3)
            PixelFont.draw(String(character), into: &image, x: 1, y: 1, color: .white)
            let lit = stride(from: 0, to: image.samples.count, by: 3).filter { image.samples[$0] == 255 }.count
            if character == " " {
                #expect(lit == 0)
            } else {
                #expect(lit > 0, "\(character) draws nothing")
            }
        }
    }

    @Test func requiredCharactersAreCovered() {
        let required = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./:()"
        for character in required { #expect(PixelFont.glyph(for: character) != nil, "\(character)") }
    }

    @Test func glyphsAreDistinct() {
        var seen: [[UInt8]: Character] = [:]
        for character in PixelFont.characters where character != " " {
            let rows = PixelFont.glyph(for: character)!
            #expect(seen[rows] == nil, "\(character) looks like \(seen[rows].map(String.init) ?? "")")
            seen[rows] = character
        }
    }

    @Test func digitsMatchTheHeatmapLegendFont() {
        // BitmapFont's published rows for "0" and "m" (Sources/RialMedia/Heatmap/BitmapFont.swift).
        #expect(PixelFont.glyph(for: "0") == [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E, 0x00])
        #expect(PixelFont.glyph(for: "m") == [0x00, 0x00, 0x1A, 0x15, 0x15, 0x15, 0x15, 0x00])
    }

    @Test func unknownCharactersDrawAsQuestionMarks() {
        var unknown = Image8(width: 8, height: 10, channels: 3)
        var question = Image8(width: 8, height: 10, channels: 3)
        PixelFont.draw("é", into: &unknown, x: 1, y: 1, color: .white)
        PixelFont.draw("?", into: &question, x: 1, y: 1, color: .white)
        #expect(PixelFont.glyph(for: "é") == nil)
        #expect(unknown == question)
    }

    @Test func drawsLumaIntoGrayAndClipsAtEdges() {
        var gray = Image8(width: 4, height: 4, channels: 1)
        PixelFont.draw("W", into: &gray, x: -2, y: -3, scale: 1, color: DepthHeatmap.Color(r: 255, g: 0, b: 0))
        // Rec. 601 luma of pure red: round(0.299 * 255) = 76.
        #expect(Set(gray.samples) == [0, 76])
    }

    @Test func widthTruncationAndWrapping() {
        #expect(PixelFont.width(of: "", scale: 1) == 0)
        #expect(PixelFont.width(of: "abc", scale: 2) == (3 * 6 - 1) * 2)
        #expect(PixelFont.capacity(width: 17, scale: 1) == 3) // 3 chars need 17 px
        #expect(PixelFont.capacity(width: 16, scale: 1) == 2)
        #expect(PixelFont.truncated("abc", toWidth: 17) == "abc")
        #expect(PixelFont.truncated("abcdef", toWidth: 17) == "ab…")
        #expect(PixelFont.truncated("abcdef", toWidth: 3) == "")
        #expect(PixelFont.wrapped("no such file here", toWidth: 6 * 8 - 1) == ["no such", "file", "here"])
        #expect(PixelFont.wrapped("abcdefghij", toWidth: 6 * 4 - 1) == ["abcd", "efgh", "ij"])
        #expect(PixelFont.wrapped("", toWidth: 100) == [])
    }
}
