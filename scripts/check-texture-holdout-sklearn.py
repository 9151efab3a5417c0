#!/usr/bin/env python3
"""Checks `rial-bench train texture --hold-out source` against scikit-learn.

Reads the descriptor table the training wrote (--features-out CSV), the manifests it read
(for each sample's group and `source:OWNER/NAME` tag) and the model file (its
`provenance.cross_validation`). Redoes every leave-one-source-out fold independently:
hold out every group that has a sample of the source, standardise with the training
samples' mean and population standard deviation (1 for a constant feature), clip to
+-standardised_clip, fit scikit-learn's multinomial LogisticRegression with
C = 1 / (l2 * n) (rial-bench minimises the mean cross-entropy + l2/2 |w|^2, scikit-learn
C * sum cross-entropy + 1/2 |w|^2), and score the held-out samples: arg-max accuracy (a
`screen` label is right when either screen class wins) and roc_auc_score of
p(real_scene), real scenes against every attack. Labels map as the model's `label_map`
says. Prints one row per fold; exit 0 when every accuracy and AUC agrees to 0.005 (two
optimisers stop at slightly different optima), 1 otherwise.

Usage: python3 scripts/check-texture-holdout-sklearn.py MODEL.json FEATURES.csv MANIFEST.json...
       (the manifests as given to train texture; needs scikit-learn and numpy)
"""
import csv
import json
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

TOLERANCE = 0.005


def main(model_path, features_path, manifest_paths):
    model = json.load(open(model_path))
    provenance = model["provenance"]
    folds = provenance.get("cross_validation")
    if not folds or folds["by"] != "source":
        sys.exit(f"{model_path}: no leave-one-source-out record (provenance.cross_validation.by = source)")
    label_map = provenance.get("label_map") or {}
    classes = model["classes"]
    l2 = provenance["hyperparameters"]["l2"]
    clip = provenance["hyperparameters"]["standardised_clip"]
    splits = set(provenance["train_splits"])

    samples = {}
    for path in manifest_paths:
        for s in json.load(open(path))["samples"]:
            samples[(path, s["id"])] = s
    rows = [r for r in csv.DictReader(open(features_path)) if r["split"] in splits]
    names = model["feature_names"]
    rows = [r for r in rows if (label_map.get(r["label"], r["label"])) in classes]
    meta = [samples[(r["manifest"], r["id"])] for r in rows]
    x = np.array([[float(r[n]) for n in names] for r in rows])
    labels = np.array([r["label"] for r in rows])
    y = np.array([label_map.get(l, l) for l in labels])
    group = np.array([r["manifest"] + "\0" + (m.get("group") or "\1" + r["id"]) for r, m in zip(rows, meta)])
    source = np.array([next((t[7:] for t in m.get("tags", []) if t.startswith("source:")), "") for m in meta])

    failures = 0
    print(f"{'held out':58s} {'n':>5s} {'acc':>7s} {'sklearn':>7s} {'AUC':>7s} {'sklearn':>7s}")
    for fold in folds["folds"]:
        name = fold["held_out"]
        held_groups = set(group[source == name])
        test = np.array([g in held_groups for g in group])
        train = ~test
        mean = x[train].mean(0)
        std = x[train].std(0)
        std[~(std > 1e-12)] = 1
        def z(a):
            return np.clip(np.nan_to_num((a - mean) / std), -clip, clip)
        fit = LogisticRegression(C=1 / (l2 * train.sum()), max_iter=10000, tol=1e-10).fit(z(x[train]), y[train])
        p = fit.predict_proba(z(x[test]))
        fitted = list(fit.classes_)
        predicted = np.array(fitted)[p.argmax(1)]
        truth = labels[test]
        correct = [(pr in ("lcd_screen", "oled_screen")) if t == "screen" else pr == t for pr, t in zip(predicted, truth)]
        accuracy = float(np.mean(correct))
        real = truth == "real_scene"
        auc = float(roc_auc_score(real, p[:, fitted.index("real_scene")])) if 0 < real.sum() < len(real) else None
        ok = abs(accuracy - fold["accuracy"]) <= TOLERANCE and (
            (auc is None and fold.get("auc") is None)
            or (auc is not None and fold.get("auc") is not None and abs(auc - fold["auc"]) <= TOLERANCE))
        failures += not ok
        def f(v):
            return "-" if v is None else f"{v:.3f}"
        print(f"{name[:58]:58s} {int(test.sum()):5d} {f(fold['accuracy']):>7s} {f(accuracy):>7s} "
              f"{f(fold.get('auc')):>7s} {f(auc):>7s} {'' if ok else 'DIFFERS'}")
    print("all folds agree" if failures == 0 else f"{failures} folds differ by more than {TOLERANCE}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
