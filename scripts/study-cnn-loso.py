#!/usr/bin/env python3
"""Issue 13 study: does a small convolutional network trained from scratch on the real
development set add anything to the image-only aggregate, held out by source?

    pip install "jax[cpu]" pillow scikit-learn
    python3 scripts/study-cnn-loso.py [--epochs 15] [--sources gauri,DEVANSH] \
        [--scores reports/runs/real-dev-loso-new/runs] [--out .cache/rial-bench/cnn-loso]

Reads datasets/real-dev/manifest.json (its files fetched by `rial-bench dataset fetch`).
Every photo, EXIF orientation applied, is box-resampled to 192 x 192 (the whole frame,
aspect not kept, so a bezel or a keyboard at the border stays in). The network: four
stages of two 3 x 3 convolutions (16, 32, 64, 128 channels; the first of each stride 2),
each followed by a per-sample normalisation and ReLU; global mean and max pooling;
dropout 0.3; one logistic output (attack). Adam, learning rate 1e-3 with cosine decay,
decoupled weight decay 1e-4, batches of 32, random 176-pixel crops, horizontal flips and
brightness jitter; prediction on the centre crop and its mirror.

For each source with at least 20 attacks (or those named by --sources), the network is
trained on every other source and scores the held-out one (out-of-fold scores in
OUT/oof-<epochs>.csv). Those scores are then stacked with the held-out scores of the
default image-only methods (the scores.csv files of `scripts/tune-real-dev`'s
reports/runs/real-dev-loso-new; run that first): the equal mean of the log-odds of
moire/2, texture/4 and artifacts/2 plus w times the standardised network logit, w chosen
on the other sources. Printed per source: AUC, and APCER at BPCER 5% with the threshold
on the source's own scores.

A study, not a method: nothing here is fitted into the project. The results are in
docs/defaults-real-photos.md.
"""
import argparse
import csv
import glob
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

SIDE, CROP, WIDTHS, BATCH = 192, 176, (16, 32, 64, 128), 32
MANIFEST = "datasets/real-dev/manifest.json"


def load(path):
    from PIL import Image, ImageOps

    im = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
    return np.asarray(im.resize((SIDE, SIDE), Image.BOX), dtype=np.uint8)


def source_of(sample):
    return [t[len("source:"):] for t in sample["tags"] if t.startswith("source:")][0]


def prepare(out):
    cache = os.path.join(out, f"images{SIDE}.npz")
    if os.path.exists(cache):
        d = np.load(cache)
        return d["X"], d["y"], d["src"], d["ids"]
    samples = json.load(open(MANIFEST))["samples"]
    paths = [os.path.join(os.path.dirname(MANIFEST), s["image"]) for s in samples]
    with ProcessPoolExecutor(os.cpu_count()) as ex:
        X = np.stack(list(ex.map(load, paths, chunksize=16)))
    y = np.array([0 if s["label"] == "real_scene" else 1 for s in samples])
    src = np.array([source_of(s) for s in samples])
    ids = np.array([s["id"] for s in samples])
    np.savez(cache, X=X, y=y, src=src, ids=ids)
    return X, y, src, ids


def network():
    import jax
    import jax.numpy as jnp

    def init(key):
        params, cin = [], 3
        for w in WIDTHS:
            for _ in (2, 1):
                key, k = jax.random.split(key)
                params.append({"w": jax.random.normal(k, (3, 3, cin, w)) * np.sqrt(2 / (9 * cin)),
                               "b": jnp.zeros(w)})
                cin = w
        key, k = jax.random.split(key)
        params.append({"w": jax.random.normal(k, (2 * cin, 1)) * 0.01, "b": jnp.zeros(1)})
        return params

    def forward(params, x, key=None):
        h = (x - 0.5) / 0.25
        for i, p in enumerate(params[:-1]):
            s = 2 if i % 2 == 0 else 1
            h = jax.lax.conv_general_dilated(h, p["w"], (s, s), "SAME",
                                             dimension_numbers=("NHWC", "HWIO", "NHWC")) + p["b"]
            mu = h.mean(axis=(1, 2, 3), keepdims=True)
            sd = h.std(axis=(1, 2, 3), keepdims=True) + 1e-5
            h = jax.nn.relu((h - mu) / sd)
        f = jnp.concatenate([h.mean(axis=(1, 2)), h.max(axis=(1, 2))], -1)
        if key is not None:
            f = f * jax.random.bernoulli(key, 0.7, f.shape) / 0.7
        return (f @ params[-1]["w"] + params[-1]["b"])[:, 0]

    def loss(params, x, t, key):
        z = forward(params, x, key)
        return jnp.mean(jnp.logaddexp(0, z) - t * z)

    @jax.jit
    def step(params, opt, x, t, key, lr):
        value, grad = jax.value_and_grad(loss)(params, x, t, key)
        m, v, n = opt
        n = n + 1
        m = jax.tree.map(lambda a, b: 0.9 * a + 0.1 * b, m, grad)
        v = jax.tree.map(lambda a, b: 0.999 * a + 0.001 * b * b, v, grad)
        params = jax.tree.map(
            lambda p, a, b: p - lr * (a / (1 - 0.9**n)) / (jnp.sqrt(b / (1 - 0.999**n)) + 1e-8) - lr * 1e-4 * p,
            params, m, v)
        return params, (m, v, n), value

    return init, jax.jit(lambda params, x: forward(params, x)), step


