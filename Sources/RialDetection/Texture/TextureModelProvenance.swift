/// Where a `TextureModel` came from and how well it did, written by
/// `rial-bench train texture` (keys snake_case). Counts are keyed by label string.
public struct TextureModelProvenance: Sendable, Equatable, Codable {
    /// The program that trained the model, e.g. `rial-bench 0.1.0`.
    public var tool: String
    /// The learning algorithm and optimiser, in words.
    public var algorithm: String
    /// The manifests the samples came from, in the order given.
    public var datasets: [Dataset]
    /// The `split` values used for fitting (e.g. `["train"]`).
    public var trainSplits: [String]
    /// The `split` values used for validation (e.g. `["val"]`); may be empty.
    public var valSplits: [String]
    /// Seed of the trainer's SplitMix64 (weight initialisation).
    public var seed: UInt64
    /// Optimiser settings and outcome.
    public var hyperparameters: Hyperparameters
    /// Training samples per class.
    public var trainClassCounts: [String: Int]
    /// Validation samples per class.
    public var valClassCounts: [String: Int]
    /// Samples of the requested splits left out because their label is not a model
    /// class (e.g. the generic `screen` of real data), by label.
    public var skippedLabels: [String: Int]
    /// Samples that could not be used (undecodable manifest entry, missing or corrupt image).
    public var failedSamples: [FailedSample]
    /// Fit on the training samples (resubstitution).
    public var training: Evaluation
    /// On the validation samples; nil when there were none. With cross-validation
    /// (`crossValidation`), pooled over the folds: each sample predicted by the model of
    /// the fold that held it out.
    public var validation: Evaluation?
    /// Dataset labels learned as another class, e.g. `{"screen": "lcd_screen"}` for real
    /// photos of screens whose panel kind is unknown; nil when none was mapped.
    public var labelMap: [String: String]? = nil
    /// Group-aware held-out validation (leave-one-source-out or group K-fold); nil when the
    /// model was validated on a validation split.
    public var crossValidation: CrossValidation? = nil

    public init(
        tool: String, algorithm: String, datasets: [Dataset], trainSplits: [String], valSplits: [String],
        seed: UInt64, hyperparameters: Hyperparameters, trainClassCounts: [String: Int],
        valClassCounts: [String: Int], skippedLabels: [String: Int], failedSamples: [FailedSample],
        training: Evaluation, validation: Evaluation?
    ) {
        self.tool = tool
        self.algorithm = algorithm
        self.datasets = datasets
        self.trainSplits = trainSplits
        self.valSplits = valSplits
        self.seed = seed
        self.hyperparameters = hyperparameters
        self.trainClassCounts = trainClassCounts
        self.valClassCounts = valClassCounts
        self.skippedLabels = skippedLabels
        self.failedSamples = failedSamples
        self.training = training
        self.validation = validation
    }

    enum CodingKeys: String, CodingKey {
        case tool, algorithm, datasets, seed, hyperparameters, training, validation
        case trainSplits = "train_splits"
        case valSplits = "val_splits"
        case trainClassCounts = "train_class_counts"
        case valClassCounts = "val_class_counts"
        case skippedLabels = "skipped_labels"
        case failedSamples = "failed_samples"
        case labelMap = "label_map"
        case crossValidation = "cross_validation"
    }

    /// How the training samples were held out, fold by fold: no group (and, by source, no
    /// `source:OWNER/NAME` tag) is in both a fold's training and its held-out samples.
    public struct CrossValidation: Sendable, Equatable, Codable {
        /// `source` (leave one source out: one fold per `source:` tag; samples without one
        /// are always trained on) or `group` (K folds of whole groups).
        public var by: String
        /// One entry per fold, in fold order.
        public var folds: [Fold]

        public init(by: String, folds: [Fold]) {
            self.by = by
            self.folds = folds
        }

        /// One fold's held-out result.
        public struct Fold: Sendable, Equatable, Codable {
            /// The held-out source (`OWNER/NAME`) or `fold N`.
            public var heldOut: String
            /// Samples fitted on / held out.
            public var trainCount: Int
            public var heldOutCount: Int
            /// Arg-max accuracy on the held-out samples (a `screen` label counts either panel
            /// class as correct); nil without samples.
            public var accuracy: Double?
            /// AUC of p(real_scene), real scenes against every attack label, ties one half;
            /// nil when the fold lacks either side.
            public var auc: Double?
            /// Held-out samples by label.
            public var labelCounts: [String: Int]

