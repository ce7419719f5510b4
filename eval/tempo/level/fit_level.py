#!/usr/bin/env python3
"""Fit specviz's metrical-level model (Sources/Analysis/Tempo/LevelModel.swift).

    python3 fit_level.py [--lam L] [--write SWIFT] RESULTS:MANIFEST [RESULTS:MANIFEST ...]
    python3 fit_level.py --live [--cv] [--lam L] [--write SWIFT] RESULTS:MANIFEST [...]

Each RESULTS folder holds `specviz tempo --json` outputs (<id>.json, as run_specviz.sh leaves
them) for the tracks of MANIFEST (a generated set's manifest.csv). A track's label is the level,
½, 1 or 2, that takes the folded tempo the model saw (its first input, log2(tempo / 110)) to
the annotated tempo within 4 %; tracks with no beats, or whose folded tempo is at none of the
three levels (a wrong tempo, not a wrong level), are left out.

Reports leave-one-set-out accuracy (each set is predicted by a model fitted without it) next to
the level the build chose, then fits on everything and, with --write, writes the weights file.

--live fits the live level's weights (LevelModel+LiveWeights.swift) from `tempo --json --causal`
outputs, whose "level_readings" hold the inputs of every live reading (twice a second). A
reading's label is the level that takes its folded tempo to the local annotated tempo (the median
beat period of the set's beats/<id>.beats.txt over the 8 s before it) within 4 %; each track
weighs the same however many readings it has. Leave-one-set-out (--cv) reports the share of
readings whose likeliest level is right, against the live build's own probabilities.
Only development and training sets go in: never a validation copy (NOTES.md, the discipline).
Multinomial logistic regression with an L2 penalty (not on the bias), inputs standardised for
the fit and the scaling folded back into the weights; numpy only. The fit and the predictions
share LevelModel.swift's priors (tempo, alternate beats alike, nothing half-way).
"""
import argparse, math, os, sys
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fitdata import annotated_tracks, grouped, swift_header, swift_rows  # noqa: E402

FACTORS = (0.5, 1.0, 2.0)
# The priors (LevelModel.swift). Tempo: half the folded beat only from a folded 110 BPM (a tapped
# beat of at least 55), twice it only up to 92 (at most 184). Evidence: half only when alternate
# beats differ in some band (alternation below ALIKE), twice only when something sounds half-way
# in some band (mid at least SOMETHING_BETWEEN).
HALF_FROM, DOUBLE_UP_TO = 110.0, 92.0
ALIKE, SOMETHING_BETWEEN = 0.8, 0.4
# Indices of the inputs (LevelModel.features): log tempo, then mid, alternation, triplet, quarter
# for the broadband, low and mid bands.
MIDS, ALTERNATIONS = (1, 5, 9), (2, 6, 10)


def mask(X):
    """0 where a level is allowed for a row's folded tempo (its first input), -inf where not."""
    folded = 110 * 2 ** X[:, 0]
    alike = X[:, ALTERNATIONS].min(1) >= ALIKE
    nothing_between = X[:, MIDS].max(1) < SOMETHING_BETWEEN
    m = np.zeros((len(X), 3))
    m[(folded < HALF_FROM) | alike, 0] = -np.inf
    m[(folded > DOUBLE_UP_TO) | nothing_between, 2] = -np.inf
    return m


def load(results, manifest):
    rows = []
    for r, doc, _ in annotated_tracks(results, manifest):
        level = doc.get("level")
        if not level:
            continue
        x = level["inputs"]
        folded = 110 * 2 ** x[0]
        ratio = float(r["bpm"]) / folded
        k = min(range(3), key=lambda i: abs(math.log(ratio / FACTORS[i])))
        if abs(math.log(ratio / FACTORS[k])) > 0.04:
            continue
        chosen = FACTORS.index(level["factor"]) if level["factor"] in FACTORS else 1
        rows.append((r["id"], x, k, chosen))
    return rows


def load_live(results, manifest):
    """(track id, [(inputs, label, the build's likeliest)]) per track with labelled readings."""
    tracks = []
    for r, doc, ref in annotated_tracks(results, manifest):
        rows = []
        for reading in doc.get("level_readings", []):
            t = reading["time"]
            near = ref[(ref >= t - 8) & (ref <= t)]
            if len(near) < 3:
                continue
            ratio = 60 / np.median(np.diff(near)) / reading["tempo"]
            k = min(range(3), key=lambda i: abs(math.log(ratio / FACTORS[i])))
            if abs(math.log(ratio / FACTORS[k])) > 0.04:
                continue
            rows.append((reading["inputs"], k, int(np.argmax(reading["probabilities"]))))
        if rows:
            tracks.append((r["id"], rows))
    return tracks


def fit(X, y, lam, M, steps=4000, rate=0.5, weight=None):
    n, d = X.shape
    W = np.zeros((d + 1, 3))
    Xb = np.hstack([X, np.ones((n, 1))])
    Y = np.eye(3)[y]
    share = np.full(n, 1 / n) if weight is None else weight / weight.sum()
    for _ in range(steps):
        Z = Xb @ W + M
        Z -= Z.max(1, keepdims=True)
        P = np.exp(Z)
        P /= P.sum(1, keepdims=True)
        G = Xb.T @ ((P - Y) * share[:, None])
        G[:-1] += lam * W[:-1]
        W -= rate * G
    return W


