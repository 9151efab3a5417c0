#!/usr/bin/env python3
"""Reference values for the rial-bench metrics tests, computed by scikit-learn.

Generates seeded random score sets with ties and prints, as Swift literals, the data and
what scikit-learn returns for them: roc_curve (drop_intermediate False and True),
roc_auc_score, precision_recall_curve and average_precision_score. The literals in
Tests/RialEvalTests/MetricsSklearnTests.swift were pasted from this output; run it to
check or regenerate them:

    python3 scripts/check-metrics-sklearn.py            # every case
    python3 scripts/check-metrics-sklearn.py --case ties30

Each case's data comes from numpy.random.default_rng(SEED): scores rounded to DECIMALS
(so many are tied) and labels 1 (bona fide) with probability P_POS; for the `shifted`
cases bona fide scores are moved up by SHIFT before clipping to [0, 1] and rounding.
The one-line equivalent of a case is printed with it.

The last block cross-checks the cluster bootstrap: it re-implements the documented
resampling (clusters numbered by descending highest score, ties by label; SplitMix64
seeds; Lemire's unbiased multiply-shift draw of G clusters with replacement) and lets scikit-learn compute each resample's AUC with
sample_weight = multiplicity of the sample's cluster (case shifted60, cluster = index // 3).
Needs numpy and scikit-learn (tested with scikit-learn 1.9.1).
"""
import argparse
import sys
import warnings

import numpy as np
import sklearn
from sklearn.metrics import (average_precision_score, precision_recall_curve, roc_auc_score,
                             roc_curve)

# name: (seed, n, decimals, p_pos, shift)
CASES = {
    "ties30": (7, 30, 1, 0.4, 0.0),
    "shifted60": (11, 60, 2, 0.5, 0.25),
    "coarse40": (3, 40, 0, 0.3, 0.0),
}


def make(seed, n, decimals, p_pos, shift):
    rng = np.random.default_rng(seed)
    raw = rng.random(n)
    y = (rng.random(n) < p_pos).astype(int)
    if decimals == 0:
        # Integer-valued scores 0..4, scaled to 0, 0.25, ..., 1 (heavy ties).
        s = np.floor(raw * 5) / 4
    else:
        s = np.round(np.clip(raw + shift * y, 0, 1), decimals)
    return s, y


def one_liner(seed, n, decimals, p_pos, shift):
    if decimals == 0:
        scores = "s=np.floor(a*5)/4"
    else:
        scores = f"s=np.round(np.clip(a+{shift}*y,0,1),{decimals})"
    return ("python3 -c 'import numpy as np; from sklearn.metrics import roc_curve,roc_auc_score,"
            f"average_precision_score as ap; r=np.random.default_rng({seed}); a=r.random({n}); "
            f"y=(r.random({n})<{p_pos}).astype(int); {scores}; "
            "print(roc_curve(y,s,drop_intermediate=False), roc_auc_score(y,s), ap(y,s))'")


MASK = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea & Flood's SplitMix64, as RialMedia's SplitMix64."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def multiplicities(clusters, seed):
    """How often each of `clusters` clusters is drawn in one resample."""
    rng = SplitMix64(seed)
    reject_below = (1 << 64) % clusters
    counts = [0] * clusters
    for _ in range(clusters):
        while True:
            product = rng.next() * clusters
            if product & MASK >= reject_below:
                break
        counts[product >> 64] += 1
    return counts


def ranked_clusters(s, labels):
    """Cluster numbers as rial-bench assigns them: by descending highest score of the
    cluster, ties by ascending label."""
    best = {}
    for score, label in zip(s, labels):
        best[label] = max(best.get(label, -np.inf), score)
    order = sorted(best, key=lambda label: (-best[label], label))
    number = {label: i for i, label in enumerate(order)}
    return [number[label] for label in labels]


def bootstrap_aucs(s, y, labels, seed, resamples):
    cluster_of = ranked_clusters(s, labels)
    clusters = max(cluster_of) + 1
    seeder = SplitMix64(seed)
    aucs = []
    for _ in range(resamples):
        counts = multiplicities(clusters, seeder.next())
        w = np.array([counts[c] for c in cluster_of], dtype=float)
        aucs.append(roc_auc_score(y, s, sample_weight=w))
    return aucs


def swift(values):
    out = []
    for v in values:
        v = float(v)
        out.append("Double.infinity" if v == float("inf") else repr(v))
    return "[" + ", ".join(out) + "]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES), help="print only this case")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"// scikit-learn {sklearn.__version__}, numpy {np.__version__}")
    for name, spec in CASES.items():
        if args.case and name != args.case:
            continue
        s, y = make(*spec)
        fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
        dfpr, dtpr, dthr = roc_curve(y, s)
        precision, recall, pthr = precision_recall_curve(y, s)
        print(f"// case {name}: {one_liner(*spec)}")
        print(f"static let {name}Scores: [Double] = {swift(s)}")
        print(f"static let {name}BonaFide: [Bool] = [{', '.join('true' if v else 'false' for v in y)}]")
        print(f"static let {name}FPR: [Double] = {swift(fpr)}")
        print(f"static let {name}TPR: [Double] = {swift(tpr)}")
        print(f"static let {name}Thresholds: [Double] = {swift(thr)}")
        print(f"static let {name}DroppedFPR: [Double] = {swift(dfpr)}")
        print(f"static let {name}DroppedTPR: [Double] = {swift(dtpr)}")
        print(f"static let {name}DroppedThresholds: [Double] = {swift(dthr)}")
        print(f"static let {name}Precision: [Double] = {swift(precision)}")
        print(f"static let {name}Recall: [Double] = {swift(recall)}")
        print(f"static let {name}PRThresholds: [Double] = {swift(pthr)}")
        print(f"static let {name}AUC = {roc_auc_score(y, s)!r}")
        print(f"static let {name}AP = {average_precision_score(y, s)!r}")
        print()
    if not args.case or args.case == "shifted60":
        s, y = make(*CASES["shifted60"])
        cluster_of = [i // 3 for i in range(len(s))]
        print("// cluster bootstrap of shifted60, cluster = index / 3, seed 42: first 5 resample AUCs,")
        print("// sklearn roc_auc_score(y, s, sample_weight=multiplicity of the sample's cluster)")
        print(f"static let shifted60BootstrapAUCs: [Double] = {swift(bootstrap_aucs(s, y, cluster_of, 42, 5))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
