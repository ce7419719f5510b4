#!/usr/bin/env python3
"""Deterministic generator for the synthetic-but-musical tempo corpus.

Writes multi-instrument tracks (drums + bass + chords/pad + sometimes melody)
rendered with FluidSynth from General MIDI soundfonts, and with real drum
samples from Debian's Hydrogen drum kits, plus exact ground truth:

  corpus/manifest.csv          one row per track (see README.md for columns)
  corpus/audio/<id>.wav        44.1 kHz, 16-bit, stereo
  corpus/beats/<id>.beats.txt  ground-truth beat times: "time_s<TAB>beat_in_bar"
  corpus/midi/<id>.*.mid       the MIDI that was rendered (debugging only)
  corpus/render_check.csv      click-track verification of the rendered tempo

Usage (from this directory):
  .venv/bin/python make_corpus.py            # whole corpus, 1 worker
  .venv/bin/python make_corpus.py -j 2       # two render workers
  .venv/bin/python make_corpus.py --only house_01,dnb_02
  .venv/bin/python make_corpus.py --list     # print the plan only
  .venv/bin/python make_corpus.py --set ext  # the extended material of issue 37 only (styles_ext.py)

All randomness comes from numpy Generators seeded from --seed (default 7331)
and the track index, so the corpus is reproducible.
"""
import argparse
import bisect
import csv
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import mido
import numpy as np
import soundfile as sf
from scipy import signal

HERE = os.path.dirname(os.path.abspath(__file__))
SR = 44100
PPQ = 480
DEFAULT_SEED = 7331

# ---------------------------------------------------------------- sound sources
# Standard Debian install locations; override with colon-separated env vars.
SF_DIRS = os.environ.get("TEMPO_SF_DIRS", "/usr/share/sounds/sf2:/usr/share/sounds/sf3").split(":")
H2_DIR = os.environ.get("TEMPO_H2_DIR", "/usr/share/hydrogen/data/drumkits")


def find_sf(name):
    for d in SF_DIRS:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return None


GM_FONTS = {  # key -> file name (Debian packages: fluid-soundfont-gm, timgm6mb-soundfont, musescore-general-soundfont-small)
    "fluid": "FluidR3_GM.sf2",
    "timgm": "TimGM6mb.sf2",
    "mscore": "MuseScore_General_Lite.sf3",
}
AVL_FONTS = {  # Debian package avldrums.lv2-soundfont: acoustic multi-sampled kits, preset 0:0
    "avl_bp": "Black_Pearl_4_LV2.sf2",
    "avl_rz": "Red_Zeppelin_4_LV2.sf2",
}

# drum kit key -> (kind, font/kit, channel, program)
DRUM_KITS = {
    "fluid_std": ("sf", "fluid", 9, 0), "fluid_room": ("sf", "fluid", 9, 8),
    "fluid_power": ("sf", "fluid", 9, 16), "fluid_elec": ("sf", "fluid", 9, 24),
    "fluid_808": ("sf", "fluid", 9, 25), "fluid_jazz": ("sf", "fluid", 9, 32),
    "fluid_brush": ("sf", "fluid", 9, 40),
    "tim_std": ("sf", "timgm", 9, 0), "tim_808": ("sf", "timgm", 9, 25),
    "mscore_std": ("sf", "mscore", 9, 0), "mscore_room": ("sf", "mscore", 9, 8),
    "mscore_elec": ("sf", "mscore", 9, 24), "mscore_808": ("sf", "mscore", 9, 25),
    "mscore_jazz": ("sf", "mscore", 9, 32), "mscore_brush": ("sf", "mscore", 9, 40),
    "avl_bp": ("sf", "avl_bp", 0, 0), "avl_rz": ("sf", "avl_rz", 0, 0),
    "h2_808": ("h2", "TR808EmulationKit", None, None),
    "h2_hardelectro": ("h2", "HardElectro1", None, None),
    "h2_electricempire": ("h2", "ElectricEmpireKit", None, None),
    "h2_gmrock": ("h2", "GMRockKit", None, None),
}

GM_NOTE = {"kick": 36, "rim": 37, "snare": 38, "clap": 39, "chh": 42, "phh": 44, "ohh": 46,
           "crash": 49, "ride": 51, "bell": 53, "tamb": 54, "cowbell": 56, "shaker": 70,
           "toml": 45, "tomm": 47, "tomh": 50, "congah": 62, "congal": 64, "claves": 75}

_LAYERS = ["Softest", "Soft", "Med", "Hard", "Hardest"]
H2_MAP = {
    "TR808EmulationKit": {
        "kick": "808_Kick_Long.flac", "snare": "808_Snare_1.flac", "clap": "808_Clap.flac",
        "rim": "808_Snare_2.flac", "chh": "808_Hat_Closed.flac", "phh": "808_Hat_Pedal.flac",
        "ohh": "808_Hat_Open.flac", "crash": "808_Cymbal.flac", "ride": "808_Hat_Closed.flac",
        "shaker": "808_Shaker.flac", "tamb": "808_Shaker.flac", "cowbell": "808_Cowbell.flac",
        "congah": "808_Conga.flac", "congal": "808_Conga.flac", "claves": "808_Clave.flac",
        "tomh": "808_Tom_Hi.flac", "tomm": "808_Tom_Mid.flac", "toml": "808_Tom_Low.flac"},
    "HardElectro1": {
        "kick": "HardHse_K_02.flac", "snare": "PowR_SN_1.flac", "clap": "Clap_1.flac",
        "rim": "Amp_Clap_1.flac", "chh": "Hard_CHH_01.flac", "phh": "CHH_1.flac",
        "ohh": "Hard_Hse_OHH_1.flac", "ride": "PowR_HH_1.flac", "crash": "Hard_Hse_OHH_1.flac",
        "shaker": "FX_Chh_01.flac", "tamb": "PowR_HH_2.flac"},
    "ElectricEmpireKit": {
        "kick": "EE_Kick_Hard_1.flac", "snare": "EE_Snare_1.flac", "clap": "EE_Clap.flac",
        "rim": "EE_Click.flac", "chh": "EE_Hat_Cl_Bs.flac", "phh": "EE_Hat_Low.flac",
        "ohh": "EE_Hat_Op_Dirty.flac", "ride": "EE_Hat_Ring_1.flac", "crash": "EE_Hat_Op_Phaser.flac",
        "shaker": "EE_Hat_Cl_Dirty.flac", "tamb": "EE_Hat_Cl_Dirty.flac",
        "congah": "EE_Conga_1.flac", "congal": "EE_Conga_2.flac",
        "tomh": "EE_Drum_1.flac", "tomm": "EE_Drum_1.flac", "toml": "EE_Drum_2.flac"},
    "GMRockKit": {  # velocity layers
        "kick": "Kick-{L}.wav", "snare": "Snare-{L}.wav", "rim": "SideStick-{L}.wav",
        "clap": "HandClap.wav", "chh": "HatClosed-{L}.wav", "phh": "HatPedal-{L}.wav",
        "ohh": "HatOpen-{L}.wav", "crash": "Crash-{L}.wav", "ride": "Ride-{L}.wav",
        "bell": "Bell-{L}.wav", "cowbell": "Cowbell-{L}.wav", "tomh": "Tom1-{L}.wav",
        "tomm": "Tom2-{L}.wav", "toml": "TomFloor-{L}.wav", "tamb": "HatPedal-{L}.wav",
        "shaker": "HatPedal-{L}.wav"},
}

# ------------------------------------------------------------------ tempo map


class TempoMap:
    """Piecewise-constant tempo in MIDI terms (one 'beat' == one MIDI quarter == PPQ ticks).

    Seconds are computed from the integer microseconds-per-quarter actually written
    into the MIDI file, so ground truth and FluidSynth agree exactly."""

    def __init__(self, changes):
        changes = sorted(changes)
        self.ticks = [int(round(b * PPQ)) for b, _ in changes]
        self.uspq = [int(round(60e6 / bpm)) for _, bpm in changes]
        assert self.ticks[0] == 0
        self.sec = [0.0]
        for i in range(1, len(self.ticks)):
            self.sec.append(self.sec[-1] + (self.ticks[i] - self.ticks[i - 1]) * self.uspq[i - 1] / 1e6 / PPQ)

    def tick_to_sec(self, tick):
        i = bisect.bisect_right(self.ticks, tick) - 1
        return self.sec[i] + (tick - self.ticks[i]) * self.uspq[i] / 1e6 / PPQ

    def beat_to_sec(self, beat):
        return self.tick_to_sec(beat * PPQ)

    def bpm_at_beat(self, beat):
        i = bisect.bisect_right(self.ticks, beat * PPQ) - 1
        return 60e6 / self.uspq[i]

    def sec_to_beat(self, s):
        i = bisect.bisect_right(self.sec, s) - 1
        return (self.ticks[i] + (s - self.sec[i]) * 1e6 * PPQ / self.uspq[i]) / PPQ

# ------------------------------------------------------------------ song model


