"""Dance and folk forms that the issue's human-annotated check names and the generator lacked
(make_corpus.py --set world): folk, flamenco, samba, country and ballroom, in the generator's own
design, with the same exact ground truth (beats, downbeats, tempo, levels, meter).

  samba      2/4 batucada: surdos (the open stroke on 2), caixa sixteenths, tamborim, ganza and
             agogo; half the tracks drums only, the others with cavaquinho and bass
  rumba      flamenco rumba in 4/4: nylon guitar rasgueado over the Andalusian cadence, palmas on
             the off-beats (contratiempo) or on the beats, cajon (bass on 1 and 3-and, slap on 2, 4)
  country    train beat (brushed snare sixteenths, accents on 2 and 4) or no drums, boom-chick
             bass on 1 and 3, steel guitar on 2 and 4, fiddle
  jig        Irish jig, written as 12/8 (two 6/8 bars; the dotted quarter is the beat): fiddle,
             flute or accordion in running eighths, guitar on the beats, a bodhran on some tracks
  tango      ballroom tango, no drums: bandoneon and pizzicato strings marcato on every beat,
             bass on 1 and 3, the "and" of 4 staccato into the next bar
  chacha     ballroom cha-cha-cha: cowbell, guiro, congas, piano montuno; the bass tumbao plays
             on 2-and and 4, never on 1
  vwaltz     Viennese waltz, 3/4 at 165-185: bass on 1, chords on 2 and 3, strings, no drums

The rubato of the folk and tango tracks is the ext set's smooth curve (styles_ext.rubato_changes).
"""
import numpy as np

import styles_ext

H = None  # make_corpus, set by install()

PERC_KITS = ["fluid_std", "mscore_std", "tim_std", "fluid_room", "mscore_room"]

# GM percussion notes of the voices used here (the soundfont kits carry them all).
WORLD_NOTES = {"surdo": 41, "surdo2": 43, "agogoh": 67, "agogol": 68, "timbh": 65, "timbl": 66,
               "bongoh": 60, "bongol": 61, "cabasa": 69, "guiro": 73, "guirol": 74, "woodblock": 76}


def install(mc):
    """Register the styles in make_corpus (its STYLE_FN, STYLE_INFO and GM_NOTE)."""
    global H
    H = mc
    mc.GM_NOTE.update(WORLD_NOTES)
    mc.STYLE_FN.update(samba=style_samba, rumba=style_rumba, country=style_country, jig=style_jig,
                       tango=style_tango, chacha=style_chacha, vwaltz=style_vwaltz)
    mc.STYLE_INFO.update(
        samba=dict(meter="2/4", modes=["major", "minor"], kits=PERC_KITS, human=4.0, drum_db=3),
        rumba=dict(meter="4/4", modes=["minor"], kits=PERC_KITS, human=7.0, drum_db=-3),
        country=dict(meter="4/4", modes=["major"], kits=["fluid_brush", "mscore_brush", "fluid_jazz", "avl_bp"],
                     human=6.0, drum_db=-4),
        jig=dict(meter="12/8", modes=["major", "dorian"], kits=PERC_KITS, human=6.0, drum_db=-4),
        tango=dict(meter="4/4", modes=["minor"], kits=[None], human=6.0, drum_db=0),
        chacha=dict(meter="4/4", modes=["minor", "major"], kits=PERC_KITS, human=5.0, drum_db=-1),
        vwaltz=dict(meter="3/4", modes=["major", "minor"], kits=[None], human=6.0, drum_db=0),
    )


