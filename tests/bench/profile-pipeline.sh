#!/usr/bin/env bash
# Nsight Compute profile of one exact frame pair through the CUDA backend,
# for a machine with an NVIDIA GPU and ncu (docs/performance.md, "How to
# measure").
# Usage, from the project root:
#
#   tests/bench/profile-pipeline.sh [--fp64 native|integer] BENCH_CUDA OUT_DIR [WxH]
#
# --fp64 profiles the pair on that f64 path (device-fp64; default auto,
# the GPU's) and the CSV is profile-WxH-PATH.csv. Either way the f64
# instructions are counted, per kernel and in all (warp instructions on the
# fp64 pipe, and dadd, dmul, dfma thread operations), and printed after the
# summary.
#
# BENCH_CUDA is a bench_cuda binary (any commit: the first configuration it
# runs is the exact pipeline, device input, one pair at a time). The second
# of its timed pairs is profiled, every kernel launch of it: the first pairs
# warm up. ncu serialises the kernels and replays each one to read the
# counters; the clocks are left as found (--clock-control none) and caches
# are not flushed between kernels (--cache-control none), so the durations
# are those of back-to-back kernels. Writes OUT_DIR/profile-WxH.csv (ncu's
# raw page: one row per kernel, every metric of the sections below) and
# prints a summary table (tests/bench/profile_summary.py).
set -euo pipefail
fp64=auto
if [ "${1:-}" = --fp64 ]; then
  fp64=$2
  shift 2
fi
export S2C_TEST_DEVICE_FP64=$fp64  # bench_cuda's backends take it
bench=$1
out=$2
size=${3:-3840x2160}
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
here=$(dirname "$0")

# Count the launches of one pair: run the bench under ncu with no section,
# which lists every kernel, and find the front end's launches (one per pair).
list=$(mktemp)
"$ncu" --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  --launch-count 200 --kill yes --csv --print-units base --page raw \
  "$bench" 2 0 3 "$size" > "$list" 2>/dev/null || true
per_pair=$(python3 "$here/profile_summary.py" --launches-per-pair "$list" || echo 48)
echo "kernel launches per pair: $per_pair"

# Pair 2 of the first configuration (3 warm-up pairs come first).
"$ncu" --clock-control none --cache-control none \
  --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section WarpStateStats --section MemoryWorkloadAnalysis \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_fp64.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum \
  --launch-skip $((3 * per_pair)) --launch-count "$per_pair" --kill yes \
  --csv --print-units base --page raw "$bench" 2 0 3 "$size" > "$out/profile-$size-$fp64.csv"
python3 "$here/profile_summary.py" "$out/profile-$size-$fp64.csv"
python3 "$here/profile_summary.py" --fp64 "$out/profile-$size-$fp64.csv"
