#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Test of ssimulacra2cmp-compare (meson test compare_tool). Generates three
# tiny clips with gst-launch-1.0 and checks: each option (--version, URIs,
# --threads, --start/--end, --every, --dist-offset, --device, --threshold and
# its exit status, the progress line on a terminal only); the text output (the summary;
# --frames lines; one pair's score alone); that a self-comparison scores
# exactly 100.00000000; the results file in json (read with Python's json
# parser, in libvmaf's layout), jsonl and csv, on standard output and with
# -o, byte-identical to the element's own results-location file for the
# same input; the errors for a size mismatch (the element's hint), a missing
# file and a 16-bit RGB PNG; an 8-bit PNG's self-comparison; --metric
# (ssim alone, both, a wrong name, RGB converted to YUV for ssim); and, when
# ../shared/testdata is there, that two PNGs print the canonical score and a
# Y4M pair dump_ssim's value.
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
# The same format as ref.mkv (what SSIM compares), moving faster.
gst-launch-1.0 -q videotestsrc num-buffers=5 pattern=smpte horizontal-speed=4 \
  ! video/x-raw,format=I420,$caps ! matroskamux ! filesink location="$dir/moved.mkv" \
  || fail "could not write moved.mkv"

# Self-comparison, --frames: five lines of exactly 100, then the summary.
"$compare" --backend cpu --frames "$dir/ref.mkv" "$dir/ref.mkv" >"$dir/self.txt" 2>"$dir/err.txt" \
  || { cat "$dir/err.txt"; fail "self-comparison exited $?"; }
cat "$dir/self.txt"
frame_re='^frame [0-9]+ pts [0-9]+:[0-9]{2}:[0-9]{2}\.[0-9]{3} score -?[0-9]+\.[0-9]{8}$'
[ "$(grep -cE "$frame_re" "$dir/self.txt")" = 5 ] || fail "expected 5 frame lines"
[ "$(grep -c ' score 100\.00000000$' "$dir/self.txt")" = 5 ] || fail "self-comparison is not 100"
grep -q '^frame 1 pts 0:00:00\.033 score' "$dir/self.txt" || fail "frame 1 pts is not 0:00:00.033"
summary_re='^summary frames-scored 5 ref-unpaired 0 dist-unpaired 0 .* mean 100\.00000000 '
grep -qE "$summary_re" "$dir/self.txt" || fail "summary line"
[ "$(wc -l <"$dir/self.txt")" -eq 6 ] || fail "expected 6 lines in all"
# Without --frames: the summary alone.
"$compare" --backend cpu "$dir/ref.mkv" "$dir/ref.mkv" >"$dir/summary.txt" || fail "summary run"
[ "$(wc -l <"$dir/summary.txt")" -eq 1 ] && grep -qE "$summary_re" "$dir/summary.txt" \
  || { cat "$dir/summary.txt"; fail "expected the summary line alone"; }

# Against the JPEG copy: scores below 100.
"$compare" --backend cpu --frames "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/text.txt" || fail "text run"
cat "$dir/text.txt"
[ "$(grep -cE "$frame_re" "$dir/text.txt")" = 5 ] || fail "expected 5 frame lines"
grep -q ' score 100\.00000000$' "$dir/text.txt" && fail "a degraded frame scored 100"

# The results file: json in libvmaf's layout, read by a plain JSON parser.
"$compare" --backend cpu -o "$dir/cli.json" "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/o.txt" \
  || fail "-o run"
grep -qE "^summary frames-scored 5 " "$dir/o.txt" || fail "-o keeps the text on stdout"
python3 - "$dir/cli.json" <<'PY' || fail "json layout"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["version"].startswith("ssimulacra2cmp "), doc["version"]
frames = doc["frames"]
assert [f["frameNum"] for f in frames] == [0, 1, 2, 3, 4], frames
for f in frames:
    assert set(f) == {"frameNum", "timestamp", "running_time", "dist_timestamp", "metrics"}, f
    assert 0 < f["metrics"]["ssimulacra2"] < 100, f
pooled = doc["pooled_metrics"]["ssimulacra2"]
for key in ("min", "max", "mean", "harmonic_mean"):  # libvmaf's pooled fields
    assert key in pooled, key
scores = [f["metrics"]["ssimulacra2"] for f in frames]
assert pooled["min"] == min(scores) and pooled["max"] == max(scores), pooled
assert doc["summary"]["frames_scored"] == 5, doc["summary"]
PY
# The element's own file for the same input: the same bytes.
branch() { echo "filesrc location=$1 ! decodebin ! videoconvert ! cmp.$2"; }
gst-launch-1.0 -q $(branch "$dir/ref.mkv" ref_sink) $(branch "$dir/dist.mkv" dist_sink) \
  ssimulacra2cmp name=cmp backend=cpu results-location="$dir/element.json" results-format=json \
  ! fakesink || fail "element run"
