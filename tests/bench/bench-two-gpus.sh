#!/usr/bin/env bash
# How two GPUs of one host scale (docs/performance.md, "How to measure two
# GPUs"): bench_streams with its elements spread over devices 0 and 1
# against the same per-GPU load on device 0 alone, at 1080p and 4K I420
# from system memory, max-in-flight 4, 3 rounds each:
#   one element on GPU 0      against one element per GPU (2 in all);
#   8 elements on GPU 0       against 8 per GPU (16 in all).
# Per configuration the ratio of each round (two GPUs / one GPU, round r
# against round r) and of the medians. While each run plays, nvidia-smi
# samples every GPU's memory.used; the summary gives each GPU's most above
# its idle value, so device memory is seen on each element's own GPU (and
# none on GPU 1 when every element is on GPU 0). Logs and OUT/summary.txt
# go to OUT. Usage, from the project root after `ninja -C BUILD` of a CUDA
# build, on a host with two GPUs:
#
#   tests/bench/bench-two-gpus.sh BUILD OUT
#
# Runs are long enough that the short and long runs' difference is several
# seconds of GPU work (start-up cancels out in it): about 3 minutes on two
# H200s, each run limited to 90 s.
# Exit status 1 when a score differs from the CPU backend's, an element
# posted an error, a run did not finish, or fewer than 2 GPUs are visible.
set -uo pipefail
build=$(realpath "$1")
out=$2
mkdir -p "$out"
source tests/gpu/plugin-env.sh
bench=$build/tests/bench/bench_streams
summary=$out/summary.txt
failed=0

gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
if (( gpus < 2 )); then
  echo "bench-two-gpus: $gpus GPU(s) visible, 2 needed" | tee "$summary"
  exit 1
fi
gst-inspect-1.0 ssimulacra2cmp > /dev/null  # the registry, before any timing
# Each GPU's memory.used (MiB) when idle, in the order of their indices.
idle=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | paste -sd' ')
{
  echo "bench-two-gpus: $(s2c_gpu) x $gpus, $(s2c_commit_and_date)"
  echo "idle memory.used per GPU (MiB): $idle"
} > "$summary"

# run NAME ARGS...: bench_streams ARGS into OUT/NAME.log with nvidia-smi
# sampling into OUT/NAME.smi; sets $rates (the rounds' pairs/s), $median
# and $held ("GPU i +N MiB" each, the most above idle).
run() {
  local name=$1; shift
  nvidia-smi --query-gpu=index,memory.used --format=csv,noheader,nounits -lms 200 \
    > "$out/$name.smi" 2>/dev/null &
  local sampler=$!
  timeout 90 "$bench" "$@" > "$out/$name.log" 2>&1
  local rc=$?
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
  grep -q ' 0 differ from the CPU backend, 0 errors$' "$out/$name.log" && [ $rc = 0 ] ||
    failed=$((failed + 1))
  rates=$(sed -n 's/^round [0-9]*: .* -> \([-0-9.]*\) pairs\/s.*/\1/p' "$out/$name.log" | paste -sd' ')
  median=$(sed -n 's/.*median of [0-9]* rounds \([-0-9.]*\) pairs\/s.*/\1/p' "$out/$name.log")
  held=$(awk -F', *' -v idle="$idle" '
    BEGIN { n = split(idle, base, " ") }
    { used = $2 - base[$1 + 1]; if (!($1 in most) || used > most[$1]) most[$1] = used }
    END { for (g = 0; g < n; ++g) printf "%sGPU %d +%d MiB", (g ? ", " : ""), g, most[g] }' \
    "$out/$name.smi")
}

# compare LABEL W H FRAMES PER_GPU: PER_GPU elements on GPU 0, then
# PER_GPU on each of GPUs 0 and 1.
compare() {
  local label=$1 w=$2 h=$3 frames=$4 per_gpu=$5
  run "one-${w}x${h}-$per_gpu" "$w" "$h" "$frames" "$per_gpu" 0 4 --rounds 3
  local one_rates=$rates one_median=$median one_held=$held
  run "two-${w}x${h}-$per_gpu" "$w" "$h" "$frames" $((2 * per_gpu)) 0,1 4 --rounds 3
  local ratios
  ratios=$(paste -d' ' <(tr ' ' '\n' <<< "$rates") <(tr ' ' '\n' <<< "$one_rates") |
           awk 'NF == 2 && $2 > 0 { printf "%s%.2f", (NR > 1 ? " " : ""), $1 / $2 }')
  {
    echo "$label, $per_gpu per GPU:"
    echo "  GPU 0 alone: rounds $one_rates pairs/s, median ${one_median:-none}; $one_held"
    echo "  GPUs 0 and 1: rounds $rates pairs/s, median ${median:-none}; $held"
    echo "  two / one: rounds ${ratios:-none}; medians" \
         "$(awk -v a="${median:-0}" -v b="${one_median:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "none" }')"
  } >> "$summary"
}

compare 1080p 1920 1080 2400 1
compare 4K 3840 2160 900 1
compare 1080p 1920 1080 600 8
compare 4K 3840 2160 200 8
echo "total $SECONDS s; $failed run(s) with a score unequal to the CPU's, an error, or no end" >> "$summary"
cat "$summary"
exit $((failed > 0))
