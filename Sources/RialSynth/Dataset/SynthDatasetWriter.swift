import Foundation
import RialCodecs
import RialMedia

/// What `rial-bench synth` generates: how many captures, of which classes, at what size.
public struct SynthDatasetSpec: Sendable, Equatable, Codable {
    /// Number of captures, 1...`maximumCount`.
    public var count: Int
    /// The largest dataset one call writes (six-digit file names; about 1 TB of JPEGs at 12 MP).
    public static let maximumCount = 999_999
    /// Dataset seed: capture `i` depends only on (seed, i), never on scheduling.
    public var seed: UInt64
    /// Classes, assigned round-robin: capture `i` has class `classes[i % classes.count]`.
    public var classes: [SynthClass]
    /// RGB size in pixels (depth is always 256 x 192).
    public var width: Int
    public var height: Int
    /// Also render the second, rectified camera 10-20 mm to the side.
    public var secondView: Bool
    /// Split fractions (train, val); the rest is test. Assigned per capture from the seed.
    public var trainFraction: Double
    public var valFraction: Double
    /// The camera (`SynthCameraProfile`). Encoded only when not `standard`, so the
    /// encoding (and the default set's cache key) of a standard-camera spec is unchanged.
    public var camera: SynthCameraProfile

    public init(
        count: Int, seed: UInt64, classes: [SynthClass] = SynthClass.allCases,
        width: Int = 1600, height: Int = 1200, secondView: Bool = false,
        trainFraction: Double = 0.6, valFraction: Double = 0.2, camera: SynthCameraProfile = .standard
    ) {
        self.camera = camera
        self.count = count
        self.seed = seed
        self.classes = classes
        self.width = width
        self.height = height
        self.secondView = secondView
        self.trainFraction = trainFraction
        self.valFraction = valFraction
    }

    enum CodingKeys: String, CodingKey {
        case count, seed, classes, width, height, secondView, trainFraction, valFraction, camera
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        count = try c.decode(Int.self, forKey: .count)
        seed = try c.decode(UInt64.self, forKey: .seed)
        classes = try c.decode([SynthClass].self, forKey: .classes)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        secondView = try c.decode(Bool.self, forKey: .secondView)
        trainFraction = try c.decode(Double.self, forKey: .trainFraction)
        valFraction = try c.decode(Double.self, forKey: .valFraction)
        camera = try c.decodeIfPresent(SynthCameraProfile.self, forKey: .camera) ?? .standard
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(count, forKey: .count)
        try c.encode(seed, forKey: .seed)
        try c.encode(classes, forKey: .classes)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(secondView, forKey: .secondView)
        try c.encode(trainFraction, forKey: .trainFraction)
        try c.encode(valFraction, forKey: .valFraction)
        if camera != .standard { try c.encode(camera, forKey: .camera) }
    }

    /// Problems with the spec, in words for a user; empty when it is valid.
    public var problems: [String] {
        var found: [String] = []
        if count < 1 { found.append("count must be at least 1, got \(count)") }
        if count > Self.maximumCount { found.append("count must be at most \(Self.maximumCount), got \(count)") }
        if classes.isEmpty { found.append("at least one class is needed") }
        if width < 64 || height < 48 { found.append("image size must be at least 64x48, got \(width)x\(height)") }
        if width > 8192 || height > 8192 {
            found.append("image size must be at most 8192x8192, got \(width)x\(height)")
        }
        if !(0...1).contains(trainFraction) || !(0...1).contains(valFraction) || trainFraction + valFraction > 1 {
            found.append("split fractions must lie in [0, 1] and add up to at most 1")
        }
        return found
    }

    /// The split of capture `index`: a uniform draw from the capture's own stream
    /// (independent of the render stream) against the cumulative fractions.
    public func split(of index: Int) -> String {
        var rng = SynthRandom(seed: seed ^ 0x5A17_5EED_0000_0001, stream: UInt64(index))
        let u = Double(rng.next() >> 11) * 0x1p-53
        return u < trainFraction ? "train" : (u < trainFraction + valFraction ? "val" : "test")
    }
}

/// Writes a synthetic dataset in the `rial-bench-dataset/1` format:
/// `manifest.json`, `images/NNNNNN.jpg`, `depth/NNNNNN.f32.gz` (gzip of little-endian
/// float32 metres, 256 x 192, NaN invalid) and, when asked, `right/NNNNNN.jpg`.
///
/// Every generation parameter of a capture is stored under the sample's `"synth"`
/// key so results can be sliced by them. Output is byte-identical for the same spec
/// and textures whatever the number of jobs: each capture's randomness comes from
/// (seed, index) alone, JPEG and gzip encoding are deterministic (gzip header with
/// mtime 0), and the manifest lists samples in index order.
public struct SynthDatasetWriter: Sendable {
    public var spec: SynthDatasetSpec
    /// Textures and photographs for surfaces and screen content (see `SynthGenerator`).
    public var textures: [PlanarImage]
    /// Where the textures came from (file names and licences), recorded in the manifest.
    public var textureSources: [String]

    public init(spec: SynthDatasetSpec, textures: [PlanarImage] = [], textureSources: [String] = []) {
        self.spec = spec
        self.textures = textures
        self.textureSources = textureSources
    }

    /// The result of a run.
    public struct Summary: Sendable, Equatable {
        public var manifestPath: String
        public var count: Int
        public var seconds: Double
    }

