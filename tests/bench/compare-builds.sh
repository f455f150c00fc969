#!/usr/bin/env bash
# Side-by-side measurement of two builds of the CUDA backend on one GPU, in
# one run (docs/performance.md, "How to measure"). OLD and NEW
# are folders holding bench_cuda (and, for NEW, test_cuda_parity), e.g. the
# copies of build/tests/bench and build/tests/gpu of two commits. Usage, from
# the project root:
#
#   tests/bench/compare-builds.sh OLD NEW OUT_DIR [WxH ...]
#
# Checks NEW first (CUDA parity, the bits of every plane and score against the
# CPU, and compute-sanitizer memcheck on its small sizes), then runs both
# benchmarks with the same arguments, one after the other, prints new / old
# per row, and profiles NEW's 4K pair with Nsight Compute. Logs go to OUT_DIR.
set -uo pipefail
old=$1 new=$2 out=$3
shift 3
sizes=${*:-3840x2160 1920x1080}
here=$(dirname "$0")
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader | tee "$out/gpu.txt"
step() {
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  if timeout "$limit" "$@" > "$out/$name.txt" 2>&1; then echo "ok   $name ($((SECONDS - t0)) s)"
  else echo "FAIL $name ($((SECONDS - t0)) s)"; fi
  tail -n 4 "$out/$name.txt" | sed 's/^/     /'
}
step parity 300 "$new/test_cuda_parity"
step memcheck_parity 200 "$sanitizer" --tool memcheck --error-exitcode 1 "$new/test_cuda_parity" --quick
step bench_old 240 "$old/bench_cuda" 30 0.25 6 $sizes
step bench_new 240 "$new/bench_cuda" 30 0.25 6 $sizes
python3 "$here/compare_bench.py" "$out/bench_old.txt" "$out/bench_new.txt" | tee "$out/compare.txt"
grep "device memory" "$out/bench_old.txt" "$out/bench_new.txt" | sort -u
"$here/profile-pipeline.sh" "$new/bench_cuda" "$out" 3840x2160 > "$out/profile-new.txt" 2>&1
cat "$out/profile-new.txt"
