#!/usr/bin/env python3
"""Is `specviz tempo --beats --causal` causal? The causal F is scored at flash time, which is
only fair if a beat, once flashed, never depended on audio after it. This cuts tracks short and
checks that the beats flashed before the cut are the same as on the whole track.

  python3 causal_check.py BIN [--set dev] [--every 8] [--cuts 15,25] [--margin 0.25]

For every `every`-th tempo track of the set (deterministic), writes the first CUT seconds of its
WAV to a temporary file (the same samples), runs `BIN tempo WAV --beats --causal` on both, and
compares the beats with time < CUT - margin (margin: the display announces a beat ~0.1 s ahead).
Exit 1 and a list when any differ. Standard library only.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import wave


def causal_beats(binary, wav):
    p = subprocess.run([binary, "tempo", wav, "--beats", "--causal"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"{wav}: exit {p.returncode}: {p.stderr.strip()[-200:]}")
    rows = [r for r in csv.reader(p.stdout.splitlines()) if r and r[0].strip()]
    return [float(r[0]) for r in rows[1:]]


def cut_wav(src, dst, seconds):
    with wave.open(src, "rb") as a:
        n = min(a.getnframes(), int(seconds * a.getframerate()))
        with wave.open(dst, "wb") as b:
            b.setparams(a.getparams())
            b.writeframes(a.readframes(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--set", default="dev", help="corpus name under $CORPORA (default /work/corpora) or a path")
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--cuts", default="15,25")
    ap.add_argument("--margin", type=float, default=0.25)
    a = ap.parse_args()
    corpora = os.environ.get("CORPORA", "/work/corpora")
    d = a.set if os.path.isabs(a.set) else os.path.join(corpora, a.set)
    with open(os.path.join(d, "manifest.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("no_tempo") not in ("1", "true", "True")]
    rows = rows[::a.every]
    cuts = [float(x) for x in a.cuts.split(",")]
    compared, bad = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            wav = os.path.join(d, r["file"])
            full = causal_beats(a.binary, wav)
            for c in cuts:
                if c >= float(r["duration_s"]) - 1:
                    continue
                short = os.path.join(tmp, "cut.wav")
                cut_wav(wav, short, c)
                part = causal_beats(a.binary, short)
                x = [t for t in full if t < c - a.margin]
                y = [t for t in part if t < c - a.margin]
                compared += len(x)
                if len(x) != len(y) or any(abs(p - q) > 1e-3 for p, q in zip(x, y)):
                    first = next((i for i, (p, q) in enumerate(zip(x, y)) if abs(p - q) > 1e-3), min(len(x), len(y)))
                    bad.append(f"{r['id']} cut at {c:g} s: {len(x)} beats on the whole track, {len(y)} on the cut; "
                               f"first difference at beat {first}")
    print(f"causal check: {len(rows)} tracks, cuts {a.cuts} s, {compared} flashed beats compared, "
          f"{len(bad)} cut(s) where the flashed beats depend on later audio")
    for x in bad:
        print("  " + x)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
