import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialCodecs

/// NV12 frames built in code (no media is committed) for the video round trips.
enum VideoPatterns {
    /// A flat frame: every luma byte `level`, chroma `cb`/`cr`.
    static func flat(width: Int, height: Int, level: UInt8, cb: UInt8 = 128, cr: UInt8 = 128) -> [UInt8] {
        var frame = [UInt8](repeating: level, count: width * height)
        for _ in 0..<(width * height / 4) {
            frame.append(cb)
            frame.append(cr)
        }
        return frame
    }

    /// Luma 40 with a vertical bar of luma 200, `barWidth` wide, starting at column `x`.
    static func bar(width: Int, height: Int, x: Int, barWidth: Int) -> [UInt8] {
        var frame = flat(width: width, height: height, level: 40)
        for row in 0..<height {
            for column in x..<min(x + barWidth, width) { frame[row * width + column] = 200 }
        }
        return frame
    }

    /// Seeded noise in luma and chroma (for the lossless round trip: nothing to predict).
    static func noise(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        return (0..<(width * height * 3 / 2)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }
}

@Suite("Video codec (FFmpeg)")
struct VideoCodecTests {
    private func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = try Fixtures.makeTemporaryFolder("rial-video")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    private func decodeAll(_ path: String, options: VideoDecodeOptions = VideoDecodeOptions(threads: 1)) throws
        -> (VideoStreamInfo, [VideoFrame])
    {
        let decoder = try VideoDecoder(path: path, options: options)
        var frames: [VideoFrame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return (decoder.info, frames)
    }

    @Test("Debian's libavcodec has the libx264 encoder")
    func hasX264() {
        #expect(VideoEncoder.hasEncoder("libx264"))
        #expect(!VideoEncoder.hasEncoder("no-such-encoder"))
    }

    @Test("Lossless H.264 (CRF 0) returns every NV12 byte, in order, at n / fps seconds")
    func losslessRoundTrip() throws {
        // x264 with CRF 0 codes transform-bypass (lossless) macroblocks, so the decoded
        // NV12 must equal the source byte for byte: no tolerance.
        let (width, height) = (64, 48)
        let source = (0..<7).map { VideoPatterns.noise(width: width, height: height, seed: UInt64($0)) }
        try withFolder { folder in
            let path = folder.appendingPathComponent("lossless.mp4").path
            try VideoEncoder.write(
                source, width: width, height: height, to: path,
                options: VideoEncodeOptions(framesPerSecond: 30, rate: .constantRateFactor(0), threads: 1))
            let (info, frames) = try decodeAll(path)
            #expect(info.codec == "h264")
            #expect(info.container == "mov,mp4,m4a,3gp,3g2,mj2")
            #expect(info.width == width && info.height == height)
            #expect(info.framesPerSecond == 30)
            #expect(info.frameCount == 7)
            #expect(abs((info.duration ?? 0) - 7.0 / 30) < 1e-6)
            #expect(info.rotationDegrees == 0)
            #expect(frames.count == 7)
            for (i, frame) in frames.enumerated() {
                #expect(frame.index == i)
                #expect(abs(frame.timestamp - Double(i) / 30) < 1e-6)
                #expect(frame.nv12 == source[i], "frame \(i)")
            }
        }
    }

    @Test("Flat gray levels and a moving bar survive QP 18 within one quantiser step")
    func lossyRoundTrip() throws {
        // Tolerance: with a constant quantiser of 18 and no B-frames, x264 codes every P
        // frame at QP 18 and the first (I) frame lower (adaptive quantisation and mb-tree
        // are off in constant-QP mode). H.264's quantiser step at QP 18 is
        // 0.625 x 2^(18/6) = 5 levels (ITU-T H.264 section 8.5.12: Qstep doubles every 6
        // QP from 0.625 at QP 0). Whatever rounding offset or trellis choice the encoder
        // makes, each coefficient's level is one of the two nearest, so its error is below
        // one step; the transform is orthogonal, so the frame's luma RMS error is below
        // 5 levels too. A flat frame's residual is one DC term per block, which moves every
        // pixel of the block by the same amount, so there the bound holds per pixel.
        let (width, height) = (96, 64)
        let levels: [UInt8] = [16, 64, 128, 192, 235]
        var source = levels.map { VideoPatterns.flat(width: width, height: height, level: $0) }
        let barStarts = (0..<10).map { 4 + 7 * $0 }
        source += barStarts.map { VideoPatterns.bar(width: width, height: height, x: $0, barWidth: 8) }
        try withFolder { folder in
            let path = folder.appendingPathComponent("lossy.mp4").path
            try VideoEncoder.write(
                source, width: width, height: height, to: path,
                options: VideoEncodeOptions(framesPerSecond: 30, rate: .quantizer(18), maxBFrames: 0, threads: 1))
            let decoder = try VideoDecoder(path: path, options: VideoDecodeOptions(threads: 1))
            var index = 0
            while let (luma, timestamp) = try decoder.nextLuma() {
                #expect(luma.width == width && luma.height == height && luma.channels == 1)
                #expect(abs(timestamp - Double(index) / 30) < 1e-6)
                let expected = source[index].prefix(width * height)
                let squared = zip(luma.samples, expected).reduce(0.0) { sum, pair in
                    let d = Double(pair.0) - Double(pair.1)
                    return sum + d * d
                }
                let rms = (squared / Double(width * height)).squareRoot()
                #expect(rms < 5, "frame \(index): luma RMS error \(rms)")
                if index < levels.count {
                    let worst = luma.samples.map { abs(Int($0) - Int(levels[index])) }.max() ?? 0
                    #expect(worst < 5, "flat frame \(index): worst error \(worst)")
                } else {
                    // The bar is where it was drawn: the brightest column of the middle row.
                    let row = Array(luma.samples[(height / 2 * width)..<(height / 2 * width + width)])
                    let centre = barStarts[index - levels.count] + 4
                    #expect(row[centre] > 150 && row[centre - 1] > 150, "frame \(index)")
                    #expect(row[(centre + width / 2) % width] < 90, "frame \(index)")
                }
                index += 1
            }
            #expect(index == source.count)
            #expect(decoder.framesDecoded == source.count)
            #expect(try decoder.nextLuma() == nil) // stays at the end
        }
    }

    @Test("The display rotation written into the file is read back", arguments: [0, 90, 180, 270])
    func rotation(degrees: Int) throws {
        try withFolder { folder in
            let path = folder.appendingPathComponent("rotated.mov").path
            try VideoEncoder.write(
                [VideoPatterns.flat(width: 32, height: 16, level: 100)], width: 32, height: 16, to: path,
                options: VideoEncodeOptions(rotationDegrees: degrees))
            let info = try VideoDecoder.info(path: path)
            #expect(info.rotationDegrees == degrees)
            #expect(info.width == 32 && info.height == 16) // coded size, not rotated
        }
    }

    @Test("HEVC decodes too (when this libavcodec has libx265)")
    func hevc() throws {
        guard VideoEncoder.hasEncoder("libx265") else { return }
        let (width, height) = (64, 64)
        let source = (0..<5).map { VideoPatterns.flat(width: width, height: height, level: UInt8(50 + 30 * $0)) }
        try withFolder { folder in
            let path = folder.appendingPathComponent("hevc.mp4").path
            try VideoEncoder.write(
                source, width: width, height: height, to: path,
                options: VideoEncodeOptions(rate: .constantRateFactor(18), threads: 1, encoder: "libx265"))
            let (info, frames) = try decodeAll(path)
            #expect(info.codec == "hevc")
            #expect(frames.count == 5)
            for (i, frame) in frames.enumerated() {
                let worst = frame.nv12.prefix(width * height).map { abs(Int($0) - Int(50 + 30 * i)) }.max() ?? 0
                #expect(worst <= 2, "frame \(i)")
            }
        }
    }

    @Test("Decoding threads do not change the frames")
    func threads() throws {
        let source = (0..<12).map { VideoPatterns.bar(width: 64, height: 32, x: 3 * $0, barWidth: 6) }
        try withFolder { folder in
            let path = folder.appendingPathComponent("threads.mp4").path
            try VideoEncoder.write(source, width: 64, height: 32, to: path)
            let one = try decodeAll(path, options: VideoDecodeOptions(threads: 1)).1
            let many = try decodeAll(path, options: VideoDecodeOptions(threads: 0)).1
            #expect(one.count == 12)
            #expect(one == many)
        }
    }

    @Test("Bad files and arguments are one MediaError naming the file")
    func errors() throws {
        try withFolder { folder in
            func expectError(_ path: String, _ kind: MediaError.Kind, containing text: String) {
                do {
                    _ = try VideoDecoder(path: path)
                    Issue.record("\(path) opened")
                } catch {
                    #expect(error.kind == kind, "\(error)")
                    #expect(error.source == path)
                    #expect(error.description.contains(text), "\(error)")
                    #expect(!error.description.contains("\n"))
                }
            }
            expectError(folder.appendingPathComponent("missing.mp4").path, .notFound, containing: "no such file")
            expectError(folder.path, .unreadable, containing: "directory")
            let empty = folder.appendingPathComponent("empty.mp4").path
            #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
            expectError(empty, .corrupt, containing: "empty")
            let text = folder.appendingPathComponent("notes.mp4").path
            #expect(FileManager.default.createFile(atPath: text, contents: Data("not a video at all\n".utf8)))
            // FFmpeg's probe goes by the .mp4 name here; the MP4 demuxer then finds no index.
            expectError(text, .corrupt, containing: "MP4")
            let textNoExtension = folder.appendingPathComponent("notes").path
            #expect(
                FileManager.default.createFile(atPath: textNoExtension, contents: Data("not a video at all\n".utf8)))
            expectError(textNoExtension, .corrupt, containing: "not an MP4 or MOV video")
            // A valid file of another format: refused before its demuxer runs.
            let png = folder.appendingPathComponent("image.mp4").path
            let image = Image8(width: 8, height: 8, channels: 1, samples: [UInt8](repeating: 9, count: 64))!
            #expect(FileManager.default.createFile(atPath: png, contents: try PNGEncoder.encode(image)))
            expectError(png, .unsupported, containing: "not an MP4 or MOV video")

            let out = folder.appendingPathComponent("odd.mp4").path
            #expect(throws: MediaError.self) { try VideoEncoder(path: out, width: 33, height: 16) }
            #expect(throws: MediaError.self) {
                try VideoEncoder(path: folder.appendingPathComponent("x.unknownext").path, width: 32, height: 16)
            }
            #expect(throws: MediaError.self) {
                try VideoEncoder(path: out, width: 32, height: 16, options: VideoEncodeOptions(encoder: "nope"))
            }
            let encoder = try VideoEncoder(path: out, width: 32, height: 16)
            #expect(throws: MediaError.self) { try encoder.append(nv12: [1, 2, 3]) }
        }
    }

    @Test("An unfinished encoder deletes its partial file")
    func unfinished() throws {
        try withFolder { folder in
            let path = folder.appendingPathComponent("partial.mp4").path
            do {
                let encoder = try VideoEncoder(path: path, width: 32, height: 16)
                try encoder.append(nv12: VideoPatterns.flat(width: 32, height: 16, level: 50))
                #expect(FileManager.default.fileExists(atPath: path))
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            // An encoder that fails to open leaves an existing file alone.
            let existing = folder.appendingPathComponent("existing.mp4").path
            #expect(FileManager.default.createFile(atPath: existing, contents: Data("keep me".utf8)))
            #expect(throws: MediaError.self) { try VideoEncoder(path: existing, width: 33, height: 16) }
            #expect(FileManager.default.contents(atPath: existing) == Data("keep me".utf8))
        }
    }
}

