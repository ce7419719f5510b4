#!/bin/sh
# Runs `specviz tempo --beats` over the real-recording set and scores it against madmom.
#     sh run.sh BIN SET_DIR NAME     # writes SET_DIR/out/NAME/*.beats.csv, prints one line
set -eu
bin="$1" set="$2" name="$3"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$set/out/$name"
for w in "$set"/wav/*.wav; do
    n="$(basename "$w" .wav)"
    "$bin" tempo "$w" --beats -o "$set/out/$name/$n.beats.csv" -y 2>/dev/null || : > "$set/out/$name/$n.beats.csv"
done
python3 "$here/score_real.py" "$set/ref" "$set/out/$name"