@dataclass
class Song:
    id: str
    style: str
    meter: str                 # "4/4", "3/4", "12/8"
    bpm: float                 # annotated beat-level tempo (after a change, nominal under drift)
    rng: np.random.Generator
    beats_per_bar: int = 4
    steps_per_beat: int = 4    # 16ths (4/4, 3/4) or triplet 8ths (12/8)
    tempo_changes: list = field(default_factory=list)   # (beat, bpm)
    notes: list = field(default_factory=list)           # (part, beat, dur_beats, pitch, vel)
    drums: list = field(default_factory=list)           # (beat, voice, vel)
    parts: dict = field(default_factory=dict)           # part -> dict(program, cc7, pan)
    beat_start_beat: float = 0.0
    n_bars: int = 0
    duration: float = 35.0
    drum_kit: str = ""
    gm_font: str = "fluid"
    drum_db: float = 0.0       # drum stem level relative to music stem
    swing16: float = 0.5
    swing8: float = 0.5
    human_ms: float = 0.0      # timing jitter (std, ms)
    fx: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    no_tempo: bool = False
    tmap: TempoMap = None
    ctrl: list = field(default_factory=list)            # (part, beat, kind, value): kind bend, cc1, cc64

    @property
    def steps_per_bar(self):
        return self.beats_per_bar * self.steps_per_beat

    def pos(self, bar, step, swing=True):
        """Beat position of a grid step, with swing applied."""
        spb = self.steps_per_beat
        b = bar * self.beats_per_bar + step / spb
        if swing and spb == 4:
            if self.swing16 != 0.5 and step % 2 == 1:
                b += (self.swing16 - 0.5) * 0.5
            if self.swing8 != 0.5 and step % 4 == 2:
                b += (self.swing8 - 0.5) * 1.0
        return b

    def jitter(self, beat, ms=None):
        ms = self.human_ms if ms is None else ms
        if ms <= 0:
            return beat
        j = float(np.clip(self.rng.normal(0, ms), -2.5 * ms, 2.5 * ms)) / 1000.0
        bpm = self.tmap.bpm_at_beat(max(beat, 0)) if self.tmap else self.bpm
        return max(0.0, beat + j * bpm / 60.0)

    def add_part(self, name, program, cc7=100, pan=64):
        self.parts[name] = dict(program=int(program), cc7=int(cc7), pan=int(pan))

    def note(self, part, beat, dur, pitch, vel, human=True):
        b = self.jitter(beat) if human else beat
        self.notes.append((part, b, max(dur, 0.05), int(pitch), int(np.clip(vel, 1, 127))))

    def hit(self, beat, voice, vel, human=True):
        b = self.jitter(beat) if human else beat
        self.drums.append((b, voice, int(np.clip(vel, 1, 127))))

# ------------------------------------------------------------------ harmony helpers

MAJOR = [0, 2, 4, 5, 7, 9, 11]
MINOR = [0, 2, 3, 5, 7, 8, 10]
DORIAN = [0, 2, 3, 5, 7, 9, 10]
PROGS = {
    "major": [[0, 4, 5, 3], [0, 5, 3, 4], [1, 4, 0, 0], [0, 3, 4, 3], [0, 3, 0, 4]],
    "minor": [[0, 5, 2, 6], [0, 3, 4, 0], [0, 6, 5, 6], [0, 3, 6, 2], [0, 5, 3, 4]],
    "dorian": [[0, 3, 0, 3], [0, 6, 3, 0], [0, 1, 0, 1]],
}
BLUES12 = [0, 0, 0, 0, 5, 5, 0, 0, 7, 5, 0, 7]  # semitones of I/IV/V


def scale_of(mode):
    return {"major": MAJOR, "minor": MINOR, "dorian": DORIAN}[mode]


