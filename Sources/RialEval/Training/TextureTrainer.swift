import Foundation
import RialDetection
import RialMedia

/// One labelled descriptor: the unit `TextureTrainer.fit` learns from.
public struct TextureExample: Sendable, Equatable {
    /// `TextureFeatures.count` values in `TextureFeatures.names` order.
    public var features: [Double]
    /// The dataset label (`screen` has no texture class: it is evaluated, never learned).
    public var label: SampleLabel
    /// Where it came from (sample id), for reports.
    public var id: String
    /// The sample's split.
    public var split: DatasetSplit
    /// The manifest as given, empty for in-memory examples.
    public var manifest: String
    /// The sample's `group` (session, repository); nil when it has none (it is then a
    /// group of its own).
    public var group: String?
    /// The sample's tags (`source:OWNER/NAME` names its source).
    public var tags: [String]

    public init(
        features: [Double], label: SampleLabel, id: String = "", split: DatasetSplit = .train,
        manifest: String = "", group: String? = nil, tags: [String] = []
    ) {
        self.features = features
        self.label = label
        self.id = id
        self.split = split
        self.manifest = manifest
        self.group = group
        self.tags = tags
    }

    /// The texture class of `label`; nil for `screen`.
    public var textureClass: TextureClass? { TextureTrainer.textureClass(label) }

    /// The group cross-validation keeps together: the manifest and `group`, or the sample
    /// alone.
    public var groupKey: String { "\(manifest)\u{0}" + (group ?? "\u{1}\(id)") }

    /// `OWNER/NAME` of the first `source:` tag; nil when there is none.
    public var source: String? {
        tags.first { $0.hasPrefix(Self.sourceTagPrefix) }.map { String($0.dropFirst(Self.sourceTagPrefix.count)) }
    }

    /// `source:`, the tag prefix naming a sample's source repository.
    public static let sourceTagPrefix = "source:"
}

/// Trains a `TextureModel` (`texture/1`) from labelled datasets.
///
/// 1. `collect`: every sample of the manifests whose `split` is a train or validation
///    split and whose label is a model class; others are counted as skipped by label.
///    Each image is read (stored pixel grid; its SHA-256 checked when the manifest gives
///    one) and described by `TextureFeatures.extract`, in parallel over `jobs` workers;
///    results keep manifest order whatever the scheduling. A sample that cannot be
///    decoded or described is reported in `failed_samples` and skipped.
/// 2. `fit`: standardise with the training mean and population standard deviation
///    (1 for a constant feature), fit `SoftmaxRegression` (L2, damped Newton, seeded
///    initialisation), and evaluate on training and validation samples (confusion
///    matrix with rows = truth and columns = prediction, accuracy, log loss).
///    A class without training samples is left out of the model (it cannot be learned);
///    `real_scene` and at least one attack class must remain.
public struct TextureTrainer: Sendable {
    /// Settings of a training run.
    public struct Options: Sendable, Equatable {
        /// Splits to fit on.
        public var trainSplits: [DatasetSplit] = [.train]
        /// Splits to validate on (may be empty).
        public var valSplits: [DatasetSplit] = [.val]
        /// Seed of the weight initialisation.
        public var seed: UInt64 = 1
        /// Feature-extraction workers, >= 1.
        public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
        /// L2 penalty per sample, >= 0. 0.01.
        public var l2: Double = 0.01
        /// Newton iterations allowed, >= 1. 100.
        public var maxIterations: Int = 100
        /// Gradient max-norm at which the fit stops. 1e-9.
        public var gradientTolerance: Double = 1e-9
        /// Clip of standardised features (`TextureModel.standardisedClip`), > 0. 6.
        public var standardisedClip: Double = 6
        /// The candidate classes, in output order.
        public var classes: [TextureClass] = [.realScene, .lcdScreen, .oledScreen, .printedPaper]
        /// `model_id` of the result.
        public var modelID: String = "texture-2"
        /// `provenance.tool`, e.g. `rial-bench 0.1.0`.
        public var tool: String = "rial-bench"
        /// The class a generic `screen` label (a real photo of a screen whose panel kind is
        /// unknown) is learned as; nil skips such samples (counted in `skipped_labels`).
        /// Must be a screen class.
        public var screenClass: TextureClass? = nil
        /// The feature set to describe and fit: 1 (`TextureFeatures`, a `texture/1`
        /// model), 2 (`Texture2Features`, a `texture/2` model), 3 (`Texture3Features`, a
        /// `texture/3` model) or 4 (`Texture4Features`, a `texture/4` model).
        public var featureSetVersion: Int = TextureFeatures.version

        public init() {}
    }

