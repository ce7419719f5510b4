"""The extended material of issue 37, in the generator's own design (make_corpus.py --set ext).

The losses on held-out and real music point at what the public set lacks, so these styles add it,
with the same exact ground truth (beats, downbeats, tempo, levels, meter):

  strings   string orchestra without drums, rubato of up to ±8 % (arco, pizzicato or chorale writing)
  piano     solo piano without drums, rubato of up to ±8 % (Alberti, broken-chord, waltz or pulse-chord
            left hand, sustain pedal on some tracks)
  song      a sung melody (choir 'Aahs', voice 'Oohs' or synth voice, with scoops and vibrato) over an
            acoustic guitar (nylon or steel; strummed, Travis-picked or arpeggiated), sometimes a bass
  ragtime   stride left hand (bass note on beats 1 and 3, chord on 2 and 4; in 2/4 bass on 1, chord
            on 2), syncopated right hand, 80-145 BPM, the quarter as beat
  loudhats  house and funk whose hi-hats are mixed 4-10 dB above the kick (make_corpus.render_song)
  notempo   two more beat-less chords, so "no beats" is checked on this set too

Rubato: the tempo is a smooth random curve (three slow sinusoids, scaled so that its largest
deviation is the track's amount, 5-8 %), written as a tempo step every sixteenth note; the beat
times in beats/ are the exact integrals of that curve (TempoMap), and the audio is rendered in
the generator's "linear time" MIDI, so audio and ground truth agree to the sample.
"""
import math

import numpy as np

H = None  # make_corpus, set by install()

HAT_VOICES = ("chh", "phh", "ohh", "shaker", "tamb")


def install(mc):
    """Register the styles in make_corpus (its STYLE_FN and STYLE_INFO)."""
    global H
    H = mc
    mc.STYLE_FN.update(strings=style_strings, piano=style_piano, song=style_song, ragtime=style_ragtime)
    mc.STYLE_INFO.update(
        strings=dict(meter="4/4", modes=["minor", "major"], kits=[None], human=12.0, drum_db=0),
        piano=dict(meter="4/4", modes=["major", "minor"], kits=[None], human=7.0, drum_db=0),
        song=dict(meter="4/4", modes=["major", "minor"], kits=[None], human=8.0, drum_db=0),
        ragtime=dict(meter="4/4", modes=["major"], kits=[None], human=5.0, drum_db=0),
    )

# ------------------------------------------------------------------ plan


def plan_adder(P):
    """add(style, bpms, **kw) appends one plan entry per tempo to P; a list value of kw is taken
    in turn (the i-th tempo gets item i modulo its length)."""
    def add(style, bpms, **kw):
        for i, b in enumerate(bpms):
            d = {k: (v[i % len(v)] if isinstance(v, list) else v) for k, v in kw.items()}
            P.append(dict(style=style, bpm=None if b is None else float(b), **d))
    return add


def plan_ext(seed):
    """The extended set: new styles only, ids and seeds disjoint from the public plan's."""
    rng = np.random.default_rng(seed + 37)
    P = []
    add = plan_adder(P)

    add("strings", [64, 76, 88, 100, 112, 126], variant=["arco8", "pizz", "chorale"], meter=["4/4", "3/4"])
    add("piano", [60, 72, 84, 96, 110, 124], variant=["alberti", "broken", "waltz", "pulse"],
        meter=["4/4", "4/4", "3/4", "4/4"])
    add("song", [72, 84, 96, 104, 116, 128], variant=["strum", "picked", "arpeggio"])
    add("ragtime", [84, 100, 116, 130, 143], meter=["2/4", "4/4"])
    add("house", [122, 125, 128], case="loudhats")
    add("funk", [96, 104, 112], case="loudhats")
    add("notempo", [None], case="notempo", sustain_program=49)   # slow strings chord
    add("notempo", [None], case="notempo", sustain_program=0, fx=dict(reverb=80))  # one held piano chord
    kit_rot = {"house": H.KITS_ELEC, "funk": H.KITS_ACOU}
    fonts = ["fluid", "mscore", "timgm", "fluid"]
    counts = {}
    for i, p in enumerate(P):
        if p["bpm"] is not None:
            p["bpm"] = float(round(p["bpm"] * rng.uniform(0.95, 1.05) * 2) / 2)
            if p["style"] == "ragtime":
                p["bpm"] = min(p["bpm"], 145.0)   # the pulse of the real rag that failed is ~143
        if p["style"] in ("strings", "piano"):
            p["rubato"] = float(round(rng.uniform(0.05, 0.08), 3))
        elif p["style"] == "song" and i % 2 == 1:
            p["rubato"] = float(round(rng.uniform(0.02, 0.03), 3))
        if p.get("case") == "loudhats":
            p["fx"] = dict(hats_over_kick_db=float(round(rng.uniform(4, 10), 1)))
        name = p["style"] if not p.get("case") or p["case"] == p["style"] else f'{p["case"]}_{p["style"]}'
        counts[name] = counts.get(name, 0) + 1
        off = sum(map(ord, p["style"])) + seed
        kits = kit_rot.get(p["style"], [None])
        p["kit"] = kits[(counts[name] + off) % len(kits)]
        p["gm_font"] = fonts[(counts[name] + off) % len(fonts)]
        p["id"] = f"{name}_{counts[name]:02d}"
        p["index"] = 500 + i
        p["seed"] = int(seed) * 1000 + 500 + i
    return P