    /// Generates every capture with `jobs` workers and writes the dataset into `folder`
    /// (created when missing). `progress` is called after each capture with the number
    /// finished so far, from worker threads.
    ///
    /// - Throws: `MediaError` naming the file that could not be written; the spec's
    ///   problems as `MediaError.invalidArgument`.
    public func write(
        to folder: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: @Sendable (Int) -> Void = { _ in }
    ) throws -> Summary {
        if let problem = spec.problems.first {
            throw MediaError(.invalidArgument, source: folder, "synth: \(problem)")
        }
        let start = ContinuousClock.now
        let root = URL(fileURLWithPath: folder)
        for sub in ["images", "depth"] + (spec.secondView ? ["right"] : []) {
            do {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(sub),
                    withIntermediateDirectories: true)
            } catch {
                throw MediaError(
                    .writeFailed, source: root.appendingPathComponent(sub).path,
                    "cannot create folder: \(error.localizedDescription)")
            }
        }

        // Workers take the next index as they finish one, so a slow capture never leaves
        // a core idle; the results come back in index order.
        let finished = Locked(0)
        let results = (0..<spec.count).concurrentMap(workers: jobs) { index in
            let result = Result { try writeSample(index, root: root) }
            progress(
                finished.withLock {
                    $0 += 1
                    return $0
                })
            return result
        }
        let samples = try results.map { try $0.get() }
        let manifest = SynthManifest(
            name: "synthetic-seed\(spec.seed)-n\(spec.count)",
            description: "Physically based synthetic captures from rial-bench synth "
                + "(seed \(spec.seed), \(spec.count) captures, \(spec.width)x\(spec.height)). "
                + (textureSources.isEmpty
                    ? "Procedural textures only." : "Textures: \(textureSources.joined(separator: "; "))."),
            generator: SynthGeneratorInfo(spec: spec, textureSources: textureSources),
            samples: samples)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let manifestPath = root.appendingPathComponent("manifest.json").path
        let data: Data
        do {
            data = try encoder.encode(manifest)
        } catch {
            throw MediaError(.writeFailed, source: manifestPath, "cannot encode the manifest: \(error)")
        }
        try MediaFile.write(data, to: manifestPath)
        let elapsed = ContinuousClock.now - start
        let (s, atto) = elapsed.components
        return Summary(manifestPath: manifestPath, count: spec.count, seconds: Double(s) + Double(atto) * 1e-18)
    }

    /// Renders capture `index` and writes its files; returns its manifest entry.
    func writeSample(_ index: Int, root: URL) throws -> SynthManifestSample {
        let synthClass = spec.classes[index % spec.classes.count]
        let capture = SynthGenerator.generate(
            index: index, seed: spec.seed, class: synthClass,
            width: spec.width, height: spec.height,
            withSecondView: spec.secondView, textures: textures, camera: spec.camera)
        let name = String(format: "%06d", index)
        let imagePath = "images/\(name).jpg"
        let depthPath = "depth/\(name).f32.gz"
        let quality = capture.parameters.jpegQuality
        let jpeg = try JPEGEncoder.encode(capture.image, quality: quality)
        try MediaFile.write(jpeg, to: root.appendingPathComponent(imagePath).path)
        let depth = try DepthWriter.encode(capture.depth, format: .f32leGzip)
        try MediaFile.write(depth, to: root.appendingPathComponent(depthPath).path)

        var hashes = ["image": SHA256Digest.hash(jpeg), "depth": SHA256Digest.hash(depth)]
        var stereo: SynthManifestSample.Stereo?
        if let right = capture.right {
            let rightPath = "right/\(name).jpg"
            let rightJPEG = try JPEGEncoder.encode(right, quality: quality)
            try MediaFile.write(rightJPEG, to: root.appendingPathComponent(rightPath).path)
            hashes["right"] = SHA256Digest.hash(rightJPEG)
            stereo = .init(
                right: rightPath, focalPx: Double(capture.parameters.focalPx),
                baselineMm: Double(capture.parameters.baselineMm))
        }
        let id = "synth/\(name)"
        return SynthManifestSample(
            id: id, image: imagePath, label: capture.label.rawValue,
            depth: .init(
                path: depthPath, format: DepthFormat.f32leGzip.rawValue,
                width: capture.depth.width, height: capture.depth.height),
            stereo: stereo, platform: "ios", group: id, split: spec.split(of: index),
            tags: Array(Set(["synthetic"] + capture.tags)).sorted(), sha256: hashes,
            source: "rial-bench synth seed=\(spec.seed) index=\(index)",
            license: textureSources.isEmpty
                ? "CC0-1.0" : "synthetic; derived from the textures listed in the manifest description",
            synth: capture.parameters)
    }
}

/// The manifest file of a synthetic dataset (a `rial-bench-dataset/1` document).
struct SynthManifest: Encodable {
    var format = "rial-bench-dataset/1"
    var name: String
    var description: String
    var generator: SynthGeneratorInfo
    var samples: [SynthManifestSample]
}

/// How the dataset was made: enough to regenerate it byte for byte.
struct SynthGeneratorInfo: Encodable {
    var spec: SynthDatasetSpec
    var textureSources: [String]

    enum CodingKeys: String, CodingKey {
        case spec
        case textureSources = "texture_sources"
    }
}

/// One sample of a synthetic dataset's manifest, keys as in specs/dataset-format.md.
struct SynthManifestSample: Encodable, Sendable {
    struct Depth: Encodable, Sendable {
        var path: String
        var format: String
        var width: Int
        var height: Int
    }

    struct Stereo: Encodable, Sendable {
        var right: String
        var focalPx: Double
        var baselineMm: Double

        enum CodingKeys: String, CodingKey {
            case right
            case focalPx = "focal_px"
            case baselineMm = "baseline_mm"
        }
    }

    var id: String
    var image: String
    var label: String
    var depth: Depth
    var stereo: Stereo?
    var platform: String
    var group: String
    var split: String
    var tags: [String]
    var sha256: [String: String]
    var source: String
    var license: String
    var synth: SynthParameters
}