cmp "$dir/cli.json" "$dir/element.json" || fail "the CLI's json differs from the element's"
# jsonl and csv on standard output: the same fields, the summary last.
"$compare" --backend cpu --format jsonl "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/out.jsonl" \
  || fail "jsonl run"
[ "$(grep -cE '^\{"frameNum":[0-9]+,"timestamp":[0-9]+,"running_time":[0-9]+,"dist_timestamp":[0-9]+,"ssimulacra2":-?[0-9.e+-]+\}$' "$dir/out.jsonl")" = 5 ] \
  || { cat "$dir/out.jsonl"; fail "jsonl frame lines"; }
tail -n 1 "$dir/out.jsonl" | grep -qE '^\{"pooled_metrics":\{"ssimulacra2":\{"min":.*"summary":\{"frames_scored":5,' \
  || fail "jsonl summary"
"$compare" --backend cpu --format csv "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/out.csv" \
  || fail "csv run"
[ "$(head -n 1 "$dir/out.csv")" = "frameNum,timestamp,running_time,dist_timestamp,ssimulacra2" ] \
  || fail "csv header"
[ "$(grep -cE '^[0-9]+,[0-9]+,[0-9]+,[0-9]+,-?[0-9.e+-]+$' "$dir/out.csv")" = 5 ] || fail "csv rows"
grep -q '^# frames_scored,5$' "$dir/out.csv" || fail "csv summary"

# The options, one by one.
"$compare" --version | grep -qE '^ssimulacra2cmp-compare [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version"
# A URI: the same result as the file name.
"$compare" --backend cpu "file://$dir/ref.mkv" "file://$dir/dist.mkv" >"$dir/uri.txt" || fail "URI run"
"$compare" --backend cpu "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/file.txt" || fail "file run"
cmp -s "$dir/uri.txt" "$dir/file.txt" || fail "a URI scores differently from its file"
# --threads 1: the same bits as all cores (the summary's 8 decimals, and the
# json's 17 digits).
"$compare" --backend cpu --threads 1 "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/t1.txt" || fail "--threads"
cmp -s "$dir/t1.txt" "$dir/file.txt" || fail "--threads 1 changed the scores"
# --start/--end (timestamps 0, 33, 67, 100, 133 ms): 67 and 100 ms only.
"$compare" --backend cpu --frames --start 0.05 --end 0.12 "$dir/ref.mkv" "$dir/dist.mkv" \
  >"$dir/range.txt" || fail "--start/--end run"
[ "$(grep -cE "$frame_re" "$dir/range.txt")" = 2 ] && grep -q 'pts 0:00:00\.067 ' "$dir/range.txt" \
  && grep -q 'pts 0:00:00\.100 ' "$dir/range.txt" || { cat "$dir/range.txt"; fail "--start/--end"; }
grep -q 'ref-unpaired 0 dist-unpaired 0' "$dir/range.txt" || fail "--start/--end left unpaired frames"
# --every 2: frames 0, 2, 4.
"$compare" --backend cpu --frames --every 2 "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/every.txt" \
  || fail "--every run"
[ "$(grep -cE "$frame_re" "$dir/every.txt")" = 3 ] && grep -q 'pts 0:00:00\.133 ' "$dir/every.txt" \
  || { cat "$dir/every.txt"; fail "--every 2"; }
# --dist-offset: one frame period later, the distorted frame N pairs with
# reference frame N + 1: four pairs, each frame against its successor.
"$compare" --backend cpu --frames --dist-offset 0.0333333333 "$dir/ref.mkv" "$dir/ref.mkv" \
  >"$dir/offset.txt" 2>/dev/null || fail "--dist-offset run"