            public init(
                heldOut: String, trainCount: Int, heldOutCount: Int, accuracy: Double?, auc: Double?,
                labelCounts: [String: Int]
            ) {
                self.heldOut = heldOut
                self.trainCount = trainCount
                self.heldOutCount = heldOutCount
                self.accuracy = accuracy
                self.auc = auc
                self.labelCounts = labelCounts
            }

            enum CodingKeys: String, CodingKey {
                case accuracy, auc
                case heldOut = "held_out"
                case trainCount = "train_count"
                case heldOutCount = "held_out_count"
                case labelCounts = "label_counts"
            }
        }
    }

    /// One training manifest.
    public struct Dataset: Sendable, Equatable, Codable {
        /// The manifest path as given on the command line.
        public var path: String
        /// SHA-256 of the manifest file (64 lowercase hex digits).
        public var sha256: String
        /// The manifest's `name`, when present.
        public var name: String?
        /// Elements of its `samples`.
        public var sampleCount: Int
        /// For a `rial-bench synth` set: the command that regenerates it (from the
        /// manifest's `generator` block), e.g.
        /// `rial-bench synth --out DIR --count 600 --seed 7 --width 1600 --height 1200`.
        public var generatedBy: String?

        public init(path: String, sha256: String, name: String?, sampleCount: Int, generatedBy: String?) {
            self.path = path
            self.sha256 = sha256
            self.name = name
            self.sampleCount = sampleCount
            self.generatedBy = generatedBy
        }

        enum CodingKeys: String, CodingKey {
            case path, sha256, name
            case sampleCount = "sample_count"
            case generatedBy = "generated_by"
        }
    }

    /// Settings of the fit and how it ended.
    public struct Hyperparameters: Sendable, Equatable, Codable {
        /// L2 penalty `λ/2 Σ w²` on the weights (not the biases), per sample (the loss is
        /// the mean cross-entropy).
        public var l2: Double
        /// Clip of standardised features (see `TextureModel.standardisedClip`).
        public var standardisedClip: Double
        /// Newton iterations allowed.
        public var maxIterations: Int
        /// Stop when the gradient's largest component is below this.
        public var gradientTolerance: Double
        /// Iterations run.
        public var iterations: Int
        /// Final penalised mean cross-entropy on the training samples.
        public var finalLoss: Double

        public init(
            l2: Double, standardisedClip: Double, maxIterations: Int, gradientTolerance: Double,
            iterations: Int, finalLoss: Double
        ) {
            self.l2 = l2
            self.standardisedClip = standardisedClip
            self.maxIterations = maxIterations
            self.gradientTolerance = gradientTolerance
            self.iterations = iterations
            self.finalLoss = finalLoss
        }

        enum CodingKeys: String, CodingKey {
            case l2, iterations
            case standardisedClip = "standardised_clip"
            case maxIterations = "max_iterations"
            case gradientTolerance = "gradient_tolerance"
            case finalLoss = "final_loss"
        }
    }

    /// A sample the trainer could not use.
    public struct FailedSample: Sendable, Equatable, Codable {
        /// The manifest path as given.
        public var manifest: String
        /// The sample id, or `samples[INDEX]` when the id could not be read.
        public var sample: String
        public var reason: String

        public init(manifest: String, sample: String, reason: String) {
            self.manifest = manifest
            self.sample = sample
            self.reason = reason
        }
    }

    /// Predictions against truth on a set of samples.
    public struct Evaluation: Sendable, Equatable, Codable {
        /// Samples evaluated.
        public var sampleCount: Int
        /// Share predicted correctly (arg-max class), nil without samples.
        public var accuracy: Double?
        /// `confusion_matrix[truth][prediction]`, both in the model's `classes` order.
        public var confusionMatrix: [[Int]]
        /// Mean cross-entropy `-ln p(truth)` (unpenalised), nil without samples.
        public var logLoss: Double?

        public init(sampleCount: Int, accuracy: Double?, confusionMatrix: [[Int]], logLoss: Double?) {
            self.sampleCount = sampleCount
            self.accuracy = accuracy
            self.confusionMatrix = confusionMatrix
            self.logLoss = logLoss
        }

        enum CodingKeys: String, CodingKey {
            case accuracy
            case sampleCount = "sample_count"
            case confusionMatrix = "confusion_matrix"
            case logLoss = "log_loss"
        }
    }
}
