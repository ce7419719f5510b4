#!/bin/sh
# The real-recording set (issue 37's "real recordings no one here made"): music that Debian
# ships with three games (Wesnoth's orchestral score, SuperTux and Hedgewars), composed and
# recorded by people outside this project. 40 tracks are drawn with a fixed seed (37) and
# cut to 30 s mono 44.1 kHz WAVs (from 20 s in when the track is at least 55 s long).
#     sh make_set.sh OUT_DIR        # needs apt-get (download only, nothing is installed) and ffmpeg
# A second set from other packages, to study track by track (the development set; the one
# above stays the validation set):
#     sh make_set.sh OUT_DIR 41 warzone2100-music extremetuxracer-data widelands-data \
#         freedroidrpg-data megaglest-data lincity-ng-data flare-game
set -eu
out="${1:?usage: make_set.sh OUT_DIR [SEED PACKAGE...]}"
seed="${2:-37}"
[ $# -ge 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- wesnoth-1.16-music supertux-data hedgewars-data
mkdir -p "$out/debs" && cd "$out"
(cd debs && apt-get download "$@")
for d in debs/*.deb; do dpkg -x "$d" x; done
# PATTERN (default /music/) picks the music among a package's files; files FFmpeg cannot open
# are skipped.
find x \( -iname '*.ogg' -o -iname '*.opus' -o -iname '*.mp3' \) -size +300k | grep -iE "${PATTERN:-/music/}" | sort > all.txt
SEED="$seed" python3 - <<'PY'
import os, random, subprocess
paths = open("all.txt").read().splitlines()
random.Random(int(os.environ["SEED"])).shuffle(paths)
os.makedirs("wav", exist_ok=True)
with open("manifest.tsv", "w") as m:
    i = 0
    for p in paths:
        if i == 40:
            break
        probe = ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", p]
        d = float(subprocess.run(probe, capture_output=True, text=True).stdout.strip() or 0)
        start = 20 if d >= 55 else 0
        cut = subprocess.run(["ffmpeg", "-v", "error", "-y", "-ss", str(start), "-t", "30", "-i", p,
                              "-ac", "1", "-ar", "44100", f"wav/r{i:02d}.wav"])
        if cut.returncode != 0:
            continue
        m.write(f"r{i:02d}\t{p.split('/share/')[1]}\t{d:.1f}\t{start}\n")
        i += 1
PY
