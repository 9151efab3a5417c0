#!/usr/bin/env python3
"""Checks the calibrations `rial-bench tune` fitted against scikit-learn.

Reads DIR/tune.json (what `rial-bench tune --out DIR` wrote) and the samples.jsonl of every
input run it lists (of the run it rescored, for a folder `rial-bench rescore` wrote),
rebuilds each calibrated method's data exactly as tune does for the final fit (every
evaluated sample with a known label whose aggregated candidate for the method is the method
itself, completed, with a finite raw score; bona fide = 1), fits it with scikit-learn and
compares with both fits tune.json records for that method
(`final.calibration_choice.KEY.platt` and `.isotonic`):

- Platt: `sklearn.calibration._sigmoid_calibration` (what CalibratedClassifierCV(method=
  "sigmoid") calls) gives (a, b) with p = 1 / (1 + exp(a s + b)). scikit-learn stops
  L-BFGS-B at gtol 1e-6 while tune runs Newton to machine precision, so the check is
  |a - a_sk|, |b - b_sk| <= 1e-4 * max(1, |a_sk|) and tune's smoothed log loss <= scikit-
  learn's + 1e-9 (tune's optimum is at least as good).
- The same fit as a logistic regression: Platt's soft targets t_i are the weighted hard
  labels (1 with weight t_i, 0 with weight 1 - t_i), so an unpenalised `LogisticRegression(C=inf)`
  on feature s with those weights has coef = -a and intercept = -b (same tolerance).
- Isotonic: `IsotonicRegression(out_of_bounds="clip")`: X_thresholds_ equal exactly,
  y_thresholds_ within 1e-12, and predictions on 1001 points of [min - 0.1, max + 0.1]
  within 1e-12.

Exit 0 when everything agrees, 1 otherwise. Usage (needs scikit-learn):
    python3 scripts/check-tune-sklearn.py TUNE_DIR
"""
import json
import math
import os
import sys

import numpy as np
from sklearn.calibration import _sigmoid_calibration
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression


def smoothed_loss(s, y, a, b):
    n1 = float(np.sum(y == 1))
    n0 = float(len(y) - n1)
    t = np.where(y == 1, (n1 + 1) / (n1 + 2), 1 / (n0 + 2))
    z = a * s + b
    # -[t log p + (1 - t) log(1 - p)], p = 1 / (1 + e^z), overflow-free
    return float(np.sum(np.where(z >= 0, t * z + np.log1p(np.exp(-z)), (t - 1) * z + np.log1p(np.exp(z)))))


def records_path(folder):
    """FOLDER/samples.jsonl, or, for a folder `rial-bench rescore` wrote (no records of its
    own), the records of the run it rescored (`samples_from` in its results.json): the
    method scores and aggregation inputs are that run's."""
    own = os.path.join(folder, "samples.jsonl")
    if os.path.exists(own):
        return own
    source = json.load(open(os.path.join(folder, "results.json"))).get("samples_from")
    if not source:
        raise SystemExit(f"{folder}: no samples.jsonl and no samples_from in results.json")
    return os.path.join(source, "samples.jsonl")


def method_data(runs, key):
    scores, labels = [], []
    for folder in runs:
        for line in open(records_path(folder)):
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("status") != "evaluated" or r.get("label") == "unknown":
                continue
            inputs = r.get("aggregation_inputs") or {}
            family = key.split("/")[0]
            if any(c.get("family") == family and c.get("source") == "payload" for c in inputs.values()):
                continue
            c = inputs.get(key)
            if not c or not c.get("available"):
                continue
            s = c.get("score")
            if s is None or s == "nan" or not math.isfinite(float(s)):
                continue
            scores.append(float(s))
            labels.append(1 if r["bona_fide"] else 0)
    return np.array(scores, dtype=float), np.array(labels, dtype=int)


def main(folder):
    tune = json.load(open(f"{folder}/tune.json"))
    runs = [i["folder"] for i in tune["inputs"]]
    ok = True
    print(f"{'method':<14} {'n':>6} {'kind':<9} {'rial-bench':>34} {'scikit-learn':>34} {'max diff':>10} verdict")
    for key, choice in sorted(tune["final"]["calibration_choice"].items()):
        s, y = method_data(runs, key)
        if len(s) != choice["samples"]:
            print(f"{key:<14} {len(s):>6} data differ: tune.json says {choice['samples']} samples")
            ok = False
            continue
        if choice["kind"] == "none":
            print(f"{key:<14} {len(s):>6} (one class only: not calibrated)")
            continue
        platt = choice["platt"]
        a, b = platt["a"], platt["b"]
        a_sk, b_sk = _sigmoid_calibration(s, y)
        tol = 1e-4 * max(1.0, abs(a_sk))
        diff = max(abs(a - a_sk), abs(b - b_sk))
        better = smoothed_loss(s, y, a, b) <= smoothed_loss(s, y, a_sk, b_sk) + 1e-9
        good = diff <= tol and better
        ok &= good
        print(f"{key:<14} {len(s):>6} {'platt':<9} {f'a {a:.8f} b {b:.8f}':>34} {f'a {a_sk:.8f} b {b_sk:.8f}':>34} {diff:>10.2e} {'ok' if good else 'DIFFERENT'}")
        n1, n0 = float(np.sum(y == 1)), float(np.sum(y == 0))
        t = np.where(y == 1, (n1 + 1) / (n1 + 2), 1 / (n0 + 2))
        X = np.concatenate([s, s]).reshape(-1, 1)
        lr = LogisticRegression(C=np.inf, tol=1e-12, max_iter=100000)  # no penalty
        lr.fit(X, np.concatenate([np.ones(len(s)), np.zeros(len(s))]), sample_weight=np.concatenate([t, 1 - t]))
        a_lr, b_lr = -lr.coef_[0][0], -lr.intercept_[0]
        diff = max(abs(a - a_lr), abs(b - b_lr))
        good = diff <= 1e-4 * max(1.0, abs(a_lr))
        ok &= good
        print(f"{key:<14} {len(s):>6} {'logistic':<9} {f'a {a:.8f} b {b:.8f}':>34} {f'a {a_lr:.8f} b {b_lr:.8f}':>34} {diff:>10.2e} {'ok' if good else 'DIFFERENT'}")
        iso = choice["isotonic"]
        ir = IsotonicRegression(out_of_bounds="clip").fit(s, y)
        same_x = len(iso["x"]) == len(ir.X_thresholds_) and np.array_equal(np.array(iso["x"]), ir.X_thresholds_)
        diff = float(np.max(np.abs(np.array(iso["y"]) - ir.y_thresholds_))) if same_x else float("inf")
        grid = np.linspace(s.min() - 0.1, s.max() + 0.1, 1001)
        ours = np.interp(grid, iso["x"], iso["y"]) if len(iso["x"]) > 1 else np.full_like(grid, iso["y"][0])
        diff = max(diff, float(np.max(np.abs(ours - ir.predict(grid)))))
        good = same_x and diff <= 1e-12
        ok &= good
        ours_n, theirs_n = f"{len(iso['x'])} points", f"{len(ir.X_thresholds_)} points"
        print(f"{key:<14} {len(s):>6} {'isotonic':<9} {ours_n:>34} {theirs_n:>34} {diff:>10.2e} {'ok' if good else 'DIFFERENT'}")
    print("all agree" if ok else "DIFFERENCES FOUND")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(64)
    sys.exit(main(sys.argv[1]))
