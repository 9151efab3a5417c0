import Foundation
import RialDetection

/// One fit of everything `rial-bench tune` fits, on one part of the data.
public struct TunedFit: Sendable, Equatable, Codable {
    /// Why a method got the calibration it got.
    public struct CalibrationChoice: Sendable, Equatable, Codable {
        /// `platt`, `isotonic`, or `none` (a class missing among its scores).
        public var kind: String
        /// Mean log loss (labels 0/1, p clipped to [1e-15, 1 - 1e-15]) over the inner
        /// held-out folds; nil when no inner fold had both classes to fit on.
        public var plattLogLoss: Double?
        public var isotonicLogLoss: Double?
        /// Samples the method scored in the fitting data.
        public var samples: Int
        /// Both fits on all of the fitting data (the chosen one is `calibration[key]`):
        /// what `scripts/check-tune-sklearn.py` compares with scikit-learn.
        public var platt: ScoreCalibration?
        public var isotonic: ScoreCalibration?
        /// Mean log loss of a constant (Platt with slope 0 on each inner training part: the
        /// mean of its smoothed targets) on the
        /// same inner held-out samples; nil as above, and in reports written before it.
        public var constantLogLoss: Double?
        /// Whether the chosen calibration's inner held-out log loss beats the constant's by
        /// more than `TuningOptions.uninformativeStandardErrors` standard errors of the mean
        /// per-sample gain (true without inner folds to measure on). A method that is not gets weight 0
        /// unless `--keep-uninformative` (`TuningOptions.dropUninformative`); nil in
        /// reports written before it.
        public var informative: Bool?

        public init(
            kind: String, plattLogLoss: Double?, isotonicLogLoss: Double?, samples: Int, platt: ScoreCalibration?,
            isotonic: ScoreCalibration?, constantLogLoss: Double? = nil, informative: Bool? = nil
        ) {
            self.kind = kind
            self.plattLogLoss = plattLogLoss
            self.isotonicLogLoss = isotonicLogLoss
            self.samples = samples
            self.platt = platt
            self.isotonic = isotonic
            self.constantLogLoss = constantLogLoss
            self.informative = informative
        }

        enum CodingKeys: String, CodingKey {
            case kind
            case plattLogLoss = "platt_log_loss"
            case isotonicLogLoss = "isotonic_log_loss"
            case samples, platt, isotonic
            case constantLogLoss = "constant_log_loss"
            case informative
        }
    }

    /// Per method key.
    public var calibration: [String: ScoreCalibration]
    public var calibrationChoice: [String: CalibrationChoice]
    /// The profile's weights (non-negative, summing to 1).
    public var weights: [AggregationMethod: Double]
    /// The decision threshold on the ranking score.
    public var threshold: Double
    public var levelBoundaries: AggregationConfiguration.LevelBoundaries
    /// The objective on the fitting data at the chosen weights, and at the starting ones.
    public var objective: Double
    public var objectiveAtStart: Double
    /// Candidate weight vectors evaluated.
    public var evaluations: Int
    /// Samples fitted on.
    public var samples: Int
    /// The nested choice between the tuned fit and the base configuration
    /// (`Tuner.selectAgainstBase`); nil when it was not made (turned off, too few groups)
    /// and in reports written before it.
    public var selection: Selection? = nil

    /// Which configuration a fit kept, and why.
    public struct Selection: Sendable, Equatable, Codable {
        /// `tuned` or `base`.
        public var chosen: String
        /// The objective of the tuned configuration on the inner held-out folds (each
        /// scored by a fit on the other inner folds), and of the base configuration on the
        /// same samples.
        public var tunedObjective: Double
        public var baseObjective: Double
        public var innerFolds: Int

        enum CodingKeys: String, CodingKey {
            case chosen
            case tunedObjective = "tuned_objective"
            case baseObjective = "base_objective"
            case innerFolds = "inner_folds"
        }
    }

    enum CodingKeys: String, CodingKey {
        case calibration
        case calibrationChoice = "calibration_choice"
        case weights, threshold
        case levelBoundaries = "level_boundaries"
        case objective
        case objectiveAtStart = "objective_at_start"
        case evaluations
        case samples
        case selection
    }

    /// `base` with this fit: the profile's weights, calibration, decision threshold and
    /// level boundaries replaced.
    public func applied(to base: PipelineConfiguration, profile: String) -> PipelineConfiguration {
        var c = base
        c.aggregation.profiles[profile]?.weights = weights
        c.aggregation.levelBoundaries = levelBoundaries
        c.decision.threshold = threshold
        c.calibration = calibration
        return c
    }
}
