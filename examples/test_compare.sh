#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Test of ssimulacra2cmp-compare (meson test compare_tool). Generates three
# tiny clips with gst-launch-1.0 and checks: the line formats of text, jsonl
# and csv output; that a self-comparison scores exactly 100.00000000; the
# errors for a size mismatch (the element's hint), a missing file and a
# 16-bit RGB PNG; an 8-bit PNG's self-comparison; and, when
# ../shared/testdata is there, that two PNGs print the canonical score.
# Usage: test_compare.sh PATH/TO/ssimulacra2cmp-compare
set -u
compare=$1
command -v gst-launch-1.0 >/dev/null || { echo "skipped: gst-launch-1.0 not found"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Five frames that move, so every frame differs.
src="videotestsrc num-buffers=5 pattern=smpte horizontal-speed=3"
caps="width=96,height=64,framerate=30/1"
gst-launch-1.0 -q $src ! video/x-raw,format=I420,$caps ! matroskamux \
  ! filesink location="$dir/ref.mkv" || fail "could not write ref.mkv"
# RGB into jpegenc, so that jpegdec's full-range label is right (see
# docs/cookbook.md, "Degrading a copy").
gst-launch-1.0 -q $src ! video/x-raw,format=RGB,$caps ! jpegenc quality=25 \
  ! matroskamux ! filesink location="$dir/dist.mkv" || fail "could not write dist.mkv"
gst-launch-1.0 -q $src ! video/x-raw,format=I420,width=48,height=32 ! matroskamux \
  ! filesink location="$dir/small.mkv" || fail "could not write small.mkv"

# Self-comparison: five lines of exactly 100, then the summary.
"$compare" --backend cpu "$dir/ref.mkv" "$dir/ref.mkv" >"$dir/self.txt" 2>"$dir/err.txt" \
  || { cat "$dir/err.txt"; fail "self-comparison exited $?"; }
cat "$dir/self.txt"
frame_re='^frame [0-9]+ pts [0-9]+:[0-9]{2}:[0-9]{2}\.[0-9]{3} score -?[0-9]+\.[0-9]{8}$'
[ "$(grep -cE "$frame_re" "$dir/self.txt")" = 5 ] || fail "expected 5 frame lines"
[ "$(grep -c ' score 100\.00000000$' "$dir/self.txt")" = 5 ] || fail "self-comparison is not 100"
grep -q '^frame 1 pts 0:00:00\.033 score' "$dir/self.txt" || fail "frame 1 pts is not 0:00:00.033"
grep -qE '^summary frames-scored 5 ref-unpaired 0 dist-unpaired 0 .* mean 100\.00000000 ' \
  "$dir/self.txt" || fail "summary line"
[ "$(wc -l <"$dir/self.txt")" -eq 6 ] || fail "expected 6 lines in all"

# Against the JPEG copy: scores below 100, in all three formats.
"$compare" --backend cpu "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/text.txt" || fail "text run"
cat "$dir/text.txt"
[ "$(grep -cE "$frame_re" "$dir/text.txt")" = 5 ] || fail "expected 5 frame lines"
grep -q ' score 100\.00000000$' "$dir/text.txt" && fail "a degraded frame scored 100"
"$compare" --backend cpu --format jsonl "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/out.jsonl" \
  || fail "jsonl run"
[ "$(grep -cE '^\{"type":"frame","score":-?[0-9.e+-]+,"frame-index":[0-9]+,.*\}$' "$dir/out.jsonl")" = 5 ] \
  || { cat "$dir/out.jsonl"; fail "jsonl frame lines"; }
grep -qE '^\{"type":"summary","reason":"eos","frames-scored":5,' "$dir/out.jsonl" \
  || fail "jsonl summary"
"$compare" --backend cpu --format csv "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/out.csv" \
  2>"$dir/csv-summary.txt" || fail "csv run"
[ "$(head -n 1 "$dir/out.csv")" = "frame,timestamp,dist_timestamp,score" ] || fail "csv header"
[ "$(grep -cE '^[0-9]+,[0-9]+,[0-9]+,-?[0-9.e+-]+$' "$dir/out.csv")" = 5 ] || fail "csv rows"
grep -q '^summary frames-scored 5 ' "$dir/csv-summary.txt" || fail "csv summary on stderr"

# Errors: exit status and the message the user needs.
"$compare" --backend cpu "$dir/ref.mkv" "$dir/small.mkv" >/dev/null 2>"$dir/err.txt"
rc=$?
cat "$dir/err.txt"
[ $rc = 1 ] || fail "size mismatch exited $rc, expected 1"
grep -q 'videoscale' "$dir/err.txt" || fail "size mismatch message lacks the videoscale hint"
"$compare" "$dir/ref.mkv" "$dir/missing.mkv" >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc = 2 ] || fail "missing file exited $rc, expected 2"
grep -q 'missing.mkv": no such file' "$dir/err.txt" || fail "missing file message"

# A 16-bit RGB PNG (which GStreamer 1.22's pngdec mis-decodes) is refused
# with the reason, and no score is printed; an 8-bit PNG is scored.
python3 - "$dir/rgb16.png" <<'PY' || fail "could not write rgb16.png"
import struct, sys, zlib
w, h = 4, 2
rows = b"".join(b"\x00" + bytes((7 * i + 3 * y) % 256 for i in range(6 * w)) for y in range(h))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
ihdr = struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)  # 16 bits, colour type 2: RGB
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
"$compare" --backend cpu "$dir/rgb16.png" "$dir/rgb16.png" >"$dir/out16.txt" 2>"$dir/err.txt"
rc=$?
cat "$dir/err.txt"
[ $rc = 1 ] || fail "16-bit RGB PNG exited $rc, expected 1"
grep -q 'is a 16-bit RGB PNG' "$dir/err.txt" || fail "16-bit RGB PNG message"
[ -s "$dir/out16.txt" ] && fail "a score was printed for a 16-bit RGB PNG"
gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=RGB,$caps \
  ! pngenc ! filesink location="$dir/rgb8.png" || fail "could not write rgb8.png"
"$compare" --backend cpu "$dir/rgb8.png" "$dir/rgb8.png" >"$dir/png8.txt" || fail "8-bit PNG run"
grep -q '^frame 0 pts 0:00:00\.000 score 100\.00000000$' "$dir/png8.txt" \
  || { cat "$dir/png8.txt"; fail "8-bit PNG self-comparison is not 100"; }

# Two still images: the canonical score, through pngdec.
data=${S2C_TESTDATA:-}
if [ -n "$data" ] && [ -f "$data/flower_small_q70.png" ]; then
  "$compare" --backend cpu "$data/flower_small.png" "$data/flower_small_q70.png" \
    >"$dir/png.txt" || fail "png run"
  cat "$dir/png.txt"
  grep -q '^frame 0 pts 0:00:00\.000 score 81\.74290736$' "$dir/png.txt" \
    || fail "flower_small q70 is not the canonical 81.74290736"
else
  echo "note: testdata not found, the PNG check was skipped"
fi
echo "ok"
