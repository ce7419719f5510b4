#!/usr/bin/env python3
"""Probes of note-level change on development material (issue 37 item 2; NOTES.md, "Harmonic
movement"). Development sets only (dev, dev-ext, dev-notempo): it prints per track.

  harmonic_probe.py movement WAV...     second-to-second pitch-class movement (HarmonicMovement):
                                        10th percentile, median, 90th percentile, max over 8 s
                                        windows every 0.5 s from 3 s on
  harmonic_probe.py periodicity WAV...  the new pitch-class share (93 ms chroma frames against
                                        the max of the previous two) estimated over 8 s windows
                                        every 1 s: median tempo, share of windows within 4 % of
                                        it, their median comb confidence, and their product
  harmonic_probe.py profile WAV...      mean onset flux and pitch-class flux by position in the
                                        beat (16 bins; needs the corpus's beats/ID.beats.txt)

Needs numpy and soundfile (the .venv of setup.sh).
"""
import os
import sys

import numpy as np
import soundfile as sf
from numpy.lib.stride_tricks import sliding_window_view


def mono(path):
    x, sr = sf.read(path, dtype="float32", always_2d=True)
    return x.mean(axis=1), sr


def frames(x, n, hop):
    count = (len(x) - n) // hop
    idx = np.arange(n)[None, :] + hop * np.arange(count)[:, None]
    w = np.hanning(n + 1)[:-1]
    return np.abs(np.fft.rfft(x[idx] * w, axis=1)) * 2 / w.sum()


def chroma(m, sr, n, lo=500.0, hi=5000.0):
    f = np.arange(m.shape[1]) * sr / n
    sel = (f >= lo) & (f <= hi)
    pc = (np.round(12 * np.log2(f[sel] / 440)) % 12).astype(int)
    p = m[:, sel] ** 2
    return np.stack([p[:, pc == q].sum(1) for q in range(12)], axis=1)


def estimate(x, fr):
    """TempoEstimator's comb confidence (80-160 BPM octave families), folded tempo."""
    x = np.asarray(x, np.float64)
    n = len(x)
    hw = int(round(fr))
    c = np.concatenate([[0], np.cumsum(x)])
    i = np.arange(n)
    lo, hi = np.maximum(0, i - hw), np.minimum(n, i + hw + 1)
    v = np.maximum(0, x - (c[hi] - c[lo]) / (hi - lo))
    v = v - v.mean()
    if v.std() < 1e-9:
        return None
    v /= v.std()
    lags = int(n * 2 / 3)
    acf = np.array([np.dot(v[: n - l], v[l:]) / (n - l) for l in range(lags + 1)])
    acf = np.convolve(np.concatenate([acf[2:0:-1], acf, [acf[-1]] * 2]), np.array([1, 4, 6, 4, 1]) / 16, "valid")
    acf /= acf[0]

    def comb(b):
        p = 60 * fr / b
        if p < 1 or p > lags - 2:
            return 0.0
        return float(np.interp(np.arange(p, lags - 2 + 1e-9, p)[:16], np.arange(len(acf)), acf).mean())

    def prior(b):
        o = np.log2(b / 120) / 1.5
        return np.exp(-0.5 * o * o)

    grid = np.arange(80, 160, 0.25)
    score = [comb(b / 2) * prior(b / 2) + comb(b) * prior(b) + comb(2 * b) * prior(2 * b) for b in grid]
    b = grid[int(np.argmax(score))]
    return b, max(comb(b), comb(b / 2), comb(2 * b))


def movement(path):
    x, sr = mono(path)
    n = 1024 if sr > 30000 else 512
    c = chroma(frames(x, n, n), sr, n)
    fr = sr / n
    block, win = int(round(fr)), int(round(8 * fr))
    out, t = [], 3.0
    while t * fr <= len(c):
        e = int(t * fr)
        blocks = [np.sqrt(c[e - (j + 1) * block : e - j * block].sum(0)) for j in range(min(e, win) // block)]
        d = [1 - a @ b / (np.linalg.norm(a) * np.linalg.norm(b)) for a, b in zip(blocks[1:], blocks[:-1])
             if np.linalg.norm(a) > 0 and np.linalg.norm(b) > 0]
        out.append(np.mean(d) if d else 0.0)
        t += 0.5
    out = np.array(out)
    return "p10 %.3f median %.3f p90 %.3f max %.3f" % (np.percentile(out, 10), np.median(out), np.percentile(out, 90), out.max())


def periodicity(path):
    x, sr = mono(path)
    c = chroma(frames(x, 4096, 4096) ** 1, sr, 4096, lo=60.0)
    fr = sr / 4096
    share = c / (c.sum(1, keepdims=True) + 1e-12)
    held = np.vstack([np.zeros((2, 12)), sliding_window_view(share[:-1], 2, axis=0).max(axis=2)])[: len(share)]
    new = np.maximum(0, share - 1.5 * held).sum(1)
    new[:2] = 0
    w = int(round(8 * fr))
    est = [estimate(new[e - w : e], fr) for e in range(w, len(new) + 1, int(round(fr)))]
    est = [e for e in est if e and e[1] > 0]
    if not est:
        return "none"
    b = np.array([e[0] for e in est])
    conf = np.array([e[1] for e in est])
    med = np.median(b)
    agree = np.abs(b / med - 1) < 0.04
    return "tempo %.1f agree %.2f confidence %.2f score %.3f" % (
        med, agree.mean(), np.median(conf[agree]) if agree.any() else 0, (conf * agree).mean())


def profile(path):
    x, sr = mono(path)
    n = 1024 if sr > 30000 else 512
    m = frames(x, n, n // 2)
    fr = 2 * sr / n
    a = np.sqrt(chroma(m, sr, n))
    lag = max(1, int(round(0.05 * fr)))
    h = np.zeros(len(m))
    h[lag:] = np.log1p(10 * np.maximum(0, a[lag:] - a[:-lag]).sum(1))
    fl = np.zeros(len(m))
    fl[1:] = np.log1p(10 * np.maximum(0, m[1:] - m[:-1]).sum(1))
    d, tid = os.path.dirname(os.path.dirname(path)), os.path.basename(path)[:-4]
    bt = np.array([float(l.split()[0]) for l in open(os.path.join(d, "beats", tid + ".beats.txt")) if l.strip()])
    t = (np.arange(len(m)) * n / 2 + n / 2) / sr
    k = np.searchsorted(bt, t) - 1
    ok = (k >= 0) & (k < len(bt) - 1)
    bins = ((t[ok] - bt[k[ok]]) / (bt[k[ok] + 1] - bt[k[ok]]) * 16).astype(int)
    out = []
    for name, v in (("flux", fl), ("pitch-class flux", h)):
        p = np.array([v[ok][bins == j].mean() for j in range(16)])
        out.append(name + " " + " ".join("%.2f" % q for q in p / p.mean()))
    return " | ".join(out)


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("movement", "periodicity", "profile"):
        sys.exit(__doc__)
    probe = globals()[sys.argv[1]]
    for p in sys.argv[2:]:
        print("%-40s %s" % (os.path.relpath(p, "/work/corpora") if p.startswith("/work/corpora") else p, probe(p)))