def chord_pcs(key, mode, degree, seventh=False):
    sc = scale_of(mode)
    n = 4 if seventh else 3
    return [key + sc[(degree + 2 * i) % 7] + 12 * ((degree + 2 * i) // 7) for i in range(n)]


def voice(pcs, lo=53, hi=72):
    """Close voicing of pitch classes, root in [lo, lo+12)."""
    root = pcs[0]
    r = lo + ((root - lo) % 12)
    out = [r + (p - root) for p in pcs]
    while max(out) > hi and min(out) - 12 >= lo - 12:
        out = [p - 12 if p == max(out) else p for p in out]
    return sorted(out)


def bass_root(pc, lo=36):
    return lo + (pc - lo) % 12


def make_progression(song, mode, n_bars, chords_per_bar=1, blues=False, seventh=False):
    """Return a list, per bar, of lists of (beat_offset, chord_pitches, root_pc)."""
    key = song.meta["key"]
    out = []
    if blues:
        for bar in range(n_bars):
            s = BLUES12[bar % 12]
            root = key + s
            out.append([(0.0, voice([root, root + 4, root + 7, root + 10]), root)])
        return out
    prog = PROGS[mode][int(song.rng.integers(len(PROGS[mode])))]
    L = len(prog)
    hr = 2 if song.meta.get("slow_harmony") else 1
    for bar in range(n_bars):
        row = []
        for c in range(chords_per_bar):
            deg = prog[((bar * chords_per_bar + c) // hr) % L]
            pcs = chord_pcs(key, mode, deg, seventh)
            row.append((c * song.beats_per_bar / chords_per_bar, voice(pcs), pcs[0]))
        out.append(row)
    return out


def melody_line(song, part, bars, harmony, lo=64, hi=84, density=0.55, mode="minor", start_bar=0):
    """Simple 2-bar motif repeated with variation; chord tones on strong beats."""
    rng = song.rng
    sc = scale_of(mode)
    key = song.meta["key"]
    pool = sorted(p for o in range(0, 10) for d in sc for p in [12 * o + key % 12 + d] if lo <= p <= hi)
    spb = song.steps_per_beat
    steps = song.steps_per_bar
    grid = 2 if spb == 4 else 1  # 8th-note grid (or triplet 8ths in 12/8)
    motif = []
    cur = pool[len(pool) // 2]
    for s in range(0, 2 * steps, grid):
        strong = (s % spb) == 0
        if rng.random() < (density + (0.25 if strong else 0.0)):
            motif.append((s, int(rng.integers(1, 4)) * grid))
    for rep_bar in range(start_bar, bars, 2):
        var = rng.random() < 0.35
        for s, d in motif:
            bar = rep_bar + s // steps
            if bar >= bars:
                continue
            st = s % steps
            chord = harmony[bar][-1][1] if harmony[bar] else [cur]
            if st % spb == 0:
                cands = [p for p in pool if p % 12 in [c % 12 for c in chord]]
                cur = min(cands, key=lambda p: abs(p - cur) + rng.random() * 3) if cands else cur
            else:
                i = pool.index(min(pool, key=lambda p: abs(p - cur)))
                i = int(np.clip(i + rng.choice([-2, -1, 1, 1, 2]), 0, len(pool) - 1))
                cur = pool[i]
            if var and rng.random() < 0.3:
                continue
            song.note(part, song.pos(bar, st), d / spb * 0.9, cur, 78 + rng.integers(-8, 12))

# ------------------------------------------------------------------ drum pattern helper

VEL = {"X": (108, 122), "x": (84, 100), "o": (58, 72), "g": (28, 42)}


def play_pattern(song, bar, pat, skip=(), vel_scale=1.0):
    rng = song.rng
    for voice_name, s in pat.items():
        if voice_name in skip:
            continue
        assert len(s) == song.steps_per_bar, (song.id, voice_name, s)
        for st, ch in enumerate(s):
            if ch in VEL:
                lo, hi = VEL[ch]
                song.hit(song.pos(bar, st), voice_name, int(rng.integers(lo, hi + 1) * vel_scale))


def fill(song, bar, beats=1, voices=("tomh", "tomm", "toml"), step=1, vel=(80, 110)):
    """Tom/snare fill over the last `beats` beats of a bar (16th notes)."""
    spb = song.steps_per_beat
    start = song.steps_per_bar - beats * spb
    n = beats * spb // step
    for i in range(n):
        v = voices[min(len(voices) - 1, i * len(voices) // n)]
        song.hit(song.pos(bar, start + i * step), v, int(song.rng.integers(*vel)))


def choose(rng, seq):
    return seq[int(rng.integers(len(seq)))]

# ------------------------------------------------------------------ styles
# Each style function fills song.notes / song.drums for bars [first_bar, n_bars)
# given the harmony, and sets parts.  `first_bar` > 0 when an intro precedes.


def style_house(song, harm, first_bar, techno=False):
    rng = song.rng
    song.add_part("bass", choose(rng, [38, 39]), 105)
    song.add_part("chords", choose(rng, [4, 0, 81, 16] if not techno else [81, 62, 4]), 80, 50)
    song.add_part("pad", choose(rng, [89, 90, 94, 95]), 70, 80)
    lead = rng.random() < 0.5
    if lead:
        song.add_part("lead", choose(rng, [80, 81, 11]), 78, 70)
    pats = [
        {"kick": "X...X...X...X...", "clap": "....X.......X...", "chh": "x.x.x.x.x.x.x.x.",
         "ohh": "..o...o...o...o."},
        {"kick": "X...X...X...X...", "clap": "....X.......X...", "chh": "oxoxoxoxoxoxoxox",
         "ohh": "..x...x...x...x."},
        {"kick": "X...X...X...X...", "snare": "....x.......x...", "chh": "..x...x...x...x.",
         "shaker": "ogogogogogogogog"},
    ]
    if techno:
        pats = [
            {"kick": "X...X...X...X...", "chh": "..x...x...x...x.", "ride": "o.o.o.o.o.o.o.o.",
             "clap": "....o.......o..."},
            {"kick": "X...X...X...X...", "ohh": "..x...x...x...x.", "chh": "gogogogogogogogo"},
        ]
    pat = choose(rng, pats)
    drop_bar = first_bar + 8 * int(rng.integers(1, 3)) if rng.random() < 0.6 else -1
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        skip = ("kick",) if bar in (drop_bar, drop_bar + 1) else ()
        if rel % 16 == 0:
            song.hit(song.pos(bar, 0), "crash", 100)
        play_pattern(song, bar, pat, skip)
        if rel % 8 == 7 and rng.random() < 0.5:
            for st in (12, 13, 14, 15):
                song.hit(song.pos(bar, st), "snare", 60 + 10 * (st - 12))
        root = harm[bar][0][2]
        b = bass_root(root)
        if techno:
            for st in range(16):
                if st % 4 != 0:
                    song.note("bass", song.pos(bar, st), 0.2, b + (12 if st % 4 == 2 else 0), 88 if st % 4 == 2 else 70)
        else:
            for st in (2, 6, 10, 14):
                song.note("bass", song.pos(bar, st), 0.4, b + choose(rng, [0, 0, 12]), 96)
        stab_steps = choose(rng, [(2, 6, 10, 14), (3, 6, 11, 14), (0, 3, 6, 10), (6, 14)])
        for st in stab_steps:
            for p in harm[bar][0][1]:
                song.note("chords", song.pos(bar, st), 0.3, p, 84)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("pad", song.pos(bar, 0), song.beats_per_bar, p - 12 + 12 * (p < 60), 64)
    if lead:
        melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 8, mode=song.meta["mode"])


def style_disco(song, harm, first_bar):
    rng = song.rng
    song.add_part("bass", choose(rng, [33, 34]), 110)
    song.add_part("strings", choose(rng, [48, 49]), 80, 90)
    song.add_part("guitar", choose(rng, [28, 27]), 75, 40)
    song.add_part("piano", choose(rng, [0, 4]), 70, 64)
    lead = rng.random() < 0.6
    if lead:
        song.add_part("lead", choose(rng, [61, 56, 65]), 80, 64)
    pat = choose(rng, [
        {"kick": "X...X...X...X...", "snare": "....X.......X...", "chh": "x.x.x.x.x.x.x.x.",
         "ohh": "..x...x...x...x.", "tamb": "....o.......o..."},
        {"kick": "X...X...X...X...", "snare": "....X.......X...", "chh": "xoxoxoxoxoxoxoxo",
         "ohh": "..x...x...x...x."},
    ])
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        if rel % 8 == 0:
            song.hit(song.pos(bar, 0), "crash", 105)
        play_pattern(song, bar, pat)
        if rel % 8 == 7:
            fill(song, bar, 1, ("snare", "snare", "tomh", "tomm"))
        b = bass_root(harm[bar][0][2])
        for st in range(0, 16, 2):
            song.note("bass", song.pos(bar, st), 0.4, b + (12 if (st // 2) % 2 else 0), 98 if st % 4 == 0 else 88)
        for st in range(16):
            if st % 2 == 1 or rng.random() < 0.3:
                song.note("guitar", song.pos(bar, st), 0.15, harm[bar][0][1][-1] + 12, 70 + (15 if st % 4 == 2 else 0))
        for st in (0, 6, 10):
            for p in harm[bar][0][1]:
                song.note("piano", song.pos(bar, st), 0.5, p, 72)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("strings", song.pos(bar, 0), song.beats_per_bar, p + 12, 70)
    if lead:
        melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 4, mode=song.meta["mode"])


def style_rock(song, harm, first_bar):
    rng = song.rng
    song.add_part("bass", choose(rng, [34, 33]), 105)
    song.add_part("guitar", choose(rng, [30, 29]), 85, 40)
    song.add_part("guitar2", choose(rng, [27, 25, 16]), 70, 90)
    lead = rng.random() < 0.5
    if lead:
        song.add_part("lead", choose(rng, [29, 30, 81]), 85, 64)
    cym = choose(rng, ["chh", "chh", "ride"])
    pats = [
        {"kick": "X.......X.x.....", "snare": "....X.......X...", cym: "x.x.x.x.x.x.x.x."},
        {"kick": "X.....x.X.......", "snare": "....X.......X...", cym: "x.x.x.x.x.x.x.x."},
        {"kick": "X...X...X...X...", "snare": "....X.......X...", cym: "xxxxxxxxxxxxxxxx"},
        {"kick": "X..x..x.X.......", "snare": "....X.......X..g", cym: "x.x.x.x.x.x.x.x."},
    ]
    pat = choose(rng, pats)
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        if rel % 8 == 0:
            song.hit(song.pos(bar, 0), "crash", 112)
        if rel % 8 == 7:
            play_pattern(song, bar, {k: v[:8] + "........" for k, v in pat.items()})
            fill(song, bar, 2, ("snare", "tomh", "tomm", "toml"), step=1)
        else:
            play_pattern(song, bar, pat)
        b = bass_root(harm[bar][0][2], 33)
        for st in range(0, 16, 2):
            song.note("bass", song.pos(bar, st), 0.45, b, 96 if st % 8 == 0 else 86)
        pc = harm[bar][0][2]
        power = [bass_root(pc, 40) + 12, bass_root(pc, 40) + 19]
        for st in range(0, 16, 2):
            for p in power:
                song.note("guitar", song.pos(bar, st), 0.4, p, 96 if st % 4 == 0 else 84)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("guitar2", song.pos(bar, 0), song.beats_per_bar * 0.95, p, 62)
    if lead:
        melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 8, mode=song.meta["mode"])


def style_funk(song, harm, first_bar):
    rng = song.rng
    song.add_part("bass", choose(rng, [36, 37, 33]), 110)
    song.add_part("clav", 7, 80, 40)
    song.add_part("brass", choose(rng, [61, 62]), 75, 90)
    song.add_part("ep", choose(rng, [4, 5]), 60, 64)
    pat = choose(rng, [
        {"kick": "X.....x...X..x..", "snare": "....X..g.g..X..g", "chh": "XxoxXxoxXxoxXxox",
         "ohh": "..............x."},
        {"kick": "X..x......x.x...", "snare": "....X.g..g.gX.g.", "chh": "xoxoxoxoxoxoxoxo"},
        {"kick": "X.x.....x.x...x.", "snare": "..g.X..g.g..X.g.", "chh": "XoxoXoxoXoxoXoxo"},
    ])
    bass_rh = choose(rng, [(0, 3, 6, 8, 10, 13), (0, 2, 7, 10, 11, 14), (0, 6, 7, 10, 12, 15)])
    clav_rh = choose(rng, [(1, 3, 6, 9, 11, 14), (2, 5, 7, 10, 13, 15), (0, 3, 6, 8, 11, 14)])
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        if rel % 8 == 0:
            song.hit(song.pos(bar, 0), "crash", 100)
        play_pattern(song, bar, pat)
        b = bass_root(harm[bar][0][2])
        for i, st in enumerate(bass_rh):
            song.note("bass", song.pos(bar, st), 0.2, b + (12 if i % 3 == 2 else (7 if i % 4 == 3 else 0)), 100 if st % 4 == 0 else 82)
        for st in clav_rh:
            for p in harm[bar][0][1][1:]:
                song.note("clav", song.pos(bar, st), 0.12, p + 12, 84)
        if rel % 4 == 3:
            for st in (10, 14):
                for p in harm[bar][0][1]:
                    song.note("brass", song.pos(bar, st), 0.3, p + 12, 96)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("ep", song.pos(bar, 0), song.beats_per_bar * 0.9, p, 55)


def style_hiphop(song, harm, first_bar):
    rng = song.rng
    song.add_part("bass", choose(rng, [33, 38, 32]), 110)
    song.add_part("keys", choose(rng, [4, 5, 0]), 80, 64)
    song.add_part("pad", choose(rng, [89, 48, 52]), 55, 80)
    lead = rng.random() < 0.6
    if lead:
        song.add_part("lead", choose(rng, [11, 73, 65]), 78, 50)
    pat = choose(rng, [
        {"kick": "X.........X.....", "snare": "....X.......X...", "chh": "x.x.x.x.x.x.x.x."},
        {"kick": "X......X.X......", "snare": "....X.......X...", "chh": "xxxxxxxxxxxxxxxx"},
        {"kick": "X..x......X..x..", "snare": "....X.......X...", "chh": "x.xox.xox.xox.xo"},
    ])
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        play_pattern(song, bar, pat)
        if rel % 8 == 7:
            song.hit(song.pos(bar, 15), "snare", 50)
        b = bass_root(harm[bar][0][2])
        for st, d in ((0, 1.2), (7, 0.3), (10, 1.0)):
            song.note("bass", song.pos(bar, st), d, b, 100)
        for st in (0, 7) if rng.random() < 0.5 else (0, 11):
            for p in harm[bar][0][1]:
                song.note("keys", song.pos(bar, st), 1.2, p, 70)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("pad", song.pos(bar, 0), song.beats_per_bar, p + 12, 50)
    if lead:
        melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 4, density=0.4, mode=song.meta["mode"])


def style_trap(song, harm, first_bar):
    rng = song.rng
    song.add_part("bass808", choose(rng, [38, 39]), 115)
    song.add_part("pad", choose(rng, [89, 91, 52]), 60, 80)
    song.add_part("bells", choose(rng, [10, 14, 9, 46]), 80, 50)
    kick = choose(rng, ["X......X..X.....", "X.........X..x..", "X......X....x..."])
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        play_pattern(song, bar, {"kick": kick, "clap": "........X.......", "snare": "........x......."})
        # hats: 8ths/16ths with triplet or 32nd rolls
        for beat in range(4):
            kind = rng.random()
            base = bar * 4 + beat
            if kind < 0.55:
                subs = [0, 0.5]
            elif kind < 0.85:
                subs = [0, 0.25, 0.5, 0.75]
            elif kind < 0.93:
                subs = [0, 1 / 3, 2 / 3]
            else:
                subs = [i / 8 for i in range(8)]
            for s in subs:
                song.hit(base + s, "chh", int(rng.integers(60, 100)) if s else 95)
        if rel % 2 == 1:
            song.hit(song.pos(bar, 14), "ohh", 70)
        b = bass_root(harm[bar][0][2], 31)
        for i, ch in enumerate(kick):
            if ch != ".":
                song.note("bass808", song.pos(bar, i), 1.5, b, 110)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("pad", song.pos(bar, 0), song.beats_per_bar, p, 52)
    melody_line(song, "bells", song.n_bars, harm, start_bar=first_bar, density=0.45, lo=67, hi=88, mode=song.meta["mode"])


def style_dnb(song, harm, first_bar, variant=None):
    rng = song.rng
    song.add_part("bass", choose(rng, [38, 39, 87]), 105)
    song.add_part("pad", choose(rng, [89, 91, 95, 49]), 70, 80)
    song.add_part("stab", choose(rng, [4, 81, 0]), 70, 50)
    pats = {
        "twostep": {"kick": "X.........X.....", "snare": "....X.......X...", "chh": "x.x.x.x.x.x.x.x.",
                    "ride": "..o...o...o...o."},
        "sync": {"kick": "X.....x....x....", "snare": "....X.......X...", "chh": "x.xxx.x.x.xxx.x.",
                 "shaker": "gogogogogogogogo"},
        "sync3": {"kick": "X.....x.....x...", "snare": "....X......gX..g", "chh": "x.x.x.x.x.x.x.x."},
        "amen": {"kick": "X.X.......XX....", "snare": "....X..g.g..X..g", "ride": "x.x.x.x.x.x.x.x."},
    }
    variant = variant or song.meta.get("variant") or choose(rng, list(pats))
    song.meta["variant"] = variant
    pat = pats[variant]
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        if rel % 8 == 0:
            song.hit(song.pos(bar, 0), "crash", 105)
        play_pattern(song, bar, pat)
        if rel % 8 == 7:
            fill(song, bar, 1, ("snare",), vel=(60, 100))
        b = bass_root(harm[bar][0][2], 28)
        for st, d in ((0, 1.4), (6, 0.5), (10, 1.2)):
            song.note("bass", song.pos(bar, st), d, b + (12 if st == 6 else 0), 100)
        if rel % 2 == 1:
            for p in harm[bar][0][1]:
                song.note("stab", song.pos(bar, 14), 0.3, p + 12, 80)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("pad", song.pos(bar, 0), song.beats_per_bar, p + 12, 58)


def style_missing(song, harm, first_bar):
    """123-BPM two-step / garage-house: syncopated kicks, shuffled hats, guitar + pad."""
    rng = song.rng
    song.add_part("bass", choose(rng, [38, 33]), 105)
    song.add_part("guitar", choose(rng, [25, 24]), 80, 40)
    song.add_part("pad", choose(rng, [89, 48, 50]), 66, 85)
    song.add_part("lead", choose(rng, [80, 73, 53]), 72, 64)
    pats = {
        "garage": {"kick": "X......x..X.....", "snare": "....X.......X...", "chh": "xoxoxoxoxoxoxoxo",
                   "rim": "...o.....o....o."},
        "clap2step": {"kick": "X.....x...x.....", "clap": "....X.......X...", "chh": "..x...x.x.x...x.",
                      "shaker": "gogogogogogogogo"},
        "shuffle2step": {"kick": "X.........x..x..", "snare": "....X.......X...", "chh": "x.xox.xox.xox.xo"},
        # syncopated breakbeat / D&B-style kicks on 1, 2.5 and 4 at 123 BPM
        "breakbeat": {"kick": "X.....x.....x...", "snare": "....X..g....X..g", "chh": "x.x.x.x.x.x.x.x.",
                      "ohh": "..............o."},
    }
    variant = song.meta.get("variant") or choose(rng, list(pats))
    song.meta["variant"] = variant
    pat = pats[variant]
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        if rel % 8 == 0:
            song.hit(song.pos(bar, 0), "crash", 95)
        play_pattern(song, bar, pat)
        b = bass_root(harm[bar][0][2])
        for st, d in ((0, 0.6), (3, 0.4), (10, 0.4), (14, 0.4)):
            song.note("bass", song.pos(bar, st), d, b + (12 if st == 14 else 0), 96)
        ch = harm[bar][0][1]
        arp = [ch[0], ch[1], ch[2], ch[1] + 12, ch[2], ch[1], ch[0] + 12, ch[2]]
        for i, st in enumerate(range(0, 16, 2)):
            song.note("guitar", song.pos(bar, st), 0.45, arp[i], 74)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("pad", song.pos(bar, 0), song.beats_per_bar, p + 12, 56)
    melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 4, density=0.35, mode=song.meta["mode"])


def style_reggae(song, harm, first_bar):
    rng = song.rng
    song.add_part("bass", choose(rng, [33, 34]), 115)
    song.add_part("organ", choose(rng, [16, 17]), 60, 80)
    song.add_part("skank", choose(rng, [27, 26, 4]), 82, 40)
    lead = rng.random() < 0.5
    if lead:
        song.add_part("lead", choose(rng, [65, 56, 73]), 75, 64)
    pat = choose(rng, [
        {"kick": "........X.......", "rim": "........X.......", "chh": "x.x.x.x.x.x.x.x."},
        {"kick": "........X.......", "snare": "........x.......", "chh": "x.o.x.o.x.o.x.o.",
         "ohh": "..............o."},
    ])
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        play_pattern(song, bar, pat)
        if rel % 8 == 7:
            fill(song, bar, 1, ("rim", "tomh", "tomm"), step=2)
        b = bass_root(harm[bar][0][2])
        for st, d, off in ((2, 0.4, 0), (4, 0.9, 7), (10, 0.4, 12), (12, 0.9, 7)):
            song.note("bass", song.pos(bar, st), d, b + off, 100)
        for st in (4, 12):
            for p in harm[bar][0][1]:
                song.note("skank", song.pos(bar, st), 0.25, p + 12, 86)
        for st in (2, 6, 10, 14):
            for p in harm[bar][0][1]:
                song.note("organ", song.pos(bar, st), 0.2, p, 60)
    if lead:
        melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 4, density=0.35, mode=song.meta["mode"])


def style_bossa(song, harm, first_bar):
    rng = song.rng
    song.add_part("guitar", 24, 95, 50)
    song.add_part("bass", choose(rng, [32, 33]), 100)
    song.add_part("strings", choose(rng, [48, 49]), 50, 90)
    lead = rng.random() < 0.75
    if lead:
        song.add_part("lead", choose(rng, [73, 65, 66]), 80, 64)
    clave = ["X.....x.....x...", "....x.....x....."]  # bossa clave over two bars (rim)
    comp = choose(rng, [(0, 3, 6, 10, 12), (0, 3, 6, 8, 11, 14), (0, 4, 6, 10, 13)])
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        play_pattern(song, bar, {"kick": "X.....x.X.....x.", "rim": clave[rel % 2],
                                 "chh": "o.x.o.x.o.x.o.x.", "shaker": "gogogogogogogogo"})
        b = bass_root(harm[bar][0][2])
        for st, d, off in ((0, 1.4, 0), (6, 0.4, 7), (8, 1.4, 7), (14, 0.4, 0)):
            song.note("bass", song.pos(bar, st), d, b + off, 96)
        for st in comp:
            for p in harm[bar][0][1]:
                song.note("guitar", song.pos(bar, st), 0.4, p, 76)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("strings", song.pos(bar, 0), song.beats_per_bar, p + 12, 48)
    if lead:
        melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 2, density=0.4, mode=song.meta["mode"])


def style_waltz(song, harm, first_bar, drums=True):
    rng = song.rng
    song.add_part("bass", choose(rng, [32, 43, 58]), 105)
    song.add_part("chords", choose(rng, [0, 21, 48, 45]), 80, 60)
    song.add_part("lead", choose(rng, [40, 73, 21, 68]), 85, 64)
    for bar in range(first_bar, song.n_bars):
        if drums:
            play_pattern(song, bar, {"kick": "X...........", "rim": "....o...o...", "chh": "x...x...x..."})
        b = bass_root(harm[bar][0][2], 33)
        song.note("bass", song.pos(bar, 0), 0.9, b + (7 if bar % 2 else 0), 100)
        for st in (4, 8):
            for p in harm[bar][0][1]:
                song.note("chords", song.pos(bar, st), 0.5, p, 70)
    melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar, density=0.5, mode=song.meta["mode"])


def style_shuffle(song, harm, first_bar):
    """12/8 shuffle blues: triplet grid (3 steps per dotted-quarter beat)."""
    rng = song.rng
    song.add_part("bass", choose(rng, [32, 33]), 110)
    song.add_part("keys", choose(rng, [0, 1, 16, 17]), 80, 60)
    song.add_part("guitar", choose(rng, [26, 27, 29]), 75, 40)
    lead = rng.random() < 0.6
    if lead:
        song.add_part("lead", choose(rng, [22, 65, 29]), 80, 80)
    cym = choose(rng, ["ride", "chh"])
    pat = {"kick": "X.....X....x", "snare": "...X.....X..", cym: "x.xx.xx.xx.x"}
    for bar in range(first_bar, song.n_bars):
        rel = bar - first_bar
        if rel % 12 == 0:
            song.hit(song.pos(bar, 0), "crash", 100)
        play_pattern(song, bar, pat)
        root = harm[bar][0][2]
        b = bass_root(root)
        walk = [0, 4, 7, 9, 10, 9, 7, 4]
        for i, st in enumerate((0, 2, 3, 5, 6, 8, 9, 11)):
            song.note("bass", song.pos(bar, st), 0.3, b + walk[i], 96 if st % 3 == 0 else 80)
        for beat in range(4):
            for st in (beat * 3, beat * 3 + 2):
                for p in harm[bar][0][1]:
                    song.note("keys", song.pos(bar, st), 0.3, p, 72 if st % 3 == 0 else 60)
    if lead:
        melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 4, density=0.4, mode="dorian")


def style_ballad(song, harm, first_bar):
    rng = song.rng
    song.add_part("piano", choose(rng, [0, 1]), 100, 60)
    song.add_part("strings", choose(rng, [48, 49, 50]), 65, 80)
    song.add_part("bass", choose(rng, [32, 33]), 90)
    song.add_part("lead", choose(rng, [40, 73, 68, 71]), 82, 64)
    drum_from = first_bar + choose(rng, [0, 2, 4])
    for bar in range(first_bar, song.n_bars):
        if bar >= drum_from:
            play_pattern(song, bar, {"kick": "X.......o.......", "rim": "....o.......o...",
                                     "chh": "o.g.o.g.o.g.o.g."}, vel_scale=0.85)
        ch = harm[bar][0][1]
        arp = [ch[0] - 12, ch[2] - 12, ch[0], ch[1], ch[2], ch[1], ch[0], ch[2] - 12]
        for i, st in enumerate(range(0, 16, 2)):
            song.note("piano", song.pos(bar, st), 0.9, arp[i], 70 if i % 4 == 0 else 58)
        song.note("bass", song.pos(bar, 0), 3.8, bass_root(harm[bar][0][2]), 85)
    for bar in range(song.n_bars):
        for p in harm[bar][0][1]:
            song.note("strings", song.pos(bar, 0), song.beats_per_bar, p + 12, 55)
    melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 2, density=0.35, mode=song.meta["mode"])


