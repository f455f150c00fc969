#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Test of ssimulacra2cmp-compare's --align, --align-window, --ref-start-frame
# and --dist-start-frame (meson test compare_align): the usage errors (a
# wrong mode, a number out of the element's range, options that belong to
# another mode) with status 2 and the option named; --align index with
# --dist-start-frame scoring exactly what --dist-offset of one frame does;
# --ref-start-frame's frames neither scored nor counted; --align auto on a
# copy that starts three frames early, each frame against itself (score
# 100) and the frame lines naming the distorted partner; a flat clip, whose
# pairs are flagged, failing --strict.
# Usage: test_compare_align.sh PATH/TO/ssimulacra2cmp-compare
set -u
compare=$1
command -v gst-launch-1.0 >/dev/null || { echo "FAIL: gst-launch-1.0 (gstreamer1.0-tools) not found"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Five frames that move, so every frame differs.
gst-launch-1.0 -q videotestsrc num-buffers=5 pattern=smpte horizontal-speed=3 \
  ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 ! matroskamux \
  ! filesink location="$dir/ref.mkv" || fail "could not write ref.mkv"

# Usage errors: status 2, the option named, no GLib warning.
while read -r name args; do
  # shellcheck disable=SC2086  # the options and their values
  "$compare" --backend cpu $args "$dir/ref.mkv" "$dir/ref.mkv" >/dev/null 2>"$dir/err.txt"
  rc=$?
  [ $rc = 2 ] && grep -q -- "^ssimulacra2cmp-compare: $name: " "$dir/err.txt" \
    && ! grep -q 'GLib' "$dir/err.txt" \
    || { cat "$dir/err.txt"; fail "$args exited $rc, expected 2 with a message naming $name"; }
done <<'USAGE'
--align --align nonsense
--align --align AUTO
--align-window --align auto --align-window 0
--align-window --align auto --align-window 121
--align-window --align auto --align-window -1
--align-window --align auto --align-window 2.5
--align-window --align auto --align-window x
--align-window --align-window 5
--align-window --align index --align-window 5
--align-window --align off --align-window 5
--ref-start-frame --ref-start-frame -1
--ref-start-frame --ref-start-frame 1.5
--ref-start-frame --ref-start-frame nan
--ref-start-frame --ref-start-frame 99999999999999999999
--dist-start-frame --dist-start-frame -3
--dist-start-frame --align index --dist-start-frame x
--dist-offset --align auto --dist-offset 0.04
--dist-offset --align index --dist-offset -0.04
--every --align auto --every 2
USAGE
"$compare" --backend cpu --align nonsense "$dir/ref.mkv" "$dir/ref.mkv" 2>&1 \
  | grep -q -- '--align: off, auto or index' || fail "--align nonsense: the modes not listed"
"$compare" --help | grep -q -- '--align=MODE' || fail "--help lacks --align"
"$compare" --help | grep -q -- '--dist-start-frame=N' || fail "--help lacks --dist-start-frame"
# --every with --align index or off, and --align off with its options, run.
"$compare" --backend cpu --align index --every 2 "$dir/ref.mkv" "$dir/ref.mkv" >/dev/null \
  || fail "--align index --every 2 exited $?"
"$compare" --backend cpu --align off --dist-offset 0 "$dir/ref.mkv" "$dir/ref.mkv" >/dev/null \
  || fail "--align off --dist-offset 0 exited $?"

# --align index --dist-start-frame 1: reference frame N against input frame
# N + 1, the pairs --dist-offset of minus one frame makes by time; the same
# scores to the last bit (8 decimals in the text, 17 digits in the file).
"$compare" --backend cpu --frames --align index --dist-start-frame 1 -o "$dir/index.jsonl" \
  "$dir/ref.mkv" "$dir/ref.mkv" >"$dir/index.txt" 2>"$dir/err.txt" \
  || { cat "$dir/err.txt"; fail "--align index --dist-start-frame 1 exited $?"; }
cat "$dir/index.txt"
"$compare" --backend cpu --frames --dist-offset -0.0333333333 -o "$dir/offset.jsonl" \
  "$dir/ref.mkv" "$dir/ref.mkv" >"$dir/offset.txt" 2>/dev/null || fail "--dist-offset run"
[ "$(grep -c '^frame [0-3] dist [0-3] time ' "$dir/index.txt")" = 4 ] \
  || fail "--align index: expected frame lines 0 to 3 naming their distorted frame"
grep -q '^frame 0 dist 0 time 0:00:00\.000 score ' "$dir/index.txt" || fail "frame 0's line"
[ "$(grep -oE 'score -?[0-9.]+' "$dir/index.txt")" = "$(grep -oE 'score -?[0-9.]+' "$dir/offset.txt")" ] \
  || fail "--align index --dist-start-frame 1 scores otherwise than --dist-offset of a frame"
grep -q ' score 100\.00000000' "$dir/index.txt" && fail "--dist-start-frame 1: a frame met itself"
python3 - "$dir/index.jsonl" "$dir/offset.jsonl" <<'PY' || fail "--align index: the results file"
import json, sys
index, offset = ([json.loads(l, parse_float=str) for l in open(p) if '"frameNum"' in l]
                 for p in sys.argv[1:])
assert [r["dist_frameNum"] for r in index] == [0, 1, 2, 3], index
assert not any(r["alignFlagged"] for r in index), index
assert [r["ssimulacra2"] for r in index] == [r["ssimulacra2"] for r in offset], (index, offset)
PY
# --ref-start-frame 2: reference frames 0 and 1 neither scored nor counted;
# frame 2 against the distorted input's frame 0.
"$compare" --backend cpu --frames --align index --ref-start-frame 2 "$dir/ref.mkv" "$dir/ref.mkv" \
  >"$dir/skip.txt" || fail "--ref-start-frame 2 exited $?"
grep -q '^frame 2 dist 0 time ' "$dir/skip.txt" && grep -qE '^summary frames-scored 3 ref-unpaired 0 ' \
  "$dir/skip.txt" || { cat "$dir/skip.txt"; fail "--ref-start-frame 2"; }

# --align auto: a copy with three frames before the reference's first (a
# ball that moves, 40 frames): each reference frame N against the copy's
# frame N + 3, itself, 100 exactly, nothing flagged; the copy's first three
# frames unpaired.
gst-launch-1.0 -q videotestsrc num-buffers=43 pattern=ball \
  ! video/x-raw,format=I420,width=160,height=96,framerate=25/1 ! y4menc \
  ! filesink location="$dir/ball.y4m" || fail "could not write ball.y4m"
python3 - "$dir/ball.y4m" "$dir/ball-ref.y4m" <<'PY' || fail "could not cut ball.y4m"
import sys
data = open(sys.argv[1], "rb").read()
header, _, frames = data.partition(b"\n")
frames = frames.split(b"FRAME\n")[1:]
assert len(frames) == 43, len(frames)
open(sys.argv[2], "wb").write(header + b"\n" + b"".join(b"FRAME\n" + f for f in frames[3:]))
PY
"$compare" --backend cpu --frames --align auto --align-window 5 -o "$dir/auto.jsonl" \
  "$dir/ball-ref.y4m" "$dir/ball.y4m" >"$dir/auto.txt" 2>"$dir/err.txt" \
  || { cat "$dir/err.txt" "$dir/auto.txt"; fail "--align auto exited $?"; }
tail -n 3 "$dir/auto.txt"
frame_re='^frame [0-9]+ dist [0-9]+ time [0-9]+:[0-9]{2}:[0-9]{2}\.[0-9]{3} score 100\.00000000$'
[ "$(grep -cE "$frame_re" "$dir/auto.txt")" = 40 ] \
  || fail "--align auto: expected 40 frame lines scoring 100, unflagged"
grep -q '^frame 0 dist 3 time 0:00:00\.000 ' "$dir/auto.txt" \
  && grep -q '^frame 39 dist 42 time ' "$dir/auto.txt" || fail "--align auto: not 3 frames apart"
grep -qE '^summary frames-scored 40 ref-unpaired 0 dist-unpaired 3 .* align-flagged 0 realignments 0 .*offsets 3:40( |$)' \
  "$dir/auto.txt" || fail "--align auto: the summary's counts and offsets"
# The copy's first three frames have no partner: the note says so, in no
# word of timestamps.
[ "$(cat "$dir/err.txt")" = 'ssimulacra2cmp-compare: 0 reference and 3 distorted frames had no partner and were not scored (docs/cookbook.md, "Unpaired frames")' ] \
  || { cat "$dir/err.txt"; fail "--align auto: the note on the 3 unpaired distorted frames"; }

# A flat clip tells no offset: its 30 pairs are all scored and flagged,
# noted on standard error, and --strict fails on them.
gst-launch-1.0 -q videotestsrc num-buffers=30 pattern=solid-color foreground-color=0xff808080 \
  ! video/x-raw,format=I420,width=160,height=96,framerate=25/1 ! y4menc \
  ! filesink location="$dir/flat.y4m" || fail "could not write flat.y4m"
"$compare" --backend cpu --strict --align auto "$dir/flat.y4m" "$dir/flat.y4m" >"$dir/flat.txt" \
  2>"$dir/err.txt"
rc=$?
cat "$dir/flat.txt" "$dir/err.txt"
[ $rc = 4 ] && grep -q 'may compare the wrong frames: flagged' "$dir/err.txt" \
  && grep -q -- '--strict: 30 pairs were flagged' "$dir/err.txt" \
  && grep -qE '^summary frames-scored 30 ref-unpaired 0 .* align-flagged 30 ' "$dir/flat.txt" \
  || fail "--strict --align auto on a flat clip exited $rc, expected 4 with the flagged pairs"
echo "ok"
