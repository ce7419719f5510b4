#!/bin/sh
# Peak memory (max RSS, from /usr/bin/time -v) of analyze, tempo, tune, join and render on
# picture bombs and damaged inputs, beside the same commands on a plain input (issue 36).
# Not a test: it prints a table. Targets: analyze/tempo/tune/join <= 250 MB on any input
# (tempo <= 100 MB on 8 hours of sound); a render <= 1.5x the same render (same size and
# mode) of a plain input.
#
#   sh scripts/bench-memory.sh [path/to/specviz] [work dir]
set -u
BIN=${1:-.build/debug/specviz}
DIR=${2:-$(mktemp -d /tmp/specviz-bench-memory.XXXXXX)}
mkdir -p "$DIR"
FF="ffmpeg -hide_banner -loglevel error -y"
SIZE=${SIZE:-1280x720}
SECONDS_LONG=${SECONDS_LONG:-20}

# Pictures: tall, wide, 16-bit, above the cap, a JPEG above it, and a PNG header that lies.
python3 - "$DIR" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
def png(path, w, h, depth=8, colour=6, rows=None):
    """A valid PNG of w x h (rows: how many rows the data really holds; default all)."""
    channels = {0: 1, 2: 3, 6: 4}[colour]
    row = b"\0" + bytes((i * 7) % 256 for i in range(w * channels * depth // 8))
    z = zlib.compressobj(9)
    data = b"".join(z.compress(row) for _ in range(h if rows is None else rows)) + z.flush()
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0))
    open(path, "wb").write(out + chunk(b"IDAT", data) + chunk(b"IEND", b""))
d = sys.argv[1]
png(d + "/tall.png", 1, 100_000)
png(d + "/wide.png", 100_000, 2)
png(d + "/deep16.png", 1800, 1800, depth=16)
png(d + "/deep16-big.png", 4000, 4000, depth=16)
png(d + "/too-tall.png", 1, 4_000_000)
png(d + "/huge.png", 8000, 8000)
png(d + "/bogus.png", 100_000, 100_000, rows=1)
PY
$FF -f lavfi -i "color=c=navy:s=8000x8000" -frames:v 1 "$DIR/huge.jpg"
$FF -f lavfi -i "testsrc2=s=3000x3000" -frames:v 1 -q:v 3 "$DIR/cover3000.jpg"

# Sound: plain, and the same carrying three large embedded pictures (mp3, flac, m4a).
$FF -f lavfi -i "sine=f=220:d=$SECONDS_LONG" -ac 2 "$DIR/plain.wav"
$FF -i "$DIR/plain.wav" "$DIR/plain.mp3"
$FF -i "$DIR/plain.wav" -i "$DIR/huge.png" -i "$DIR/deep16.png" -i "$DIR/huge.jpg" -map 0 -map 1 -map 2 -map 3 \
    -c:v copy -disposition:v attached_pic -id3v2_version 3 "$DIR/pictures.mp3"
$FF -i "$DIR/plain.wav" -i "$DIR/huge.png" -i "$DIR/deep16.png" -i "$DIR/huge.jpg" -map 0 -map 1 -map 2 -map 3 \
    -c:v copy -disposition:v attached_pic "$DIR/pictures.flac"
$FF -i "$DIR/plain.wav" -i "$DIR/huge.jpg" -map 0 -map 1 -c:a aac -c:v copy -disposition:v attached_pic "$DIR/pictures.m4a"
$FF -i "$DIR/plain.wav" -i "$DIR/deep16-big.png" -map 0 -map 1 -c:v copy -disposition:v attached_pic -id3v2_version 3 "$DIR/cover16.mp3"
$FF -i "$DIR/plain.wav" -i "$DIR/cover3000.jpg" -map 0 -map 1 -c:v copy -disposition:v attached_pic -id3v2_version 3 "$DIR/cover3000.mp3"