[ "$(grep -cE "$frame_re" "$dir/offset.txt")" = 4 ] || { cat "$dir/offset.txt"; fail "--dist-offset pairs"; }
grep -q ' score 100\.00000000$' "$dir/offset.txt" && fail "--dist-offset: a frame met itself"
# --device: a device number; a negative one is a usage error.
"$compare" --backend cpu --device 0 "$dir/ref.mkv" "$dir/ref.mkv" >/dev/null || fail "--device 0"
"$compare" --device -2 "$dir/ref.mkv" "$dir/ref.mkv" >/dev/null 2>&1
[ $? = 2 ] || fail "--device -2 is not a usage error"
# --threshold: exit status 3 when a frame scores below it, 0 otherwise.
"$compare" --backend cpu --threshold 99.9 "$dir/ref.mkv" "$dir/dist.mkv" >/dev/null 2>"$dir/th.txt"
rc=$?
[ $rc = 3 ] && grep -q 'frames scored below 99.9' "$dir/th.txt" || fail "--threshold 99.9 exited $rc"
"$compare" --backend cpu --threshold 1 "$dir/ref.mkv" "$dir/dist.mkv" >/dev/null || fail "--threshold 1"
# The progress line: on a terminal only.
grep -q "$(printf '\r')" "$dir/err.txt" && fail "a progress line went to a file"
if command -v script >/dev/null; then
  script -qec "\"$compare\" --backend cpu \"$dir/ref.mkv\" \"$dir/dist.mkv\"" /dev/null \
    >"$dir/tty.txt" 2>&1 || fail "run on a terminal"
  grep -q 'fps' "$dir/tty.txt" || { cat -v "$dir/tty.txt"; fail "no progress line on a terminal"; }
fi

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
[ "$(cat "$dir/png8.txt")" = "100.00000000" ] \
  || { cat "$dir/png8.txt"; fail "8-bit PNG self-comparison: expected the score 100.00000000 alone"; }

# Two still images: the canonical score, through pngdec.
data=${S2C_TESTDATA:-}
if [ -n "$data" ] && [ -f "$data/flower_small_q70.png" ]; then
  "$compare" --backend cpu "$data/flower_small.png" "$data/flower_small_q70.png" \
    >"$dir/png.txt" || fail "png run"
  cat "$dir/png.txt"
  [ "$(cat "$dir/png.txt")" = "81.74290736" ] \
    || fail "flower_small q70 is not the canonical 81.74290736 alone"
else
  echo "note: testdata not found, the PNG check was skipped"
fi

# --metric: SSIM alone prints the combined raw SSIM, both print the two; on
# the YUV clips the per-frame lines and the summary carry ssim too.
"$compare" --backend cpu --metric both --frames "$dir/ref.mkv" "$dir/moved.mkv" \
  >"$dir/both.txt" || fail "--metric both run"
cat "$dir/both.txt"
[ "$(grep -cE ' score -?[0-9]+\.[0-9]{8} ssim -?[0-9]\.[0-9]{8}$' "$dir/both.txt")" = 5 ] \
  || fail "--metric both: expected 5 frame lines with score and ssim"
grep -qE '^summary .* mean -?[0-9.]+ .* ssim-mean [0-9.]+ ' "$dir/both.txt" \
  || fail "--metric both: summary with ssim-mean"
"$compare" --backend cpu --metric ssim "$dir/ref.mkv" "$dir/ref.mkv" >"$dir/ssim.txt" \
  || fail "--metric ssim run"
grep -q ' ssim-mean 1\.00000000 ' "$dir/ssim.txt" && ! grep -q ' mean ' "$dir/ssim.txt" \
  || { cat "$dir/ssim.txt"; fail "--metric ssim self-comparison: ssim-mean 1 and no SSIMULACRA 2"; }
"$compare" --backend cpu --metric nonsense "$dir/ref.mkv" "$dir/ref.mkv" 2>"$dir/err.txt"
rc=$?
[ $rc = 2 ] && grep -q -- '--metric: ssimulacra2, ssim or both' "$dir/err.txt" \
  || fail "--metric nonsense exited $rc, expected 2 with the choices"
# With ssim the element offers YUV formats only, so the tool's videoconvert
# turns an RGB PNG into YUV: a self-comparison scores 1.
"$compare" --backend cpu --metric ssim "$dir/rgb8.png" "$dir/rgb8.png" >"$dir/ssim-rgb.txt" \
  || fail "--metric ssim on RGB run"
[ "$(cat "$dir/ssim-rgb.txt")" = 1.00000000 ] \
  || fail "--metric ssim on RGB printed $(cat "$dir/ssim-rgb.txt"), expected 1.00000000"
# dump_ssim's value for a reference pair (testdata/ssim), as one pair.
if [ -n "$data" ] && [ -f "$data/ssim/flower_small_odd444.y4m" ]; then
  "$compare" --backend cpu --metric ssim "$data/ssim/flower_small_odd444.y4m" \
    "$data/ssim/flower_small_q70_odd444.y4m" >"$dir/y4m.txt" || fail "y4m run"
  [ "$(cat "$dir/y4m.txt")" = "0.98646094" ] \
    || { cat "$dir/y4m.txt"; fail "odd444 q70: expected dump_ssim's 0.98646094 alone"; }
fi
echo "ok"
