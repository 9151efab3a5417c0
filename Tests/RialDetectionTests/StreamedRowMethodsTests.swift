import Foundation
import RialMedia
import RialSynth
import Testing

@testable import RialDetection

/// The row methods read a photo while it decodes, some in parts that run beside each
/// other (moire/2: moire/1's tiles and the band tiles; depth/2: the depth analysis and
/// its luma guide). Issue 13, Performance: the speed-up may not move any score, so on
/// rows that arrive band by band each result must equal the whole-frame result exactly.
///
/// The rows arrive in a buffer that starts as the complement of the photo: a method
/// that read a row before it was published would see other samples and (almost surely)
/// give another result.
@Suite struct StreamedRowMethodsTests {
    /// Runs `body` on `image`'s rows written band by band (`band` rows, a short pause
    /// between bands) by another thread, with `readerSlots` reader slots while it writes.
    static func streamed<R: Sendable>(
        _ image: Image8, band: Int, readerSlots: Int, _ body: @escaping @Sendable (ImageRows) -> R
    ) -> R {
        let count = image.samples.count
        let storage = Buffer(UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count))
        defer { storage.pointer.deallocate() }
        let buffer = storage.pointer
        for i in 0..<count { buffer[i] = ~image.samples[i] }
        let progress = RowProgress(height: image.height, readerSlots: readerSlots)
        let rows = ImageRows(
            width: image.width, height: image.height, channels: image.channels,
            samples: UnsafeBufferPointer(buffer), progress: progress)
        let stride = image.width * image.channels
        let writer = Thread {
            let buffer = storage.pointer
            var y = 0
            while y < image.height {
                let end = min(image.height, y + band)
                for i in (y * stride)..<(end * stride) { buffer[i] = image.samples[i] }
                progress.publish(end)
                usleep(300)
                y = end
            }
            progress.finish()
        }
        let result = Locked<R?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let value = body(rows)
            result.withLock { $0 = value }
            done.signal()
        }.start()
        writer.start()
        done.wait()
        return result.withLock { $0! }
    }

    /// The buffer the writer fills and the readers read (different rows at a time).
    struct Buffer: @unchecked Sendable {
        let pointer: UnsafeMutableBufferPointer<UInt8>
        init(_ pointer: UnsafeMutableBufferPointer<UInt8>) { self.pointer = pointer }
    }

    /// A 1024 x 768 capture of each class the tests use (generated once).
    static let captures: [SynthClass: SynthCapture] = Dictionary(
        uniqueKeysWithValues: [SynthClass.realScene, .lcdScreen].map { synthClass in
            (synthClass, SynthGenerator.generate(index: 2, seed: 4_242, class: synthClass, width: 1024, height: 768))
        })

    static func capture(_ synthClass: SynthClass) -> SynthCapture { captures[synthClass]! }

    /// moire/2 on streamed rows inside a reader slot (its two parts then run as two
    /// readers) equals moire/2 on the finished image, for 4 x 3 tiles and for 3 x 3
    /// tiles (whose tile pairs straddle tile rows, one tile left alone at the end).
    @Test(arguments: [SynthClass.lcdScreen, .realScene])
    func moireV2StreamedEqualsWholeFrame(_ synthClass: SynthClass) throws {
        let image = Self.capture(synthClass).image
        var threeColumns = MoireAnalyzerV2.Configuration.standard
        threeColumns.tileColumns = 3
        var noPeaks = MoireAnalyzerV2.Configuration.standard
        noPeaks.usePeaks = false
        for configuration in [MoireAnalyzerV2.Configuration.standard, threeColumns, noPeaks] {
            let method = try MoireAnalyzerV2(configuration: configuration)
            let whole = image.withRows { method.evaluate($0) }
            #expect(whole.status == .completed)
            for (band, slots) in [(7, 1), (33, 3)] {
                let streamed = Self.streamed(image, band: band, readerSlots: slots) { rows in
                    rows.withReaderSlot(priority: 9) { method.evaluate($0) }
                }
                #expect(streamed == whole, "\(synthClass), \(configuration.tileColumns) columns, band \(band)")
            }
        }
    }

    /// A gray (one-channel) photo: the reduction puts gray in all three planes; streamed
    /// equals whole frame.
    @Test func moireV2StreamedGrayEqualsWholeFrame() throws {
        let color = Self.capture(.lcdScreen).image
        var gray = Image8(width: color.width, height: color.height, channels: 1)
        for y in 0..<color.height {
            for x in 0..<color.width { gray[x, y, 0] = color[x, y, 1] }
        }
        let method = MoireAnalyzerV2()
        let whole = gray.withRows { method.evaluate($0) }
        let streamed = Self.streamed(gray, band: 16, readerSlots: 1) { rows in
            rows.withReaderSlot { method.evaluate($0) }
        }
        #expect(streamed == whole)
    }

    /// depth/2 with its luma guide built from streamed rows equals depth/2 with the guide
    /// from the finished image, edge-alignment fields included.
    @Test(arguments: [SynthClass.realScene, .lcdScreen])
    func depthV2StreamedEqualsWholeFrame(_ synthClass: SynthClass) throws {
        let capture = Self.capture(synthClass)
        let method = DepthAnalyzerV2()
        let depth = capture.depth
        let whole = MethodCapture.with(CaptureInput(image: capture.image, depth: depth)) { view in
            method.outcome(on: view)
        }
        #expect(whole.summary.status == .completed)
        #expect(whole.fields["edge_alignment"] != nil || whole.fields["luma_edge_density"] != nil)
        for (band, slots) in [(5, 1), (48, 3)] {
            let streamed = Self.streamed(capture.image, band: band, readerSlots: slots) { rows in
                rows.withReaderSlot(priority: 4) { reader in
                    method.outcome(
                        on: MethodCapture(rows: reader, image: nil, depth: depth, depthIntrinsics: nil))
                }
            }
            #expect(Self.timeless(streamed) == Self.timeless(whole), "\(synthClass), band \(band)")
        }
    }

    /// The analyzer's row analysis (every row method of the standard configuration, each
    /// a reader with its priority) on streamed rows equals `analyze` on the finished
    /// photo, method by method.
    @Test(arguments: [SynthClass.realScene, .lcdScreen])
    func rowAnalysisOnStreamedRowsEqualsAnalyze(_ synthClass: SynthClass) throws {
        let capture = Self.capture(synthClass)
        let analyzer = try CaptureAnalyzer()
        let input = CaptureInput(image: capture.image, depth: capture.depth)
        let expected = try analyzer.analyze(input, concurrent: false)
        let depth = capture.depth
        let rows = Self.streamed(capture.image, band: 24, readerSlots: 1) { rows in
            analyzer.analyzeRows(rows, depth: depth, concurrent: true)
        }
        #expect(rows.outcomes.keys.contains(.moireV2) && rows.outcomes.keys.contains(.depthV2))
        for (method, outcome) in rows.outcomes {
            let reference = try #require(expected.outcomes.first { $0.key == method.description })
            #expect(Self.timeless(outcome) == Self.timeless(reference), "\(synthClass): \(method)")
        }
    }

    /// An outcome without its times (the only fields streaming may change).
    static func timeless(_ outcome: MethodOutcome) -> MethodOutcome {
        var copy = outcome
        copy.summary.analysisTimeMs = 0
        copy.fields["analysis_time_ms"] = nil
        return copy
    }
}
