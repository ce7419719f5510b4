#!/usr/bin/env python3
"""Scores specviz's beats on the real-recording set against madmom's DBN beats (issue 37's
check: "beats on every track that has a pulse; a mean F of at least 0.90 against madmom's
DBN beats at any metrical level").

    python3 score_real.py REF_DIR RUN_DIR [--tracks] [--strict] [--pulse ACTIVATIONS]

REF_DIR holds `NAME.beats.txt` (madmom_beats.py); RUN_DIR holds `NAME.beats.csv` from
`specviz tempo NAME.wav --beats` (time_s,position). F is the F-measure with a ±70 ms window,
beats in the first 5 s ignored (as mir_eval does), taken at the best of the reference's
metrical variants: as is, on the off-beat, doubled, halved (either phase), tripled and
thirded (any phase); with --strict, not on the off-beat alone (a grid half a beat from madmom's
then scores as one). A track with no specviz beats scores 0. Prints one summary line; with
--tracks also one line per track (only for a set you may study track by track). With --pulse
(`beat_activation.py`'s output, as `pulse_summary.py` reads it) the line also gives the mean F over
the tracks madmom's own RNN hears a beat in (its activation's 95th percentile above 0.075): madmom's
DBN puts beats on every track, so the plain mean counts as 0 a track with no pulse left silent.
"""
import os
import sys

WINDOW, SKIP = 0.07, 5.0


def f_measure(ref, est):
    ref = [r for r in ref if r >= SKIP]
    est = [e for e in est if e >= SKIP]
    if not ref or not est:
        return 0.0
    used, hits = set(), 0
    for r in ref:
        best = None
        for j, e in enumerate(est):
            if j not in used and abs(e - r) <= WINDOW and (best is None or abs(e - r) < abs(est[best] - r)):
                best = j
        if best is not None:
            used.add(best)
            hits += 1
    p, r = hits / len(est), hits / len(ref)
    return 0.0 if hits == 0 else 2 * p * r / (p + r)


def variants(ref, strict=False):
    mids = [(a + b) / 2 for a, b in zip(ref, ref[1:])]
    thirds = [a + (b - a) * k / 3 for a, b in zip(ref, ref[1:]) for k in (1, 2)]
    out = [ref] + ([] if strict else [mids]) + [sorted(ref + mids), sorted(ref + thirds)]
    out += [ref[k::2] for k in range(2)] + [ref[k::3] for k in range(3)]
    return out


def read_times(path, csv):
    if not os.path.exists(path):
        return []
    rows = [ln.strip() for ln in open(path) if ln.strip()]
    if csv and rows and not rows[0][0].isdigit():
        rows = rows[1:]
    return [float(r.split(",")[0]) for r in rows]


def pulse_tracks(activations):
    out = set()
    for line in open(activations):
        path, _, p95, _ = line.split()
        if float(p95) > 0.075:
            out.add(os.path.basename(path)[:-4])
    return out


def main(ref_dir, run_dir, per_track, activations=None, strict=False):
    names = sorted(n[: -len(".beats.txt")] for n in os.listdir(ref_dir) if n.endswith(".beats.txt"))
    scores, silent = [], []
    for n in names:
        ref = read_times(os.path.join(ref_dir, n + ".beats.txt"), csv=False)
        est = read_times(os.path.join(run_dir, n + ".beats.csv"), csv=True)
        f = max(f_measure(v, est) for v in variants(ref, strict)) if est else 0.0
        scores.append(f)
        if not est:
            silent.append(n)
        if per_track:
            print(f"{n} F {f:.3f} ref {len(ref)} est {len(est)}")
    mean = sum(scores) / len(scores)
    good = sum(1 for s in scores if s >= 0.9)
    level = "any level, the reference's phase" if strict else "any level"
    line = (f"{os.path.basename(run_dir.rstrip('/'))}: mean F ({level}) {mean:.3f} | F>=0.9 on {good}/{len(scores)}"
            f" | no beats on {len(silent)}/{len(scores)}")
    if activations:
        pulse = pulse_tracks(activations)
        with_pulse = [f for n, f in zip(names, scores) if n in pulse]
        if with_pulse:
            line += f" | with a pulse ({len(with_pulse)}): mean F {sum(with_pulse) / len(with_pulse):.3f}"
    print(line)


if __name__ == "__main__":
    argv = sys.argv[1:]
    act = None
    if "--pulse" in argv:
        k = argv.index("--pulse")
        act = argv[k + 1]
        del argv[k:k + 2]
    args = [a for a in argv if a not in ("--tracks", "--strict")]
    main(args[0], args[1], "--tracks" in argv, act, "--strict" in argv)
