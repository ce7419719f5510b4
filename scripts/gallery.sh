#!/bin/sh
# Renders the README's gallery into docs/gallery/ from the bundled example (examples/demo.ogg):
# one still of every mode, the tuner, a portrait reel frame with a cover, and a transparent
# render laid over a picture. Run from the repository:
#
#   sh scripts/gallery.sh [path/to/specviz]     # default .build/release/specviz
#
# Needs ffmpeg (scripts/setup.sh installs it) for the cover and background pictures and the
# composite. Every image is written whole or not at all (specviz writes atomically).
set -eu
bin=${1:-.build/release/specviz}
out=docs/gallery
demo=examples/demo.ogg
size=960x540
at=14.5
[ -x "$bin" ] || { echo "gallery: no specviz at $bin (swift build -c release)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "gallery: ffmpeg is needed (sh scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

still() { # name, then render options
    name=$1; shift
    "$bin" render "$demo" --at "$at" --quiet -y -o "$out/$name.png" "$@"
    echo "$out/$name.png"
}

for mode in bars curve circular spectrogram surface surface+ scope; do
    file=$(echo "$mode" | sed 's/+/-plus/')
    still "$file" --mode "$mode" --size $size --title "demo.ogg" --tuner --bpm
done
still tuner --mode tuner --size $size --meter arc

# A cover picture and a background picture, made here so the gallery needs no files of its own.
ffmpeg -v error -f lavfi -i "mandelbrot=size=600x600:end_pts=3:inner=convergence" -frames:v 1 -y "$work/cover.png"
ffmpeg -v error -f lavfi -i "gradients=size=${size}:c0=0x1b2a4a:c1=0x6a2c70:c2=0xf08a5d:n=3:speed=0.00001" \
    -frames:v 1 -y "$work/background.png"

still portrait --mode bars --size 540x960 --cover "$work/cover.png" --title "Night Drive" --artist "demo.ogg" --bpm

# Transparent frame (straight alpha) composited over the background with ffmpeg's overlay.
"$bin" render "$demo" --at "$at" --quiet -y --mode circular --size $size --transparent \
    --title "over a picture" -o "$work/transparent.png"
ffmpeg -v error -i "$work/background.png" -i "$work/transparent.png" \
    -filter_complex "[0][1]overlay=format=auto" -frames:v 1 -y "$out/transparent-over-background.png"
echo "$out/transparent-over-background.png"
