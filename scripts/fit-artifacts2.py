#!/usr/bin/env python3
"""Fits artifacts/2's five constants (docs/artifacts-2.md, section 2) from a run's measured cues.

    python3 scripts/fit-artifacts2.py RUN MANIFEST OUTDIR [--false-detection F]

RUN is a `rial-bench run --dataset MANIFEST` folder whose records hold artifacts/2's cues
(`banding_rows`, `banding_columns`, `surround_ratio`, `fine_detail_share`), or a folder of such
run folders (every subfolder with a samples.jsonl is read, in name order: the per-source runs of
`scripts/tune-real-dev`); the labels and the `source:` tags come from MANIFEST. The cues do not
depend on the constants, so any run of the current artifacts/2 serves. The score is a logistic regression (scikit-learn, L2, C = 1)
on the standardised natural logarithms of the four cues, attacks = 1, then written back in the
unstandardised form artifacts/2 evaluates:
z = intercept + sum(weight_i ln cue_i).

The intercept is then calibrated for the operating point: lowered by the (1 - F) quantile of
z over the fit's real scenes (F = --false-detection, default 0.05), so that `detected`
(confidence > 0.5, z > 0) is set on a share F of the real scenes the constants were fitted on.
The logistic regression's own intercept puts the boundary where the classes balance, which on
the real development set calls about a third of the real scenes screens (docs/artifacts-2.md,
section 4). The shift is monotone: it moves no sample past another. --false-detection 0.5 or
more keeps the regression's intercept (the constants before 2026-11-27).

Writes OUTDIR/all.yaml (fitted on every sample: the compiled-in constants) and, for each
source, OUTDIR/OWNER+NAME.yaml fitted without that source (for
`rial-bench run --tag source:OWNER/NAME --config OUTDIR/OWNER+NAME.yaml`, a held-out score).
Prints the constants and the held-out pooled AUC of the refits (attacks high).
"""
import json
import os
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import StandardScaler

FLOOR = 1e-6
NAMES = ["banding_rows_weight", "banding_columns_weight", "surround_weight", "fine_detail_weight"]


def main(run, manifest, outdir, false_detection):
    os.makedirs(outdir, exist_ok=True)
    samples = {s["id"]: s for s in json.load(open(manifest))["samples"]}
    x, y, sources, unavailable = [], [], [], 0
    files = [os.path.join(run, "samples.jsonl")]
    if not os.path.isfile(files[0]):
        files = [os.path.join(run, d, "samples.jsonl") for d in sorted(os.listdir(run))
                 if os.path.isfile(os.path.join(run, d, "samples.jsonl"))]
        if not files:
            sys.exit(f"fit-artifacts2.py: {run}: no samples.jsonl in it or in any subfolder")
    for path in files:
        with open(path) as lines:
            for line in lines:
                record = json.loads(line)
                cues = record.get("methods", {}).get("artifacts/2", {})
                if cues.get("status") != "completed":
                    unavailable += 1
                    continue
                sample = samples[record["id"]]
                x.append([
                    np.log(max(cues["banding_rows"], FLOOR)),
                    np.log(max(cues["banding_columns"], FLOOR)),
                    np.log(cues["surround_ratio"]),
                    np.log(max(cues["fine_detail_share"], FLOOR)),
                ])
                y.append(0 if sample["label"] == "real_scene" else 1)
                sources.append(next(t[7:] for t in sample["tags"] if t.startswith("source:")))
    x, y, sources = np.array(x), np.array(y), np.array(sources)
    print(f"{len(y)} samples with cues, {unavailable} without")

    def fit(mask):
        scaler = StandardScaler().fit(x[mask])
        model = LogisticRegression(C=1.0, max_iter=2000).fit(scaler.transform(x[mask]), y[mask])
        weights = model.coef_[0] / scaler.scale_
        intercept = model.intercept_[0] - np.sum(model.coef_[0] * scaler.mean_ / scaler.scale_)
        if false_detection < 0.5:
            z = intercept + x[mask & (y == 0)] @ weights
            intercept -= np.quantile(z, 1 - false_detection)
        return intercept, weights

    def write(path, intercept, weights):
        text = "format: rial-bench-config/1\nartifacts/2:\n  intercept: %.6f\n" % intercept
        text += "".join("  %s: %.6f\n" % (n, w) for n, w in zip(NAMES, weights))
        open(path, "w").write(text)

    intercept, weights = fit(np.ones(len(y), bool))
    write(os.path.join(outdir, "all.yaml"), intercept, weights)
    print("all:", "intercept %.6f" % intercept, " ".join("%s %.6f" % p for p in zip(NAMES, weights)))
    held = np.zeros(len(y))
    for source in sorted(set(sources)):
        b, w = fit(sources != source)
        write(os.path.join(outdir, source.replace("/", "+") + ".yaml"), b, w)
        held[sources == source] = 1 / (1 + np.exp(-(b + x[sources == source] @ w)))
    detected = held > 0.5
    print("held-out pooled AUC (attacks high): %.3f" % roc_auc_score(y, held))
    print("held out, detected: %.1f%% of %d real scenes, %.1f%% of %d attacks" % (
        100 * detected[y == 0].mean(), (y == 0).sum(), 100 * detected[y == 1].mean(), (y == 1).sum()))


if __name__ == "__main__":
    args = sys.argv[1:]
    rate = 0.05
    if len(args) == 5 and args[3] == "--false-detection":
        rate = float(args[4])
        args = args[:3]
    if len(args) != 3 or not 0 < rate < 1:
        sys.exit("usage: fit-artifacts2.py RUN MANIFEST OUTDIR [--false-detection F], 0 < F < 1")
    main(*args, rate)