def style_orchestral(song, harm, first_bar):
    rng = song.rng
    song.add_part("strings", choose(rng, [48, 49]), 80, 70)
    song.add_part("pizz", 45, 95, 50)
    song.add_part("timp", 47, 90, 64)
    song.add_part("brass", choose(rng, [61, 60, 57]), 80, 80)
    song.add_part("lowstr", 43, 95, 60)
    song.add_part("lead", choose(rng, [73, 68, 40]), 80, 64)
    bpb = song.beats_per_bar
    for bar in range(first_bar, song.n_bars):
        ch = harm[bar][0][1]
        root = harm[bar][0][2]
        for beat in range(bpb):
            p = ch[beat % len(ch)]
            song.note("pizz", song.pos(bar, beat * 4), 0.3, p - 12, 88 if beat == 0 else 72)
        song.note("lowstr", song.pos(bar, 0), 0.8, bass_root(root, 28), 100)
        song.note("timp", song.pos(bar, 0), 0.5, bass_root(root, 36), 100)
        if bpb == 4 and rng.random() < 0.5:
            song.note("timp", song.pos(bar, 8), 0.5, bass_root(root, 36) + 7, 80)
        if bar % 4 == 3:
            for p in ch:
                song.note("brass", song.pos(bar, 0), 1.0, p, 95)
                song.note("brass", song.pos(bar, (bpb - 1) * 4), 0.5, p, 90)
        for p in ch:
            song.note("strings", song.pos(bar, 0), bpb * 0.98, p + 12, 62)
    melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 2, density=0.35, mode=song.meta["mode"])


