#!/usr/bin/env python3
"""Synthesises examples/demo.ogg: 32 s of original music at 120 BPM (drums, bass, chords,
melody), so specviz has a bundled track with real rhythm, pitch and a full spectrum.
Deterministic (seeded). Needs numpy and ffmpeg. Usage: python3 make_demo.py [out.ogg]"""
import subprocess, sys
import numpy as np

SR = 44100
BPM = 120.0
BEAT = 60.0 / BPM
BARS = 16
LEN = int(SR * BARS * 4 * BEAT)
rng = np.random.default_rng(7)
left = np.zeros(LEN); right = np.zeros(LEN)

def midi(m): return 440.0 * 2 ** ((m - 69) / 12)

def add(sig, start, pan=0.0, gain=1.0):
    i = int(start * SR)
    n = min(len(sig), LEN - i)
    if n <= 0: return
    left[i:i+n] += sig[:n] * gain * (1 - pan) / 2 * 2 ** 0.5
    right[i:i+n] += sig[:n] * gain * (1 + pan) / 2 * 2 ** 0.5

def env(n, a=0.005, d=0.3):
    t = np.arange(n) / SR
    return np.minimum(t / a, 1) * np.exp(-t / d)

def kick():
    n = int(0.35 * SR); t = np.arange(n) / SR
    f = 45 + 110 * np.exp(-t / 0.03)
    return np.sin(2 * np.pi * np.cumsum(f) / SR) * np.exp(-t / 0.12)

def snare():
    n = int(0.25 * SR); t = np.arange(n) / SR
    return (0.6 * rng.standard_normal(n) * np.exp(-t / 0.06) + 0.5 * np.sin(2 * np.pi * 190 * t) * np.exp(-t / 0.05))

def hat():
    n = int(0.06 * SR); t = np.arange(n) / SR
    x = rng.standard_normal(n)
    x = np.diff(np.concatenate([[0], x]))  # brighten
    return x * np.exp(-t / 0.015)

def saw(freq, dur, bright=8):
    n = int(dur * SR); t = np.arange(n) / SR
    y = np.zeros(n)
    for k in range(1, bright + 1):
        if k * freq > SR / 2.2: break
        y += np.sin(2 * np.pi * k * freq * t) / k
    return y

chords = [[57, 60, 64], [53, 57, 60], [48, 52, 55], [55, 59, 62]]  # Am F C G
melody = [76, 74, 72, 74, 76, 76, 76, None, 74, 74, 74, None, 76, 79, 79, None]
for bar in range(BARS):
    t0 = bar * 4 * BEAT
    ch = chords[bar % 4]
    intro = bar < 2
    for b in range(4):
        if not intro:
            add(kick(), t0 + b * BEAT, gain=0.9)
            if b in (1, 3): add(snare(), t0 + b * BEAT, pan=0.1, gain=0.45)
        for h in range(2):
            add(hat(), t0 + (b + h * 0.5) * BEAT, pan=0.4, gain=0.12 if not intro else 0.06)
        # bass: root, eighth notes
        for h in range(2):
            n = saw(midi(ch[0] - 24), BEAT * 0.45, bright=6) * env(int(BEAT * 0.45 * SR), 0.003, 0.2)
            add(n, t0 + (b + h * 0.5) * BEAT, gain=0.35)
    pad = sum(saw(midi(m), 4 * BEAT, bright=5) for m in ch) * env(int(4 * BEAT * SR), 0.3, 3.0)
    add(pad, t0, pan=-0.3, gain=0.08)
    if bar >= 4:
        for s in range(4):
            m = melody[(bar * 4 + s) % len(melody)]
            if m is None: continue
            note = saw(midi(m), BEAT * 0.9, bright=4) * env(int(BEAT * 0.9 * SR), 0.01, 0.5)
            add(note, t0 + s * BEAT, pan=0.2, gain=0.18)

mix = np.stack([left, right], axis=1)
mix /= np.max(np.abs(mix)) / 0.89
out = sys.argv[1] if len(sys.argv) > 1 else "demo.ogg"
pcm = (mix * 32767).astype("<i2").tobytes()
subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "s16le", "-ar", str(SR), "-ac", "2",
                "-i", "-", "-c:a", "libvorbis", "-q:a", "5", out], input=pcm, check=True)
print(out)