def train_and_score(net, X, y, train, test, epochs, seed=0):
    import jax
    import jax.numpy as jnp

    init, predict, step = net
    rng = np.random.default_rng(seed)
    params = init(jax.random.PRNGKey(seed))
    opt = (jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params), 0)
    batches = len(train) // BATCH
    total, it, key = epochs * batches, 0, jax.random.PRNGKey(seed + 100)
    yf = y.astype(np.float32)
    for epoch in range(epochs):
        order, running = rng.permutation(train), 0.0
        for b in range(batches):
            idx = order[b * BATCH:(b + 1) * BATCH]
            lr = 1e-3 * 0.5 * (1 + np.cos(np.pi * it / total))
            it += 1
            crops = np.empty((len(idx), CROP, CROP, 3), np.float32)
            for j, im in enumerate(X[idx]):
                r, c = rng.integers(0, SIDE - CROP + 1, 2)
                crop = im[r:r + CROP, c:c + CROP].astype(np.float32) / 255
                if rng.random() < 0.5:
                    crop = crop[:, ::-1]
                crops[j] = crop * rng.uniform(0.8, 1.2) + rng.uniform(-0.08, 0.08)
            key, k = jax.random.split(key)
            params, opt, value = step(params, opt, jnp.asarray(crops), jnp.asarray(yf[idx]), k, lr)
            running += float(value)
        print(f"  epoch {epoch + 1}/{epochs}: training loss {running / batches:.3f}", flush=True)
    o, scores = (SIDE - CROP) // 2, []
    for b in range(0, len(test), 64):
        centre = X[test[b:b + 64], o:o + CROP, o:o + CROP].astype(np.float32) / 255
        scores.append((np.asarray(predict(params, centre)) + np.asarray(predict(params, centre[:, :, ::-1]))) / 2)
    return np.concatenate(scores)


def apcer_at_bpcer5(attack, score):
    """Attacks scored at or below the 95th percentile of the real scenes (score: attack-like)."""
    threshold = np.quantile(score[attack == 0], 0.95)
    return float(np.mean(score[attack == 1] <= threshold))


def stack(oof_path, scores_dir):
    from sklearn.metrics import roc_auc_score

    network_score = {}
    with open(oof_path) as f:
        for row in csv.reader(f):
            network_score[row[0]] = (row[1], int(row[2]), float(row[3]))
    srcs, attack, net, mean3 = [], [], [], []

    def logit(p):
        p = min(max(p, 1e-4), 1 - 1e-4)
        return np.log(p / (1 - p))

    for path in glob.glob(os.path.join(scores_dir, "*", "scores.csv")):
        with open(path) as f:
            for row in csv.DictReader(f):
                if row["dataset"] != "real-dev" or row["id"] not in network_score:
                    continue
                s, a, z = network_score[row["id"]]
                srcs.append(s); attack.append(a); net.append(z)
                mean3.append(-(logit(float(row["moire/2"])) + logit(float(row["texture/4"]))
                               + logit(float(row["artifacts/2"]))) / 3)
    srcs, attack, net, mean3 = np.array(srcs), np.array(attack), np.array(net), np.array(mean3)
    zn = (net - net.mean()) / net.std()
    zm = (mean3 - mean3.mean()) / mean3.std()

    def report(name, score):
        cells, auc_ok, apcer_ok = [], 0, 0
        for s in sorted(set(srcs)):
            m = srcs == s
            auc = roc_auc_score(attack[m], score[m])
            apcer = apcer_at_bpcer5(attack[m], score[m])
            auc_ok += auc >= 0.90
            apcer_ok += apcer <= 0.20
            cells.append(f"{s.split('/')[0]} {auc:.3f}/{apcer:.0%}")
        print(f"{name}: pooled AUC {roc_auc_score(attack, score):.3f}, AUC >= 0.90 on {auc_ok}, "
              f"APCER <= 20% on {apcer_ok} | " + "; ".join(cells))

    report("network alone", net)
    report("equal mean of the three image scores", mean3)
    held = np.zeros(len(srcs))
    for s in sorted(set(srcs)):
        other = srcs != s
        w = max([0, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2],
                key=lambda w: roc_auc_score(attack[other], (zm + w * zn)[other]))
        held[srcs == s] = (zm + w * zn)[srcs == s]
        print(f"  weight for {s}, chosen on the others: {w}")
    report("the three + w x network (w held out)", held)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--sources", default="", help="comma-separated prefixes of the sources to hold out")
    parser.add_argument("--scores", default="reports/runs/real-dev-loso-new/runs")
    parser.add_argument("--out", default=".cache/rial-bench/cnn-loso")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    X, y, src, ids = prepare(args.out)
    held_out = sorted(s for s in set(src) if ((src == s) & (y == 1)).sum() >= 20)
    if args.sources:
        held_out = [s for s in held_out if any(s.startswith(p) for p in args.sources.split(","))]
    oof = os.path.join(args.out, f"oof-{args.epochs}.csv")
    done = set()
    if os.path.exists(oof):
        with open(oof) as f:
            done = {row[1] for row in csv.reader(f)}
    from sklearn.metrics import roc_auc_score

    net = network()  # built and compiled once for every fold
    for s in held_out:
        if s in done:
            continue
        test, train = np.where(src == s)[0], np.where(src != s)[0]
        start = time.time()
        z = train_and_score(net, X, y, train, test, args.epochs)
        print(f"{s}: held-out AUC {roc_auc_score(y[test], z):.3f} ({time.time() - start:.0f} s)", flush=True)
        with open(oof, "a", newline="") as f:
            writer = csv.writer(f)
            for i, v in zip(test, z):
                writer.writerow([ids[i], s, int(y[i]), f"{v:.6f}"])
    stack(oof, args.scores)


if __name__ == "__main__":
    main()