    /// The samples and features gathered from the manifests.
    public struct Collection: Sendable {
        public var train: [TextureExample] = []
        public var validation: [TextureExample] = []
        public var datasets: [TextureModelProvenance.Dataset] = []
        public var skippedLabels: [String: Int] = [:]
        public var failedSamples: [TextureModelProvenance.FailedSample] = []
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// `collect` then `fit`.
    ///
    /// - Parameter progress: called with (finished, total) images from worker threads.
    /// - Throws: `TextureTrainingError`.
    public func train(manifests: [String], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in })
        throws(TextureTrainingError) -> TextureModel
    {
        let collection = try collect(manifests: manifests, progress: progress)
        return try fit(collection)
    }

    /// The class `example` is learned as: its label's texture class, or `screenClass` for
    /// the generic `screen`.
    public func learnedClass(_ example: TextureExample) -> TextureClass? {
        Self.textureClass(example.label) ?? (example.label == .screen ? options.screenClass : nil)
    }

    /// Fits and evaluates a model on already described samples (see the type's steps).
    ///
    /// - Throws: `TextureTrainingError.noTrainingSamples` or `.unusableClasses`, and
    ///   `.invalidOptions` for out-of-range options.
    public func fit(_ collection: Collection) throws(TextureTrainingError) -> TextureModel {
        try checkOptions()
        let names = TextureModel.featureNames(ofVersion: options.featureSetVersion) ?? []
        let d = names.count
        let train = collection.train.filter { learnedClass($0).map(options.classes.contains) ?? false }
        guard !train.isEmpty else {
            throw .noTrainingSamples(
                "no sample of split(s) \(options.trainSplits.map(\.rawValue).joined(separator: ", ")) "
                    + "has a label among \(options.classes.map(\.rawValue).joined(separator: ", "))")
        }
        if let bad = train.first(where: { $0.features.count != d }) {
            throw .invalidOptions("sample \(bad.id) has \(bad.features.count) features, expected \(d)")
        }
        let present = options.classes.filter { c in train.contains { learnedClass($0) == c } }
        guard present.contains(.realScene), present.count >= 2 else {
            throw .unusableClasses(
                "training samples cover \(present.map(\.rawValue)); need real_scene and at least one attack class")
        }
        let classes = present
        let validation = collection.validation.filter {
            (learnedClass($0).map(classes.contains) ?? false) && $0.features.count == d
        }

        // Standardisation.
        var means = [Double](repeating: 0, count: d), stds = [Double](repeating: 0, count: d)
        for example in train { for j in 0..<d { means[j] += example.features[j] } }
        for j in 0..<d { means[j] /= Double(train.count) }
        for example in train {
            for j in 0..<d { stds[j] += (example.features[j] - means[j]) * (example.features[j] - means[j]) }
        }
        for j in 0..<d {
            let s = (stds[j] / Double(train.count)).squareRoot()
            stds[j] = s > 1e-12 && s.isFinite ? s : 1
        }
        let clip = options.standardisedClip
        func standardised(_ examples: [TextureExample]) -> [Double] {
            var out = [Double](repeating: 0, count: examples.count * d)
            for (i, example) in examples.enumerated() {
                for j in 0..<d {
                    out[i * d + j] = min(clip, max(-clip, (example.features[j] - means[j]) / stds[j]))
                }
            }
            return out
        }
        let labels = train.map { example in learnedClass(example).flatMap(classes.firstIndex(of:)) ?? 0 }
        let fitted = SoftmaxRegression.fit(
            features: standardised(train), labels: labels, featureCount: d,
            classes: classes.count, l2: options.l2, maxIterations: options.maxIterations,
            tolerance: options.gradientTolerance, seed: options.seed)
        func counts(_ examples: [TextureExample]) -> [String: Int] {
            var out: [String: Int] = [:]
            for c in options.classes { out[c.rawValue] = 0 }
            for e in examples { out[(learnedClass(e)?.rawValue ?? e.label.rawValue), default: 0] += 1 }
            return out
        }
        let placeholder = TextureModelProvenance(
            tool: options.tool, algorithm: Self.algorithm(featureSet: options.featureSetVersion),
            datasets: collection.datasets,
            trainSplits: options.trainSplits.map(\.rawValue), valSplits: options.valSplits.map(\.rawValue),
            seed: options.seed,
            hyperparameters: .init(
                l2: options.l2, standardisedClip: clip, maxIterations: options.maxIterations,
                gradientTolerance: options.gradientTolerance, iterations: fitted.iterations,
                finalLoss: fitted.loss),
            trainClassCounts: counts(train), valClassCounts: counts(validation),
            skippedLabels: collection.skippedLabels, failedSamples: collection.failedSamples,
            training: .init(sampleCount: 0, accuracy: nil, confusionMatrix: [], logLoss: nil), validation: nil)
        var model = TextureModel(
            modelID: options.modelID, featureNames: names, featureSetVersion: options.featureSetVersion,
            classes: classes, featureMeans: means, featureStds: stds,
            standardisedClip: clip, weights: fitted.weights, biases: fitted.biases,
            provenance: placeholder)
        model.provenance.training = Self.evaluate(model, on: train, as: learnedClass)
        model.provenance.validation =
            validation.isEmpty ? nil : Self.evaluate(model, on: validation, as: learnedClass)
        let mapped = train.filter { $0.label == .screen }.count + validation.filter { $0.label == .screen }.count
        if mapped > 0, let screenClass = options.screenClass {
            model.provenance.labelMap = [SampleLabel.screen.rawValue: screenClass.rawValue]
        }
        do {
            try model.validate()
        } catch {
            throw .fitFailed(error.description)
        }
        return model
    }