def fit_raw(X, y, lam, weight=None, steps=4000):
    """Weights and bias on the raw inputs (standardisation folded in)."""
    mu, sd = X.mean(0), X.std(0) + 1e-9
    W = fit((X - mu) / sd, y, lam, mask(X), steps=steps, weight=weight)
    w = W[:-1] / sd[:, None]
    b = W[-1] - (mu[:, None] * w).sum(0)
    return w, b


def predict(w, b, X):
    return (X @ w + b + mask(X)).argmax(1)


def swift(w, b, sources, n, lam, cv, live=False):
    """The weights file, formatted as swift-format wants it (trailing commas, short lines)."""
    prefix, what = ("live", "readings") if live else ("", "tracks")
    name = lambda base: prefix + base[0].upper() + base[1:] if live else base
    lines = swift_header("level/fit_level.py", f"{n} {what}", sources, lam, cv, "LevelModel") + [
        "    /// Weights per level (½, 1, 2), one per input of `features`.",
        f"    static let {name('weights')}: [[Double]] = [",
    ]
    for k in range(3):
        lines += ["        ["] + swift_rows(w[:, k], 12) + ["        ],"]
    lines += ["    ]", "    /// Bias per level.", f"    static let {name('bias')}: [Double] = [" + ", ".join(f"{x:.6g}" for x in b) + "]", "}", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", help="RESULTS:MANIFEST")
    ap.add_argument("--lam", type=float, default=0.001)
    ap.add_argument("--write", help="write the Swift weights file here")
    ap.add_argument("--live", action="store_true", help="fit the live level from tempo --json --causal readings")
    ap.add_argument("--cv", action="store_true", help="with --live: leave-one-set-out too (minutes)")
    a = ap.parse_args()
    if a.live:
        return main_live(a)
    sets = grouped(a.sets, load)
    total = right = chose = 0
    for hold in sets:
        train = [r for g, v in sets.items() if g != hold for r in v]
        test = sets[hold]
        if not train or not test:
            continue
        Xtr, ytr = np.array([r[1] for r in train]), np.array([r[2] for r in train])
        w, b = fit_raw(Xtr, ytr, a.lam)
        Xte = np.array([r[1] for r in test])
        p = predict(w, b, Xte)
        y = np.array([r[2] for r in test])
        c = np.array([r[3] for r in test])
        wrong = [(test[i][0], FACTORS[y[i]], FACTORS[p[i]]) for i in range(len(test)) if p[i] != y[i]]
        print(f"{hold:12s} n {len(test):3d}  model wrong {len(wrong):2d}  build wrong {int((c != y).sum()):2d}  {wrong[:5]}")
        total += len(test)
        right += int((p == y).sum())
        chose += int((c == y).sum())
    cv = right / max(1, total)
    print(f"leave-one-set-out: model {cv:.4f}, the build's level {chose / max(1, total):.4f}, {total} tracks, lam {a.lam:g}")
    rows = [r for v in sets.values() for r in v]
    X, y = np.array([r[1] for r in rows]), np.array([r[2] for r in rows])
    w, b = fit_raw(X, y, a.lam)
    if a.write:
        with open(a.write, "w") as f:
            f.write(swift(w, b, sorted(sets), len(rows), a.lam, cv))
        print("wrote", a.write)


def main_live(a):
    sets = grouped(a.sets, load_live)

    def flat(tracks):
        X = np.array([x for _, rows in tracks for x, _, _ in rows])
        y = np.array([k for _, rows in tracks for _, k, _ in rows])
        built = np.array([c for _, rows in tracks for _, _, c in rows])
        weight = np.array([1 / len(rows) for _, rows in tracks for _ in rows])
        return X, y, built, weight

    cv = None
    if a.cv:
        right = built_right = total = 0.0
        for hold in sets:
            train = [t for g, v in sets.items() if g != hold for t in v]
            Xtr, ytr, _, wtr = flat(train)
            w, b = fit_raw(Xtr, ytr, a.lam, wtr, steps=3000)
            X, y, built, weight = flat(sets[hold])
            p = predict(w, b, X)
            print(f"{hold:12s} tracks {len(sets[hold]):3d}  model {((p == y) * weight).sum() / weight.sum():.3f}  build {((built == y) * weight).sum() / weight.sum():.3f}")
            right += ((p == y) * weight).sum()
            built_right += ((built == y) * weight).sum()
            total += weight.sum()
        cv = right / max(total, 1e-9)
        print(f"leave-one-set-out (readings, each track weighing the same): model {cv:.4f}, the build {built_right / max(total, 1e-9):.4f}")
    X, y, _, weight = flat([t for v in sets.values() for t in v])
    w, b = fit_raw(X, y, a.lam, weight, steps=3000)
    print(f"{len(y)} readings of {sum(len(v) for v in sets.values())} tracks")
    if a.write:
        with open(a.write, "w") as f:
            f.write(swift(w, b, sorted(sets), len(y), a.lam, cv, live=True))
        print("wrote", a.write)


if __name__ == "__main__":
    main()
