#!/bin/sh
# A third development set of real recordings (2026-11-27): game music Debian ships outside
# `/music/` folders and as tracker modules (Impulse Tracker, FastTracker, ProTracker: decoded by
# FFmpeg's libopenmpt), from Pingus, Ri-li, X-Moto, Scorched 3D and Bos Wars. Every file of at
# least 20 s, in path order, cut to 30 s mono 44.1 kHz WAVs (from 20 s in when at least 55 s).
#     sh make_set_modules.sh OUT_DIR      # ~330 MB of .deb (download only), 30 WAVs
# Two of the cuts are silence (a module that ends after 2 s, one that decodes silent from 20 s
# on); madmom still puts beats on both, so they count as misses in the mean.
set -eu
out="${1:?usage: make_set_modules.sh OUT_DIR}"
mkdir -p "$out/debs" && cd "$out"
(cd debs && apt-get download nexuiz-music boswars-data neverball-data xmoto-data pingus-data \
    scorched3d-data openarena-data pokerth-data ri-li-data)
for d in debs/*.deb; do dpkg -x "$d" x; done
mkdir -p wav
{ find x -iname '*.ogg' -size +700k
  find x \( -iname '*.it' -o -iname '*.xm' -o -iname '*.mod' -o -iname '*.s3m' \) | grep -v language; } | sort > all.txt
python3 - <<'PY'
import subprocess
i = 0
with open("manifest.tsv", "w") as m:
    for p in open("all.txt").read().split("\n"):
        if not p:
            continue
        probe = ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", p]
        d = float(subprocess.run(probe, capture_output=True, text=True).stdout.strip() or 0)
        if d < 20:
            continue
        start = 20 if d >= 55 else 0
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-ss", str(start), "-t", "30", "-i", p,
                        "-ac", "1", "-ar", "44100", f"wav/r{i:02d}.wav"], check=True)
        m.write(f"r{i:02d}\t{p}\t{d:.1f}\t{start}\n")
        i += 1
PY
