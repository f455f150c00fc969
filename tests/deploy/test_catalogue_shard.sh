#!/usr/bin/env bash
# deploy/k8s/catalogue/score-shard.sh, as each index of the Indexed Job runs
# it, with this build's ssimulacra2cmp-compare: two indexes share a
# catalogue, each pair gets one results file, a failing pair fails its
# index but not the others, a retry scores only what is missing. Usage:
#   test_catalogue_shard.sh SCORE_SHARD_SH COMPARE_EXE
set -euo pipefail
score_shard=$1
compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/media/encodes"
ln -s "$(realpath "$compare")" "$work/bin/ssimulacra2cmp-compare"
clip() {  # clip FILE [FILTER]: six 64x48 I420 frames of videotestsrc
  gst-launch-1.0 -q videotestsrc num-buffers=6 ! video/x-raw,format=I420,width=64,height=48 \
    ! ${2:-identity} ! filesink location="$work/media/$1"
}
clip master.yuv
clip encodes/a.yuv "videobalance contrast=0.8"
clip encodes/b.yuv "videobalance brightness=0.1"
printf '# NAME\tREFERENCE\tDISTORTED\n' > "$work/catalogue.tsv"
printf 'pair-a\tmaster.yuv\tencodes/a.yuv\n' >> "$work/catalogue.tsv"      # line 1: index 1
printf 'pair-b\tmaster.yuv\tencodes/b.yuv\n' >> "$work/catalogue.tsv"      # line 2: index 0
printf 'pair-lost\tmaster.yuv\tencodes/gone.yuv\n' >> "$work/catalogue.tsv" # line 3: index 1
printf 'pair-c\tmaster.yuv\tencodes/b.yuv' >> "$work/catalogue.tsv"        # line 4: index 0, no newline
run_index() {  # run_index I: score-shard.sh as index I of 2; prints its status
  local status=0
  PATH=$work/bin:$PATH CATALOGUE=$work/catalogue.tsv MEDIA_DIR=$work/media \
    RESULTS_DIR=$work/results JOB_COMPLETION_INDEX=$1 SHARDS=2 \
    COMPARE_OPTIONS="--size 64x48 --pixel-format I420 --backend cpu" \
    sh "$score_shard" > "$work/out$1" 2> "$work/err$1" || status=$?
  cat "$work/out$1" "$work/err$1" >&2
  echo $status
}
failures=0
expect() {  # expect WHAT ACTUAL EXPECTED
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: $2, expected $3"; failures=$((failures + 1)); fi
}
expect "index 0 (pair-b, pair-c) succeeds" "$(run_index 0)" 0
expect "index 1 (pair-a, pair-lost) fails for pair-lost" "$(run_index 1)" 1
expect "results, one per scored pair" "$(cd "$work/results" && ls -A | sort | paste -sd' ')" \
  "pair-a.json pair-b.json pair-c.json"
for name in pair-a pair-b pair-c; do
  frames=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["frames"]))' \
           "$work/results/$name.json")
  expect "$name.json holds the six frames" "$frames" 6
done
a_before=$(stat -c %Y.%s "$work/results/pair-a.json")
expect "a retry of index 1 fails again on pair-lost" "$(run_index 1)" 1
expect "the retry left pair-a alone" "$(grep -o '"scored":[0-9]*,"done-before":[0-9]*' "$work/out1")" \
  '"scored":0,"done-before":1'
expect "pair-a.json unchanged" "$(stat -c %Y.%s "$work/results/pair-a.json")" "$a_before"
status=0
JOB_COMPLETION_INDEX=2 SHARDS=2 CATALOGUE=$work/catalogue.tsv sh "$score_shard" 2> /dev/null || status=$?
expect "an index beyond SHARDS is a usage error" $status 2
[ $failures = 0 ]
