"""The curve-export rule of rial-bench's roc.csv and det.csv (results.json `curve_export`).

A curve of at most `full_points` points is written in full. A longer one (with tolerance > 0)
keeps its first and last points and, from the last point written w, the next point i with
    |x_i - x_w| > tolerance * min(x_w, 1 - x_w)  or  |y_i - y_w| > tolerance * min(y_w, 1 - y_w).
`check(ours, full, export)` compares rial-bench's points with scikit-learn's full curve under
that rule; it returns None when they agree, else a message.
"""
import math

SLACK = 1e-12


def same(a, b):
    (t, x, y), (t2, x2, y2) = a, b
    return (t == t2 or (math.isinf(t) and math.isinf(t2) and t == t2)) and abs(x - x2) < SLACK and abs(y - y2) < SLACK


def check(ours, full, export):
    """ours, full: lists of (threshold, x, y) in file order."""
    full_points = (export or {}).get("full_points", 10000)
    tolerance = (export or {}).get("tolerance", 0.005)
    if len(full) <= full_points or tolerance == 0:
        if len(ours) != len(full):
            return f"{len(ours)} points, scikit-learn {len(full)}"
        bad = next((k for k, (a, b) in enumerate(zip(ours, full)) if not same(a, b)), None)
        return None if bad is None else f"point {bad}: {ours[bad]} vs {full[bad]}"
    # Thinned: every written point is one of scikit-learn's (thresholds are distinct), in order.
    index = {t: k for k, (t, _, _) in enumerate(full)}
    kept = []
    for point in ours:
        k = index.get(point[0])
        if k is None or not same(point, full[k]) or (kept and k <= kept[-1]):
            return f"written point {point} is not the next point of scikit-learn's curve"
        kept.append(k)
    if kept[0] != 0 or kept[-1] != len(full) - 1:
        return "first or last point missing"

    def moved(w, i, slack):
        (_, xw, yw), (_, xi, yi) = full[w], full[i]
        return abs(xi - xw) > tolerance * min(xw, 1 - xw) + slack or abs(yi - yw) > tolerance * min(yw, 1 - yw) + slack

    for w, j in zip(kept, kept[1:]):
        # Every point left out lies within the tolerance of the point written before it...
        skipped = next((i for i in range(w + 1, j) if moved(w, i, SLACK)), None)
        if skipped is not None:
            return f"point {skipped} ({full[skipped]}) left out but outside the tolerance of {full[w]}"
        # ...and the next point written is outside it (the last point is always written).
        if j != len(full) - 1 and not moved(w, j, -SLACK):
            return f"point {j} ({full[j]}) written but within the tolerance of {full[w]}"
    return None