@Suite("Video inspection")
struct VideoInspectionTests {
    @Test("inspect describes an MP4 by its stream, and a damaged one is one error")
    func inspect() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-video-inspect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("clip.mp4").path
        let frames = (0..<9).map { VideoPatterns.bar(width: 64, height: 32, x: 4 * $0, barWidth: 6) }
        try VideoEncoder.write(
            frames, width: 64, height: 32, to: path, options: VideoEncodeOptions(rotationDegrees: 90))
        guard case .video(let video) = try MediaInspector.inspect(path: path) else {
            Issue.record("not inspected as a video")
            return
        }
        #expect(video.format == "video")
        #expect(video.stream.codec == "h264" && video.stream.width == 64 && video.stream.height == 32)
        #expect(video.stream.frameCount == 9 && video.stream.rotationDegrees == 90)
        #expect(video.stream.summary.hasPrefix("h264 High 64x32 30 fps, 9 frames, 0.300 s, rotation 90"))
        // Cut before the index (moov comes last): the container cannot be read.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = folder.appendingPathComponent("cut.mp4").path
        #expect(FileManager.default.createFile(atPath: cut, contents: data.prefix(data.count / 2)))
        #expect {
            _ = try MediaInspector.inspect(path: cut)
        } throws: { error in
            guard let error = error as? MediaError else { return false }
            return error.kind == .corrupt && error.source == cut && error.description.contains("corrupt video")
        }
    }
}