peak() { # label, command…: prints "label  MB  exit"
    label=$1; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$DIR/time.txt"
    code=$?
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$DIR/time.txt")
    printf '%-44s %7.1f MB  exit %s\n' "$label" "$(echo "$kb / 1024" | bc -l)" "$code"
}

echo "specviz: $BIN   frames: $SIZE   inputs: $DIR"
for f in plain.wav pictures.mp3 pictures.flac pictures.m4a cover16.mp3; do
    peak "analyze $f" "$BIN" analyze --csv "$DIR/$f" -o "$DIR/out.csv" -y
    peak "tempo $f" "$BIN" tempo "$DIR/$f"
    peak "tune $f" "$BIN" tune "$DIR/$f"
done
for s in 320x180 $SIZE; do
    peak "render $s plain.wav" "$BIN" render --size $s --fps 30 --to 4 -y --quiet "$DIR/plain.wav" -o "$DIR/r.mp4"
    peak "render $s --background deep16.png" "$BIN" render --size $s --fps 30 --to 4 -y --quiet "$DIR/plain.wav" --background "$DIR/deep16.png" -o "$DIR/r.mp4"
    peak "render $s --cover cover3000.jpg" "$BIN" render --size $s --fps 30 --to 4 -y --quiet "$DIR/plain.wav" --cover "$DIR/cover3000.jpg" -o "$DIR/r.mp4"
done
R="$BIN render --size $SIZE --fps 30 --to 4 -y --quiet"
peak "render plain.wav (no pictures)" $R "$DIR/plain.wav" -o "$DIR/r.mp4"
peak "render plain.mp3 --no-cover" $R --no-cover "$DIR/plain.mp3" -o "$DIR/r.mp4"
peak "render pictures.mp3 --no-cover" $R --no-cover "$DIR/pictures.mp3" -o "$DIR/r.mp4"
peak "render pictures.mp3 (embedded cover)" $R "$DIR/pictures.mp3" -o "$DIR/r.mp4"
peak "render cover16.mp3 (16-bit 4000x4000 cover)" $R "$DIR/cover16.mp3" -o "$DIR/r.mp4"
peak "render cover3000.mp3 (3000x3000 JPEG cover)" $R "$DIR/cover3000.mp3" -o "$DIR/r.mp4"
peak "render pictures.flac (embedded cover)" $R "$DIR/pictures.flac" -o "$DIR/r.mp4"
for p in tall.png wide.png deep16.png cover3000.jpg deep16-big.png too-tall.png huge.png huge.jpg bogus.png; do
    peak "render --background $p" $R "$DIR/plain.wav" --background "$DIR/$p" -o "$DIR/r.mp4"
    peak "render --cover $p --logo $p" $R "$DIR/plain.wav" --cover "$DIR/$p" --logo "$DIR/$p" -o "$DIR/r.mp4"
done
for k in 1 2; do $R "$DIR/pictures.mp3" --no-cover --segment $k/2 -o "$DIR/part$k.mp4" 2>/dev/null; done
peak "join 2 parts --audio pictures.mp3" "$BIN" join "$DIR/part1.mp4" "$DIR/part2.mp4" --audio "$DIR/pictures.mp3" -o "$DIR/j.mp4" -y --quiet

# tempo on long inputs: its memory is constant in the length (target: 8 hours within 100 MB).
# TEMPO_HOURS lists the lengths (default 1; e.g. TEMPO_HOURS="1 2 8" with a release build).
# The bundled demo, looped and piped in as WAV: no large file on disk.
DEMO="$(dirname "$0")/../examples/demo.ogg"
for h in ${TEMPO_HOURS:-1}; do
    $FF -stream_loop -1 -i "$DEMO" -t $((h * 3600)) -ac 1 -f wav - |
        /usr/bin/time -v "$BIN" tempo --json - >/dev/null 2>"$DIR/time.txt"
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$DIR/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$DIR/time.txt")
    printf '%-44s %7.1f MB  %s\n' "tempo --json, $h h of the demo (stdin)" "$(echo "$kb / 1024" | bc -l)" "$wall"
done
