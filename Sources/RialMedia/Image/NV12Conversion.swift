/// NV12 (4:2:0, a full-resolution Y' plane, then one half-resolution plane of
/// interleaved Cb, Cr) to 8-bit RGB: how a video frame the hash chain covers becomes a
/// still for the photo methods.
///
/// The phone's capture buffers are NV12 in BT.601 *video range* unless configured
/// otherwise (`kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange`), so that is the default.
///
/// For each pixel, with the chroma sample of its 2x2 block (nearest, no interpolation):
///
///     y  = (Y' - yOffset) x yScale,   b = (Cb - 128) x cScale,   r = (Cr - 128) x cScale
///     R  = y + 2 (1 - Kr) r
///     G  = y - 2 Kb (1 - Kb) / Kg b - 2 Kr (1 - Kr) / Kg r
///     B  = y + 2 (1 - Kb) b
///
/// with Kg = 1 - Kr - Kb; video range: yOffset 16, yScale 255/219, cScale 255/224; full
/// range: yOffset 0, yScale 1, cScale 1. Each value is rounded to the nearest integer
/// and clamped to 0...255. BT.601: Kr 0.299, Kb 0.114 (ITU-R BT.601-7, 2.5.1); BT.709:
/// Kr 0.2126, Kb 0.0722 (ITU-R BT.709-6, 3.2).
public enum NV12Conversion {
    public enum Matrix: String, Sendable, Equatable, Codable, CaseIterable {
        case bt601
        case bt709

        var kr: Double { self == .bt601 ? 0.299 : 0.2126 }
        var kb: Double { self == .bt601 ? 0.114 : 0.0722 }
    }

    public enum Range: String, Sendable, Equatable, Codable, CaseIterable {
        /// Y' 16...235, Cb/Cr 16...240.
        case video
        /// Y', Cb, Cr 0...255.
        case full
    }

    /// The RGB image of one NV12 frame.
    ///
    /// - Parameters:
    ///   - bytes: `width x height` luma bytes, then `width x height / 2` interleaved Cb, Cr.
    ///   - width, height: even and positive.
    /// - Throws: `MediaError` `.invalidArgument` for an odd or non-positive size or a byte
    ///   count other than `width x height x 3 / 2`.
    /// - Complexity: O(width x height), one pass over contiguous buffers.
    public static func rgb(
        _ bytes: [UInt8], width: Int, height: Int, matrix: Matrix = .bt601, range: Range = .video
    ) throws -> Image8 {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0,
            width.multipliedReportingOverflow(by: height).overflow == false
        else {
            throw MediaError(
                .invalidArgument, source: inMemorySource, "NV12 frame size \(width)x\(height) is not even and positive")
        }
        let expected = width * height * 3 / 2
        guard bytes.count == expected else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "NV12 frame of \(width)x\(height) needs \(expected) bytes, got \(bytes.count)")
        }
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        let (yOffset, yScale, cScale): (Double, Double, Double) =
            range == .video ? (16, 255.0 / 219.0, 255.0 / 224.0) : (0, 1, 1)
        // Coefficients in 1/65536 units: integer arithmetic per pixel.
        let unit = 65536.0
        let cy = Int((yScale * unit).rounded())
        let crR = Int((2 * (1 - kr) * cScale * unit).rounded())
        let cbG = Int((2 * kb * (1 - kb) / kg * cScale * unit).rounded())
        let crG = Int((2 * kr * (1 - kr) / kg * cScale * unit).rounded())
        let cbB = Int((2 * (1 - kb) * cScale * unit).rounded())
        let offset = Int(yOffset)
        let half = 1 << 15
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeBufferPointer { src in
            samples.withUnsafeMutableBufferPointer { dst in
                let chroma = width * height
                for row in 0..<height {
                    let lumaRow = row * width
                    let chromaRow = chroma + (row / 2) * width
                    var out = row * width * 3
                    for column in 0..<width {
                        let y = (Int(src[lumaRow + column]) - offset) * cy
                        let c = chromaRow + (column & ~1)
                        let cb = Int(src[c]) - 128, cr = Int(src[c + 1]) - 128
                        let r = (y + crR * cr + half) >> 16
                        let g = (y - cbG * cb - crG * cr + half) >> 16
                        let b = (y + cbB * cb + half) >> 16
                        dst[out] = UInt8(clamping: r)
                        dst[out + 1] = UInt8(clamping: g)
                        dst[out + 2] = UInt8(clamping: b)
                        out += 3
                    }
                }
            }
        }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }
}
