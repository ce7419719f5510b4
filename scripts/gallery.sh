#!/bin/sh
# Renders the gallery into docs/gallery/ from the bundled example (examples/demo.ogg): every
# mode at 16:9, 9:16 and 1:1, plain and with tags (title, artist and a cover), the
# spectrogram in two palettes, a portrait reel frame, and a transparent render laid over a
# picture. Small frames (640x360, 360x640, 480x480) keep the files modest. Run from the
# repository:
#
#   sh scripts/gallery.sh [path/to/specviz]     # default .build/release/specviz
#
# Needs ffmpeg (scripts/setup.sh installs it) for the cover and background pictures and the
# composite. Every image is written whole or not at all (specviz writes atomically).
set -eu
bin=${1:-.build/release/specviz}
out=docs/gallery
demo=examples/demo.ogg
at=13.5
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

# A cover picture and a background picture, made here so the gallery needs no files of its own.
ffmpeg -v error -f lavfi -i "mandelbrot=size=600x600:end_pts=3:inner=convergence" -frames:v 1 -y "$work/cover.png"
ffmpeg -v error -f lavfi -i "gradients=size=640x360:c0=0x1b2a4a:c1=0x6a2c70:c2=0xf08a5d:n=3:speed=0.00001:seed=3" \
    -frames:v 1 -y "$work/background.png"

for mode in bars curve circular spectrogram surface surface+ tuner scope; do
    file=$(echo "$mode" | sed 's/+/-plus/')
    for shape in 16x9:640x360 9x16:360x640 1x1:480x480; do
        aspect=${shape%%:*} size=${shape#*:}
        # The tuner and BPM overlays on the bars with tags (they need the whole track's beats).
        overlays=""
        [ "$mode" = bars ] && overlays="--tuner --bpm"
        still "$file-$aspect" --mode "$mode" --size "$size" --no-tags --no-cover
        # The tuner view shows no tags: its frame with them would be the same picture.
        [ "$mode" = tuner ] && continue
        # shellcheck disable=SC2086
        still "$file-$aspect-tags" --mode "$mode" --size "$size" $overlays \
            --title "Night Drive" --artist "specviz demo" --cover "$work/cover.png"
    done
done

# The spectrogram's heatmap in the two palettes weighed for its default.
for palette in heat magma; do
    still "spectrogram-palette-$palette" --mode spectrogram --size 640x360 --no-tags --no-cover --palette "$palette"
done

still portrait --mode bars --size 540x960 --cover "$work/cover.png" --title "Night Drive" --artist "demo.ogg" --bpm

# Transparent frame (straight alpha) composited over the background with ffmpeg's overlay.
"$bin" render "$demo" --at "$at" --quiet -y --mode circular --size 640x360 --transparent --no-tags --no-cover \
    --title "over a picture" -o "$work/transparent.png"
ffmpeg -v error -i "$work/background.png" -i "$work/transparent.png" \
    -filter_complex "[0][1]overlay=format=auto" -frames:v 1 -y "$out/transparent-over-background.png"
echo "$out/transparent-over-background.png"
