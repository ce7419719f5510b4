#!/usr/bin/env python3
"""Where the causal beats lose: each annotated beat of a tempo track, sorted by what the live
view flashed near it.

  python3 causal_loss.py RESULTS_CAUSAL MANIFEST [--by style|track]

RESULTS_CAUSAL holds `<id>.beats.csv` from `specviz tempo --beats --causal` (run_specviz.sh's
`NAME-causal`). Every annotated beat is one of:
- hit       a flash within ±70 ms (score.py's matching);
- before    before the first flash of the track (the display had not started);
- off-beat  the flashes near it keep its period (±12 %) and fall 35–65 % of a beat away;
- late/early the flashes keep its period and fall 70 ms–35 % of a beat away;
- half      the flashes near it are about twice its period apart (a halved level);
- gap       no flash within a beat of it, after the first one (the display went blank);
- other     anything else (a third, a tempo not yet followed after a change).
Flashes matching no annotated beat are counted as extra. With `--by style` (development sets only:
the script refuses a set whose folder name starts with "val") one line per style; `--by track`
one line per track. Standard library only.
"""
import argparse
import bisect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402

CLASSES = ["hit", "before", "off-beat", "late/early", "half", "gap", "other"]


def classify(ref, est):
    """Counts of CLASSES over the annotated beats `ref` and the flashes `est`, and the extras."""
    counts = dict.fromkeys(CLASSES, 0)
    if not ref:
        return counts, len(est)
    matched = set()
    j = 0
    for i, r in enumerate(ref):
        while j < len(est) and r > est[j] + score.BEAT_WINDOW:
            j += 1
        if j < len(est) and r >= est[j] - score.BEAT_WINDOW:
            matched.add(i)
            j += 1
    extra = len(est) - len(matched)
    for i, r in enumerate(ref):
        if i in matched:
            counts["hit"] += 1
            continue
        if not est or r < est[0] - score.BEAT_WINDOW:
            counts["before"] += 1
            continue
        period = (ref[min(i + 1, len(ref) - 1)] - ref[max(i - 1, 0)]) / (2 if 0 < i < len(ref) - 1 else 1)
        k = bisect.bisect_left(est, r)
        near = [e for e in est[max(0, k - 2):k + 2]]
        nearest = min(near, key=lambda e: abs(e - r))
        if abs(nearest - r) > period:
            counts["gap"] += 1
            continue
        spacing = [b - a for a, b in zip(near, near[1:])]
        if not spacing:
            counts["other"] += 1
            continue
        s = sorted(spacing)[len(spacing) // 2] / period
        d = abs(nearest - r) / period
        if abs(s - 1) < 0.12:
            counts["off-beat" if 0.35 <= d <= 0.65 else "late/early" if d < 0.35 else "other"] += 1
        elif abs(s - 2) < 0.24:
            counts["half"] += 1
        else:
            counts["other"] += 1
    return counts, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("manifest")
    ap.add_argument("--by", choices=["style", "track"])
    a = ap.parse_args()
    set_name = os.path.basename(os.path.dirname(os.path.abspath(a.manifest)))
    if a.by and set_name.startswith("val"):
        sys.exit(f"{set_name} is a validation set: one line only (see NOTES.md)")
    rows = [r for r in score.load_manifest(a.manifest) if r.get("beats_file")]
    groups = {}
    for row in rows:
        if row["no_tempo"]:
            continue
        ref, _ = score.load_ref_beats(row)
        got = score.load_est_beats(a.results, row["id"])
        est = got[0] if got else []
        counts, extra = classify(ref, est)
        key = "all" if not a.by else row["style"] if a.by == "style" else row["id"]
        g = groups.setdefault(key, [dict.fromkeys(CLASSES, 0), 0])
        for c in CLASSES:
            g[0][c] += counts[c]
        g[1] += extra
    print(f"{'':24s}" + "".join(f"{c:>11s}" for c in CLASSES) + f"{'extra':>9s}  (% of annotated beats)")
    for key in sorted(groups):
        counts, extra = groups[key]
        n = max(1, sum(counts.values()))
        print(f"{key[:24]:24s}" + "".join(f"{100 * counts[c] / n:11.1f}" for c in CLASSES) + f"{100 * extra / n:9.1f}")


if __name__ == "__main__":
    main()