def style_notempo(song, harm, first_bar):
    rng = song.rng
    prog = song.meta.get("sustain_program", 19)
    song.add_part("sustain", prog, 100, 64)
    ch = harm[0][0][1]
    total_beats = song.tmap.sec_to_beat(song.duration + 2.0)
    for p in ch + [ch[0] - 12]:
        song.note("sustain", 0.0, total_beats, p, 80, human=False)

# ------------------------------------------------------------------ corpus plan

STYLE_FN = {
    "house": style_house, "techno": lambda s, h, f: style_house(s, h, f, techno=True),
    "disco": style_disco, "rock": style_rock, "funk": style_funk, "hiphop": style_hiphop,
    "trap": style_trap, "dnb": style_dnb, "missing": style_missing, "reggae": style_reggae,
    "bossa": style_bossa, "waltz": style_waltz, "waltz_nodrums": lambda s, h, f: style_waltz(s, h, f, drums=False),
    "shuffle": style_shuffle, "ballad": style_ballad, "orchestral": style_orchestral,
    "notempo": style_notempo,
}

KITS_ELEC = ["fluid_elec", "fluid_808", "tim_808", "mscore_elec", "mscore_808", "h2_808", "h2_hardelectro", "h2_electricempire"]
KITS_ACOU = ["fluid_std", "fluid_room", "fluid_power", "mscore_std", "mscore_room", "tim_std", "avl_bp", "avl_rz", "h2_gmrock"]
KITS_SOFT = ["fluid_jazz", "fluid_brush", "mscore_jazz", "mscore_brush", "avl_bp", "h2_gmrock"]
KITS_HIPHOP = ["fluid_std", "mscore_std", "h2_808", "avl_rz", "h2_gmrock", "fluid_808"]

# style -> meter, modes, kits, human_ms, drum_db, levels(bpm)->alts, perceived(bpm)
STYLE_INFO = {
    "house": dict(meter="4/4", modes=["minor", "major"], kits=KITS_ELEC, human=0.0, drum_db=2),
    "techno": dict(meter="4/4", modes=["minor"], kits=KITS_ELEC, human=0.0, drum_db=3),
    "disco": dict(meter="4/4", modes=["major", "minor"], kits=KITS_ACOU + ["fluid_elec"], human=4.0, drum_db=0),
    "rock": dict(meter="4/4", modes=["major", "minor"], kits=KITS_ACOU, human=6.0, drum_db=0),
    "funk": dict(meter="4/4", modes=["dorian", "minor"], kits=KITS_ACOU, human=5.0, drum_db=0),
    "hiphop": dict(meter="4/4", modes=["minor", "dorian"], kits=KITS_HIPHOP, human=3.0, drum_db=2),
    "trap": dict(meter="4/4", modes=["minor"], kits=KITS_ELEC, human=0.0, drum_db=1),
    "dnb": dict(meter="4/4", modes=["minor"], kits=KITS_ELEC + ["fluid_std", "avl_rz"], human=0.0, drum_db=1),
    "missing": dict(meter="4/4", modes=["minor"], kits=KITS_ELEC + ["fluid_std"], human=0.0, drum_db=0),
    "reggae": dict(meter="4/4", modes=["major", "minor"], kits=KITS_ACOU, human=5.0, drum_db=-1),
    "bossa": dict(meter="4/4", modes=["major", "minor"], kits=KITS_SOFT, human=5.0, drum_db=-4),
    "waltz": dict(meter="3/4", modes=["major", "minor"], kits=KITS_SOFT, human=6.0, drum_db=-5),
    "waltz_nodrums": dict(meter="3/4", modes=["major", "minor"], kits=[None], human=8.0, drum_db=0),
    "shuffle": dict(meter="12/8", modes=["major"], kits=KITS_ACOU, human=6.0, drum_db=-1),
    "ballad": dict(meter="4/4", modes=["major", "minor"], kits=KITS_SOFT, human=8.0, drum_db=-7),
    "orchestral": dict(meter="4/4", modes=["minor", "major"], kits=[None], human=10.0, drum_db=0),
    "notempo": dict(meter="4/4", modes=["major", "minor"], kits=[None], human=0.0, drum_db=0),
}

import styles_ext  # noqa: E402  (issue 37's extended material, --set ext: adds its styles here)

styles_ext.install(sys.modules[__name__])

import styles_world  # noqa: E402  (folk, flamenco, samba, country and ballroom forms, --set world)

styles_world.install(sys.modules[__name__])


def levels(style, meter, bpm):
    """(alts, perceived): musically valid other metrical levels, and the level most
    listeners tap. For tempo-change tracks these refer to the tempo after the change."""
    r = lambda x: round(x, 3)
    if meter == "3/4":
        return [r(bpm / 3), r(bpm * 2)], r(bpm if bpm <= 150 else bpm / 3)
    if meter == "12/8":
        return [r(bpm / 2), r(bpm * 3)], r(bpm)
    alts = [r(bpm / 2), r(bpm * 2)]
    if style == "trap":
        return alts, r(bpm / 2)
    if style == "ballad":
        return alts, r(bpm)
    return alts, r(bpm)


