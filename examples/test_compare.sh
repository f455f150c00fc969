#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Test of ssimulacra2cmp-compare (meson test compare_tool). Generates
# tiny clips with gst-launch-1.0 and checks: each option (--version, URIs,
# --threads, --start/--end, --every, --dist-offset, --device, --threshold and
# its exit status, the progress line on a terminal only); the text output (the summary;
# --frames lines; one pair's score alone); that a self-comparison scores
# exactly 100.00000000; the results file in json (read with Python's json
# parser, in libvmaf's layout), jsonl and csv, on standard output and with
# -o, byte-identical to the element's own results-location file for the
# same input; frameNum, the input's frame number with --every and --start;
# -o naming an input (by any path or link) refused with the input
# untouched; exit status 1 when results are lost; every number out of range
# a usage error without a GLib warning; --scale (the same file as the
# element behind videoscale); raw .yuv inputs with --size, --pixel-format
# and --fps (packed planes, an odd chroma width); the errors for a size
# mismatch (the element's hint and --scale), a missing file, an input that
# does not decode (named) and a 16-bit RGB PNG; an 8-bit PNG's
# self-comparison; --metric (ssim alone, both, a wrong name, RGB and a
# second YUV format converted for ssim); that two PNGs of tests/data
# (S2C_TESTDATA) print the canonical score and a Y4M pair dump_ssim's
# value.
# Usage: test_compare.sh PATH/TO/ssimulacra2cmp-compare
set -u
compare=$1
command -v gst-launch-1.0 >/dev/null || { echo "FAIL: gst-launch-1.0 (gstreamer1.0-tools) not found"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Two json results files hold the same bytes but for "fps", the run's speed,
# and "utc", the wall-clock time of each record.
same_results() {
  sed -E 's/"fps":[^,]*,/"fps":F,/; s/"utc":"[^"]*"/"utc":U/g' "$1" >"$1.nofps"
  sed -E 's/"fps":[^,]*,/"fps":F,/; s/"utc":"[^"]*"/"utc":U/g' "$2" >"$2.nofps"
  cmp "$1.nofps" "$2.nofps"
}

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
frame_re='^frame [0-9]+ time [0-9]+:[0-9]{2}:[0-9]{2}\.[0-9]{3} score -?[0-9]+\.[0-9]{8}$'
[ "$(grep -cE "$frame_re" "$dir/self.txt")" = 5 ] || fail "expected 5 frame lines"
[ "$(grep -c ' score 100\.00000000$' "$dir/self.txt")" = 5 ] || fail "self-comparison is not 100"
grep -q '^frame 1 time 0:00:00\.033 score' "$dir/self.txt" || fail "frame 1's time is not 0:00:00.033"
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
    assert set(f) == {"frameNum", "segment", "timestamp", "running_time", "dist_timestamp",
                      "dist_frameNum", "alignFlagged", "metrics", "label", "utc"}, f
    assert f["label"] == "cmp", f
    assert 0 < f["metrics"]["ssimulacra2"] < 100, f
pooled = doc["pooled_metrics"]["ssimulacra2"]
for key in ("min", "max", "mean", "harmonic_mean"):  # libvmaf's pooled fields
    assert key in pooled, key
scores = [f["metrics"]["ssimulacra2"] for f in frames]
assert pooled["min"] == min(scores) and pooled["max"] == max(scores), pooled
assert doc["summary"]["frames_scored"] == 5, doc["summary"]
assert doc["summary"]["reason"] == "eos" and doc["segments"] == [], doc
assert doc["fps"] > 0 and doc["aggregate_metrics"] == {}, doc  # libvmaf's keys
PY
# The element's own file for the same input: the same bytes, but for fps
# (the run's speed) and utc.
branch() { echo "filesrc location=$1 ! decodebin ! videoconvert ! cmp.$2"; }
gst-launch-1.0 -q $(branch "$dir/ref.mkv" ref_sink) $(branch "$dir/dist.mkv" dist_sink) \
  ssimulacra2cmp name=cmp backend=cpu results-location="$dir/element.json" results-format=json \
  ! fakesink || fail "element run"
same_results "$dir/cli.json" "$dir/element.json" || fail "the CLI's json differs from the element's"
# jsonl and csv on standard output: the same fields, the summary last.
"$compare" --backend cpu --format jsonl "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/out.jsonl" \
  || fail "jsonl run"
[ "$(grep -cE '^\{"frameNum":[0-9]+,"segment":0,"timestamp":[0-9]+,"running_time":[0-9]+,"dist_timestamp":[0-9]+,"dist_frameNum":[0-9]+,"alignFlagged":false,"ssimulacra2":-?[0-9.e+-]+,"label":"cmp","utc":"[0-9T:.-]+Z"\}$' "$dir/out.jsonl")" = 5 ] \
  || { cat "$dir/out.jsonl"; fail "jsonl frame lines"; }
tail -n 1 "$dir/out.jsonl" | grep -qE '^\{"fps":[0-9.e+-]+,"pooled_metrics":\{"ssimulacra2":\{"min":.*"summary":\{"segment":0,"reason":"eos","frames_scored":5,' \
  || fail "jsonl summary"
"$compare" --backend cpu --format csv "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/out.csv" \
  || fail "csv run"
[ "$(head -n 1 "$dir/out.csv")" = "frameNum,segment,timestamp,running_time,dist_timestamp,dist_frameNum,alignFlagged,ssimulacra2,label,utc" ] \
  || fail "csv header"
[ "$(grep -cE '^[0-9]+,0,[0-9]+,[0-9]+,[0-9]+,[0-9]+,0,-?[0-9.e+-]+,cmp,[0-9T:.-]+Z$' "$dir/out.csv")" = 5 ] || fail "csv rows"
grep -q '^# frames_scored,5$' "$dir/out.csv" || fail "csv summary"
# Standard output is written as it is, never truncated: a file it appends
# to keeps what it held, and runs in a loop into one file are all there.
echo earlier >"$dir/log.txt"
"$compare" --backend cpu --format csv "$dir/ref.mkv" "$dir/dist.mkv" >>"$dir/log.txt" \
  || fail "csv run appending"
[ "$(head -n 1 "$dir/log.txt")" = earlier ] && [ "$(grep -c '^# frames_scored,5$' "$dir/log.txt")" = 1 ] \
  || fail ">> lost what the file held"
for run in 1 2; do
  "$compare" --backend cpu --format jsonl "$dir/ref.mkv" "$dir/dist.mkv" || fail "loop run $run"
done >"$dir/loop.jsonl"
[ "$(grep -c '"reason":"eos"' "$dir/loop.jsonl")" = 2 ] || fail "a loop into one file kept one run"
# Results that could not be written are a failure (exit status 1).
"$compare" --backend cpu -o /dev/full -f jsonl "$dir/ref.mkv" "$dir/dist.mkv" >/dev/null 2>&1
rc=$?
[ $rc = 1 ] || fail "-o /dev/full exited $rc, expected 1"

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
[ "$(grep -cE "$frame_re" "$dir/range.txt")" = 2 ] && grep -q 'time 0:00:00\.067 ' "$dir/range.txt" \
  && grep -q 'time 0:00:00\.100 ' "$dir/range.txt" || { cat "$dir/range.txt"; fail "--start/--end"; }
grep -q 'ref-unpaired 0 dist-unpaired 0' "$dir/range.txt" || fail "--start/--end left unpaired frames"
# They select by running time, the time from each input's start, as the
# element pairs: an H.264 copy in MPEG-TS, whose timestamps begin at 125 ms,
# gives its first three frames with --end 0.1, as the reference does.
gst-launch-1.0 -q $src ! video/x-raw,format=I420,$caps ! openh264enc ! h264parse ! mpegtsmux \
  ! filesink location="$dir/dist.ts" || fail "could not write dist.ts"
"$compare" --backend cpu --frames --end 0.1 "$dir/ref.mkv" "$dir/dist.ts" >"$dir/ts.txt" \
  || { cat "$dir/ts.txt"; fail "--end 0.1 with a .ts input"; }
grep -qE '^summary frames-scored 3 ref-unpaired 0 dist-unpaired 0 ' "$dir/ts.txt" \
  || { cat "$dir/ts.txt"; fail "--end 0.1 with a .ts input: not its first 3 frames"; }
# One pair scored out of two videos: the summary, not the score alone.
"$compare" --backend cpu --end 0.02 "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/one.txt" \
  || fail "--end 0.02 run"
[ "$(wc -l <"$dir/one.txt")" -eq 1 ] && grep -qE '^summary frames-scored 1 ' "$dir/one.txt" \
  || { cat "$dir/one.txt"; fail "one pair of two videos: expected the summary line"; }
# --every 2: frames 0, 2, 4.
"$compare" --backend cpu --frames --every 2 "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/every.txt" \
  || fail "--every run"
[ "$(grep -cE "$frame_re" "$dir/every.txt")" = 3 ] && grep -q 'time 0:00:00\.133 ' "$dir/every.txt" \
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
grep -q -- '--scale' "$dir/err.txt" || fail "size mismatch message lacks the --scale hint"
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
[ -n "$data" ] && [ -f "$data/flower_small_q70.png" ] \
  || fail "no flower_small_q70.png in S2C_TESTDATA ('$data')"
"$compare" --backend cpu "$data/flower_small.png" "$data/flower_small_q70.png" \
  >"$dir/png.txt" || fail "png run"
cat "$dir/png.txt"
[ "$(cat "$dir/png.txt")" = "81.74290736" ] \
  || fail "flower_small q70 is not the canonical 81.74290736 alone"

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
# RGB inputs are converted to I420 for SSIM, with a note; a second YUV
# format to the reference's, as the element would score it behind
# videoconvert.
"$compare" --backend cpu --metric ssim "$dir/rgb8.png" "$dir/rgb8.png" >"$dir/ssim-rgb.txt" \
  2>"$dir/err.txt" || { cat "$dir/err.txt"; fail "--metric ssim on RGB"; }
[ "$(cat "$dir/ssim-rgb.txt")" = "1.00000000" ] && grep -q 'decodes to RGB.*converted to I420' "$dir/err.txt" \
  || { cat "$dir/ssim-rgb.txt" "$dir/err.txt"; fail "--metric ssim on RGB: 1 and a note"; }
gst-launch-1.0 -q videotestsrc num-buffers=5 pattern=smpte horizontal-speed=4 \
  ! video/x-raw,format=Y444,$caps ! y4menc ! filesink location="$dir/moved444.y4m" \
  || fail "could not write moved444.y4m"
"$compare" --backend cpu --metric ssim -o "$dir/ssim444.json" "$dir/ref.mkv" "$dir/moved444.y4m" \
  >/dev/null 2>"$dir/err.txt" || { cat "$dir/err.txt"; fail "--metric ssim on I420 and Y444"; }
grep -q 'distorted input decodes to Y444.*converted to I420' "$dir/err.txt" || fail "Y444 note"
gst-launch-1.0 -q $(branch "$dir/ref.mkv" ref_sink) \
  filesrc location="$dir/moved444.y4m" ! decodebin ! videoconvert ! video/x-raw,format=I420 \
  ! cmp.dist_sink ssimulacra2cmp name=cmp backend=cpu metrics=ssim \
  results-location="$dir/element444.json" results-format=json ! fakesink || fail "element I420 run"
same_results "$dir/ssim444.json" "$dir/element444.json" \
  || fail "SSIM of Y444 is not the element's behind videoconvert to I420"
# dump_ssim's value for a reference pair (testdata/ssim), as one pair.
"$compare" --backend cpu --metric ssim "$data/ssim/flower_small_odd444.y4m" \
  "$data/ssim/flower_small_q70_odd444.y4m" >"$dir/y4m.txt" || fail "y4m run"
[ "$(cat "$dir/y4m.txt")" = "0.98646094" ] \
  || { cat "$dir/y4m.txt"; fail "odd444 q70: expected dump_ssim's 0.98646094 alone"; }
# frameNum is the input's frame number, also when --every and --start drop
# frames before the element (in the text: "frame N").
"$compare" --backend cpu --every 2 -f jsonl "$dir/ref.mkv" "$dir/dist.mkv" >"$dir/every.jsonl" \
  || fail "--every 2 jsonl run"
[ "$(grep -o '"frameNum":[0-9]*' "$dir/every.jsonl" | tr '\n' ' ')" = '"frameNum":0 "frameNum":2 "frameNum":4 ' ] \
  || { cat "$dir/every.jsonl"; fail "--every 2: frameNum is not 0, 2, 4"; }
"$compare" --backend cpu --frames --start 0.05 --every 2 "$dir/ref.mkv" "$dir/dist.mkv" \
  >"$dir/start.txt" || fail "--start --every run"
[ "$(grep -oE '^frame [0-9]+' "$dir/start.txt" | tr '\n' ' ')" = 'frame 2 frame 4 ' ] \
  || { cat "$dir/start.txt"; fail "--start 0.05 --every 2: frames are not 2 and 4"; }

# -o naming an input, by the same path, another path, a symbolic or a hard
# link, or with the input given as a URI; standard output appended to an
# input with --format: refused with status 2, the input untouched.
cp "$dir/ref.mkv" "$dir/in.mkv"
ln -s in.mkv "$dir/in-symlink.mkv"
ln "$dir/in.mkv" "$dir/in-hardlink.mkv"
sum=$(cksum <"$dir/in.mkv")
for out in "$dir/in.mkv" "$dir/./in.mkv" "$dir/in-symlink.mkv" "$dir/in-hardlink.mkv"; do
  for inputs in "$dir/in.mkv $dir/dist.mkv" "$dir/dist.mkv file://$dir/in.mkv"; do
    # shellcheck disable=SC2086  # two words
    "$compare" --backend cpu -o "$out" $inputs >/dev/null 2>"$dir/err.txt"
    rc=$?
    [ $rc = 2 ] && grep -qE 'is the (reference|distorted) input' "$dir/err.txt" \
      || { cat "$dir/err.txt"; fail "-o $out with inputs $inputs exited $rc, expected 2"; }
    [ "$(cksum <"$dir/in.mkv")" = "$sum" ] || fail "-o $out changed the input"
  done
done
"$compare" --backend cpu --format jsonl "$dir/in.mkv" "$dir/dist.mkv" >>"$dir/in.mkv" 2>"$dir/err.txt"
rc=$?
[ $rc = 2 ] && grep -q 'standard output is the reference input' "$dir/err.txt" \
  || fail "--format to an input on standard output exited $rc, expected 2"
[ "$(cksum <"$dir/in.mkv")" = "$sum" ] || fail "--format >>input changed the input"

# Results that could not be written: exit status 1 and a message, also when
# the element only warns and scores on.
"$compare" --backend cpu -o /dev/full -f jsonl "$dir/ref.mkv" "$dir/dist.mkv" >/dev/null \
  2>"$dir/err.txt"
rc=$?
[ $rc = 1 ] && grep -q 'is incomplete' "$dir/err.txt" \
  || { cat "$dir/err.txt"; fail "-o /dev/full exited $rc, expected 1"; }
"$compare" --help | grep -q 'results file or the text is incomplete' \
  || fail "--help does not document exit status 1"

# Numbers out of range, NaN, infinite or not numbers: status 2, the option
# named, no GLib warning.
while read -r name args; do
  # shellcheck disable=SC2086  # the option and its value
  "$compare" --backend cpu $args "$dir/ref.mkv" "$dir/ref.mkv" >/dev/null 2>"$dir/err.txt"
  rc=$?
  [ $rc = 2 ] && grep -q -- "^ssimulacra2cmp-compare: $name: " "$dir/err.txt" \
    && ! grep -q 'GLib' "$dir/err.txt" \
    || { cat "$dir/err.txt"; fail "$args exited $rc, expected 2 with a message naming $name"; }
done <<'NUMBERS'
--threshold --threshold 150
--threshold --threshold inf
--threshold --threshold -inf
--threshold --threshold nan
--threshold --threshold 5x
--threads -t 100000
--threads --threads -1
--threads --threads 2.5
--device --device -2
--device --device nan
--start --start -5
--start --start nan
--start --start 1e300
--end --end inf
--end --end -1
--every --every 0
--every --every -3
--every --every 1.5
--dist-offset --dist-offset nan
--dist-offset --dist-offset 1e300
--dist-offset --dist-offset -inf
--size --size 0x64
--size --size 96
--pixel-format --size 96x64 --pixel-format nonsense
--fps --size 96x64 --pixel-format I420 --fps 0/1
--fps --size 96x64 --pixel-format I420 --fps 30/-1
NUMBERS

# --scale: the distorted frames at the reference's size, the same file as
# the element's behind videoscale (stretched, no borders); nothing changes
# for frames of the reference's size.
"$compare" --backend cpu --scale -o "$dir/scaled.json" "$dir/ref.mkv" "$dir/small.mkv" \
  >"$dir/scaled.txt" || fail "--scale run"
grep -qE '^summary frames-scored 5 ' "$dir/scaled.txt" || fail "--scale: 5 frames"
gst-launch-1.0 -q $(branch "$dir/ref.mkv" ref_sink) \
  filesrc location="$dir/small.mkv" ! decodebin ! videoconvert ! videoscale add-borders=false \
  ! video/x-raw,width=96,height=64,pixel-aspect-ratio=1/1 ! cmp.dist_sink \
  ssimulacra2cmp name=cmp backend=cpu results-location="$dir/element-scaled.json" \
  results-format=json ! fakesink || fail "element videoscale run"
same_results "$dir/scaled.json" "$dir/element-scaled.json" || fail "--scale differs from videoscale"
"$compare" --backend cpu --scale "$dir/ref.mkv" "$dir/ref.mkv" | grep -qE "$summary_re" \
  || fail "--scale of equal sizes is not 100"

# Raw .yuv: the Y4M file's frames without their headers (planes packed, 45
# chroma samples a row, where GStreamer's own layout pads to 48) score
# exactly 100 against the Y4M file.
python3 - "$dir/odd.y4m" "$dir/odd.yuv" <<'PY' || fail "could not write odd.y4m"
import sys
w, h, n = 90, 62, 5
cw, ch = (w + 1) // 2, (h + 1) // 2
frames = []
for k in range(n):
    y = bytes((x * 3 + r * 5 + k * 17) % 256 for r in range(h) for x in range(w))
    u = bytes((x * 7 + r + k * 29) % 256 for r in range(ch) for x in range(cw))
    v = bytes((x + r * 11 + k * 41) % 256 for r in range(ch) for x in range(cw))
    frames.append(y + u + v)
with open(sys.argv[1], "wb") as f:
    f.write(b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n" % (w, h))
    for frame in frames:
        f.write(b"FRAME\n" + frame)
open(sys.argv[2], "wb").write(b"".join(frames))
PY
raw="--size 90x62 --pixel-format I420 --fps 30/1"
# shellcheck disable=SC2086  # the options
"$compare" --backend cpu --frames $raw "$dir/odd.yuv" "$dir/odd.y4m" >"$dir/raw.txt" \
  || fail "raw .yuv run"
[ "$(grep -c ' score 100\.00000000$' "$dir/raw.txt")" = 5 ] \
  || { cat "$dir/raw.txt"; fail "raw .yuv against its Y4M is not 100 on 5 frames"; }
"$compare" --backend cpu "$dir/odd.yuv" "$dir/odd.y4m" >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc = 2 ] && grep -q 'reference input ".*odd.yuv" is raw video: give --size' "$dir/err.txt" \
  || fail "a .yuv input without --size exited $rc, expected 2"
"$compare" --backend cpu --size 96x64 --pixel-format I420 "$dir/odd.yuv" "$dir/odd.y4m" \
  >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc = 2 ] && grep -q 'not a whole number of 96x64 I420 frames' "$dir/err.txt" \
  || fail "a .yuv of another size exited $rc, expected 2"