def plan_world(seed):
    """The world set: these styles only, ids and seeds disjoint from the other plans'."""
    rng = np.random.default_rng(seed + 41)
    P = []
    add = styles_ext.plan_adder(P)

    add("samba", [92, 98, 104, 110], variant=["batucada", "band"])
    add("rumba", [100, 112, 124, 136], variant=["contra", "onbeat"])
    add("country", [104, 120, 136, 150], variant=["train", "nodrums"])
    add("jig", [100, 110, 118, 126], variant=["bodhran", "nodrums"])
    add("tango", [120, 126, 132])
    add("chacha", [116, 122, 128])
    add("vwaltz", [168, 176, 184])
    add("notempo", [None], case="notempo", sustain_program=21)   # an accordion chord held
    fonts = ["fluid", "mscore", "timgm", "fluid"]
    counts = {}
    for i, p in enumerate(P):
        if p["bpm"] is not None:
            p["bpm"] = float(round(p["bpm"] * rng.uniform(0.96, 1.04) * 2) / 2)
        if p["style"] in ("jig", "tango") and i % 2 == 0:
            p["rubato"] = float(round(rng.uniform(0.03, 0.06), 3))
        name = p["style"] if not p.get("case") or p["case"] == p["style"] else f'{p["case"]}_{p["style"]}'
        counts[name] = counts.get(name, 0) + 1
        kits = H.STYLE_INFO[p["style"]]["kits"]
        off = sum(map(ord, p["style"])) + seed
        p["kit"] = kits[(counts[name] + off) % len(kits)]
        if p.get("variant") in ("nodrums",):
            p["kit"] = None
        p["gm_font"] = fonts[(counts[name] + off) % len(fonts)]
        p["id"] = f"world_{name}_{counts[name]:02d}"
        p["index"] = 800 + i
        p["seed"] = int(seed) * 1000 + 800 + i
    return P


def hits(song, bar, voice, steps, vel, jitter=True):
    """Drum hits at grid steps `steps` of `bar`, velocities around `vel`."""
    for st in steps:
        song.hit(song.pos(bar, st), voice, vel + int(song.rng.integers(-6, 7)), human=jitter)


def style_samba(song, harm, first_bar):
    rng = song.rng
    band = song.meta.get("variant") == "band"
    if band:
        song.add_part("cavaquinho", H.choose(rng, [24, 25, 105]), 95, 70)
        song.add_part("bass", H.choose(rng, [32, 33]), 100)
    tam = H.choose(rng, ["x.xx.xx.x.xx.xx.", "x.xxx.x.x.x.xx.x", "xx.x.xx.x.xx.x.x"])
    aggo = H.choose(rng, ["h.l.h.hl", "hl.lh.l.", "h.h.l.l."])
    for bar in range(first_bar, song.n_bars):
        # surdos: a muted first, the open low answer on 2 (steps 0..7 = two beats of sixteenths)
        hits(song, bar, "surdo2", [0], 86)
        hits(song, bar, "surdo", [4], 118)
        if rng.random() < 0.5:
            hits(song, bar, "surdo2", [3], 60)
        # caixa: sixteenths, accents on the e and a
        for st in range(8):
            song.hit(song.pos(bar, st), "snare", 78 if st % 4 in (1, 3) else 52)
        for st, c in enumerate(tam[(bar % 2) * 8:(bar % 2) * 8 + 8]):
            if c == "x":
                song.hit(song.pos(bar, st), "timbh", 96 if st % 2 else 80)
        for st in range(8):
            song.hit(song.pos(bar, st), "cabasa", 70 if st % 2 == 0 else 50)
        for st, c in enumerate(aggo):
            if c != ".":
                song.hit(song.pos(bar, st), "agogoh" if c == "h" else "agogol", 84)
        if band:
            ch, root = harm[bar][0][1], harm[bar][0][2]
            for st in (0, 3, 6):
                for p in H.voice(ch, 62, 77):
                    song.note("cavaquinho", song.pos(bar, st), 0.3, p, 82 if st == 0 else 70)
            b = H.bass_root(root, 33)
            song.note("bass", song.pos(bar, 0), 0.4, b, 88)
            song.note("bass", song.pos(bar, 3), 0.2, b + 7, 70)
            song.note("bass", song.pos(bar, 4), 0.9, b + 7 - 12 if b + 7 - 12 >= 28 else b + 7, 100)


