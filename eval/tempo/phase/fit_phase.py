#!/usr/bin/env python3
"""Fit specviz's offline phase model (Sources/Analysis/Tempo/PhaseModel.swift).

    python3 fit_phase.py [--lam L] [--write SWIFT] RESULTS:MANIFEST [RESULTS:MANIFEST ...]

Each RESULTS folder holds `specviz tempo --json` outputs (<id>.json) for the tracks of MANIFEST
(a generated set's manifest.csv, its annotated beats in beats/<id>.beats.txt). Every "phase"
reading is a stretch of the programme's grid before its phase is decided: its beat times and
the model's inputs. Its label: on the beat when at least half of its beats are within 70 ms of
an annotated beat and at most a quarter of its half-beats are; off the beat the other way
round; any other stretch (a grid at half the annotated tempo hits with both, a wrong tempo with
neither) is left out. Each track weighs the same however many stretches it has.

Reports leave-one-set-out accuracy per stretch (a set and its -ext copy held out together,
P(off) above 0.5 counted as off) next to the decisions of the build that wrote the JSON, then
fits on everything and, with --write, writes the weights file.
Only development and training sets go in, never a validation copy (NOTES.md, the discipline).
A network with one hidden layer of --hidden tanh units and a logistic output, inputs
standardised, an L2 penalty on the weights, Adam from a fixed seed; numpy only. It is kept
monotone in every input but the tempo (SIGNS), so that it cannot read more on the beats as
evidence for the off-beat where a real recording lies outside the generated sets. (A logistic
regression on the same inputs did worse than the rules it was to replace: 96.8 % against 97.9 %
leave-one-set-out; the evidence combines in ANDs, kicks off the grid *and* on most half-beats.)
"""
import argparse, os, sys
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fitdata import annotated_tracks, grouped, swift_header, swift_rows  # noqa: E402

TOL = 0.07


def hits(times, ref):
    """Share of `times` within TOL of a time of the sorted `ref`."""
    if len(ref) == 0 or len(times) == 0:
        return 0.0
    j = np.clip(np.searchsorted(ref, times), 1, len(ref) - 1)
    d = np.minimum(np.abs(ref[j] - times), np.abs(ref[j - 1] - times))
    return float((d <= TOL).mean())


def load(results, manifest):
    """(track id, [(inputs, label, the build's decision)]) per track with labelled stretches."""
    tracks = []
    for r, doc, ref in annotated_tracks(results, manifest):
        readings = doc.get("phase", [])
        rows = []
        for reading in readings:
            b = np.array(reading["beats"])
            on, off = hits(b, ref), hits((b[1:] + b[:-1]) / 2, ref)
            if on >= 0.5 and off <= 0.25:
                label = 0
            elif off >= 0.5 and on <= 0.25:
                label = 1
            else:
                continue
            rows.append((reading["inputs"], label, int(float(reading["off_beat"]) > 0.5)))
        if rows:
            tracks.append((r["id"], rows))
    return tracks


def flat(tracks):
    X = np.array([x for _, rows in tracks for x, _, _ in rows], dtype=float)
    y = np.array([k for _, rows in tracks for _, k, _ in rows])
    built = np.array([c for _, rows in tracks for _, _, c in rows])
    weight = np.array([1 / len(rows) for _, rows in tracks for _ in rows])
    return X, y, built, weight


# How each input moves P(off the beat) (`BeatAnalyzer.phaseInputs`): +1 more of it, more likely
# off the beat; -1 less likely; 0 either way (the tempo). The fit keeps every hidden unit's weight
# on an input to its sign and the output's weights positive, so the network is monotone in each
# input: more of the kicks or any band on the beats can never make the off-beat likelier.
SIGNS = np.array([0, -1, +1, -1, -1, -1, -1, -1, -1, -1, -1])
# The prior (PhaseModel.kicksMark): kicks this far (log ratio, the second input) on the grid's
# beats over its half-beats mark the beat, P(off) = 0. No off-beat stretch of the fit's sets reads
# above 0.97; the network is fitted on the others, so that it spends itself where the kicks do not
# tell (a click track's hats with a low band of their own read as off-beat kicks, and the monotone
# network followed them over kicks 3.3 times stronger on the beats).
KICKS_MARK = 1.0


