import Foundation
import RialMedia

@testable import RialCodecs

/// Helpers shared by the JPEG suites.
enum JPEGTestSupport {
    /// Per-channel mean of all samples.
    static func channelMeans(_ image: Image8) -> [Double] {
        var sums = [UInt64](repeating: 0, count: image.channels)
        image.samples.withUnsafeBufferPointer { buffer in
            let channels = image.channels
            var i = 0
            while i < buffer.count {
                for c in 0..<channels { sums[c] &+= UInt64(buffer[i + c]) }
                i += channels
            }
        }
        let n = Double(image.width * image.height)
        return sums.map { Double($0) / n }
    }

    /// Mean of |a - b| over all samples (images must have the same shape).
    static func meanAbsoluteError(_ a: Image8, _ b: Image8) -> Double {
        precondition(a.samples.count == b.samples.count)
        var total: UInt64 = 0
        a.samples.withUnsafeBufferPointer { pa in
            b.samples.withUnsafeBufferPointer { pb in
                for i in 0..<pa.count { total &+= UInt64(abs(Int(pa[i]) - Int(pb[i]))) }
            }
        }
        return Double(total) / Double(a.samples.count)
    }

    /// Largest |a - b| over all samples.
    static func maxAbsoluteDifference(_ a: Image8, _ b: Image8) -> Int {
        precondition(a.samples.count == b.samples.count)
        var worst = 0
        for i in a.samples.indices { worst = max(worst, abs(Int(a.samples[i]) - Int(b.samples[i]))) }
        return worst
    }

    /// A smooth RGB test card: R ramps left to right, G top to bottom, B is a slow
    /// diagonal wave. Deterministic, compresses well, exercises all three channels.
    static func gradient(width: Int, height: Int) -> Image8 {
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                samples[i] = UInt8(x * 255 / max(width - 1, 1))
                samples[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                let phase = Double(x + y) / Double(width + height) * 2 * Double.pi
                samples[i + 2] = UInt8(128 + 100 * sin(phase))
            }
        }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }

    /// A textured RGB image (gradient plus seeded noise), so file size depends on quality.
    static func textured(width: Int, height: Int, seed: UInt64) -> Image8 {
        var image = gradient(width: width, height: height)
        var rng = SeededGenerator(seed: seed)
        for i in image.samples.indices {
            let noisy = Int(image.samples[i]) + Int.random(in: -24...24, using: &rng)
            image.samples[i] = UInt8(clamping: noisy)
        }
        return image
    }

    /// Offset of the first SOFn marker's segment (the 0xFF byte), skipping other
    /// segments by their lengths. nil when not found.
    static func startOfFrameOffset(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return i
            }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            i += 2 + length
        }
        return nil
    }

    /// `data` with bytes replaced at `offset`.
    static func patch(_ data: Data, at offset: Int, with bytes: [UInt8]) -> Data {
        var copy = data
        for (k, byte) in bytes.enumerated() { copy[copy.startIndex + offset + k] = byte }
        return copy
    }
}

/// An expected pixel: position and channel values.
struct PixelGolden: Sendable {
    let x: Int
    let y: Int
    let value: [UInt8]
    init(_ x: Int, _ y: Int, _ value: [UInt8]) {
        self.x = x
        self.y = y
        self.value = value
    }
}