def style_rumba(song, harm, first_bar):
    rng = song.rng
    contra = song.meta.get("variant") == "contra"
    song.add_part("guitar", 24, 105, 60)
    lead = rng.random() < 0.6
    if lead:
        song.add_part("lead", H.choose(rng, [24, 73, 52]), 80, 70)
    ras = H.choose(rng, ["D.DUD.DUD.DUDUDU", "D..UD.DUD..UD.DU", "DUDUD.DU.UD.DUDU"])
    for bar in range(first_bar, song.n_bars):
        shape = styles_ext.guitar_shape(harm[bar], 40)
        for st, s in enumerate(ras):
            if s == ".":
                continue
            accent = st in (0, 6, 12) if contra else st % 4 == 0
            styles_ext.strum(song, "guitar", song.pos(bar, st), shape if s == "D" else shape[2:],
                             (96 if accent else 72) - (10 if s == "U" else 0), down=s == "D", spread_s=0.012)
        if song.drum_kit:
            # palmas: on the off-beats (contratiempo) or on every beat; the cajon
            hits(song, bar, "clap", [2, 6, 10, 14] if contra else [0, 4, 8, 12], 96)
            hits(song, bar, "kick", [0, 10], 104)
            hits(song, bar, "rim", [4, 12], 100)
            if rng.random() < 0.5:
                hits(song, bar, "rim", [7, 15], 58)
    if lead:
        H.melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 2, density=0.45, mode="minor")


def style_country(song, harm, first_bar):
    rng = song.rng
    song.add_part("guitar", 25, 95, 50)
    song.add_part("bass", H.choose(rng, [32, 33]), 100)
    song.add_part("fiddle", H.choose(rng, [110, 40]), 85, 80)
    for bar in range(first_bar, song.n_bars):
        if song.drum_kit:
            for st in range(16):
                song.hit(song.pos(bar, st), "snare", 100 if st in (4, 12) else (64 if st % 2 == 0 else 44))
            hits(song, bar, "kick", [0, 8], 100)
        root = harm[bar][0][2]
        b = H.bass_root(root, 33)
        song.note("bass", song.pos(bar, 0), 0.8, b, 100)
        song.note("bass", song.pos(bar, 8), 0.8, b + 7 if b + 7 <= 52 else b - 5, 94)
        shape = styles_ext.guitar_shape(harm[bar], 40)
        for st in (4, 12):
            styles_ext.strum(song, "guitar", song.pos(bar, st), shape[2:], 86, down=True)
        if rng.random() < 0.5:
            styles_ext.strum(song, "guitar", song.pos(bar, 14), shape[3:], 62, down=False)
    H.melody_line(song, "fiddle", song.n_bars, harm, start_bar=first_bar + 1, density=0.55, mode="major")


def style_jig(song, harm, first_bar):
    """12/8: four dotted-quarter beats of three eighths (two 6/8 bars)."""
    rng = song.rng
    song.add_part("tune", H.choose(rng, [110, 73, 21, 72]), 100, 70)
    song.add_part("guitar", H.choose(rng, [24, 25]), 85, 45)
    mode = song.meta["mode"]
    sc = H.scale_of(mode)
    key = song.meta["key"]
    pool = sorted(p for o in range(10) for d in sc for p in [12 * o + key % 12 + d] if 62 <= p <= 86)
    cur = len(pool) // 2
    for bar in range(first_bar, song.n_bars):
        ch = harm[bar][0][1]
        for beat in range(4):
            # the tune: running eighths (a quarter + eighth now and then), chord tones on the beats
            cells = H.choose(rng, [(0, 1, 2), (0, 1, 2), (0, 2), (0, 1, 2)])
            for k in cells:
                if k == 0:
                    tones = [i for i, p in enumerate(pool) if p % 12 in [c % 12 for c in ch]]
                    cur = min(tones, key=lambda i: abs(i - cur) + rng.random() * 2)
                else:
                    cur = int(np.clip(cur + H.choose(rng, [-1, 1, 1, -2, 2]), 0, len(pool) - 1))
                dur = (2 if (k == 0 and 1 not in cells) else 1) / 3
                song.note("tune", song.pos(bar, beat * 3 + k, swing=False), dur * 0.9, pool[cur],
                          92 if k == 0 else 74)
            shape = styles_ext.guitar_shape(harm[bar], 40)
            styles_ext.strum(song, "guitar", song.pos(bar, beat * 3, swing=False), shape, 84, down=True)
            styles_ext.strum(song, "guitar", song.pos(bar, beat * 3 + 2, swing=False), shape[2:], 60, down=False)
            if song.drum_kit:
                song.hit(song.pos(bar, beat * 3, swing=False), "congal", 100 if beat % 2 == 0 else 84)
                song.hit(song.pos(bar, beat * 3 + 2, swing=False), "bongol", 60)