def rubato_changes(rng, bpm, amount, total_beats, step=0.25):
    """Tempo steps (beat, bpm) every `step` beats: bpm·(1 + amount·c(x)), c a sum of three slow
    sinusoids (periods of 3 to 16 bars' worth of beats) scaled so that max |c| = 1."""
    n = int(math.ceil(total_beats / step))
    x = np.arange(n) * step
    c = np.zeros(n)
    for _ in range(3):
        period = rng.uniform(10.0, 48.0)
        c += rng.uniform(0.5, 1.0) * np.sin(2 * math.pi * x / period + rng.uniform(0, 2 * math.pi))
    c /= max(np.abs(c).max(), 1e-9)
    return [(float(b), float(bpm * (1 + amount * v))) for b, v in zip(x, c)]

# ------------------------------------------------------------------ shared helpers


def guitar_shape(harm_bar, lo=40):
    """Six-string open-position shape of a chord: root, fifth, octave, tenth, twelfth, two octaves."""
    pcs, root = harm_bar[0][1], harm_bar[0][2]
    third, fifth = (pcs[1] - pcs[0]) % 12, (pcs[2] - pcs[0]) % 12
    r = H.bass_root(root, lo)
    return [r, r + fifth, r + 12, r + 12 + third, r + 12 + fifth, r + 24]


def strum(song, part, beat, pitches, vel, down=True, spread_s=None):
    """One strum: the strings sounded one after another, 8-25 ms apart (down: low to high)."""
    rng = song.rng
    spread_s = spread_s if spread_s is not None else rng.uniform(0.008, 0.025)
    b0 = song.jitter(beat)
    d = spread_s * song.tmap.bpm_at_beat(max(b0, 0)) / 60.0
    order = pitches if down else list(reversed(pitches))
    for i, p in enumerate(order):
        song.note(part, b0 + i * d, 0.9, p, vel - 3 * i + int(rng.integers(-4, 5)), human=False)


def pedal(song, bar):
    """Sustain pedal: down just after the bar's first beat, up just before the next bar."""
    bpb = song.beats_per_bar
    song.ctrl.append(("piano", bar * bpb + 0.08, "cc64", 127))
    song.ctrl.append(("piano", (bar + 1) * bpb - 0.06, "cc64", 0))


