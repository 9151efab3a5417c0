import Foundation
import RialMedia

@testable import RialCodecs

/// A small PNG made with Pillow 13 / numpy 2.4 (or written byte by byte in Python with
/// zlib where Pillow cannot write the variant), embedded with the samples an
/// independent decoder (Pillow) returns for it. Generated once by the engineer; the
/// code under test played no part in producing either the bytes or `expected`.
struct PNGFixture: Sendable, CustomStringConvertible {
    let name: String
    let base64: String
    let width: Int
    let height: Int
    /// Channels after expansion (palette -> RGB/RGBA, tRNS -> alpha).
    let channels: Int
    /// Decoded bits per sample.
    let bitDepth: Int
    /// Bit depth in the IHDR chunk.
    let fileBitDepth: Int
    let colorType: PNGInfo.ColorType
    let interlaced: Bool
    /// Decoded samples, row-major, interleaved.
    let expected: [Int]

    var data: Data { Data(base64Encoded: base64)! }
    var description: String { name }
}

/// Palette (8/4/2-bit, with and without tRNS), 1/2/4-bit gray, tRNS on gray and RGB,
/// Adam7-interlaced RGB / 16-bit gray / 1-bit gray, and 16-bit RGB, RGBA, gray+alpha.
enum PNGFixtures {
    static let all: [PNGFixture] = [
        PNGFixture(
            name: "palette8",
            // Pillow P 8x8, 256-entry palette; expected = Pillow convert("RGB")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAMAAADz0U65AAADAFBMVEUpyiaUTmoV8gIk7XYumXqKjcq+u6ZcriVWv3P5pvQI"
                + "yoAMxTCymaUCILVxWsIKticKPQIFs4CmoLgYPifg7JysvCt+P5YAT9n3aLw8Bawx5ST2QUzFPziJuHBqV7fiihaiyklFsUvb"
                + "r4apmBLqQc0fNZgmbiT+V5tnY8O1Qs7k7nVfkvi23Qz4d7/1LH+vgt7taULmQceOnDmdMfhIPgcfxRh3Q9Uz7H096XpnWOok"
                + "ApuARrByqWvWqfvzpd7J1d1Yjm6hAi5MXInb/rqLgkjmtK9bRzb+xcEnjui9Cl9pBPvklbbtvNzmBRn5nVp4fw6KWQJMkALc"
                + "fVE5rQHcqKSwgal0PWKIEbOXUFjBA62y+A7h+mF15jidGyRzaYXHeArlw74l672yvZx7J/ygABVUblI/I7J1bLWDkfwo+JIZ"
                + "Q8UiAIzAYOJ4MA5Wpwe1FAAshVIzD7W2tDMRQEzNQ1SnkFUw3d7VRwqUXDPGdXRKO9a9E4wSHc1YvssVYIvZdWC5ZK6AISES"
                + "LDNthuxRpNh2damkDdugQFo1JVRw5IZLNSD1lUR9GjizCpH4+FDIqc+oTTcCj8UXy4n5M0DgNCePFOdgR3Np1Hc7kFFXlviG"
                + "Atf5/eqOayZLX00LxI0Tm8n3qvFsbaHNAGO9QJkW+OgXZoKwlhsElNKx8/ANK+wwNpmegrw7xPZ3dVjvVVBjQ+DucgfeoQly"
                + "PAhSdIdGXJHgpfFY+9l5KiyTkF8f91G3R6I4rhdu923xzx7WTTO3YqbuU77AINQmadgtstmsS6udAP8Ss/vWg4sdryGPhrH0"
                + "2mxq2Vek8MUHDpYdDSxNcCNS/aWYQntVcfW1UhnhcBMKnSQmo3skd+iItS0zYD2Xmbf8Ka22cI5SG+Gu6tjzh4LdL+km6Oql"
                + "KBFFOfd9Z7Tzkr7PhdYixZ80LuKc4yyTLJn41cVYYNHQdWC3dO2lrUXM9WynjwbCBxPv5jiWbHqISwz5q1pa+0oX7wAOG7YD"
                + "SvpuyAt6LduyjELpfp+o59C4UfkrAAAAU0lEQVR4nAFIALf/AP/IG0CbkezwALv0aepoR+BrAFhR4W4lSUkJAHju3smWkaOa"
                + "AGFDxD1JGS3NAKuq9qt4ThEyAAzs3TQ32jRPAPx1ltuOs9J67tMiXHhll+gAAAAASUVORK5CYII=",
            width: 8, height: 8, channels: 3, bitDepth: 8,
            fileBitDepth: 8, colorType: .palette, interlaced: false,
            expected: [
                168, 231, 208, 29, 175, 33, 246, 65, 76, 88, 142, 110, 249, 253, 234, 2,
                143, 197, 88, 96, 209, 204, 245, 108, 56, 174, 23, 150, 108, 122, 40, 248,
                146, 147, 44, 153, 131, 145, 252, 254, 197, 193, 221, 47, 233, 34, 0, 140,
                151, 80, 88, 76, 144, 2, 38, 232, 234, 86, 167, 7, 31, 53, 152, 189,
                10, 95, 189, 10, 95, 249, 166, 244, 148, 92, 51, 183, 116, 237, 174, 234,
                216, 143, 134, 177, 96, 71, 115, 2, 143, 197, 189, 64, 153, 134, 2, 215,
                37, 235, 189, 219, 254, 186, 172, 75, 171, 214, 169, 251, 189, 10, 95, 60,
                5, 172, 248, 119, 191, 7, 14, 150, 158, 130, 188, 48, 54, 153, 249, 171,
                90, 158, 130, 188, 148, 92, 51, 249, 157, 90, 5, 179, 128, 142, 156, 57,
                178, 153, 165, 88, 96, 209, 82, 27, 225, 72, 62, 7, 51, 236, 125, 151,
                153, 183, 72, 62, 7, 120, 127, 14, 122, 45, 219, 167, 144, 85, 96, 71,
                115, 252, 41, 173, 248, 248, 80, 82, 116, 135, 85, 113, 245, 74, 59, 214,
            ]
        ),
        PNGFixture(
            name: "palette4_trns",
            // Pillow P bits=4 with tRNS; expected = Pillow convert("RGBA")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIBAMAAAA2IaO4AAAAMFBMVEXshSxxLPuZ/k5UC072D8hXCrpxrFaD4S+YfH8dmZ7i"
                + "BtOR1m+gGYs0K9ZTQlj35NFEKzWBAAAAEHRSTlMAgP//////////////////koSScgAAADFJREFUeJxjlE/nD2Ow87jGyeBw"
                + "2ymYcemhP0lMXAb/nzK07ucSY9T9HnKLSYlX9SoABcgNygZKNMcAAAAASUVORK5CYII=",
            width: 8, height: 8, channels: 4, bitDepth: 8,
            fileBitDepth: 4, colorType: .palette, interlaced: false,
            expected: [
                113, 44, 251, 128, 247, 228, 209, 255, 152, 124, 127, 255, 113, 172, 86, 255,
                29, 153, 158, 255, 87, 10, 186, 255, 83, 66, 88, 255, 145, 214, 111, 255,
                84, 11, 78, 255, 83, 66, 88, 255, 246, 15, 200, 255, 152, 124, 127, 255,
                52, 43, 214, 255, 113, 172, 86, 255, 236, 133, 44, 0, 29, 153, 158, 255,
                246, 15, 200, 255, 236, 133, 44, 0, 52, 43, 214, 255, 145, 214, 111, 255,
                246, 15, 200, 255, 153, 254, 78, 255, 87, 10, 186, 255, 84, 11, 78, 255,
                226, 6, 211, 255, 87, 10, 186, 255, 113, 172, 86, 255, 131, 225, 47, 255,
                113, 172, 86, 255, 84, 11, 78, 255, 160, 25, 139, 255, 87, 10, 186, 255,
                226, 6, 211, 255, 247, 228, 209, 255, 29, 153, 158, 255, 131, 225, 47, 255,
                113, 172, 86, 255, 153, 254, 78, 255, 226, 6, 211, 255, 226, 6, 211, 255,
                152, 124, 127, 255, 87, 10, 186, 255, 145, 214, 111, 255, 247, 228, 209, 255,
                236, 133, 44, 0, 226, 6, 211, 255, 113, 44, 251, 128, 113, 172, 86, 255,
                153, 254, 78, 255, 52, 43, 214, 255, 153, 254, 78, 255, 246, 15, 200, 255,
                131, 225, 47, 255, 152, 124, 127, 255, 87, 10, 186, 255, 153, 254, 78, 255,
                246, 15, 200, 255, 247, 228, 209, 255, 84, 11, 78, 255, 113, 44, 251, 128,
                29, 153, 158, 255, 52, 43, 214, 255, 153, 254, 78, 255, 131, 225, 47, 255,
            ]
        ),
        PNGFixture(
            name: "palette2",
            // Pillow P bits=2; expected = Pillow convert("RGB")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIAgMAAAC5YVYYAAAADFBMVEXshSxxLPuZ/k5UC06rWnhZAAAAIUlEQVR4nGO4FMLk"
                + "asqwTJTx9yNGJ2XGC4IMpqcY53ICAFn7BypnC+XRAAAAAElFTkSuQmCC",
            width: 8, height: 8, channels: 3, bitDepth: 8,
            fileBitDepth: 2, colorType: .palette, interlaced: false,
            expected: [
                84, 11, 78, 113, 44, 251, 236, 133, 44, 153, 254, 78, 113, 44, 251, 113,
                44, 251, 113, 44, 251, 236, 133, 44, 236, 133, 44, 113, 44, 251, 113, 44,
                251, 84, 11, 78, 153, 254, 78, 236, 133, 44, 153, 254, 78, 113, 44, 251,
                153, 254, 78, 153, 254, 78, 113, 44, 251, 153, 254, 78, 236, 133, 44, 113,
                44, 251, 113, 44, 251, 113, 44, 251, 84, 11, 78, 84, 11, 78, 153, 254,
                78, 84, 11, 78, 84, 11, 78, 113, 44, 251, 84, 11, 78, 113, 44, 251,
                113, 44, 251, 236, 133, 44, 236, 133, 44, 153, 254, 78, 113, 44, 251, 153,
                254, 78, 113, 44, 251, 113, 44, 251, 84, 11, 78, 113, 44, 251, 236, 133,
                44, 236, 133, 44, 84, 11, 78, 153, 254, 78, 236, 133, 44, 113, 44, 251,
                236, 133, 44, 84, 11, 78, 113, 44, 251, 113, 44, 251, 84, 11, 78, 236,
                133, 44, 153, 254, 78, 153, 254, 78, 153, 254, 78, 113, 44, 251, 84, 11,
                78, 113, 44, 251, 153, 254, 78, 153, 254, 78, 113, 44, 251, 153, 254, 78,
            ]
        ),
        PNGFixture(
            name: "gray1",
            // Pillow mode "1"; expected = Pillow convert("L") (0/255)
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIAQAAAADsdIMmAAAAGElEQVR4nGPQY7jGoMgkwMTEFM70kEkcABRSApFLj6dLAAAA"
                + "AElFTkSuQmCC",
            width: 8, height: 8, channels: 1, bitDepth: 8,
            fileBitDepth: 1, colorType: .gray, interlaced: false,
            expected: [
                0, 0, 255, 0, 255, 255, 255, 0, 255, 255, 0, 255, 0, 255, 255, 0,
                0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255, 255, 0, 0, 0, 255,
                0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 0, 255, 0, 255, 0,
                0, 255, 255, 0, 255, 0, 255, 255, 255, 0, 0, 0, 0, 0, 255, 0,
            ]
        ),
        PNGFixture(
            name: "gray2",
            // hand-made 2-bit gray (Python zlib); expected = Pillow convert("L")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIAgAAAACr1Pn2AAAAIElEQVR42mMQVmHIFWGIiGTYcIvBx4SBo4/hVSTDn2MAQSEH"
                + "D/yaN6MAAAAASUVORK5CYII=",
            width: 8, height: 8, channels: 1, bitDepth: 8,
            fileBitDepth: 2, colorType: .gray, interlaced: false,
            expected: [
                0, 85, 0, 255, 0, 170, 85, 0, 85, 170, 255, 85, 0, 85, 85, 0,
                85, 85, 170, 0, 85, 85, 170, 85, 170, 255, 0, 0, 255, 85, 170, 170,
                85, 0, 255, 0, 0, 255, 85, 0, 0, 0, 170, 0, 170, 0, 255, 170,
                255, 170, 170, 170, 85, 85, 170, 85, 255, 255, 255, 0, 255, 0, 85, 170,
            ]
        ),
        PNGFixture(
            name: "gray4",
            // hand-made 4-bit gray (Python zlib); expected = Pillow convert("L")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIBAAAAAAklAxWAAAAM0lEQVR42gEoANf/AD3iK/cA0LO7PADRWpRwAEivWkYAkXGY"
                + "rAB7K5i8AN1umU8Aw45/EVx5ENZ2WFbvAAAAAElFTkSuQmCC",
            width: 8, height: 8, channels: 1, bitDepth: 8,
            fileBitDepth: 4, colorType: .gray, interlaced: false,
            expected: [
                51, 221, 238, 34, 34, 187, 255, 119, 221, 0, 187, 51, 187, 187, 51, 204,
                221, 17, 85, 170, 153, 68, 119, 0, 68, 136, 170, 255, 85, 170, 68, 102,
                153, 17, 119, 17, 153, 136, 170, 204, 119, 187, 34, 187, 153, 136, 187, 204,
                221, 221, 102, 238, 153, 153, 68, 255, 204, 51, 136, 238, 119, 255, 17, 17,
            ]
        ),
        PNGFixture(
            name: "gray8_trns",
            // Pillow L with transparency=77; expected = Pillow convert("LA")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAAAnRSTlMATX7+8BUAAABTSURBVHicAUgAt/8BTSlk9nsfYA8B"
                + "1JzUxzdk+9UAc+MwGTPJ8+gAKczTVqNNqUgC4exvU9bzkhEBvTYBM3oe494Cli8ZbQr6ewEAw7bCFEoDxvKkKCBmp4dXswAA"
                + "AABJRU5ErkJggg==",
            width: 8, height: 8, channels: 2, bitDepth: 8,
            fileBitDepth: 8, colorType: .gray, interlaced: false,
            expected: [
                77, 0, 118, 255, 218, 255, 208, 255, 75, 255, 106, 255, 202, 255, 217, 255,
                212, 255, 112, 255, 68, 255, 11, 255, 66, 255, 166, 255, 161, 255, 118, 255,
                115, 255, 227, 255, 48, 255, 25, 255, 51, 255, 201, 255, 243, 255, 232, 255,
                41, 255, 204, 255, 211, 255, 86, 255, 163, 255, 77, 0, 169, 255, 72, 255,
                10, 255, 184, 255, 66, 255, 169, 255, 121, 255, 64, 255, 59, 255, 89, 255,
                189, 255, 243, 255, 244, 255, 39, 255, 161, 255, 191, 255, 162, 255, 128, 255,
                83, 255, 34, 255, 13, 255, 148, 255, 171, 255, 185, 255, 29, 255, 129, 255,
                195, 255, 182, 255, 194, 255, 20, 255, 74, 255, 3, 255, 198, 255, 242, 255,
            ]
        ),
        PNGFixture(
            name: "rgb8_trns",
            // Pillow RGB with transparency=(10,20,30); expected = Pillow convert("RGBA")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAABnRSTlMACgAUAB7FNin/AAAA00lEQVR4nAHIADf/AVzIKd9s"
                + "klX5/MMdRh2PbjGBbYxihVDQIQE9B7DNDW6pbMgGDgjzMlh64PP93e/UHKAAhlwM8FyTxG8GawAGG0rjqVsw+UO1G36/AjVh"
                + "X4wuQBrg29XfVrUXEuVS5vWKByidGwQSVK63fIQSVTzi1aJq7k/9C2vovAjqpjAANFgz8eVbRos2Bv8bp9MPKQWTeDfavbBP"
                + "AMs9qP9uFlYIqiuE+QOW3w8Wa+4Uj6gwegLVGbdP5KK0DHTVKDR0Hocp7hgJ3e60LHeSqVpoNNqABQAAAABJRU5ErkJggg==",
            width: 8, height: 8, channels: 4, bitDepth: 8,
            fileBitDepth: 8, colorType: .rgb, interlaced: false,
            expected: [
                92, 200, 41, 255, 59, 52, 187, 255, 144, 45, 183, 255, 83, 74, 253, 255,
                112, 217, 107, 255, 161, 90, 216, 255, 45, 188, 93, 255, 125, 140, 126, 255,
                61, 7, 176, 255, 10, 20, 30, 0, 179, 128, 230, 255, 185, 142, 238, 255,
                172, 192, 70, 255, 38, 160, 57, 255, 35, 125, 40, 255, 247, 153, 200, 255,
                134, 92, 12, 255, 240, 92, 147, 255, 196, 111, 6, 255, 107, 0, 6, 255,
                27, 74, 227, 255, 169, 91, 48, 255, 249, 67, 181, 255, 27, 126, 191, 255,
                187, 189, 107, 255, 124, 138, 211, 255, 222, 79, 225, 255, 64, 223, 92, 255,
                208, 97, 245, 255, 142, 173, 22, 255, 238, 205, 188, 255, 67, 27, 218, 255,
                205, 17, 25, 255, 51, 141, 239, 255, 142, 164, 43, 255, 34, 180, 205, 255,
                58, 79, 68, 255, 55, 184, 129, 255, 118, 137, 196, 255, 45, 193, 10, 255,
                52, 88, 51, 255, 241, 229, 91, 255, 70, 139, 54, 255, 6, 255, 27, 255,
                167, 211, 15, 255, 41, 5, 147, 255, 120, 55, 218, 255, 189, 176, 79, 255,
                203, 61, 168, 255, 255, 110, 22, 255, 86, 8, 170, 255, 43, 132, 249, 255,
                3, 150, 223, 255, 15, 22, 107, 255, 238, 20, 143, 255, 168, 48, 122, 255,
                160, 86, 95, 255, 78, 82, 184, 255, 10, 20, 30, 0, 0, 172, 45, 255,
                119, 180, 102, 255, 56, 4, 131, 255, 247, 241, 125, 255, 92, 92, 241, 255,
            ]
        ),
        PNGFixture(
            name: "interlaced_rgb8",
            // hand-made Adam7 RGB 9x7; expected = Pillow decode (equals the source)
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAkAAAAHCAIAAAEi/sChAAAA1klEQVR42gHLADT/AGC3GAEbLAB8escAtltba9kJuX8mALfS"
                + "z7KYOgDk1FB3lWsArPDR1WXNx9UjDq4ZJ19HAP8X1AntBcsgM2Dxggk7CACkEcLI/dcOLmAoSkoAHzsP1L84HWVZFZ94ANeZ"
                + "KYVn8/BKRdeP6QDNNhnL8rsPS9Ymi1UAgGMV/n2fvbu6V3tdFJV5WeNGvBuK2l87tE1pAKXqmMnSAiN+SniA6Z1iwNxGxsWH"
                + "hnpZThPPmwCuaeA3S+FpPA+asf+o9iBkvmZhNPhaOO/xvK9+o15ZqWLR0wAAAABJRU5ErkJggg==",
            width: 9, height: 7, channels: 3, bitDepth: 8,
            fileBitDepth: 8, colorType: .rgb, interlaced: true,
            expected: [
                96, 183, 24, 164, 17, 194, 183, 210, 207, 200, 253, 215, 124, 122, 199, 14,
                46, 96, 178, 152, 58, 40, 74, 74, 1, 27, 44, 128, 99, 21, 254, 125,
                159, 189, 187, 186, 87, 123, 93, 20, 149, 121, 89, 227, 70, 188, 27, 138,
                218, 95, 59, 180, 77, 105, 172, 240, 209, 31, 59, 15, 213, 101, 205, 212,
                191, 56, 199, 213, 35, 29, 101, 89, 14, 174, 25, 21, 159, 120, 39, 95,
                71, 165, 234, 152, 201, 210, 2, 35, 126, 74, 120, 128, 233, 157, 98, 192,
                220, 70, 198, 197, 135, 134, 122, 89, 78, 19, 207, 155, 182, 91, 91, 215,
                153, 41, 228, 212, 80, 133, 103, 243, 107, 217, 9, 240, 74, 69, 119, 149,
                107, 215, 143, 233, 185, 127, 38, 174, 105, 224, 55, 75, 225, 105, 60, 15,
                154, 177, 255, 168, 246, 32, 100, 190, 102, 97, 52, 248, 90, 56, 239, 241,
                188, 175, 255, 23, 212, 205, 54, 25, 9, 237, 5, 203, 242, 187, 203, 32,
                51, 15, 75, 214, 96, 241, 130, 38, 139, 85, 9, 59, 8,
            ]
        ),
        PNGFixture(
            name: "interlaced_gray16",
            // hand-made Adam7 16-bit gray 5x6; expected = Pillow decode (equals the source)
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAUAAAAGEAAAAAEJB+dCAAAAU0lEQVR42gFIALf/AApKAHxqAOupaxMA4KsAPMsAqLI2AYiO"
                + "AK0k6xEA74/flABoBTpIAHAOwl6uubCxVCUAnWhaaSdeCVEmdADhVUKUlotz+ENWvpQbhDy8/IcAAAAASUVORK5CYII=",
            width: 5, height: 6, channels: 1, bitDepth: 16,
            fileBitDepth: 16, colorType: .gray, interlaced: true,
            expected: [
                2634, 44324, 57515, 60177, 31850, 28686, 49758, 44729, 45233, 21541, 43186, 61327, 13825, 57236, 34958,
                40296,
                23145, 10078, 2385, 9844, 60329, 26629, 15563, 14920, 27411, 57685, 17044, 38539, 29688, 17238,
            ]
        ),
        PNGFixture(
            name: "interlaced_gray1",
            // hand-made Adam7 1-bit gray 10x10; expected = Pillow convert("L")
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAoAAAAKAQAAAAHSTsKGAAAALUlEQVR42mM4wNDAAAIHoKQDwwmGAIYMBgOGCUD2ageGhQcY"
                + "uhsYQg4wvGEAAM6mCtjnDZwTAAAAAElFTkSuQmCC",
            width: 10, height: 10, channels: 1, bitDepth: 8,
            fileBitDepth: 1, colorType: .gray, interlaced: true,
            expected: [
                255, 0, 0, 255, 0, 0, 0, 255, 255, 0, 255, 0, 255, 0, 255, 0,
                255, 255, 0, 255, 0, 0, 255, 255, 0, 255, 0, 0, 0, 255, 255, 0,
                255, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 255,
                0, 0, 255, 0, 0, 0, 255, 0, 255, 255, 255, 0, 255, 255, 255, 0,
                0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                255, 0, 255, 255, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 255, 255,
                0, 0, 0, 0,
            ]
        ),
        PNGFixture(
            name: "rgb16",
            // hand-made 16-bit rgb16, filter 0 (Python zlib); expected = the source samples (big-endian in the file)
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADEAIAAABrBuXSAAAAVklEQVR42gFLALT/AAEC/wAK0sN5OnoApEvhZPtbvKb8FRZS"
                + "MwCur032WgmI9yfTqOJgsIBvL10FxX+RV5EA9o/Jl8BFzUHPEqu5b4jpJBKqkkaIsBBxB1AjSGLQtZgAAAAASUVORK5CYII=",
            width: 4, height: 3, channels: 3, bitDepth: 16,
            fileBitDepth: 16, colorType: .rgb, interlaced: false,
            expected: [
                258, 65280, 2770, 50041, 14970, 164, 19425, 25851, 23484, 42748, 5398, 21043, 44719, 19958, 23049,
                35063,
                10195, 43234, 24752, 32879, 12125, 1477, 32657, 22417, 63119, 51607, 49221, 52545, 53010, 43961, 28552,
                59684,
                4778, 37446, 34992, 4209,
            ]
        ),
        PNGFixture(
            name: "rgba16",
            // hand-made 16-bit rgba16, filter 0 (Python zlib); expected = the source samples (big-endian in the file)
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADEAYAAADkZHKFAAAAbklEQVR42gFjAJz/AAEC/wCy/vutbMTNaTe5CIpwu0bebiMG"
                + "Vy9Gg29orZivACg2rQdD5pM7oIhMLoYhV5DtiRoAyErC3f7Eveqs2IyxABjcpOcfbnY+ptsE8vt49UgbBvVFQqGYhgcy716r"
                + "v9jjDW8w1a5rRhsAAAAASUVORK5CYII=",
            width: 4, height: 3, channels: 4, bitDepth: 16,
            fileBitDepth: 16, colorType: .rgba, interlaced: false,
            expected: [
                258, 65280, 45822, 64429, 27844, 52585, 14265, 2186, 28859, 18142, 28195, 1623, 12102, 33647, 26797,
                39087,
                10294, 44295, 17382, 37691, 41096, 19502, 34337, 22416, 60809, 6656, 51274, 49885, 65220, 48618, 44248,
                36017,
                6364, 42215, 8046, 30270, 42715, 1266, 64376, 62792, 6918, 62789, 17057, 39046, 1842, 61278, 43967,
                55523,
            ]
        ),
        PNGFixture(
            name: "graya16",
            // hand-made 16-bit graya16, filter 0 (Python zlib); expected = the source samples (big-endian in the file)
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADEAQAAABObboOAAAAPElEQVR42mNgZPrPcKHXVVYp9WvdDcnoEIaOmXZqGxg0v7zI"
                + "T5f3Xb20kYHnlBsru2/wVBsRoeyN6tzeAOeuEgEImIcBAAAAAElFTkSuQmCC",
            width: 4, height: 3, channels: 2, bitDepth: 16,
            fileBitDepth: 16, colorType: .grayAlpha, interlaced: false,
            expected: [
                258, 65280, 53389, 17693, 8805, 62846, 55321, 23380, 34969, 15910, 45056, 10740, 59503, 26399, 19883,
                42369,
                3274, 17925, 1869, 21397, 15380, 4715, 45351, 2891,
            ]
        ),
        PNGFixture(
            name: "gray16_pillow",
            // Pillow I;16 4x3; expected = Pillow decode
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADEAAAAADBDy1ZAAAAJElEQVR4nGNgYGBgZPjPyMD0/7+Q8epzTC8Y2OR4dzAwNTAA"
                + "AFt3BxVSNvnkAAAAAElFTkSuQmCC",
            width: 4, height: 3, channels: 1, bitDepth: 16,
            fileBitDepth: 16, colorType: .gray, interlaced: false,
            expected: [
                0, 1, 255, 256, 65535, 4660, 43981, 1000, 1566, 3512, 2, 32768,
            ]
        ),
    ]
}