# shellcheck disable=SC2086
"$compare" --backend cpu $raw "$dir/ref.mkv" "$dir/ref.mkv" >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc = 2 ] && grep -q 'describe .yuv inputs; neither' "$dir/err.txt" \
  || fail "--size without a .yuv input exited $rc, expected 2"

# Without --fps a .yuv input takes the other input's rate (30/1): all 5
# frames pair. --start 0.1 --end 0.3 on 12 frames at 30/1: frames 3 to 8 of
# both, though rawvideoparse times frame 3 at 99.999999 ms and y4mdec at 100.
# shellcheck disable=SC2086  # the options
"$compare" --backend cpu --size 90x62 --pixel-format I420 "$dir/odd.yuv" "$dir/odd.y4m" \
  >"$dir/rate.txt" 2>"$dir/err.txt" || { cat "$dir/err.txt"; fail ".yuv without --fps"; }
grep -qE '^summary frames-scored 5 ref-unpaired 0 dist-unpaired 0 .* mean 100\.00000000 ' \
  "$dir/rate.txt" || { cat "$dir/rate.txt"; fail ".yuv without --fps: not the Y4M file's rate"; }
python3 - "$dir/odd12.y4m" "$dir/odd12.yuv" <<'PY' || fail "could not write odd12.y4m"
import sys
w, h, n = 64, 48, 12
frames = [bytes((x * 3 + k * 17 + i // w) % 256 for i, x in enumerate(list(range(w)) * h))
          + bytes(w * h // 2) for k in range(n)]
with open(sys.argv[1], "wb") as f:
    f.write(b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n" % (w, h))
    for frame in frames:
        f.write(b"FRAME\n" + frame)
open(sys.argv[2], "wb").write(b"".join(frames))
PY
"$compare" --backend cpu --frames --size 64x48 --pixel-format I420 --fps 30/1 --start 0.1 \
  --end 0.3 "$dir/odd12.yuv" "$dir/odd12.y4m" >"$dir/range12.txt" || fail ".yuv --start/--end"
[ "$(grep -oE '^frame [0-9]+ time [0-9:.]+' "$dir/range12.txt" | tr '\n' ' ')" = \
  'frame 3 time 0:00:00.100 frame 4 time 0:00:00.133 frame 5 time 0:00:00.167 frame 6 time 0:00:00.200 frame 7 time 0:00:00.233 frame 8 time 0:00:00.267 ' ] \
  && grep -qE '^summary frames-scored 6 ref-unpaired 0 dist-unpaired 0 ' "$dir/range12.txt" \
  || { cat "$dir/range12.txt"; fail ".yuv --start 0.1 --end 0.3: not frames 3 to 8"; }

# Frames below the element's 8x8 minimum: its message, not a stream error.
head -c 405 /dev/zero >"$dir/tiny.yuv"  # five 7x7 I420 frames
"$compare" --backend cpu --size 7x7 --pixel-format I420 "$dir/tiny.yuv" "$dir/tiny.yuv" \
  >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc = 1 ] && grep -q 'frames of 7x7 are below the 8x8 minimum' "$dir/err.txt" \
  || { cat "$dir/err.txt"; fail "--size 7x7 exited $rc without the size minimum"; }
gst-launch-1.0 -q videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=7,height=7 \
  ! y4menc ! filesink location="$dir/tiny.y4m" || fail "could not write tiny.y4m"
"$compare" --backend cpu "$dir/tiny.y4m" "$dir/tiny.y4m" >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc = 1 ] && grep -q 'input ".*tiny.y4m": frames of 7x7 are below the 8x8 minimum' \
  "$dir/err.txt" || { cat "$dir/err.txt"; fail "a 7x7 Y4M exited $rc without the size minimum"; }

# -o takes its format from the name's extension; --format wins.
"$compare" --backend cpu -o "$dir/ext.csv" "$dir/ref.mkv" "$dir/dist.mkv" >/dev/null \
  || fail "-o ext.csv run"
head -n 1 "$dir/ext.csv" | grep -q '^frameNum,segment,' || fail "-o ext.csv is not CSV"
"$compare" --backend cpu -o "$dir/ext.jsonl" "$dir/ref.mkv" "$dir/dist.mkv" >/dev/null \
  || fail "-o ext.jsonl run"
[ "$(grep -c '^{"frameNum":' "$dir/ext.jsonl")" = 5 ] || fail "-o ext.jsonl is not JSON Lines"
"$compare" --backend cpu -f json -o "$dir/forced.csv" "$dir/ref.mkv" "$dir/dist.mkv" \
  >/dev/null || fail "-f json -o forced.csv run"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dir/forced.csv" \
  || fail "-f json -o forced.csv is not JSON"

# An input that does not decode: the message names it.
head -c 3000 /dev/urandom >"$dir/junk.mkv"
"$compare" --backend cpu "$dir/ref.mkv" "$dir/junk.mkv" >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc = 1 ] && grep -q 'in the distorted input ".*junk.mkv": ' "$dir/err.txt" \
  || { cat "$dir/err.txt"; fail "an input that does not decode exited $rc without its name"; }
echo "ok"
