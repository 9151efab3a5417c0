#!/usr/bin/env python3
"""Checks a run's DET curves (det.csv) against scikit-learn's det_curve.

Reads RUN/samples.jsonl (the per-sample scores) and RUN/det.csv (what rial-bench wrote:
method,data,threshold,apcer,bpcer), recomputes sklearn.metrics.det_curve on exactly the
same scores for every method, on all evaluated samples and per data kind, and compares
point by point. Exit 0 when every point agrees (thresholds exactly, rates to 1e-12),
1 otherwise. Curves longer than results.json's curve_export.full_points are checked
against its thinning rule (scripts/lib/curve_export.py).

Convention: y_true = 1 for bona fide (real_scene), y_score = the method's score (higher =
more likely bona fide). sklearn's fpr is then the pooled APCER (attacks accepted at
score >= t) and its fnr the BPCER (bona fide with score < t). The aggregate's score is
`aggregate.ranking_score` when the record has it (the score ROC/DET use), else
`aggregate.score`, as SampleRecord.score("aggregate") reads it.

Usage: python3 scripts/check-det-sklearn.py reports/latest     (needs scikit-learn)
"""
import json
import math
import os
import sys
from collections import defaultdict

from sklearn.metrics import det_curve

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import curve_export  # noqa: E402


def score(record, method):
    if method == "aggregate":
        agg = record.get("aggregate")
        if not agg or not agg.get("weights"):
            return None
        return agg.get("ranking_score", agg["score"])
    name, _, field = method.partition(":")  # depth/1:margin reads the margin field
    m = record["methods"].get(name)
    return m.get(field or "score") if m and m.get("status") == "completed" else None


def main(folder):
    records = [json.loads(line) for line in open(f"{folder}/samples.jsonl") if line.strip()]
    export = json.load(open(f"{folder}/results.json")).get("curve_export")
    evaluated = [r for r in records if r["status"] == "evaluated"]
    ours = defaultdict(list)
    lines = [line.rstrip("\n").split(",") for line in open(f"{folder}/det.csv")]
    assert lines[0] == ["method", "data", "threshold", "apcer", "bpcer"], f"{folder}/det.csv: unexpected header {lines[0]}"
    for method, data, t, a, b in lines[1:]:
        ours[(method, data)].append((float(t), float(a), float(b)))
    methods = sorted({m for m, _ in ours} | {"aggregate"})
    kinds = ["all"] + sorted({r["data"] for r in evaluated})
    failures, checked, points = 0, 0, 0
    print(f"{'data':<10} {'method':<16} {'n':>5} {'points':>7} result")
    for kind in kinds:
        subset = evaluated if kind == "all" else [r for r in evaluated if r["data"] == kind]
        for method in methods:
            pairs = [(score(r, method), r["bona_fide"]) for r in subset]
            pairs = [(s, y) for s, y in pairs if s is not None and math.isfinite(s)]
            y = [int(b) for _, b in pairs]
            s = [v for v, _ in pairs]
            mine = ours.get((method, kind), [])
            if len(set(y)) < 2:
                # sklearn raises; rial-bench writes no point.
                ok = not mine
                print(f"{kind:<10} {method:<16} {len(y):>5} {len(mine):>7} {'one class: no points' if ok else 'FAIL: points for one class'}")
                failures += 0 if ok else 1
                continue
            fpr, fnr, thr = det_curve(y, s)
            full = list(zip(map(float, thr), map(float, fpr), map(float, fnr)))
            # A long curve thinned by the run's curve_export rule is checked against that rule.
            problem = curve_export.check(mine, full, export)
            ok = problem is None
            checked += 1
            points += len(thr)
            failures += 0 if ok else 1
            verdict = ("identical" if len(mine) == len(full) else f"{len(mine)} written, as curve_export says") if ok else f"FAIL: {problem}"
            print(f"{kind:<10} {method:<16} {len(y):>5} {len(thr):>7} {verdict}")
    print(f"{checked} curves, {points} points checked against scikit-learn det_curve; {failures} failed")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "reports/latest"))
