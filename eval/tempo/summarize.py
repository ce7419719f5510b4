#!/usr/bin/env python3
"""Aggregate figures of one specviz run on one corpus, for run_specviz.sh.

  summarize.py timing  RESULTS CAUSAL_RESULTS MANIFEST WALL_S < per-command lines
      sums run_track.py's lines into RESULTS/timing.json (CPU of the offline `--beats` run,
      the one the 500x target is about) and CAUSAL_RESULTS/timing.json (the causal run), and
      keeps every mode's CPU, the wall time and the audio length beside them.
  summarize.py line SET NAME RESULTS CAUSAL_RESULTS MANIFEST
      prints ONE line of aggregate figures from score.py (nothing per track), e.g.
      `val base: beatF 0.905 | downbeatF 0.876 | causalF 0.879 | ±2BPM 96.6% | Acc1 93.2% | ...`
      ending with how many of issue 37's six bars (beat F >= 0.96, downbeat F >= 0.90, causal F >= 0.90,
      ±2 BPM >= 98 %, Acc1 >= 95 %, no beats on beat-less tracks) the run meets on this set.
Standard library only; imports score.py from this folder.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402


def timing(results, causal, manifest, wall):
    rows = score.load_manifest(manifest)
    audio = sum(r["dur"] for r in rows)
    cpu, fails = {}, 0
    for line in sys.stdin:
        x = line.rstrip("\n").split("\t")
        if len(x) != 5:
            continue
        cpu[x[1]] = cpu.get(x[1], 0.0) + float(x[2])
        fails += x[4] != "0"
    base = dict(audio_s=round(audio, 2), n=len(rows), run_wall_s=round(wall, 2),
                cpu_by_mode={k: round(v, 2) for k, v in cpu.items()}, failed_commands=fails)
    for folder, mode in ((results, "beats"), (causal, "causal")):
        with open(os.path.join(folder, "timing.json"), "w") as f:
            json.dump(dict(base, cpu_s=round(cpu.get(mode, 0.0), 2), mode=mode), f, indent=1)
    xs = "  ".join(f"{k} {audio / v:.0f}x" for k, v in cpu.items() if v > 0)
    print(f"wall {wall:.0f} s for {len(rows)} tracks ({audio:.0f} s of audio, 4 commands each, 2 at a time): "
          f"{audio / max(wall, 1e-9):.0f}x real time overall; per command, audio / CPU: {xs}; "
          f"{fails} failed commands")


def f3(x):
    return "-" if x is None or x != x else f"{x:.3f}"


def pc(x):
    return "-" if x is None or x != x else f"{x:.1f}%"


def line(set_name, name, results, causal, manifest):
    rows = score.load_manifest(manifest)
    per, tim = score.score_system(results, rows)
    s = score.summarize(per, tim)
    bper, btim = score.score_beat_system(results, rows)
    b = score.summarize_beats(bper, btim)
    cper, _ = score.score_beat_system(causal, rows)
    c = score.summarize_beats(cper, None)
    nt = b["notempo_beats"]
    modes = (tim or {}).get("cpu_by_mode", {})
    audio = (tim or {}).get("audio_s", 0.0)
    speed = " ".join(f"{k} {audio / v:.0f}x" for k, v in modes.items() if v > 0)
    bars = (("beatF", b["f"], 0.96), ("downbeatF", b.get("db_f"), 0.90), ("causalF", c["f"], 0.90),
            ("±2BPM", s["pm2"], 98.0), ("Acc1", s["acc1"], 95.0))
    miss = [k for k, v, lo in bars if v is None or not v >= lo] + ([] if nt == 0 else ["beat-less"])
    print(f"{set_name} {name}: beatF {f3(b['f'])} | downbeatF {f3(b.get('db_f'))} | causalF {f3(c['f'])} | "
          f"±2BPM {pc(s['pm2'])} | Acc1 {pc(s['acc1'])} | Acc2 {pc(s['acc2'])} | "
          f"CMLt {f3(b['cmlt'])} AMLt {f3(b['amlt'])} | beats on beat-less {'-' if nt is None else nt} | "
          f"no-tempo silent {s['notempo_silent']} | display lock {pc(s.get('lock_frac'))} | "
          f"n {b['n']}+{len(b['notempo_each'])} missing {b['n_missing']}/{c['n_missing']} | "
          f"x real time (audio/CPU) {speed or '-'} | wall {(tim or {}).get('run_wall_s', '-')} s | "
          f"issue-37 bars met {6 - len(miss)}/6" + (f" (short: {', '.join(miss)})" if miss else ""))


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "timing":
        timing(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    elif len(sys.argv) == 7 and sys.argv[1] == "line":
        line(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
