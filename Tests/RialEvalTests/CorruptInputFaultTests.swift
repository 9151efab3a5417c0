import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialEval

/// Issue 17, items 3 and 4: damaged JPEG data and depth maps that cannot lie over their
/// image are load errors naming the file (or, for JPEG warnings with
/// `acceptJPEGWarnings`, evaluated and flagged), never analysed silently.
@Suite(.serialized) struct CorruptInputFaultTests {
    // MARK: - Fixtures

    /// A 256x192 picture with edges and texture in every 8x8 block, so the entropy data
    /// is dense and most bit flips land in it.
    static let cleanJPEG: Data = {
        let width = 256, height = 192
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        var rng = SeededGenerator(seed: 1717)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let stripe = UInt8(((x / 16 + y / 12) % 2) * 120)
                samples[i] = stripe &+ UInt8.random(in: 0...60, using: &rng)
                samples[i + 1] = UInt8(truncatingIfNeeded: x) &+ UInt8.random(in: 0...30, using: &rng)
                samples[i + 2] = UInt8(truncatingIfNeeded: y &* 3) &+ stripe / 2
            }
        }
        let image = Image8(width: width, height: height, channels: 3, samples: samples)!
        return (try? JPEGEncoder.encode(image, quality: 90)) ?? Data()
    }()

    /// How libjpeg itself takes a file (the default warning policy, which refuses only
    /// truncation): the classification the loader's verdict is checked against.
    enum DecoderVerdict: Equatable {
        case clean, warned(String), error
    }

    static func decoderVerdict(_ data: Data) -> DecoderVerdict {
        do {
            let result = try JPEGDecoder.decodeReporting(data)
            return result.warningCount > 0 ? .warned(result.firstWarning ?? "") : .clean
        } catch { return .error }
    }

    static func writeManifest(_ samples: [String], in folder: URL) throws -> String {
        let text = #"{"format": "rial-bench-dataset/1", "samples": ["# + samples.joined(separator: ",") + "]}"
        try EvalFixtures.write(Data(text.utf8), to: "manifest.json", in: folder)
        return folder.appendingPathComponent("manifest.json").path
    }

    static func run(_ manifest: String, acceptJPEGWarnings: Bool = false) throws -> [SampleRecord] {
        let folder = try EvalFixtures.makeTemporaryFolder("rial-corrupt-run")
        defer { EvalFixtures.removeTemporary(folder) }
        let path = folder.appendingPathComponent("samples.jsonl").path
        let plan = RunPlan(
            manifests: [manifest], jobs: 2, resamples: 0, buildConfiguration: "debug",
            acceptJPEGWarnings: acceptJPEGWarnings)
        _ = try DatasetRunner(plan: plan).run(samplesPath: path)
        return try SampleRecord.readLines(path: path)
    }

    // MARK: - Item 3: bit-flipped JPEGs

    /// 100 seeded corruptions of one JPEG: every file that libjpeg decodes with
    /// warnings fails the load (as a truncated file does) naming the file and the
    /// warning; with `acceptJPEGWarnings` it loads and carries the warning. Nothing
    /// crashes or takes long.
    @Test func bitFlippedJPEGsWithWarningsFailTheLoad() throws {
        #expect(!Self.cleanJPEG.isEmpty)
        #expect(Self.decoderVerdict(Self.cleanJPEG) == .clean)
        let folder = try EvalFixtures.makeTemporaryFolder("rial-corrupt-jpeg")
        defer { EvalFixtures.removeTemporary(folder) }
        let corrupted = Mutations.corruptions(of: Self.cleanJPEG, count: 100, seed: 17)
        var warned = 0, errors = 0, clean = 0, silent = 0
        let clock = ContinuousClock()
        for (n, data) in corrupted.enumerated() {
            let path = folder.appendingPathComponent("c\(n).jpg").path
            try data.write(to: URL(fileURLWithPath: path))
            let verdict = Self.decoderVerdict(data)
            let start = clock.now
            let strict = Result<LoadedCapture, CaptureLoadError>(catching: { () throws(CaptureLoadError) in
                try CaptureLoader.load(CaptureFiles(image: path))
            })
            let lenient = Result<LoadedCapture, CaptureLoadError>(catching: { () throws(CaptureLoadError) in
                try CaptureLoader.load(CaptureFiles(image: path, acceptJPEGWarnings: true))
            })
            #expect(clock.now - start < .seconds(10), "case \(n) took \(clock.now - start)")
            switch verdict {
            case .warned(let warning):
                warned += 1
                guard case .failure(let error) = strict else {
                    silent += 1
                    Issue.record("case \(n): decoded with '\(warning)' but loaded without error")
                    continue
                }
                #expect(error.path == path)
                #expect(error.message.hasPrefix("corrupt JPEG: \(warning)"), "\(error)")
                #expect(error.message.contains("--accept-jpeg-warnings"))
                guard case .success(let loaded) = lenient else {
                    Issue.record("case \(n): --accept-jpeg-warnings still refused it")
                    continue
                }
                #expect(loaded.jpegWarnings.first?.hasPrefix(warning) == true)
                #expect(loaded.warnings.contains { $0.hasPrefix("\(path): JPEG decoded with damage: \(warning)") })
            case .error:
                errors += 1
                #expect(throws: CaptureLoadError.self) { try strict.get() }
                #expect(throws: CaptureLoadError.self) { try lenient.get() }
            case .clean:
                clean += 1
                #expect((try? strict.get())?.jpegWarnings == [])
            }
        }
        print("bit-flipped JPEGs: 100 tried, \(warned) decode with warnings, \(errors) fail, \(clean) decode clean")
        #expect(warned + errors + clean == 100)
        #expect(warned >= 10, "the corpus should exercise libjpeg warnings (got \(warned))")
        #expect(silent == 0)
    }

    /// In a run, a JPEG with warnings is a failed sample at stage `load` with the
    /// warning; with `acceptJPEGWarnings` it is evaluated and its record carries
    /// `decode_warnings`. A truncated file fails either way, and clean files are not
    /// touched.
    @Test func runFailsOrFlagsDamagedJPEGs() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("rial-corrupt-jpeg-run")
        defer { EvalFixtures.removeTemporary(folder) }
        let damaged = Mutations.corruptions(of: Self.cleanJPEG, count: 100, seed: 17).first {
            if case .warned = Self.decoderVerdict($0) { return true }
            return false
        }
        let warnedData = try #require(damaged)
        guard case .warned(let warning) = Self.decoderVerdict(warnedData) else { return }
        try EvalFixtures.write(Self.cleanJPEG, to: "clean.jpg", in: folder)
        try EvalFixtures.write(warnedData, to: "warned.jpg", in: folder)
        try EvalFixtures.write(Self.cleanJPEG.prefix(Self.cleanJPEG.count / 2), to: "short.jpg", in: folder)
        let manifest = try Self.writeManifest(
            ["clean", "warned", "short"].map { #"{"id": "\#($0)", "image": "\#($0).jpg", "label": "real_scene"}"# },
            in: folder)

        let strict = try Self.run(manifest)
        #expect(strict.map(\.status) == [.evaluated, .failed, .failed])
        #expect(strict[0].decodeWarnings == nil)
        #expect(strict[1].failure?.stage == .load)
        #expect(strict[1].failure?.reason.contains("warned.jpg: corrupt JPEG: \(warning)") == true)
        #expect(strict[1].aggregate == nil)
        #expect(strict[2].failure?.reason.contains("short.jpg: corrupt JPEG: Premature end of JPEG file") == true)
        #expect(!strict[0].jsonLine().contains("decode_warnings"))

        let lenient = try Self.run(manifest, acceptJPEGWarnings: true)
        #expect(lenient.map(\.status) == [.evaluated, .evaluated, .failed])
        #expect(lenient[1].decodeWarnings?.first?.hasPrefix(warning) == true)
        #expect(lenient[1].jsonLine().contains(#""decode_warnings":["#))
        #expect(lenient[0].aggregate == strict[0].aggregate)
        #expect(lenient[0].decision == strict[0].decision)
    }

    // MARK: - Item 4: depth shape against the image

    /// A 4:3 landscape image (1024x768) with float depth of several shapes: the ones
    /// that cannot cover the image are load errors naming both sizes, in `analyze`'s
    /// path (`CaptureLoader`), `run` and `dataset validate`.
    static let depthShapes: [(width: Int, height: Int, fits: Bool)] = [
        (256, 192, true), (192, 256, false), (10, 10, false), (1, 49152, false), (49152, 1, false),
        (1024, 768, true), (128, 96, true), (255, 192, true), (256, 144, false),
    ]

    static func writeDepthCase(in folder: URL) throws -> String {
        var image = Image8(width: 1024, height: 768, channels: 3)
        for i in image.samples.indices { image.samples[i] = UInt8(truncatingIfNeeded: i / 3 % 251) }
        try EvalFixtures.write(try JPEGEncoder.encode(image, quality: 80), to: "photo.jpg", in: folder)
        var samples: [String] = []
        for (n, shape) in depthShapes.enumerated() {
            let map = DepthMap(
                width: shape.width, height: shape.height,
                metres: (0..<(shape.width * shape.height)).map { 1 + Float($0 % 97) / 50 })!
            try EvalFixtures.write(try DepthWriter.encode(map, format: .f32le), to: "d\(n).f32", in: folder)
            samples.append(
                #"{"id": "s\#(n)", "image": "photo.jpg", "label": "real_scene", "depth": {"path": "d\#(n).f32", "#
                    + #""format": "f32le", "width": \#(shape.width), "height": \#(shape.height)}}"#)
        }
        return try writeManifest(samples, in: folder)
    }

    @Test func depthThatDoesNotFitTheImageIsALoadError() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("rial-depth-shape")
        defer { EvalFixtures.removeTemporary(folder) }
        let manifest = try Self.writeDepthCase(in: folder)
        let image = folder.appendingPathComponent("photo.jpg").path
        for (n, shape) in Self.depthShapes.enumerated() {
            let depth = folder.appendingPathComponent("d\(n).f32").path
            let files = CaptureFiles(
                image: image, depth: depth, depthFormat: .f32le, depthWidth: shape.width, depthHeight: shape.height)
            do {
                let loaded = try CaptureLoader.load(files)
                #expect(shape.fits, "\(shape) loaded")
                #expect(loaded.input.depth?.width == shape.width)
            } catch {
                #expect(!shape.fits, "\(shape): \(error)")
                #expect(error.path == depth)
                #expect(error.message.contains("\(shape.width)x\(shape.height)"), "\(error)")
                #expect(error.message.contains("1024x768"), "\(error)")
            }
        }

        let records = try Self.run(manifest)
        for (record, shape) in zip(records, Self.depthShapes) {
            #expect((record.status == .evaluated) == shape.fits, "\(shape): \(record.failure?.reason ?? "")")
            if !shape.fits {
                #expect(record.failure?.stage == .load)
                #expect(record.failure?.reason.contains("depth map is \(shape.width)x\(shape.height)") == true)
                #expect(record.failure?.reason.contains("is 1024x768") == true)
            }
        }

        let report = try DatasetLoader(contentsOf: manifest).validate()
        let flagged = Set(report.problems.compactMap(\.sampleID))
        for (n, shape) in Self.depthShapes.enumerated() {
            #expect(flagged.contains("s\(n)") == !shape.fits, "\(shape): \(report.problems)")
        }
        for problem in report.problems {
            #expect(problem.kind == .depthSizeMismatch)
            #expect(problem.message.contains("1024x768"), "\(problem)")
        }
    }

    /// The rule itself, on the issue's table and its edges (iPhone, iPad and 16:9 pairs).
    @Test(arguments: [
        (256, 192, 4032, 3024, true), (192, 256, 4032, 3024, false), (10, 10, 4032, 3024, false),
        (1, 49152, 4032, 3024, false), (256, 144, 1920, 1080, true), (256, 192, 1920, 1080, false),
        (192, 256, 3024, 4032, true), (3, 3, 4032, 3024, true), (0, 192, 4032, 3024, false),
    ])
    func alignmentRule(_ w: Int, _ h: Int, _ iw: Int, _ ih: Int, _ fits: Bool) {
        #expect(DepthAlignment.fits(depthWidth: w, depthHeight: h, imageWidth: iw, imageHeight: ih) == fits)
        #expect((DepthAlignment.misfit(depthWidth: w, depthHeight: h, imageWidth: iw, imageHeight: ih) == nil) == fits)
    }

    // MARK: - Item 4: depth values outside a sensor's range

    /// 3e38 m and 1e-42 m (a subnormal) are no sensor's readings: invalid after
    /// reading, counted, and reported by `inspect` (`MediaInspector`).
    @Test(arguments: [DepthFormat.f32le, .f32leGzip, .npy])
    func outOfRangeDepthValuesAreInvalid(format: DepthFormat) throws {
        let values: [Float] = [
            3e38, Float(1e-42 as Double), -2, 0, .nan, .infinity, 1.5, 0.001, 1000, 1000.5, 0.0009, 2.25,
        ]
        let map = DepthMap(width: 4, height: 3, metres: values)!
        let data = try DepthWriter.encode(map, format: format)
        let reading = try DepthReader.readReporting(data: data, format: format, width: 4, height: 3)
        #expect(reading.outOfRangeCount == 5) // 3e38, 1e-42, -2, 1000.5, 0.0009
        let valid = reading.map.metres.filter { !$0.isNaN }
        #expect(valid == [1.5, 0.001, 1000, 2.25])

        let folder = try EvalFixtures.makeTemporaryFolder("rial-depth-range")
        defer { EvalFixtures.removeTemporary(folder) }
        try EvalFixtures.write(data, to: "d.bin", in: folder)
        let inspection = try MediaInspector.inspect(
            path: folder.appendingPathComponent("d.bin").path,
            depth: .init(format: format, width: format == .npy ? nil : 4, height: format == .npy ? nil : 3))
        guard case .depth(let report, _) = inspection else {
            Issue.record("not read as depth")
            return
        }
        #expect(report.outOfRangeCount == 5)
        #expect(report.validFraction == 4.0 / 12.0)
        #expect(report.max == 1000)
    }

    /// A map that is all 3e38 m has no valid pixel at all.
    @Test func depthOfOnlyHugeValuesHasNoValidPixel() throws {
        let map = DepthMap(width: 256, height: 192, metres: [Float](repeating: 3e38, count: 256 * 192))!
        let reading = try DepthReader.readReporting(data: try DepthWriter.encode(map, format: .f32le), format: .f32le)
        #expect(reading.outOfRangeCount == 256 * 192)
        #expect(reading.map.validCount == 0)
    }
}
