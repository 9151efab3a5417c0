import Foundation
import RialMedia

/// The domain-gap figure: how well a simple classifier tells one set's images from
/// another's on the `GapStatistic` pixel statistics (AUC 1.0 = trivially recognisable,
/// 0.5 = indistinguishable).
///
/// Algorithm: group K-fold (`GroupFolds.groupKFold`, so the samples of one group, e.g.
/// one photo source, never train and test together). In each fold, on the training
/// samples only: missing values (NaN) are imputed by the feature's training median,
/// features standardised by the training mean and standard deviation (a constant
/// feature gets 0), then an L2-regularised logistic regression (`SoftmaxRegression` with
/// two classes, λ = `l2`) is fitted; held-out samples get the probability of class
/// "reference". The AUC of those out-of-fold scores (reference = positive class) is the
/// figure; its interval is the cluster bootstrap (`ClusterBootstrap`) over groups.
public struct DomainGapClassifier: Sendable, Equatable, Codable {
    /// Out-of-fold AUC, reference positive; NaN when a class is missing.
    public var auc: Double
    /// Cluster-bootstrap percentile interval of `auc`.
    public var interval: ConfidenceInterval?
    public var referenceCount: Int
    public var comparedCount: Int
    /// Distinct groups over both sets.
    public var groupCount: Int
    public var folds: Int
    public var features: [String]
    /// Standardised weights of a fit on all samples (positive: larger in the reference set).
    public var coefficients: [Double]

    enum CodingKeys: String, CodingKey {
        case auc, interval, folds, features, coefficients
        case referenceCount = "reference_count"
        case comparedCount = "compared_count"
        case groupCount = "group_count"
    }

    /// Evaluates the classifier. `features[i]` holds sample `i`'s values (same length for
    /// all, NaN = missing); `isReference[i]` its set; `groups[i]` its group key.
    ///
    /// Returns nil when either set is empty or there are fewer than 2 groups.
    public static func evaluate(
        features: [[Double]], names: [String], isReference: [Bool], groups: [String], folds k: Int = 5,
        seed: UInt64 = 42, l2: Double = 0.01, bootstrap: BootstrapSettings = .standard
    ) -> DomainGapClassifier? {
        let n = features.count
        guard n == isReference.count, n == groups.count, let d = features.first?.count, d > 0,
            features.allSatisfy({ $0.count == d })
        else { return nil }
        let positives = isReference.filter { $0 }.count
        guard positives > 0, positives < n else { return nil }
        let folds = GroupFolds.groupKFold(groups: groups, k: k, seed: seed)
        guard folds.count >= 2 else { return nil }
        var scores = [Double](repeating: .nan, count: n)
        for f in 0..<folds.count {
            let (training, heldOut) = folds.split(f)
            let trainingLabels = training.map { isReference[$0] }
            guard trainingLabels.contains(true), trainingLabels.contains(false) else { continue }
            let model = fit(features: training.map { features[$0] }, labels: trainingLabels, l2: l2, seed: seed)
            for i in heldOut { scores[i] = model.score(features[i]) }
        }
        let kept = (0..<n).filter { scores[$0].isFinite }
        let auc = ROCCurve(scores: kept.map { scores[$0] }, bonaFide: kept.map { isReference[$0] }).auc
        let groupIndex = Dictionary(Set(groups).sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let interval = ClusterBootstrap(
            scores: kept.map { scores[$0] }, bonaFide: kept.map { isReference[$0] },
            clusters: kept.map { groupIndex[groups[$0]]! }
        ).intervals(bootstrap)?.auc
        let all = fit(features: features, labels: isReference, l2: l2, seed: seed)
        return DomainGapClassifier(
            auc: auc, interval: interval, referenceCount: positives, comparedCount: n - positives,
            groupCount: groupIndex.count, folds: folds.count, features: names, coefficients: all.weights)
    }

    /// A fitted standardised logistic model.
    struct Model {
        var medians: [Double]
        var means: [Double]
        var scales: [Double]
        /// Weight per standardised feature of the "reference" log-odds, and its bias.
        var weights: [Double]
        var bias: Double

        func standardised(_ x: [Double]) -> [Double] {
            (0..<x.count).map { j in
                let v = x[j].isFinite ? x[j] : medians[j]
                return scales[j] > 0 ? (v - means[j]) / scales[j] : 0
            }
        }

        /// Probability of "reference".
        func score(_ x: [Double]) -> Double {
            let z = standardised(x)
            let a = bias + zip(weights, z).reduce(0) { $0 + $1.0 * $1.1 }
            return 1 / (1 + exp(-a))
        }
    }

    static func fit(features: [[Double]], labels: [Bool], l2: Double, seed: UInt64) -> Model {
        let d = features[0].count
        var medians = [Double](repeating: 0, count: d), means = medians, scales = medians
        for j in 0..<d {
            let column = features.map { $0[j] }.filter(\.isFinite).sorted()
            medians[j] =
                column.isEmpty
                ? 0
                : column.count % 2 == 1
                    ? column[column.count / 2] : (column[column.count / 2 - 1] + column[column.count / 2]) / 2
            let filled = features.map { $0[j].isFinite ? $0[j] : medians[j] }
            let mean = filled.reduce(0, +) / Double(filled.count)
            means[j] = mean
            scales[j] = (filled.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(filled.count)).squareRoot()
        }
        var model = Model(medians: medians, means: means, scales: scales, weights: [], bias: 0)
        let flat = features.flatMap { model.standardised($0) }
        let fitted = SoftmaxRegression.fit(
            features: flat, labels: labels.map { $0 ? 1 : 0 }, featureCount: d, classes: 2, l2: l2,
            maxIterations: 100, tolerance: 1e-9, seed: seed)
        model.weights = (0..<d).map { fitted.weights[d + $0] - fitted.weights[$0] }
        model.bias = fitted.biases[1] - fitted.biases[0]
        return model
    }
}