def fit(X, y, weight, hidden, lam, steps=2000, seed=0, signs=SIGNS):
    """A one-hidden-layer network (tanh, then the logistic): (mean, scale, W1, b1, w2, b2).
    Adam on the cross-entropy with each row weighted, an L2 penalty on the weights, a fixed
    seed so that a refit on the same readings gives the same weights."""
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = (X - mu) / sd
    rng = np.random.default_rng(seed)
    params = [rng.normal(0, 0.5, (Z.shape[1], hidden)), np.zeros(hidden), rng.normal(0, 0.5, hidden), np.zeros(1)]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    share = weight / weight.sum()
    for t in range(1, steps + 1):
        W1, b1, w2, b2 = params
        A = np.tanh(Z @ W1 + b1)
        p = 1 / (1 + np.exp(-(A @ w2 + b2[0])))
        g = (p - y) * share
        gA = np.outer(g, w2) * (1 - A ** 2)
        grads = [Z.T @ gA + lam * W1, gA.sum(0), A.T @ g + lam * w2, np.array([g.sum()])]
        for i, gi in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * gi
            v[i] = 0.999 * v[i] + 0.001 * gi * gi
            params[i] -= 0.01 * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
        if signs is not None:
            W1, w2 = params[0], params[2]
            W1[signs > 0] = np.maximum(W1[signs > 0], 0)
            W1[signs < 0] = np.minimum(W1[signs < 0], 0)
            np.maximum(w2, 0, out=w2)
    return (mu, sd, *params)


def off_beat(model, X):
    """P(off the beat) per row, with the prior."""
    mu, sd, W1, b1, w2, b2 = model
    p = 1 / (1 + np.exp(-(np.tanh(((X - mu) / sd) @ W1 + b1) @ w2 + b2[0])))
    return np.where(X[:, 1] >= KICKS_MARK, 0.0, p)


def open_rows(X):
    """The rows the prior leaves to the network."""
    return X[:, 1] < KICKS_MARK


def swift(model, sources, n, lam, cv):
    """The weights file, formatted as swift-format wants it (trailing commas, short lines)."""
    mu, sd, W1, b1, w2, b2 = model
    lines = swift_header("phase/fit_phase.py", f"{n} stretches", sources, lam, cv, "PhaseModel") + [
        "    /// Each input's mean and scale over the fit's stretches.",
        "    static let mean: [Double] = [",
    ] + swift_rows(mu, 8) + ["    ]", "    static let scale: [Double] = ["] + swift_rows(sd, 8) + [
        "    ]",
        "    /// The hidden units' weights, one row per unit, one weight per scaled input.",
        "    static let hiddenWeights: [[Double]] = [",
    ]
    for k in range(W1.shape[1]):
        lines += ["        ["] + swift_rows(W1[:, k], 12) + ["        ],"]
    lines += ["    ]", "    static let hiddenBias: [Double] = ["] + swift_rows(b1, 8) + ["    ]", "    /// The output's weight per hidden unit, and its bias.",
              "    static let outputWeights: [Double] = ["] + swift_rows(w2, 8) + ["    ]", f"    static let outputBias = {b2[0]:.6g}", "}", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", help="RESULTS:MANIFEST")
    ap.add_argument("--lam", type=float, default=0.0001)
    ap.add_argument("--hidden", type=int, default=8)
    ap.add_argument("--write", help="write the Swift weights file here")
    a = ap.parse_args()
    sets = grouped(a.sets, load)
    right = built_right = total = 0.0
    for hold in sets:
        train = [t for g, v in sets.items() if g != hold for t in v]
        Xtr, ytr, _, wtr = flat(train)
        keep = open_rows(Xtr)
        model = fit(Xtr[keep], ytr[keep], wtr[keep], a.hidden, a.lam)
        X, y, built, weight = flat(sets[hold])
        p = (off_beat(model, X) > 0.5).astype(int)
        ids = [tid for tid, rows in sets[hold] for _ in rows]
        wrong = sorted({ids[i] for i in range(len(y)) if p[i] != y[i]})
        bwrong = sorted({ids[i] for i in range(len(y)) if built[i] != y[i]})
        print(f"{hold:8s} tracks {len(sets[hold]):3d} off {int(y.sum()):3d}/{len(y)}  model {((p == y) * weight).sum() / weight.sum():.3f}"
              f"  build {((built == y) * weight).sum() / weight.sum():.3f}  model wrong {wrong[:6]}  build wrong {bwrong[:6]}")
        right += ((p == y) * weight).sum()
        built_right += ((built == y) * weight).sum()
        total += weight.sum()
    cv = right / max(total, 1e-9)
    print(f"leave-one-set-out (each track weighing the same): model {cv:.4f}, the build {built_right / max(total, 1e-9):.4f}")
    X, y, _, weight = flat([t for v in sets.values() for t in v])
    keep = open_rows(X)
    model = fit(X[keep], y[keep], weight[keep], a.hidden, a.lam)
    print(f"{len(y)} stretches ({int(y.sum())} off the beat); fitted on all: {((off_beat(model, X) > 0.5) == y).mean():.4f}")
    if a.write:
        with open(a.write, "w") as f:
            f.write(swift(model, sorted(sets), len(y), a.lam, cv))
        print("wrote", a.write)


if __name__ == "__main__":
    main()
