#!/usr/bin/env python3
"""Checks a run's AUCs, average precisions and ROC curves against scikit-learn.

Reads RUN/samples.jsonl (the per-sample scores) and RUN/results.json (what rial-bench
computed), recomputes with scikit-learn's roc_auc_score, average_precision_score and
roc_curve(drop_intermediate=False) on exactly the same scores, and prints one row per
method and data subset. Exit 0 when every value agrees to 1e-12, 1 otherwise. ROC curves
longer than results.json's curve_export.full_points are checked against its thinning rule.

Usage: python3 scripts/check-auc-sklearn.py reports/latest     (needs scikit-learn)
"""
import json
import math
import os
import sys

from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import curve_export  # noqa: E402


def main(folder):
    records = [json.loads(line) for line in open(f"{folder}/samples.jsonl") if line.strip()]
    results = json.load(open(f"{folder}/results.json"))
    evaluated = [r for r in records if r["status"] == "evaluated"]

    def score(record, method):
        if method == "aggregate":
            agg = record.get("aggregate")
            # the ranking score (older runs: the confidence score) is what rial-bench ranks by
            return agg.get("ranking_score", agg["score"]) if agg and agg.get("weights") else None
        name, _, field = method.partition(":")  # depth/1:margin reads the margin field
        m = record["methods"].get(name)
        return m.get(field or "score") if m and m.get("status") == "completed" else None

    def as_number(v):
        return float("nan") if v is None or v == "nan" else float(v)

    subsets = [("all", evaluated, results["metrics"])]
    for kind, metrics in sorted(results.get("metrics_by_data", {}).items()):
        subsets.append((kind, [r for r in evaluated if r["data"] == kind], metrics))
    worst = 0.0
    print(f"{'data':<10} {'method':<12} {'n':>5} {'auc rial-bench':>15} {'auc sklearn':>12} {'ap rial-bench':>14} {'ap sklearn':>11} roc")
    for kind, subset, metrics in subsets:
        for method in results["methods"]:
            pairs = [(score(r, method), r["bona_fide"]) for r in subset]
            pairs = [(s, y) for s, y in pairs if s is not None and math.isfinite(s)]
            y = [int(b) for _, b in pairs]
            s = [v for v, _ in pairs]
            ours = metrics.get(method, {})
            if len(set(y)) < 2:
                print(f"{kind:<10} {method:<12} {len(y):>5} {'(one class: NaN by convention)':>43}")
                continue
            auc, ap = roc_auc_score(y, s), average_precision_score(y, s)
            ours_auc, ours_ap = as_number(ours.get("auc")), as_number(ours.get("average_precision"))
            fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
            worst = max(worst, abs(auc - ours_auc), abs(ap - ours_ap))
            print(f"{kind:<10} {method:<12} {len(y):>5} {ours_auc:>15.12f} {auc:>12.10f} {ours_ap:>14.10f} {ap:>11.8f} {len(thr)} points")
    # The exported ROC curves (all data) point by point; a long curve thinned by the run's
    # curve_export rule is checked against that rule (scripts/lib/curve_export.py).
    rows = [line.strip().split(",") for line in open(f"{folder}/roc.csv")][1:]
    thinned = 0
    for method in results["methods"]:
        pairs = [(score(r, method), r["bona_fide"]) for r in evaluated]
        pairs = [(s, y) for s, y in pairs if s is not None and math.isfinite(s)]
        if len({y for _, y in pairs}) < 2:
            continue
        fpr, tpr, thr = roc_curve([int(y) for _, y in pairs], [s for s, _ in pairs], drop_intermediate=False)
        ours = [(float(t), float(f), float(p)) for m, t, f, p in rows if m == method]
        full = list(zip(map(float, thr), map(float, fpr), map(float, tpr)))
        problem = curve_export.check(ours, full, results.get("curve_export"))
        assert problem is None, f"{method}: roc.csv: {problem}"
        thinned += len(ours) < len(full)
    print(f"largest difference: {worst:.3e}; ROC curves identical point by point"
          + (f" ({thinned} long curves thinned as curve_export says)" if thinned else ""))
    return 0 if worst <= 1e-12 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "reports/latest"))