def plan(seed):
    """The corpus plan: list of dicts (id, style, bpm, special options)."""
    rng = np.random.default_rng(seed)
    P = []

    def add(style, bpms, **kw):
        n = sum(1 for p in P if p["style"] == style and not p.get("case")) + 1
        for b in bpms:
            d = dict(style=style, bpm=None if b is None else float(b), **kw)
            P.append(d)

    add("house", [120, 122, 124, 126, 128])
    add("techno", [125, 128, 130])
    add("disco", [110, 114, 118, 121, 125])
    add("rock", [90, 100, 110, 120, 132, 140, 150])
    add("funk", [95, 100, 104, 110, 115])
    add("hiphop", [80, 85, 90, 94, 100], swing=True)
    add("trap", [130, 136, 140, 145, 150])
    for b, v in zip([160, 165, 170, 174, 178], ["twostep", "sync", "sync3", "amen", "sync3"]):
        add("dnb", [b], variant=v)
    for v in ["garage", "breakbeat", "clap2step"]:
        add("missing", [123], variant=v)
    add("reggae", [70, 74, 78, 84])
    add("bossa", [120, 128, 134, 140])
    add("waltz", [90, 108, 132, 156])
    add("waltz_nodrums", [120, 180])
    add("shuffle", [84, 92, 100, 112])
    add("ballad", [60, 64, 68, 72, 75])
    add("orchestral", [72, 96, 112, 128])
    # ---- special cases
    add("house", [124], case="intro")
    add("rock", [118], case="intro")
    add("dnb", [172], case="intro", variant="twostep")
    add("hiphop", [92], case="intro", swing=True)
    add("missing", [123], case="intro", variant="breakbeat")
    add("house", [128], case="change", bpm_before=100.0)
    add("rock", [100], case="change", bpm_before=128.0)
    add("funk", [120], case="change", bpm_before=90.0)
    add("disco", [112], case="change", bpm_before=124.0)
    add("rock", [120], case="drift", drift=("sine", 0.03))
    add("funk", [104], case="drift", drift=("ramp", 0.03))
    add("ballad", [70], case="drift", drift=("ramp", -0.03))
    add("house", [126], case="drift", drift=("sine", 0.03))
    add("rock", [126], case="fx", fx=dict(reverb=85, noise_snr=12))
    add("house", [125], case="fx", fx=dict(noise_snr=3))
    add("funk", [108], case="fx", fx=dict(reverb=60, noise_snr=8))
    add("hiphop", [88], case="fx", fx=dict(lofi=True, noise_snr=15), swing=True)
    add("missing", [123], case="fx", fx=dict(reverb=70, noise_snr=10), variant="shuffle2step")
    add("notempo", [None], case="notempo", sustain_program=19)     # church organ chord
    add("notempo", [None], case="notempo", sustain_program=48)     # string ensemble chord
    add("notempo", [None], case="notempo", sustain_program=89)     # warm pad chord
    add("notempo", [None], case="notempo", sustain_program=52, fx=dict(noise_snr=10))  # choir + noise
    # public set: its own tempos (±5 %, to 0.5 BPM) and kit rotation; the seed's 123 BPM case stays
    for p in P:
        if p["bpm"] is not None and p["style"] != "missing":
            p["bpm"] = float(round(p["bpm"] * rng.uniform(0.95, 1.05) * 2) / 2)
        if p.get("bpm_before"):
            p["bpm_before"] = float(round(p["bpm_before"] * rng.uniform(0.95, 1.05) * 2) / 2)
    # sound sources: rotate through each style's kit list and the GM fonts so that
    # tracks of one style never share a kit by chance
    per_style = {}
    fonts = ["fluid", "mscore", "fluid", "timgm"]
    for p in P:
        k = per_style.get(p["style"], 0)
        per_style[p["style"]] = k + 1
        off = sum(map(ord, p["style"])) + seed
        kits = STYLE_INFO[p["style"]]["kits"]
        p["kit"] = kits[(k + off) % len(kits)]
        p["gm_font"] = fonts[(k + off) % len(fonts)]
    # ids
    counts = {}
    for i, p in enumerate(P):
        name = p["style"] if p.get("case", p["style"]) == p["style"] else f'{p["case"]}_{p["style"]}'
        counts[name] = counts.get(name, 0) + 1
        p["id"] = f"{name}_{counts[name]:02d}"
        p["index"] = i
        p["seed"] = int(seed) * 1000 + i
    return P

# ------------------------------------------------------------------ song construction


def build_song(p):
    rng = np.random.default_rng(p["seed"])
    style = p["style"]
    info = STYLE_INFO[style]
    meter = p.get("meter") or info["meter"]
    bpm = p["bpm"] if p["bpm"] is not None else 90.0
    song = Song(id=p["id"], style=style, meter=meter, bpm=bpm, rng=rng)
    song.beats_per_bar = {"4/4": 4, "3/4": 3, "2/4": 2, "12/8": 4}[meter]
    song.steps_per_beat = 3 if meter == "12/8" else 4
    song.no_tempo = style == "notempo"
    song.duration = float(np.round(rng.uniform(30, 45), 2))
    mode = choose(rng, info["modes"])
    song.meta.update(key=int(rng.integers(0, 12)), mode=mode)
    song.meta.update({k: p[k] for k in ("sustain_program", "variant") if k in p})
    song.human_ms = info["human"]
    song.drum_db = info["drum_db"] + float(rng.uniform(-1.5, 1.5))
    song.gm_font = p["gm_font"]
    song.drum_kit = p["kit"] or ""
    if p.get("swing"):
        song.swing16 = float(np.round(rng.uniform(0.56, 0.64), 3))
    song.fx = dict(p.get("fx", {}))
    case = p.get("case", "")

    # --- tempo map
    bar_beats = song.beats_per_bar
    first_bar = 0
    intro_s = 0.0
    if case == "intro":
        intro_s = float(rng.uniform(5, 8))
        first_bar = max(2, int(round(intro_s / (bar_beats * 60.0 / bpm))))
    if case == "change":
        b0, b1 = p["bpm_before"], bpm
        # change at a bar boundary ~45% into the track
        bar_dur0 = bar_beats * 60.0 / b0
        change_bar = int(round(song.duration * 0.45 / bar_dur0))
        song.tempo_changes = [(0.0, b0), (change_bar * bar_beats, b1)]
        song.meta["change_bar"] = change_bar
    elif case == "drift":
        kind, amt = p["drift"]
        total_beats = int(song.duration * bpm / 60.0 * 1.1) + 8
        ch = []
        for k in range(total_beats):
            x = k / total_beats
            f = math.sin(2 * math.pi * x) if kind == "sine" else (2 * x - 1)
            ch.append((float(k), bpm * (1 + amt * f)))
        song.tempo_changes = ch
        song.meta["drift"] = f"{kind}{amt:+.0%}"
    elif p.get("rubato"):
        total_beats = int(song.duration * bpm / 60.0 * 1.15) + 8
        song.tempo_changes = styles_ext.rubato_changes(rng, bpm, p["rubato"], total_beats)
        song.meta["drift"] = f"rubato±{p['rubato']:.1%}"
        song.meta["curve"] = True
    else:
        song.tempo_changes = [(0.0, bpm)]
    song.tmap = TempoMap(song.tempo_changes)
    # bars needed to cover the duration (+1 s)
    n = 1
    while song.tmap.beat_to_sec(n * bar_beats) < song.duration + 1.0:
        n += 1
    song.n_bars = n
    song.beat_start_beat = first_bar * bar_beats

    # --- harmony and parts
    blues = style == "shuffle"
    hmode = "major" if blues else mode
    if style in ("ballad", "orchestral", "waltz", "waltz_nodrums", "bossa", "strings", "piano", "song", "ragtime"):
        song.meta["slow_harmony"] = bool(rng.random() < 0.5)
    harm = make_progression(song, hmode, n, blues=blues, seventh=style in ("bossa", "funk", "hiphop"))
    fn = STYLE_FN[style]
    fn(song, harm, first_bar)
    if case == "intro":
        song.add_part("intropad", choose(rng, [89, 91, 92, 48]), 90, 64)
        for bar in range(first_bar):
            for q in harm[bar][0][1]:
                song.note("intropad", song.pos(bar, 0), bar_beats * 0.98, q, 60, human=False)
    return song

# ------------------------------------------------------------------ MIDI writing


LIN_PPQ = 20000          # "linear time" MIDI: 0.5 s per quarter -> 1 tick = 25 us


def write_midi(path, song, channel_parts, drum=None):
    """channel_parts: list of (channel, part_name). drum: (channel, program) to write song.drums.

    Songs with more than two tempo segments (gradual drift) are written in
    'linear time' (one constant MIDI tempo, events placed at their exact seconds),
    because FluidSynth's player snaps every tempo change to its ~1.45 ms processing
    period and the error accumulates over many changes (seen: up to ~9 ms drift
    over 40 s with a tempo event on every beat)."""
    linear = len(song.tempo_changes) > 2
    if linear:
        mid = mido.MidiFile(ticks_per_beat=LIN_PPQ, type=1)
        tick = lambda b: int(round(song.tmap.beat_to_sec(b) * 2 * LIN_PPQ))
        tempo_ev = [(0, 0, mido.MetaMessage("set_tempo", tempo=500000))]
    else:
        mid = mido.MidiFile(ticks_per_beat=PPQ, type=1)
        tick = lambda b: int(round(b * PPQ))
        tempo_ev = [(int(round(b * PPQ)), 0, mido.MetaMessage("set_tempo", tempo=int(round(60e6 / bpm))))
                    for b, bpm in song.tempo_changes]
    t0 = mido.MidiTrack()
    mid.tracks.append(t0)
    ev = list(tempo_ev)
    num, den = {"4/4": (4, 4), "3/4": (3, 4), "2/4": (2, 4), "12/8": (12, 8)}[song.meter]
    ev.append((0, 0, mido.MetaMessage("time_signature", numerator=num, denominator=den)))
    _flush(t0, ev)
    for ch, part in channel_parts:
        info = song.parts[part]
        tr = mido.MidiTrack()
        mid.tracks.append(tr)
        ev = [(0, 0, mido.Message("program_change", channel=ch, program=info["program"])),
              (0, 0, mido.Message("control_change", channel=ch, control=7, value=info["cc7"])),
              (0, 0, mido.Message("control_change", channel=ch, control=10, value=info["pan"]))]
        for (pt, b, d, pitch, vel) in song.notes:
            if pt != part:
                continue
            t = tick(b)
            ev.append((t, 2, mido.Message("note_on", channel=ch, note=pitch, velocity=vel)))
            ev.append((max(t + 1, tick(b + d)), 1, mido.Message("note_off", channel=ch, note=pitch, velocity=0)))
        for (pt, b, kind, value) in song.ctrl:
            if pt != part:
                continue
            if kind == "bend":
                m = mido.Message("pitchwheel", channel=ch, pitch=int(np.clip(value, -8192, 8191)))
            else:
                m = mido.Message("control_change", channel=ch, control=int(kind[2:]), value=int(value))
            ev.append((tick(max(b, 0.0)), 1, m))
        _flush(tr, ev)
    if drum is not None:
        ch, prog = drum
        tr = mido.MidiTrack()
        mid.tracks.append(tr)
        ev = [(0, 0, mido.Message("program_change", channel=ch, program=prog)),
              (0, 0, mido.Message("control_change", channel=ch, control=7, value=110))]
        for (b, v, vel) in song.drums:
            t = tick(b)
            note = GM_NOTE[v]
            ev.append((t, 2, mido.Message("note_on", channel=ch, note=note, velocity=vel)))
            ev.append((max(t + 1, tick(b + 0.125)), 1, mido.Message("note_off", channel=ch, note=note, velocity=0)))
        _flush(tr, ev)
    mid.save(path)


