#!/bin/sh
# Renders one long file as N segments spread by GNU parallel over the hosts in $HOSTS
# (default ':' = this machine; e.g. HOSTS=4/:,8/render1,8/render2 for ssh hosts with
# specviz installed and this folder on a shared filesystem), then joins them losslessly
# with the sound encoded once, as its own task beside the segments.
# Usage: examples/segments-parallel.sh INPUT OUTPUT [N [render options…]]
#   SPECVIZ=/path/to/specviz to use another binary; JOBS=k segments at once per host.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 INPUT OUTPUT [N [render options…]]" >&2; exit 2; }
input=$1; output=$2; n=${3:-4}
shift 2; [ $# -gt 0 ] && shift
specviz=${SPECVIZ:-specviz}
hosts=${HOSTS:-:}
outdir=$(dirname "$output")
parts=$(mktemp -d "$outdir/.specviz-parts.XXXXXX")
trap 'rm -rf "$parts"' EXIT
# The sound, here, while the segments render (join copies it).
"$specviz" render "$input" --audio-only -o "$parts/audio.m4a" --quiet "$@" &
audio=$!
# One segment per job; -q keeps file names with spaces intact on the remote shell.
seq 1 "$n" | parallel --will-cite -q -S "$hosts" ${JOBS:+-j "$JOBS"} --halt now,fail=1 \
  "$specviz" render "$input" --segment "{}/$n" -o "$parts/part{}.mp4" --quiet "$@"
# Numbered parts in segment order (part1 … partN).
set --
k=1; while [ "$k" -le "$n" ]; do set -- "$@" "$parts/part$k.mp4"; k=$((k + 1)); done
wait "$audio"
"$specviz" join "$@" --audio "$parts/audio.m4a" -o "$output"
