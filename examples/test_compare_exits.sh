#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Test of how an ssimulacra2cmp-compare run ends (meson test compare_exits):
# text that standard output cannot take (a full disk) is a failure with a
# message; --strict's exit status 4 when frames went unscored (an input
# shorter), before --threshold's 3; Ctrl-C (SIGINT) and SIGTERM end the
# inputs where they are, with the summary printed, the results file
# complete and the status 130 or 143; no word on standard error when
# --backend is not given (a CUDA build on a machine without a GPU falls
# back to the CPU quietly); and, with GST_PLUGIN_PATH unset, the plugin of
# the build tree the tool was built in.
# Usage: test_compare_exits.sh PATH/TO/ssimulacra2cmp-compare
set -u
compare=$1
command -v gst-launch-1.0 >/dev/null || { echo "FAIL: gst-launch-1.0 (gstreamer1.0-tools) not found"; exit 1; }
dir=$(mktemp -d)
writers=""
# shellcheck disable=SC2086  # the writers' ids
trap 'kill $writers 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

caps="format=I420,width=64,height=48,framerate=30/1"
gst-launch-1.0 -q videotestsrc num-buffers=5 pattern=smpte ! video/x-raw,$caps ! matroskamux \
  ! filesink location="$dir/five.mkv" || fail "could not write five.mkv"
gst-launch-1.0 -q videotestsrc num-buffers=3 pattern=smpte ! video/x-raw,$caps ! matroskamux \
  ! filesink location="$dir/three.mkv" || fail "could not write three.mkv"

# Text that does not reach standard output: exit status 1 and why.
"$compare" --backend cpu "$dir/five.mkv" "$dir/five.mkv" >/dev/full 2>"$dir/err.txt"
rc=$?
[ $rc = 1 ] && grep -q 'the text on standard output is incomplete: No space left' "$dir/err.txt" \
  || { cat "$dir/err.txt"; fail "text into /dev/full exited $rc, expected 1 and a message"; }

# Without --backend nothing goes to standard error for a clean run, also
# where CUDA was built in and no GPU works.
"$compare" "$dir/five.mkv" "$dir/five.mkv" >/dev/null 2>"$dir/err.txt" || fail "run without -b"
[ ! -s "$dir/err.txt" ] || { cat "$dir/err.txt"; fail "a run without --backend wrote to stderr"; }

# --strict: a distorted input 2 frames short is status 4, before
# --threshold's 3; without --strict the same run is status 0.
"$compare" --backend cpu "$dir/five.mkv" "$dir/three.mkv" >/dev/null 2>&1 \
  || fail "a shorter input without --strict exited $?"
"$compare" --backend cpu --strict --threshold 100 "$dir/five.mkv" "$dir/three.mkv" \
  >"$dir/strict.txt" 2>"$dir/err.txt"
rc=$?
[ $rc = 4 ] && grep -q -- '--strict: 2 frames were not scored' "$dir/err.txt" \
  && grep -qE '^summary frames-scored 3 ref-unpaired 2 ' "$dir/strict.txt" \
  || { cat "$dir/err.txt"; fail "--strict with 2 frames unscored exited $rc, expected 4"; }
"$compare" --backend cpu --strict "$dir/five.mkv" "$dir/five.mkv" >/dev/null \
  || fail "--strict with every frame scored exited $?"
"$compare" --help | grep -q '4 with --strict' || fail "--help does not document exit status 4"

# A stop signal in mid-run: inputs that never end (Y4M streams through two
# FIFOs), stopped once the results file has a frame.
stop_run() {  # SIGNAL EXPECTED-STATUS
  rm -f "$dir/ref.fifo" "$dir/dist.fifo" "$dir/stop.json"
  mkfifo "$dir/ref.fifo" "$dir/dist.fifo" || fail "mkfifo"
  for f in ref dist; do
    gst-launch-1.0 -q videotestsrc pattern=smpte ! video/x-raw,$caps ! y4menc \
      ! filesink location="$dir/$f.fifo" >/dev/null 2>&1 &
    writers="$writers $!"
  done
  "$compare" --backend cpu -o "$dir/stop.json" "$dir/ref.fifo" "$dir/dist.fifo" \
    >"$dir/stop.txt" 2>"$dir/err.txt" &
  pid=$!
  tries=0
  until grep -q frameNum "$dir/stop.json" 2>/dev/null; do
    kill -0 $pid 2>/dev/null || { cat "$dir/err.txt"; fail "$1: the run ended by itself"; }
    tries=$((tries + 1))
    [ $tries -le 600 ] || { kill -KILL $pid; fail "$1: no frame scored in 60 s"; }
    sleep 0.1
  done
  kill -"$1" $pid
  wait $pid
  rc=$?
  [ $rc = "$2" ] || { cat "$dir/err.txt"; fail "stopped by $1: exited $rc, expected $2"; }
  grep -q "stopped by SIG$1" "$dir/err.txt" || { cat "$dir/err.txt"; fail "$1: no message"; }
  grep -qE '^summary frames-scored [1-9][0-9]* ' "$dir/stop.txt" \
    || { cat "$dir/stop.txt"; fail "stopped by $1: no summary"; }
  # The file is whole: valid JSON with its summary and every scored frame.
  python3 - "$dir/stop.json" "$dir/stop.txt" <<'PY' || fail "stopped by $1: the results file is incomplete"
import json, sys
doc = json.load(open(sys.argv[1]))
scored = int(open(sys.argv[2]).read().split()[2])
assert doc["summary"]["reason"] == "eos", doc["summary"]
assert doc["summary"]["frames_scored"] == scored == len(doc["frames"]), (scored, len(doc["frames"]))
PY
}
stop_run INT 130
stop_run TERM 143

# The plugin of the build tree the tool was built in, without
# GST_PLUGIN_PATH (as the README runs build/examples/ssimulacra2cmp-compare),
# where GStreamer itself does not find one.
if env -u GST_PLUGIN_PATH GST_REGISTRY="$dir/registry.bin" gst-inspect-1.0 ssimulacra2cmp \
    >/dev/null 2>&1; then
  echo "note: GStreamer finds an installed ssimulacra2cmp; the build tree's plugin is not checked"
else
  env -u GST_PLUGIN_PATH GST_REGISTRY="$dir/registry.bin" "$compare" --backend cpu \
    "$dir/five.mkv" "$dir/five.mkv" >"$dir/tree.txt" 2>"$dir/err.txt" \
    || { cat "$dir/err.txt"; fail "without GST_PLUGIN_PATH the build tree's plugin is not found"; }
  grep -qE '^summary frames-scored 5 ' "$dir/tree.txt" || fail "build tree's plugin: no summary"
fi
echo "ok"