    /// Confusion matrix (rows = truth, columns = prediction, in `model.classes` order),
    /// accuracy and mean cross-entropy of `model` on `examples` whose class (`truth`,
    /// default: the label's texture class) is a model class.
    public static func evaluate(
        _ model: TextureModel, on examples: [TextureExample],
        as truth: (TextureExample) -> TextureClass? = { $0.textureClass }
    )
        -> TextureModelProvenance.Evaluation
    {
        let k = model.classes.count
        var matrix = [[Int]](repeating: [Int](repeating: 0, count: k), count: k)
        var correct = 0, count = 0, logLoss = 0.0
        for example in examples {
            guard let truth = truth(example).flatMap(model.classes.firstIndex(of:)),
                let p = model.probabilities(example.features)
            else { continue }
            let predicted = p.indices.max { p[$0] < p[$1] } ?? 0
            matrix[truth][predicted] += 1
            if predicted == truth { correct += 1 }
            logLoss -= log(max(p[truth], 1e-300))
            count += 1
        }
        return .init(
            sampleCount: count, accuracy: count > 0 ? Double(correct) / Double(count) : nil,
            confusionMatrix: matrix, logLoss: count > 0 ? logLoss / Double(count) : nil)
    }

    static func algorithm(featureSet: Int) -> String {
        "multinomial logistic regression on standardised, clipped texture/\(featureSet) features; "
            + "L2 on weights; damped Newton with Cholesky solves and Armijo backtracking; "
            + "weights initialised uniform in +-0.01 from SplitMix64(seed)"
    }

    func checkOptions() throws(TextureTrainingError) {
        guard TextureModel.featureNames(ofVersion: options.featureSetVersion) != nil else {
            throw .invalidOptions(
                "feature set version must be \(TextureFeatures.version) (texture/1), "
                    + "\(Texture2Features.version) (texture/2), \(Texture3Features.version) (texture/3) or "
                    + "\(Texture4Features.version) (texture/4), "
                    + "got \(options.featureSetVersion)")
        }
        guard options.jobs >= 1 else { throw .invalidOptions("jobs must be >= 1, got \(options.jobs)") }
        guard options.l2.isFinite, options.l2 >= 0 else {
            throw .invalidOptions("l2 must be finite and >= 0, got \(options.l2)")
        }
        guard options.maxIterations >= 1 else {
            throw .invalidOptions("max iterations must be >= 1, got \(options.maxIterations)")
        }
        guard options.standardisedClip.isFinite, options.standardisedClip > 0 else {
            throw .invalidOptions("standardised clip must be finite and > 0, got \(options.standardisedClip)")
        }
        guard !options.trainSplits.isEmpty else { throw .invalidOptions("need at least one training split") }
        guard !options.classes.contains(.unknown), Set(options.classes).count == options.classes.count else {
            throw .invalidOptions("classes must be distinct model classes (not unknown)")
        }
        if let screenClass = options.screenClass, !screenClass.isScreen {
            throw .invalidOptions("the class of `screen` samples must be a screen class, got \(screenClass.rawValue)")
        }
    }
}

/// Why training could not produce a model.
public enum TextureTrainingError: Error, Sendable, CustomStringConvertible {
    /// A manifest cannot be read or has header problems.
    case manifest(DatasetError)
    /// Nothing to learn from.
    case noTrainingSamples(String)
    /// The training samples do not cover `real_scene` and an attack class.
    case unusableClasses(String)
    /// An option is out of range.
    case invalidOptions(String)
    /// The fit produced an invalid model (non-finite weights).
    case fitFailed(String)

    public var description: String {
        switch self {
        case .manifest(let error): error.problems.map(\.description).joined(separator: "\n")
        case .noTrainingSamples(let reason): "no training samples: \(reason)"
        case .unusableClasses(let reason): "cannot train: \(reason)"
        case .invalidOptions(let reason): "invalid training options: \(reason)"
        case .fitFailed(let reason): "training failed: \(reason)"
        }
    }
}