def vocal_line(song, part, harm, start_bar, lo=57, hi=76):
    """A sung melody: two-bar phrases with breaths, stepwise, chord tones on the beats, notes of an
    eighth to a half; each note may scoop up into pitch (pitch bend) and long notes get vibrato (CC1)."""
    rng = song.rng
    mode = song.meta["mode"]
    sc = H.scale_of(mode)
    key = song.meta["key"]
    pool = sorted(p for o in range(10) for d in sc for p in [12 * o + key % 12 + d] if lo <= p <= hi)
    bpb = song.beats_per_bar
    cur = pool[len(pool) // 2]
    bar = start_bar
    while bar < song.n_bars:
        t = bar * bpb + (0.5 if rng.random() < 0.4 else 0.0)   # pick-up or on the beat
        end = (bar + 2) * bpb - rng.choice([0.5, 1.0])
        while t < end:
            dur = float(rng.choice([0.5, 0.5, 1.0, 1.0, 1.5, 2.0]))
            dur = min(dur, end - t)
            b = int(t // bpb)
            chord = harm[min(b, song.n_bars - 1)][0][1]
            if abs(t - round(t)) < 1e-9:
                cands = [p for p in pool if p % 12 in [c % 12 for c in chord]]
                cur = min(cands, key=lambda p: abs(p - cur) + rng.random() * 3) if cands else cur
            else:
                i = pool.index(min(pool, key=lambda p: abs(p - cur)))
                cur = pool[int(np.clip(i + rng.choice([-1, -1, 1, 1, 2, -2]), 0, len(pool) - 1))]
            on = song.jitter(t)
            song.note(part, on, dur * 0.97, cur, 74 + int(rng.integers(-8, 12)), human=False)
            if rng.random() < 0.5:  # scoop: 30-80 cents flat, up to pitch over ~0.1 s
                depth = rng.uniform(0.3, 0.8) * 4096
                span = 0.1 * song.tmap.bpm_at_beat(on) / 60.0
                for k in range(5):
                    song.ctrl.append((part, on + k * span / 4, "bend", int(-depth * (1 - k / 4))))
            song.ctrl.append((part, on, "cc1", 0))
            if dur >= 1.0:
                song.ctrl.append((part, on + 0.4, "cc1", int(rng.integers(40, 80))))
            t += dur
        bar += 2
        if rng.random() < 0.3:
            bar += 1   # a longer breath

# ------------------------------------------------------------------ styles


def style_strings(song, harm, first_bar):
    rng = song.rng
    bpb = song.beats_per_bar
    v = song.meta["variant"]
    song.add_part("lead", H.choose(rng, [40, 48, 49]), 90, 70)
    song.add_part("cello", 42, 95, 50)
    song.add_part("bass", 43, 95, 60)
    if v == "pizz":
        song.add_part("pizz", 45, 100, 64)
        song.add_part("pad", 49, 60, 80)
    else:
        song.add_part("inner", H.choose(rng, [48, 41]), 80, 80)
    for bar in range(first_bar, song.n_bars):
        ch, root = harm[bar][0][1], harm[bar][0][2]
        b = H.bass_root(root, 31)
        accent = 8 if bar % 2 == 0 else 0
        if v == "arco8":
            for beat in range(0, bpb, 2 if bpb == 4 else 3):
                song.note("bass", bar * bpb + beat, 1.9 if bpb == 4 else 2.9, b, 84 + accent)
                song.note("cello", bar * bpb + beat, 1.9 if bpb == 4 else 2.9, b + 12, 80 + accent)
            for e in range(2 * bpb):
                p = ch[(e // 2) % len(ch)] if e % 2 == 0 else ch[-1]
                song.note("inner", bar * bpb + e / 2, 0.45, p, (78 if e % 2 == 0 else 62) + (8 if e == 0 else 0))
        elif v == "pizz":
            for beat in range(bpb):
                song.note("pizz", bar * bpb + beat, 0.3, b + 12 + (7 if beat % 2 else 0), 96 if beat == 0 else 82)
                if beat > 0:
                    for p in ch:
                        song.note("pizz", bar * bpb + beat + (0.5 if bpb == 4 else 0.0), 0.25, p, 66)
            for p in ch:
                song.note("pad", bar * bpb, bpb * 0.98, p, 52)
            song.note("bass", bar * bpb, bpb * 0.95, b, 70 + accent)
        else:  # chorale: every beat bowed again, the harmony moving twice a bar (once in 3/4)
            half = bpb // 2 if bpb == 4 else bpb
            for beat in range(bpb):
                c2 = harm[bar][0][1] if beat < half else harm[min(bar + 1, song.n_bars - 1)][0][1]
                vel = 82 if beat == 0 else (72 if beat == half else 62)
                for p in c2:
                    song.note("inner", bar * bpb + beat, 0.95, p, vel)
                song.note("cello", bar * bpb + beat, 0.95, H.bass_root(c2[0] % 12, 36) + 12 * (beat % 2), vel)
            song.note("bass", bar * bpb, bpb * 0.97, b, 76)
    H.melody_line(song, "lead", song.n_bars, harm, lo=67, hi=91, density=0.3, mode=song.meta["mode"],
                  start_bar=first_bar + 1)


def style_piano(song, harm, first_bar):
    rng = song.rng
    bpb = song.beats_per_bar
    v = song.meta["variant"]
    song.add_part("piano", H.choose(rng, [0, 0, 1]), 105, 64)
    use_pedal = rng.random() < 0.6
    for bar in range(first_bar, song.n_bars):
        ch, root = harm[bar][0][1], harm[bar][0][2]
        lo = [p - 12 for p in ch]
        b = H.bass_root(root, 36)
        arch = int(10 * math.sin(math.pi * ((bar % 4) + 0.5) / 4))  # phrase dynamics
        if v == "alberti":
            fig = [lo[0], lo[2], lo[1], lo[2]]
            for e in range(2 * bpb):
                song.note("piano", bar * bpb + e / 2, 0.45, fig[e % 4], (70 if e % 2 == 0 else 56) + arch)
        elif v == "broken":
            fig = [b, b + 7, b + 12, lo[1] + 12, b + 19, b + 12, b + 7, lo[1] + 12]
            for e in range(2 * bpb):
                song.note("piano", bar * bpb + e / 2, 0.9, fig[e % len(fig)], (72 if e % 2 == 0 else 58) + arch)
        elif v == "waltz":
            song.note("piano", bar * bpb, 0.9, b - 12 * (bar % 2 == 0 and b > 40), 82 + arch)
            for beat in range(1, bpb):
                for p in lo:
                    song.note("piano", bar * bpb + beat, 0.6, p + 12, 60 + arch)
        else:  # pulse: bass octave held, chords repeated on every beat
            song.note("piano", bar * bpb, bpb * 0.95, b, 80 + arch)
            song.note("piano", bar * bpb, bpb * 0.95, b - 12, 74 + arch)
            for beat in range(bpb):
                for p in ch:
                    song.note("piano", bar * bpb + beat, 0.8, p, (70 if beat == 0 else 60) + arch)
        if use_pedal:
            pedal(song, bar)
    H.melody_line(song, "piano", song.n_bars, harm, lo=67, hi=91, density=0.45, mode=song.meta["mode"],
                  start_bar=first_bar + 1)


def style_song(song, harm, first_bar):
    rng = song.rng
    bpb = song.beats_per_bar
    v = song.meta["variant"]
    song.add_part("guitar", H.choose(rng, [24, 25]), 100, 50)
    song.add_part("voice", H.choose(rng, [52, 53, 54]), 105, 70)
    bass = rng.random() < 0.4
    if bass:
        song.add_part("bass", H.choose(rng, [32, 33]), 85)
    pattern = H.choose(rng, ["D.DU.UDU", "D.D.DUDU", "D.DUDUDU", "DUDUDUDU"])
    for bar in range(first_bar, song.n_bars):
        shape = guitar_shape(harm[bar])
        if v == "strum":
            for e, s in enumerate(pattern):
                if s == ".":
                    continue
                down = s == "D"
                strings = shape if down else shape[2:]
                vel = (92 if e % 2 == 0 else 76) + (6 if e == 0 else 0)
                strum(song, "guitar", bar * bpb + e / 2, strings, vel if down else vel - 14, down=down)
        elif v == "picked":  # Travis: thumb alternates on the beats, fingers on the off-beats
            for beat in range(bpb):
                thumb = shape[0] if beat % 2 == 0 else shape[1]
                song.note("guitar", bar * bpb + beat, 0.9, thumb, 84 if beat == 0 else 76)
                song.note("guitar", bar * bpb + beat + 0.5, 0.4, shape[3 + (beat % 3)], 66)
                if beat % 2 == 0:
                    song.note("guitar", bar * bpb + beat, 0.8, shape[5], 62)
        else:  # arpeggio
            order = [0, 2, 3, 4, 5, 4, 3, 2]
            for e in range(2 * bpb):
                song.note("guitar", bar * bpb + e / 2, 1.0, shape[order[e % 8]], 78 if e % 2 == 0 else 64)
        if bass:
            root = H.bass_root(harm[bar][0][2], 28)
            for beat in range(0, bpb, 2):
                song.note("bass", bar * bpb + beat, 1.8, root + (7 if beat else 0), 90)
    vocal_line(song, "voice", harm, first_bar + 1)


RAG_CELLS = ["x.xx", "xx.x", "x.x.", "x..x", ".xx.", "xxxx", "x...", "x.xx"]


def style_ragtime(song, harm, first_bar):
    rng = song.rng
    bpb = song.beats_per_bar
    song.add_part("piano", H.choose(rng, [0, 1, 3]), 105, 64)
    cells = [H.choose(rng, RAG_CELLS) for _ in range(4)]
    for bar in range(first_bar, song.n_bars):
        ch, root = harm[bar][0][1], harm[bar][0][2]
        b = H.bass_root(root, 31)
        for beat in range(bpb):
            t = bar * bpb + beat
            if beat % 2 == 0:   # stride: bass octave (root, then fifth) on 1 (and 3)
                low = b + (7 if (beat // 2 + bar) % 2 else 0)
                song.note("piano", t, 0.45, low, 92 if beat == 0 else 86)
                song.note("piano", t, 0.45, low + 12, 80)
            else:               # chord in the middle register on 2 (and 4)
                for p in H.voice(ch, 52, 67):
                    song.note("piano", t, 0.4, p, 74)
            # right hand: syncopated sixteenths in thirds and sixths over the chord
            cell = cells[(bar * bpb + beat) % len(cells)] if bar % 4 != 3 else "x.x."
            top = sorted(p + 24 for p in ch)
            for s, c in enumerate(cell):
                if c != "x":
                    continue
                i = (beat * 2 + s + bar) % len(top)
                under = top[i - 1] if i > 0 else top[-1] - 12   # the chord tone below: thirds and sixths
                song.note("piano", t + s / 4, 0.22 if s < 3 else 0.4, top[i], 80 if s == 0 else 72)
                song.note("piano", t + s / 4, 0.22 if s < 3 else 0.4, under, 64)
