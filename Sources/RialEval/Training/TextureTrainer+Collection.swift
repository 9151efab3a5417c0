import Foundation
import RialCodecs
import RialDetection
import RialMedia

extension TextureTrainer {
    /// Reads the manifests and describes every usable sample of the requested splits.
    ///
    /// - Parameter progress: called with (finished, total) images, from worker threads.
    /// - Throws: `TextureTrainingError.manifest` when a manifest cannot be read or its
    ///   header (`format`, `samples`) is invalid; `.invalidOptions` for bad options.
    ///   Problems of single samples never throw: they land in `failedSamples`.
    public func collect(manifests: [String], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in })
        throws(TextureTrainingError) -> Collection
    {
        try checkOptions()
        let wanted = Set(
            SampleLabel.allCases.filter { label in
                let learned = Self.textureClass(label) ?? (label == .screen ? options.screenClass : nil)
                return learned.map(options.classes.contains) ?? false
            })
        let described = try describe(
            manifests: manifests, splits: Set(options.trainSplits + options.valSplits),
            labels: wanted, jobs: options.jobs, progress: progress)
        var collection = Collection()
        collection.datasets = described.datasets
        collection.failedSamples = described.failedSamples
        collection.skippedLabels = described.skippedLabels
        for example in described.examples {
            if options.trainSplits.contains(example.split) {
                collection.train.append(example)
            } else {
                collection.validation.append(example)
            }
        }
        return collection
    }

    /// Every sample of `manifests` whose split is in `splits` and whose label is in
    /// `labels` (all when nil), described by the feature set of `options.featureSetVersion`,
    /// in manifest order.
    /// Samples of the splits with other labels are counted in `skippedLabels`;
    /// undecodable entries and unreadable images go to `failedSamples`.
    ///
    /// - Throws: `TextureTrainingError.manifest` when a manifest cannot be read or its
    ///   header is invalid.
    public func describe(
        manifests: [String], splits: Set<DatasetSplit>?, labels: Set<SampleLabel>? = nil, jobs: Int,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    )
        throws(TextureTrainingError) -> DescribedSamples
    {
        var described = DescribedSamples()
        var work: [ExtractionJob] = []
        for path in manifests {
            let loader: DatasetLoader
            do {
                loader = try DatasetLoader(contentsOf: path)
            } catch {
                throw .manifest(error)
            }
            if !loader.headerProblems.isEmpty { throw .manifest(DatasetError(loader.headerProblems)) }
            let digest = (try? SHA256Digest.hash(fileAt: path)) ?? ""
            described.datasets.append(
                .init(
                    path: path, sha256: digest, name: loader.name, sampleCount: loader.sampleCount,
                    generatedBy: Self.synthCommand(loader)))
            for entry in loader.entries {
                let sample: DatasetSample
                switch entry.result {
                case .success(let decoded): sample = decoded
                case .failure(let failure):
                    described.failedSamples.append(
                        .init(
                            manifest: path, sample: failure.sampleID ?? entry.jsonPath,
                            reason: failure.reason))
                    continue
                }
                if let splits, !splits.contains(sample.split) { continue }
                if let labels, !labels.contains(sample.label) {
                    described.skippedLabels[sample.label.rawValue, default: 0] += 1
                    continue
                }
                work.append(
                    ExtractionJob(
                        manifest: path, id: sample.id, imagePath: loader.absolutePath(sample.image),
                        expectedSHA256: sample.sha256?.image, label: sample.label, split: sample.split,
                        group: sample.group, tags: sample.tags))
            }
        }

        let jobsToRun = work
        let featureSet = options.featureSetVersion
        let total = jobsToRun.count
        let finished = Locked(0)
        let results = (0..<total).concurrentMap(workers: jobs) { index in
            let result = Self.describe(jobsToRun[index], featureSet: featureSet)
            progress(
                finished.withLock {
                    $0 += 1
                    return $0
                }, total)
            return result
        }
        for (job, result) in zip(jobsToRun, results) {
            switch result {
            case .success(let features):
                described.examples.append(
                    TextureExample(
                        features: features, label: job.label, id: job.id,
                        split: job.split, manifest: job.manifest, group: job.group, tags: job.tags))
            case .failure(let reason):
                described.failedSamples.append(.init(manifest: job.manifest, sample: job.id, reason: reason.message))
            }
        }
        return described
    }

    /// What `describe` found.
    public struct DescribedSamples: Sendable {
        /// Described samples in manifest order.
        public var examples: [TextureExample] = []
        public var datasets: [TextureModelProvenance.Dataset] = []
        /// Samples of the requested splits left out by label.
        public var skippedLabels: [String: Int] = [:]
        public var failedSamples: [TextureModelProvenance.FailedSample] = []
    }

    /// The texture class of a dataset label; nil for the generic `screen`.
    public static func textureClass(_ label: SampleLabel) -> TextureClass? {
        switch label {
        case .realScene: .realScene
        case .lcdScreen: .lcdScreen
        case .oledScreen: .oledScreen
        case .printedPaper: .printedPaper
        case .screen: nil
        }
    }

    /// `rial-bench synth ...` regenerating a synthetic set, from its manifest's
    /// `generator.spec` block; nil for other manifests.
    static func synthCommand(_ loader: DatasetLoader) -> String? {
        guard let spec = loader.extensions["generator"]?["spec"]?.objectValue,
            let count = spec["count"]?.numberValue, let seed = spec["seed"]?.numberValue,
            let width = spec["width"]?.numberValue, let height = spec["height"]?.numberValue
        else { return nil }
        let folder = URL(fileURLWithPath: loader.manifestPath).deletingLastPathComponent().path
        var words = [
            "rial-bench", "synth", "--out", folder, "--count", String(Int(count)), "--seed",
            String(UInt64(seed)), "--width", String(Int(width)), "--height", String(Int(height)),
        ]
        if let classes = spec["classes"]?.arrayValue?.compactMap(\.stringValue),
            classes != ["real_scene", "lcd_screen", "oled_screen", "printed_paper"]
        {
            words += ["--classes"] + classes
        }
        if case .bool(true)? = spec["secondView"] { words.append("--second-view") }
        // The spec names the camera only when it is not the standard one.
        if let camera = spec["camera"]?.stringValue, camera != "standard" { words += ["--camera", camera] }
        if let sources = loader.extensions["generator"]?["texture_sources"]?.arrayValue, sources.isEmpty {
            words.append("--procedural-only")
        }
        return words.joined(separator: " ")
    }

    /// Reads one image and describes it with feature set `featureSet` (1: `TextureFeatures`,
    /// 2: `Texture2Features`, 3: `Texture3Features`, 4: `Texture4Features`).
    static func describe(_ job: ExtractionJob, featureSet: Int) -> Result<[Double], ExtractionFailure> {
        do {
            let data = try MediaFile.read(job.imagePath)
            if let expected = job.expectedSHA256 {
                let actual = SHA256Digest.hash(data)
                guard actual.lowercased() == expected.lowercased() else {
                    return .failure(
                        ExtractionFailure(
                            message:
                                "\(job.imagePath): SHA-256 is \(actual), the manifest expects \(expected.lowercased())")
                    )
                }
            }
            let image = try ImageReader.read(data: data, source: job.imagePath).image
            if featureSet == Texture2Features.version {
                return .success(try Texture2Features.extract(image).values)
            }
            if featureSet == Texture3Features.version {
                return .success(try Texture3Features.extract(image).values)
            }
            if featureSet == Texture4Features.version {
                return .success(try Texture4Features.extract(image).values)
            }
            return .success(try TextureFeatures.extract(image).values)
        } catch let error as TextureFeatureError {
            return .failure(ExtractionFailure(message: "\(job.imagePath): \(error.description)"))
        } catch let error as MediaError {
            return .failure(ExtractionFailure(message: error.description))
        } catch {
            return .failure(ExtractionFailure(message: "\(job.imagePath): \(error)"))
        }
    }

    struct ExtractionJob: Sendable {
        var manifest: String
        var id: String
        var imagePath: String
        var expectedSHA256: String?
        var label: SampleLabel
        var split: DatasetSplit
        var group: String?
        var tags: [String]
    }

    struct ExtractionFailure: Error, Sendable {
        var message: String
    }
}
