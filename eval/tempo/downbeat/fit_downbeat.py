#!/usr/bin/env python3
"""Fit the weights of specviz's 4/4 downbeat decision (`BeatAnalyzer.downbeatWeights`).

    python3 fit_downbeat.py [--lam L] RESULTS:MANIFEST [RESULTS:MANIFEST ...]

Each RESULTS folder holds `specviz tempo --json` outputs (<id>.json) of a generated set's tracks.
Where a bar of four was read, the JSON's "downbeat" holds the beats and, per phase of four (beat k
in phase k mod 4), the mean of each cue over that phase's beats. The track's label is the phase
whose beats carry the annotated downbeats (beats/<id>.beats.txt, position 1): at least 4 of them
matched within 70 ms and at least 3/4 of the matched downbeats in that phase; other tracks are
left out. The model is the decision's own: P(phase p) = softmax over p of w · cues[p] (with the
low accent of the phases one, two and three beats later, `with_bar`), fitted by
gradient descent on the cross-entropy (every track weighing the same) with an L2 penalty on w.

Reports leave-one-set-out accuracy (a set predicted by weights fitted without it) next to the
build's own choices, then fits on everything and prints the weights in the order of
`downbeatWeights`. Only development and training sets go in, never a validation copy (NOTES.md).
"""
import argparse, os, sys
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fitdata import annotated_tracks, grouped  # noqa: E402

TOL = 0.07


def ref_positions(manifest, tid):
    path = os.path.join(os.path.dirname(manifest), "beats", tid + ".beats.txt")
    rows = [l.replace(",", " ").split() for l in open(path) if l.strip()]
    return np.array([float(r[0]) for r in rows]), np.array([int(float(r[1])) if len(r) > 1 else 0 for r in rows])


def load(results, manifest):
    """[(track id, cues 4 x n, label, the build's phase)]."""
    out = []
    for r, doc, _ in annotated_tracks(results, manifest):
        d = doc.get("downbeat")
        if not d:
            continue
        times, pos = ref_positions(manifest, r["id"])
        if len(times) < 8 or pos.max() != 4:
            continue
        beats = np.array(d["beats"])
        counts = np.zeros(4)
        for k, t in enumerate(beats):
            j = np.argmin(np.abs(times - t))
            if abs(times[j] - t) <= TOL and pos[j] == 1:
                counts[k % 4] += 1
        if counts.sum() < 4 or counts.max() < 0.75 * counts.sum():
            continue
        out.append((r["id"], with_bar(np.array(d["cues"], dtype=float)), int(counts.argmax()), int(d["phase"])))
    return out


# The low-band accent (cue 0) of the beat one, two and three beats after each phase's beats joins
# the cues (`BeatAnalyzer.downbeatScores`): where in the bar the kicks fall, not only whether
# one falls on the downbeat (a one-drop has none on 1 and its kick on 3).
SHIFTS = (1, 2, 3)


def with_bar(cues):
    """The 4 x 8 phase means with the low accent of the phases 1, 2 and 3 beats later: 4 x 11."""
    return np.concatenate([cues] + [np.roll(cues[:, :1], -s, axis=0) for s in SHIFTS], axis=1)


def fit(tracks, lam, steps=3000):
    C = np.stack([c for _, c, _, _ in tracks])  # tracks x 4 x cues
    y = np.array([k for _, _, k, _ in tracks])
    w = np.zeros(C.shape[2])
    m = np.zeros_like(w); v = np.zeros_like(w)
    n = len(tracks)
    for t in range(1, steps + 1):
        s = C @ w
        s -= s.max(1, keepdims=True)
        p = np.exp(s); p /= p.sum(1, keepdims=True)
        onehot = np.eye(4)[y]
        g = np.einsum("tp,tpc->c", p - onehot, C) / n + lam * w
        m = 0.9 * m + 0.1 * g; v = 0.999 * v + 0.001 * g * g
        w -= 0.05 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return w


def right(w, tracks):
    return sum(int(np.argmax(c @ w) == k) for _, c, k, _ in tracks)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", help="RESULTS:MANIFEST")
    ap.add_argument("--lam", type=float, default=0.001)
    a = ap.parse_args()
    sets = grouped(a.sets, load)
    tot = cv = built = 0
    for hold, tracks in sets.items():
        train = [t for g, v in sets.items() if g != hold for t in v]
        w = fit(train, a.lam)
        r, b = right(w, tracks), sum(int(p == k) for _, _, k, p in tracks)
        wrong = [tid for tid, c, k, _ in tracks if np.argmax(c @ w) != k]
        print(f"{hold:8s} tracks {len(tracks):3d}  refit {r:3d}  build {b:3d}  refit wrong {wrong[:8]}")
        tot += len(tracks); cv += r; built += b
    print(f"leave-one-set-out: refit {cv}/{tot} = {cv / tot:.4f}, the build {built}/{tot} = {built / tot:.4f}")
    w = fit([t for v in sets.values() for t in v], a.lam)
    print("weights:", "[" + ", ".join(f"{x:.2f}" for x in w) + "]")


if __name__ == "__main__":
    main()
