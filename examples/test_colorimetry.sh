#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Test of ssimulacra2cmp-compare's --colorimetry (meson test
# compare_colorimetry): one clip written by gst-launch-1.0 to Matroska,
# labelled BT.709, and to Y4M, which says BT.601; the same pixels. By
# default the Y4M is read with the Matroska's label: exactly 100, with a
# warning naming the difference and --colorimetry, and the results file's
# summary records it. --colorimetry per-stream reads each by its own label:
# below 100. A wrong mode is a usage error.
# Usage: test_colorimetry.sh PATH/TO/ssimulacra2cmp-compare
set -u
compare=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

gst-launch-1.0 -q videotestsrc num-buffers=3 pattern=smpte \
  ! video/x-raw,format=I420,width=96,height=64,framerate=25/1,colorimetry=bt709 \
  ! tee name=t t. ! queue ! matroskamux ! filesink location="$dir/clip.mkv" \
  t. ! queue ! y4menc ! filesink location="$dir/clip.y4m" || fail "could not write the clips"

"$compare" -b cpu -f jsonl "$dir/clip.mkv" "$dir/clip.y4m" >"$dir/default.jsonl" \
  2>"$dir/default.err" || { cat "$dir/default.err"; fail "default mode exited $?"; }
grep -q '"mean":100,' "$dir/default.jsonl" || { cat "$dir/default.jsonl"; fail "not 100"; }
grep -q '"colorimetry_mode":"reference","colorimetry_adopted":"matrix bt601 -> bt709"' \
  "$dir/default.jsonl" || { cat "$dir/default.jsonl"; fail "summary lacks the difference"; }
grep -q 'colorimetry-mode=per-stream' "$dir/default.err" \
  || { cat "$dir/default.err"; fail "no warning"; }

"$compare" -b cpu --colorimetry per-stream "$dir/clip.mkv" "$dir/clip.y4m" \
  >"$dir/own.txt" 2>&1 || { cat "$dir/own.txt"; fail "per-stream exited $?"; }
grep -qE '^summary .* mean 100\.0+ ' "$dir/own.txt" && fail "per-stream scored 100"
grep -qE '^summary .* mean [0-9]' "$dir/own.txt" || { cat "$dir/own.txt"; fail "no summary"; }

"$compare" --colorimetry own "$dir/clip.mkv" "$dir/clip.y4m" >/dev/null 2>"$dir/usage.err"
[ $? = 2 ] || fail "--colorimetry own is not a usage error"
grep -q -- '--colorimetry: reference or per-stream' "$dir/usage.err" || fail "usage text"
echo "PASS"