def _flush(track, ev):
    ev.sort(key=lambda e: (e[0], e[1]))
    last = 0
    for t, _, m in ev:
        m.time = t - last
        last = t
        track.append(m)
    track.append(mido.MetaMessage("end_of_track", time=0))


def write_click_midi(path, song, beats):
    s = Song(id=song.id, style="click", meter=song.meter, bpm=song.bpm, rng=song.rng)
    s.tempo_changes = song.tempo_changes
    s.tmap = song.tmap
    s.drums = [(b, "claves", 110) for b in beats]
    write_midi(path, s, [], drum=(9, 0))

# ------------------------------------------------------------------ rendering


def fluidsynth_render(sf_path, mid_path, out_path, reverb=True, gain=0.4):
    cmd = ["fluidsynth", "-ni", "-q", "-r", str(SR), "-g", str(gain), "-F", out_path,
           "-o", "audio.file.format=float", "-o", f"synth.reverb.active={1 if reverb else 0}",
           "-o", "synth.chorus.active=0", "-o", "synth.cpu-cores=1",
           "-o", "synth.dynamic-sample-loading=1",  # loads only the samples used: same output, much less CPU for .sf3
           sf_path, mid_path]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not os.path.exists(out_path):
        raise RuntimeError(f"fluidsynth failed: {r.stderr[-2000:]}")
    x, sr = sf.read(out_path, dtype="float32", always_2d=True)
    assert sr == SR
    if x.shape[1] == 1:
        x = np.repeat(x, 2, axis=1)
    return x


_H2_CACHE = {}


