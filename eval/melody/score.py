#!/usr/bin/env python3
"""Scores `specviz tune --csv` (display) and `--csv --raw` (raw estimate) against the
melodies' f0 truth: the share of voiced 10 ms reference frames whose nearest row (by
`time_s`, no shift) has an f0 within 50 cents. Also prints, per set, the shift (in rows,
negative = the rows are late) that would score best, as a check that the rows are stamped
at the time they describe.

Usage: python3 score.py SET_DIR --bin PATH/TO/specviz [--tracks]
"""
import argparse
import csv
import glob
import os
import subprocess

import numpy as np


def read_truth(path):
    t, f = [], []
    with open(path) as fh:
        for r in csv.DictReader(fh):
            t.append(float(r["time_s"]))
            f.append(float(r["f0_hz"]))
    return np.array(t), np.array(f)


def run(binary, wav, raw):
    cmd = [binary, "tune", wav, "--csv"] + (["--raw"] if raw else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rows = [line.split(",") for line in out.strip().split("\n")[1:]]
    t = np.array([float(r[0]) for r in rows])
    f = np.array([float(r[1]) if r[1] else 0.0 for r in rows])
    return t, f


def agreement(truth_t, truth_f, est_t, est_f, shift=0):
    """Share of voiced truth frames whose nearest estimate row (moved by `shift` rows) is within 50 cents."""
    voiced = truth_f > 0
    idx = np.clip(np.searchsorted(est_t, truth_t), 1, len(est_t) - 1)
    left = est_t[idx - 1]
    idx = np.where(np.abs(truth_t - left) <= np.abs(est_t[idx] - truth_t), idx - 1, idx)
    idx = np.clip(idx + shift, 0, len(est_t) - 1)
    f = est_f[idx]
    ok = voiced & (f > 0)
    cents = np.zeros_like(truth_f)
    cents[ok] = 1200 * np.abs(np.log2(f[ok] / truth_f[ok]))
    return int(np.sum(ok & (cents < 50))), int(np.sum(voiced))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--tracks", action="store_true", help="also print every track's scores")
    args = ap.parse_args()
    shifts = range(-4, 5)
    for raw in (True, False):
        label = "raw" if raw else "display"
        hits = {s: 0 for s in shifts}
        total = 0
        for truth_path in sorted(glob.glob(os.path.join(args.set, "*.f0.csv"))):
            wav = truth_path[: -len(".f0.csv")] + ".wav"
            tt, tf = read_truth(truth_path)
            et, ef = run(args.bin, wav, raw)
            n = 0
            for s in shifts:
                h, n = agreement(tt, tf, et, ef, s)
                hits[s] += h
            total += n
            if args.tracks:
                print(f"  {label:8s} {os.path.basename(wav):28s} {100 * agreement(tt, tf, et, ef)[0] / max(n, 1):5.1f} %")
        best = max(shifts, key=lambda s: hits[s])
        print(f"{label:8s} within 50 c: {100 * hits[0] / max(total, 1):5.1f} % of {total} voiced frames"
              f"  (best shift {best:+d} rows: {100 * hits[best] / max(total, 1):5.1f} %)")


if __name__ == "__main__":
    main()
