#!/usr/bin/env python3
"""Run one specviz binary on one track in the four modes the scorer reads, for run_specviz.sh.

  run_track.py BIN OUT CAUSAL_OUT WAV ID      (xargs appends WAV ID)

writes OUT/<id>.json (`tempo --json`), OUT/<id>.csv (`tempo --csv`), OUT/<id>.beats.csv
(`tempo --beats`, offline) and CAUSAL_OUT/<id>.beats.csv (`tempo --beats --causal`, the
beats the live view flashes, at the time it flashes them). Each file is written to a
temporary name and renamed, so an interrupted run never leaves half a file. A failed
command leaves what run_cmd.py leaves: {"bpm": null}, an empty timeline, no beats file
(scored 0, never "no beats"). Prints one line per command on stdout:
`id<TAB>mode<TAB>cpu_s<TAB>wall_s<TAB>exit`, which run_specviz.sh sums into timing.json.
Standard library only.
"""
import os
import resource
import subprocess
import sys
import time

MODES = (  # mode, extra arguments, file suffix, output folder index
    ("json", ["--json"], ".json", 0),
    ("csv", ["--csv"], ".csv", 0),
    ("beats", ["--beats"], ".beats.csv", 0),
    ("causal", ["--beats", "--causal"], ".beats.csv", 1),
)
FAILED = {".json": '{"bpm": null}\n', ".csv": ""}


def run(binary, wav, args, timeout):
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    try:
        p = subprocess.run([binary, "tempo", wav] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
        text, rc, err = p.stdout, p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        text, rc, err = "", -1, "timeout"
    wall = time.time() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    return text, rc, err, cpu, wall


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: run_track.py BIN OUT CAUSAL_OUT WAV ID")
    binary, out, causal_out, wav, tid = sys.argv[1:]
    timeout = float(os.environ.get("RUN_TIMEOUT", "300"))
    dirs = (out, causal_out)
    for mode, args, suffix, d in MODES:
        path = os.path.join(dirs[d], tid + suffix)
        text, rc, err, cpu, wall = run(binary, wav, args, timeout)
        if rc == 0:
            write_atomic(path, text)
        elif suffix in FAILED:
            write_atomic(path, FAILED[suffix])
        elif os.path.exists(path):
            os.remove(path)
        if rc != 0:
            print(f"{tid} {mode}: exit {rc}: {err.strip()[-200:]}", file=sys.stderr)
        print(f"{tid}\t{mode}\t{cpu:.3f}\t{wall:.3f}\t{rc}", flush=True)


if __name__ == "__main__":
    main()