def _h2_sample(kit, voice, vel):
    m = H2_MAP[kit]
    fname = m.get(voice)
    if fname is None:
        for alt in {"tamb": ["shaker", "chh"], "shaker": ["chh"], "bell": ["ride"], "ride": ["chh"],
                    "rim": ["snare"], "clap": ["snare"], "congah": ["tomh"], "congal": ["toml"],
                    "claves": ["rim"], "cowbell": ["rim"], "crash": ["ohh"],
                    "tomh": ["snare"], "tomm": ["snare"], "toml": ["kick"]}.get(voice, []):
            if alt in m:
                fname = m[alt]
                break
    if fname is None:
        return None
    if "{L}" in fname:
        fname = fname.replace("{L}", _LAYERS[min(4, int(vel / 128 * 5))])
    key = (kit, fname)
    if key not in _H2_CACHE:
        y, sr = sf.read(os.path.join(H2_DIR, kit, fname), dtype="float32", always_2d=True)
        if y.shape[1] == 1:
            y = np.repeat(y, 2, axis=1)
        y = y[:, :2]
        if sr != SR:
            g = math.gcd(sr, SR)
            y = signal.resample_poly(y, SR // g, sr // g, axis=0).astype(np.float32)
        _H2_CACHE[key] = y
    return _H2_CACHE[key]


def h2_render(song, kit, n_samples):
    out = np.zeros((n_samples, 2), np.float32)
    hits = sorted(song.drums)
    last_chh = {}
    for i, (b, v, vel) in enumerate(hits):
        y = _h2_sample(kit, v, vel)
        if y is None:
            continue
        start = int(round(song.tmap.tick_to_sec(int(round(b * PPQ))) * SR))
        if start >= n_samples:
            continue
        g = (vel / 127.0) ** 1.6
        seg = y
        if v == "ohh":  # choke open hat at the next closed/pedal hat
            nxt = [hb for hb, hv, _ in hits[i + 1:i + 12] if hv in ("chh", "phh") and hb > b]
            if nxt:
                stop = int(round(song.tmap.tick_to_sec(int(round(nxt[0] * PPQ))) * SR)) - start
                if 0 < stop < len(seg):
                    seg = seg[:stop].copy()
                    fl = min(len(seg), 200)
                    seg[-fl:] *= np.linspace(1, 0, fl, dtype=np.float32)[:, None]
        end = min(n_samples, start + len(seg))
        out[start:end] += g * seg[:end - start]
    return out


def rms_active(x):
    m = x.mean(axis=1) if x.ndim == 2 else x
    fr = 2048
    n = len(m) // fr
    if n == 0:
        return 1e-9
    e = np.sqrt((m[:n * fr].reshape(n, fr) ** 2).mean(axis=1))
    act = e[e > e.max() * 0.05]
    return float(np.sqrt((act ** 2).mean())) if len(act) else 1e-9


def pink_noise(n, rng):
    w = rng.standard_normal((n, 2))
    f = np.fft.rfftfreq(n, 1.0 / SR)
    f[0] = f[1]
    spec = np.fft.rfft(w, axis=0) / np.sqrt(f)[:, None]
    y = np.fft.irfft(spec, n=n, axis=0)
    return (y / np.sqrt((y ** 2).mean())).astype(np.float32)


def sox_fx(x, args, tmpdir):
    a = os.path.join(tmpdir, "fx_in.wav")
    b = os.path.join(tmpdir, "fx_out.wav")
    sf.write(a, x, SR, subtype="FLOAT")
    subprocess.run(["sox", a, b] + args, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    y, _ = sf.read(b, dtype="float32", always_2d=True)
    if len(y) < len(x):
        y = np.pad(y, ((0, len(x) - len(y)), (0, 0)))
    return y[:len(x)]


def detect_clicks(x, min_gap_s):
    m = np.abs(x).max(axis=1)
    thr = 0.25 * m.max()
    idx = np.flatnonzero(m > thr)
    if len(idx) == 0:
        return np.array([])
    on = [idx[0]]
    gap = int(min_gap_s * SR)
    for k in idx[1:]:
        if k - on[-1] > gap:
            on.append(k)
    return np.array(on) / SR


def render_song(song, p, dirs, keep_midi=True, click_check=True):
    n_samples = int(round(song.duration * SR))
    tmp = tempfile.mkdtemp(prefix="tempo_")
    try:
        gm_path = find_sf(GM_FONTS[song.gm_font]) or find_sf(GM_FONTS["fluid"])
        # music stem: up to 15 melodic channels (skip 9)
        parts = list(song.parts)
        chans = [c for c in range(16) if c != 9][:len(parts)]
        music_mid = os.path.join(dirs["midi"], f"{song.id}.music.mid")
        write_midi(music_mid, song, list(zip(chans, parts)))
        music = fluidsynth_render(gm_path, music_mid, os.path.join(tmp, "music.wav"))
        music = _fit(music, n_samples)
        drums = None
        if song.drums and song.drum_kit and song.fx.get("hats_over_kick_db") is not None:
            drums = loud_hats_stem(song, n_samples, dirs, tmp, song.fx["hats_over_kick_db"])
        elif song.drums and song.drum_kit:
            drums = render_drums(song, n_samples, dirs, tmp)
        # levels: music stem at -20 dBFS RMS, drums relative
        mix = music / max(rms_active(music), 1e-6) * 0.1
        if drums is not None:
            mix = mix + drums / max(rms_active(drums), 1e-6) * 0.1 * 10 ** (song.drum_db / 20)
        # intro pad quieter: handled via velocity; fx
        fx = song.fx
        if fx.get("reverb"):
            mix = sox_fx(mix, ["reverb", str(fx["reverb"]), "50", "100", "100", "20", "0"], tmp)
        if fx.get("lofi"):
            mix = sox_fx(mix, ["highpass", "250", "lowpass", "3200", "overdrive", "4"], tmp)
            crackle = np.zeros_like(mix)
            k = song.rng.random(len(mix)) < 8.0 / SR
            crackle[k] = song.rng.standard_normal((int(k.sum()), 2)).astype(np.float32) * 0.5
            mix = mix + crackle * rms_active(mix) * 3
        if fx.get("noise_snr") is not None:
            nz = pink_noise(len(mix), np.random.default_rng(p["seed"] + 7))
            mix = mix + nz * rms_active(mix) * 10 ** (-fx["noise_snr"] / 20)
        # master: soft limiter, fades, peak -1 dBFS
        mix = mix / (np.abs(mix).max() + 1e-9) * 1.4
        mix = np.tanh(mix).astype(np.float32)
        fi = int(0.01 * SR)
        mix[:fi] *= np.linspace(0, 1, fi)[:, None]
        fo = int(1.5 * SR)
        mix[-fo:] *= np.linspace(1, 0, fo)[:, None]
        mix = mix / (np.abs(mix).max() + 1e-9) * 10 ** (-1 / 20)
        wav = os.path.join(dirs["audio"], f"{song.id}.wav")
        sf.write(wav, mix, SR, subtype="PCM_16")
        # ground-truth beats
        beats = []
        if not song.no_tempo:
            k = int(round(song.beat_start_beat))
            while True:
                t = song.tmap.beat_to_sec(k)
                if t > song.duration:
                    break
                beats.append((k, t))
                k += 1
        with open(os.path.join(dirs["beats"], f"{song.id}.beats.txt"), "w") as f:
            for k, t in beats:
                f.write(f"{t:.6f}\t{(k % song.beats_per_bar) + 1}\n")
        # independent verification of the rendered tempo: click track through FluidSynth
        check = {}
        if click_check and beats:
            cmid = os.path.join(tmp, "click.mid")
            write_click_midi(cmid, song, [k for k, _ in beats])
            cx = fluidsynth_render(find_sf(GM_FONTS["fluid"]), cmid, os.path.join(tmp, "click.wav"), reverb=False)
            min_ibi = min(60.0 / b for _, b in song.tempo_changes)
            on = detect_clicks(cx, 0.5 * min_ibi)
            truth = np.array([t for _, t in beats])
            nn = min(len(on), len(truth))
            d = on[:nn] - truth[:nn]
            off = float(np.median(d))
            # tempo by least-squares fit of onset time vs beat index (only for constant tempo)
            fit_bpm = ""
            if len(song.tempo_changes) == 1 and nn > 4:
                slope = np.polyfit(np.arange(nn), on[:nn], 1)[0]
                fit_bpm = round(60.0 / slope, 4)
            check = dict(id=song.id, n_truth=len(truth), n_detected=len(on), offset_ms=round(off * 1000, 3),
                         max_dev_ms=round(float(np.abs(d - off).max()) * 1000, 3),
                         nominal_bpm=song.bpm if len(song.tempo_changes) == 1 else "",
                         click_fit_bpm=fit_bpm)
        if not keep_midi:
            for f in glob.glob(os.path.join(dirs["midi"], f"{song.id}.*.mid")):
                os.remove(f)
        return beats, check
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def render_drums(song, n_samples, dirs, tmp, tag=""):
    """The drum stem of song.drums with its kit (soundfont through FluidSynth, or Hydrogen samples)."""
    kind, font, ch, prog = DRUM_KITS[song.drum_kit]
    drum_mid = os.path.join(dirs["midi"] if not tag else tmp, f"{song.id}.drums{tag}.mid")
    if kind == "sf":
        fpath = find_sf(GM_FONTS.get(font) or AVL_FONTS[font])
        write_midi(drum_mid, song, [], drum=(ch, prog))
        return _fit(fluidsynth_render(fpath, drum_mid, os.path.join(tmp, f"drums{tag}.wav"), reverb=True), n_samples)
    write_midi(drum_mid, song, [], drum=(9, 0))
    return h2_render(song, font, n_samples)


def loud_hats_stem(song, n_samples, dirs, tmp, hats_db):
    """Drum stem whose hi-hats (and shakers) sit `hats_db` above the kick: hats, kick and the rest
    are rendered apart, the hats scaled to the kick's active RMS times 10^(hats_db/20)."""
    import dataclasses
    write_midi(os.path.join(dirs["midi"], f"{song.id}.drums.mid"), song, [], drum=(9, 0))
    groups = {"hats": [], "kick": [], "rest": []}
    for h in song.drums:
        groups["hats" if h[1] in styles_ext.HAT_VOICES else "kick" if h[1] == "kick" else "rest"].append(h)
    stems = {g: render_drums(dataclasses.replace(song, drums=hs), n_samples, dirs, tmp, tag="_" + g)
             for g, hs in groups.items() if hs}
    if "hats" in stems and "kick" in stems:
        stems["hats"] *= rms_active(stems["kick"]) / max(rms_active(stems["hats"]), 1e-9) * 10 ** (hats_db / 20)
    return sum(stems.values())


def _fit(x, n):
    if len(x) >= n:
        return x[:n]
    return np.pad(x, ((0, n - len(x)), (0, 0)))

# ------------------------------------------------------------------ manifest

MANIFEST_COLS = ["id", "file", "style", "case", "meter", "bpm", "bpm_alts", "bpm_perceived",
                 "bpm_in_range", "bpm_before_change", "tempo_change_s", "drift", "beat_start_s",
                 "duration_s", "no_tempo", "beats_file", "drum_kit", "gm_font", "pattern", "swing16", "fx", "seed"]


def in_range(levels_list, lo=80.0, hi=160.0):
    c = [x for x in levels_list if lo <= x <= hi]
    return c[0] if c else ""


def manifest_row(song, p, beats):
    case = p.get("case", "")
    row = dict(id=song.id, file=f"audio/{song.id}.wav", style=song.style, case=case, meter=song.meter,
               duration_s=f"{song.duration:.2f}", no_tempo=int(song.no_tempo),
               beats_file=f"beats/{song.id}.beats.txt", drum_kit=song.drum_kit, gm_font=song.gm_font,
               pattern=song.meta.get("variant", ""),
               swing16=song.swing16 if song.swing16 != 0.5 else "",
               fx=json.dumps(song.fx, sort_keys=True) if song.fx else "", seed=p["seed"],
               bpm_before_change="", tempo_change_s="", drift=song.meta.get("drift", ""))
    if song.no_tempo:
        row.update(bpm="", bpm_alts="", bpm_perceived="", bpm_in_range="", beat_start_s="")
        return row
    if (case == "drift" or song.meta.get("curve")) and len(beats) > 1:
        # annotate the literal average tempo of the rendered excerpt (beats per minute over
        # the beats present), not the nominal tempo around which it drifts
        song.bpm = round(60.0 * (len(beats) - 1) / (beats[-1][1] - beats[0][1]), 2)
    alts, perceived = levels(song.style, song.meter, song.bpm)
    row.update(bpm=f"{song.bpm:g}", bpm_alts=";".join(f"{a:g}" for a in alts), bpm_perceived=f"{perceived:g}",
               bpm_in_range=f'{in_range([song.bpm] + alts):g}' if in_range([song.bpm] + alts) != "" else "",
               beat_start_s=f"{beats[0][1]:.4f}" if beats else "")
    if case == "change":
        row["bpm_before_change"] = f'{p["bpm_before"]:g}'
        row["tempo_change_s"] = f'{song.tmap.beat_to_sec(song.meta["change_bar"] * song.beats_per_bar):.4f}'
    return row

# ------------------------------------------------------------------ main


def work(args):
    p, dirs, keep_midi = args
    t0 = time.time()
    song = build_song(p)
    beats, check = render_song(song, p, dirs, keep_midi=keep_midi)
    return p["id"], manifest_row(song, p, beats), check, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="corpus", help="output folder (relative to this script's folder)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated ids to (re)render; manifest rows are merged")
    ap.add_argument("--list", action="store_true", help="print the plan and exit")
    ap.add_argument("--no-midi", action="store_true", help="do not keep the rendered MIDI files")
    ap.add_argument("--set", default="public", choices=["public", "ext", "world", "all"],
                    help="public: the public plan (default); ext: issue 37's extended material only; "
                    "world: folk, flamenco, samba, country and ballroom forms only; all: the three")
    a = ap.parse_args()
    out = a.out if os.path.isabs(a.out) else os.path.join(HERE, a.out)
    P = ((plan(a.seed) if a.set in ("public", "all") else [])
         + (styles_ext.plan_ext(a.seed) if a.set in ("ext", "all") else [])
         + (styles_world.plan_world(a.seed) if a.set in ("world", "all") else []))
    if a.list:
        for p in P:
            print(p["id"], p["style"], p["bpm"], p.get("case", ""))
        print(len(P), "tracks")
        return
    missing = [n for n in list(GM_FONTS.values()) + list(AVL_FONTS.values()) if not find_sf(n)]
    if missing or not shutil.which("fluidsynth") or not shutil.which("sox") or not os.path.isdir(H2_DIR):
        sys.exit(f"missing sound sources/tools: {missing}; need Debian packages: fluidsynth sox fluid-soundfont-gm "
                 "timgm6mb-soundfont musescore-general-soundfont-small avldrums.lv2-soundfont hydrogen-drumkits hydrogen-data")
    dirs = {k: os.path.join(out, k) for k in ("audio", "beats", "midi")}
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)
    sel = [p for p in P if not a.only or p["id"] in a.only.split(",")]
    t0 = time.time()
    results = {}
    jobs = [(p, dirs, not a.no_midi) for p in sel]
    if a.jobs > 1:
        import multiprocessing as mp
        with mp.Pool(a.jobs) as pool:
            for pid, row, check, dt in pool.imap_unordered(work, jobs):
                results[pid] = (row, check)
                print(f"{pid:28s} {dt:5.1f}s  click max dev {check.get('max_dev_ms', '-')} ms", flush=True)
    else:
        for j in jobs:
            pid, row, check, dt = work(j)
            results[pid] = (row, check)
            print(f"{pid:28s} {dt:5.1f}s  click max dev {check.get('max_dev_ms', '-')} ms", flush=True)
    # merge with existing manifest when --only
    man_path = os.path.join(out, "manifest.csv")
    chk_path = os.path.join(out, "render_check.csv")
    rows, checks = {}, {}
    if a.only and os.path.exists(man_path):
        with open(man_path) as f:
            rows = {r["id"]: r for r in csv.DictReader(f)}
        if os.path.exists(chk_path):
            with open(chk_path) as f:
                checks = {r["id"]: r for r in csv.DictReader(f)}
    for pid, (row, check) in results.items():
        rows[pid] = row
        if check:
            checks[pid] = check
    order = [p["id"] for p in P]
    with open(man_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=MANIFEST_COLS)
        w.writeheader()
        for pid in order:
            if pid in rows:
                w.writerow(rows[pid])
    ck_cols = ["id", "n_truth", "n_detected", "offset_ms", "max_dev_ms", "nominal_bpm", "click_fit_bpm"]
    with open(chk_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=ck_cols)
        w.writeheader()
        for pid in order:
            if pid in checks:
                w.writerow(checks[pid])
    devs = [float(c["max_dev_ms"]) for c in checks.values()]
    bad = [c["id"] for c in checks.values() if float(c["max_dev_ms"]) > 3.0 or int(c["n_detected"]) != int(c["n_truth"])]
    print(f"{len(results)} tracks in {time.time() - t0:.0f}s; click check: worst deviation {max(devs) if devs else 0:.2f} ms; "
          f"suspect tracks: {bad or 'none'}")


if __name__ == "__main__":
    main()
