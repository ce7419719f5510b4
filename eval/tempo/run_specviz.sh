#!/bin/sh
# Run a specviz binary over one corpus and score it.
#
#   sh run_specviz.sh BIN SET NAME            run, then report (one line only for a validation set)
#   sh run_specviz.sh BIN all NAME            run on dev, val, dev-ext and val-ext: one line per set
#   sh run_specviz.sh --summary NAME          stored results of NAME: ONE aggregate line per set
#   sh run_specviz.sh --summary SET NAME...   stored results on one set: one line per run
#
# SET is a corpus folder under $CORPORA (default /work/corpora): dev, val, dev-ext, val-ext,
# or an absolute path holding manifest.csv. Results go to $CORPORA/results/SET/NAME (tempo --json,
# --csv and offline --beats) and $CORPORA/results/SET/NAME-causal (--beats --causal: the beats
# the live view flashes, scored at the time it flashes them). Two tracks run at a time (xargs -P 2,
# nice). Sets whose name starts with "val" are validation sets: only their aggregate line is
# printed, never a per-style or per-track table (see NOTES.md).
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
CORPORA=${CORPORA:-/work/corpora}
PY=python3

set_dir() {
    case "$1" in /*) echo "$1" ;; *) echo "$CORPORA/$1" ;; esac
}

summary_line() {  # SET NAME
    d=$(set_dir "$1")
    r="$CORPORA/results/$(basename "$d")/$2"
    [ -d "$r" ] || { echo "$1 $2: no results in $r" >&2; return 1; }
    $PY "$HERE/summarize.py" line "$(basename "$d")" "$2" "$r" "$r-causal" "$d/manifest.csv"
}

SETS="dev val dev-ext val-ext val2 val2-ext"
if [ "$1" = "--summary" ] && [ $# -eq 2 ]; then
    for s in $SETS; do
        [ -d "$CORPORA/results/$s/$2" ] && summary_line "$s" "$2"
    done
    exit 0
fi
if [ "$1" = "--summary" ]; then
    [ $# -ge 3 ] || { echo "usage: run_specviz.sh --summary [SET] NAME [NAME...]" >&2; exit 2; }
    set_name=$2
    shift 2
    for name in "$@"; do summary_line "$set_name" "$name"; done
    exit 0
fi

[ $# -eq 3 ] || { echo "usage: run_specviz.sh BIN SET|all NAME  |  run_specviz.sh --summary [SET] NAME..." >&2; exit 2; }
if [ "$2" = "all" ]; then
    for s in $SETS; do
        [ -f "$CORPORA/$s/manifest.csv" ] && QUIET=1 sh "$0" "$1" "$s" "$3" | tail -1
    done
    exit 0
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SET_DIR=$(set_dir "$2")
NAME=$3
SET=$(basename "$SET_DIR")
[ -x "$BIN" ] || { echo "not an executable: $1" >&2; exit 2; }
[ -f "$SET_DIR/manifest.csv" ] || { echo "no corpus at $SET_DIR (manifest.csv missing)" >&2; exit 2; }
OUT="$CORPORA/results/$SET/$NAME"
mkdir -p "$OUT" "$OUT-causal"
LOG="$OUT/run.log"

# id and wav path of every track, three arguments per run_track.py call
t0=$(date +%s.%N)
$PY -c 'import csv,sys,os
d=sys.argv[1]
for r in csv.DictReader(open(os.path.join(d,"manifest.csv"))):
    print(os.path.join(d,r["file"]), r["id"])' "$SET_DIR" \
  | xargs -P 2 -n 2 nice -n 5 $PY "$HERE/run_track.py" "$BIN" "$OUT" "$OUT-causal" 2> "$OUT/errors.log" > "$LOG" \
  || true
t1=$(date +%s.%N)
wall=$($PY -c "print($t1 - $t0)")
$PY "$HERE/summarize.py" timing "$OUT" "$OUT-causal" "$SET_DIR/manifest.csv" "$wall" < "$LOG"
if [ -s "$OUT/errors.log" ]; then
    echo "errors ($(wc -l < "$OUT/errors.log") lines, first 5; all in $OUT/errors.log):"
    head -5 "$OUT/errors.log"
fi
case "$QUIET$SET" in
    1*|val*) ;;  # validation (or "all"): the aggregate line only
    *)
        $PY "$HERE/score.py" "$OUT" --manifest "$SET_DIR/manifest.csv"
        $PY "$HERE/score.py" --beats "$OUT-causal" --manifest "$SET_DIR/manifest.csv" | head -4
        ;;
esac
summary_line "$SET_DIR" "$NAME"
