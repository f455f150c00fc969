#!/usr/bin/env bash
# How many streams one GPU scores (docs/performance.md, "How to measure
# density"): bench_streams on device 0, one log per run in OUT and a summary
# table, OUT/summary.txt. Usage, from the project root after `ninja -C BUILD`
# of a CUDA build:
#
#   tests/bench/bench-density.sh BUILD OUT
#
# Throughput: 4K and 1080p, 1, 8, 16 and 32 streams, 3 rounds each (one for
# 32 streams: starting 32 4K elements takes about 9 s, and a round starts
# them twice), and 32 4K streams inside 24 GiB (device-memory-limit 768 MiB
# each). Live: the most channels of 4K60, 1080p60 and 1080p30 that all keep
# full rate, up a short ladder of stream counts, 10 s measured each; a
# ladder stops at its first count that does not (more streams only load the
# GPU more).
# Every run checks every score == the CPU backend's. All elements take
# max-in-flight 4 (bench_streams' default; live, 3 frames of latency).
#
# Budget: the start of the elements dominates, about 0.3 s per 4K element
# (allocating its workspaces, recording its graphs) at each of an
# invocation's runs (1 + 2 per round), and each invocation scores 8 pairs
# on the CPU to check against (about 4 s at 4K); the GPU work is 2000 to
# 35000 pairs per configuration, a few seconds each. The live runs take
# about 15 s each (a warm-up, 10 s measured, the CPU scores), 11 of them at
# most. Each run has a time limit (60 s throughput, 40 s live), and a run
# that could end past 6 minutes is not started (its line in the summary
# says so), so the script ends within 6 minutes (S2C_DENSITY_BUDGET_S
# seconds when set).
# Exit status 1 when a score differs from the CPU backend's, an element
# posted an error, or a run did not finish or was not started; a live count
# that does not keep full rate is a result, not a failure.
set -uo pipefail
build=$(realpath "$1")
out=$2
mkdir -p "$out"
source tests/gpu/plugin-env.sh
bench=$build/tests/bench/bench_streams
summary=$out/summary.txt
budget_s=${S2C_DENSITY_BUDGET_S:-360}
failed=0
largest=""

gst-inspect-1.0 ssimulacra2cmp > /dev/null  # the registry, before any timing
{
  echo "bench-density: $(s2c_gpu), $(s2c_commit_and_date)"
  printf '%-16s %-10s %7s %6s  %s\n' run size streams wall result
} > "$summary"

# run NAME LIMIT_S ARGS...: bench_streams ARGS into OUT/NAME.log, unless it
# could end past the budget; sets $rc (124: over its limit, 125: not
# started) and $wall (seconds).
run() {
  local name=$1 limit=$2; shift 2
  wall=0
  if (( SECONDS + limit > budget_s )); then
    rc=125
    echo "not started: it could end past the script's ${budget_s} s" > "$out/$name.log"
  else
    local t0=$SECONDS
    timeout "$limit" "$bench" "$@" > "$out/$name.log" 2>&1
    rc=$?
    wall=$((SECONDS - t0))
  fi
  # Every mode's last line ends so when all scores equal the CPU's.
  grep -q ' 0 differ from the CPU backend, 0 errors$' "$out/$name.log" || failed=$((failed + 1))
}

# What the summary says of a run that gave no result.
no_result() {
  case $rc in
    125) echo "not started: over the budget" ;;
    124) echo "stopped at its limit of $wall s" ;;
    *) echo "no result (exit status $rc)" ;;
  esac
}

throughput() {  # LABEL W H FRAMES STREAMS ROUNDS [--limit BYTES]
  local label=$1 w=$2 h=$3 frames=$4 streams=$5 rounds=$6; shift 6
  local name=throughput-${w}x${h}-$streams${1:+-limit} log result
  log=$out/$name.log
  run "$name" 60 "$w" "$h" "$frames" "$streams" 0 4 --rounds "$rounds" "$@"
  result=$(sed -n 's/.*median of [0-9]* rounds \([-0-9.]*\) pairs\/s aggregate (\([-0-9.]*\) ms per pair; rounds \([-0-9.]*\) to \([-0-9.]*\)).*/\1 pairs\/s (rounds \3 to \4), \2 ms per pair/p' "$log")
  # The memory of the last round.
  [ -n "$result" ] && result="$result; $(grep -o 'device memory [^;]*' "$log" | tail -n 1)"
  printf '%-16s %-10s %7s %5ss  %s\n' "$label" "${w}x$h" "$streams" "$wall" \
    "${result:-$(no_result)}" >> "$summary"
}

# ladder LABEL W H FPS N...: live runs of N streams each, upwards, until
# one does not keep full rate; adds the largest N that did to $largest
# ("or more" when the ladder's top did).
ladder() {
  local label=$1 w=$2 h=$3 fps=$4; shift 4
  local best=none n name result top=${*: -1}
  for n in "$@"; do
    name=live-${w}x${h}-${fps}fps-$n
    run "$name" 40 "$w" "$h" 0 "$n" 0 4 --live "$fps" --seconds 10
    result=$(sed -n 's/.*worst stream \([0-9]*\) at \([0-9.]*\); every stream kept full rate: \([a-z]*\); \(device memory [^;]*\); feeder at most \([0-9.]*\) ms behind.*/full rate \3 (worst stream \1 at \2); \4; feeder \5 ms behind/p' "$out/$name.log")
    printf '%-16s %-10s %7s %5ss  %s\n' "live $label" "${w}x$h" "$n" "$wall" \
      "${result:-$(no_result)}" >> "$summary"
    [[ $result == "full rate yes"* ]] || break
    best=$n
  done
  [ "$best" = "$top" ] && best="$top or more"
  largest+="${largest:+, }$label $best"
}

# Frames per stream: fewer as there are more streams (see Budget).
throughput 4K 3840 2160 600 1 3
throughput 4K 3840 2160 120 8 3
throughput 4K 3840 2160 60 16 3
throughput 4K 3840 2160 40 32 1
throughput "4K in 24 GiB" 3840 2160 40 32 1 --limit $((768 << 20))
throughput 1080p 1920 1080 1200 1 3
throughput 1080p 1920 1080 600 8 3
throughput 1080p 1920 1080 600 16 3
throughput 1080p 1920 1080 300 32 1
ladder 4K60 3840 2160 60 4 6 8
ladder 1080p60 1920 1080 60 12 16 24 32
ladder 1080p30 1920 1080 30 24 32 48 64
{
  echo "largest count at full rate, every stream: $largest"
  echo "total $SECONDS s; $failed run(s) with a score unequal to the CPU's, an error, or no end"
} >> "$summary"
cat "$summary"
exit $((failed > 0))