def style_tango(song, harm, first_bar):
    rng = song.rng
    song.add_part("bandoneon", H.choose(rng, [21, 23]), 95, 50)
    song.add_part("strings", 45, 90, 80)
    song.add_part("bass", H.choose(rng, [32, 43]), 100)
    song.add_part("lead", H.choose(rng, [40, 41, 21]), 80, 64)
    for bar in range(first_bar, song.n_bars):
        ch, root = harm[bar][0][1], harm[bar][0][2]
        for beat in range(4):
            for p in H.voice(ch, 53, 69):
                song.note("bandoneon", bar * 4 + beat, 0.35, p, 96 if beat in (0, 2) else 80)
                song.note("strings", bar * 4 + beat, 0.2, p + 12, 84)
        if rng.random() < 0.6:   # the "and" of 4 into the next bar
            for p in H.voice(ch, 53, 69):
                song.note("bandoneon", bar * 4 + 3.5, 0.2, p, 90)
        b = H.bass_root(root, 28)
        song.note("bass", bar * 4, 0.5, b, 104)
        song.note("bass", bar * 4 + 2, 0.5, b + 7, 96)
    H.melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 2, density=0.5, mode="minor")


def style_chacha(song, harm, first_bar):
    rng = song.rng
    song.add_part("piano", H.choose(rng, [0, 1]), 95, 60)
    song.add_part("bass", H.choose(rng, [32, 33]), 105)
    lead = rng.random() < 0.7
    if lead:
        song.add_part("lead", H.choose(rng, [56, 73, 65]), 80, 70)
    for bar in range(first_bar, song.n_bars):
        H.play_pattern(song, bar, {"cowbell": "x...x...x...x...", "guiro": "x.......x...x.x.",
                                   "congah": "....x.......x.x.", "congal": "..........x....x",
                                   "claves": "x..x..x...x.x..."})
        ch, root = harm[bar][0][1], harm[bar][0][2]
        b = H.bass_root(root, 33)
        song.note("bass", song.pos(bar, 6), 0.4, b, 100)       # tumbao: 2-and ...
        song.note("bass", song.pos(bar, 12), 0.9, b + 7 if b + 7 <= 52 else b - 5, 96)  # ... and 4
        for st in (0, 3, 6, 8, 10, 12, 14):   # montuno
            for p in H.voice(ch, 60, 76)[:2 if st % 4 else 3]:
                song.note("piano", song.pos(bar, st), 0.25, p, 80 if st % 4 == 0 else 66)
    if lead:
        H.melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar + 2, density=0.4, mode=song.meta["mode"])


def style_vwaltz(song, harm, first_bar):
    rng = song.rng
    song.add_part("bass", H.choose(rng, [32, 43, 58]), 105)
    song.add_part("chords", H.choose(rng, [0, 48, 45, 21]), 85, 60)
    song.add_part("lead", H.choose(rng, [40, 73, 68, 56]), 85, 64)
    for bar in range(first_bar, song.n_bars):
        ch, root = harm[bar][0][1], harm[bar][0][2]
        b = H.bass_root(root, 33)
        song.note("bass", bar * 3, 0.9, b + (7 if bar % 2 else 0), 100)
        for beat in (1, 2):
            for p in H.voice(ch, 55, 72):
                song.note("chords", bar * 3 + beat, 0.5, p, 72)
    H.melody_line(song, "lead", song.n_bars, harm, start_bar=first_bar, density=0.45, mode=song.meta["mode"])
