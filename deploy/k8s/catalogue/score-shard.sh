#!/bin/sh
# Scores this completion index's share of a catalogue of encodes with
# ssimulacra2cmp-compare, one results file per pair. Run by each pod of the
# Indexed Job (job.yaml); on a desk the same with the variables set.
#
# CATALOGUE    a file of lines "NAME<TAB>REFERENCE<TAB>DISTORTED" (paths
#              relative to MEDIA_DIR, or URIs); empty lines and lines
#              starting with # are skipped. NAME is [A-Za-z0-9._-]+.
# MEDIA_DIR    where the encodes are (default /media)
# RESULTS_DIR  where NAME.json goes (default /results)
# JOB_COMPLETION_INDEX, SHARDS
#              this pod's index and the Job's completions: the pairs on
#              the catalogue's lines L (counted from 0, skipped lines too)
#              with L % SHARDS = index are this pod's
# COMPARE_OPTIONS  more options for ssimulacra2cmp-compare (--metric both)
#
# A pair whose NAME.json exists is done and left alone, so a retried index
# goes on where it stopped; a results file appears whole (written beside it,
# then renamed). A pair that fails is reported, the others are still
# scored, and the exit status is 1 so that Kubernetes retries the index.
# A frame below a --threshold of COMPARE_OPTIONS (status 3) is a result,
# not a failure.
set -u
catalogue=${CATALOGUE:?CATALOGUE: the catalogue file}
media=${MEDIA_DIR:-/media}
results=${RESULTS_DIR:-/results}
index=${JOB_COMPLETION_INDEX:?JOB_COMPLETION_INDEX: the completion index of this pod}
shards=${SHARDS:?SHARDS: the number of completions}
case $index$shards in *[!0-9]*) echo "score-shard: JOB_COMPLETION_INDEX and SHARDS are whole numbers" >&2; exit 2 ;; esac
if [ "$shards" -lt 1 ] || [ "$index" -ge "$shards" ]; then
  echo "score-shard: JOB_COMPLETION_INDEX $index is not below SHARDS $shards" >&2
  exit 2
fi
mkdir -p "$results"
path_of() {  # an input: a URI as it is, a path under MEDIA_DIR
  case $1 in *://*) echo "$1" ;; /*) echo "$1" ;; *) echo "$media/$1" ;; esac
}
line=-1 scored=0 done_before=0 failed=0
tab=$(printf '\t')
while IFS="$tab" read -r name reference distorted || [ -n "$name" ]; do
  line=$((line + 1))
  [ $((line % shards)) -eq "$index" ] || continue
  case $name in ''|'#'*) continue ;; esac
  case $name in *[!A-Za-z0-9._-]*|.*)
    echo "score-shard: line $line: \"$name\" is not a name of [A-Za-z0-9._-]" >&2
    failed=$((failed + 1)); continue ;;
  esac
  if [ -z "$distorted" ]; then
    echo "score-shard: line $line ($name): needs NAME, REFERENCE and DISTORTED, tab-separated" >&2
    failed=$((failed + 1)); continue
  fi
  if [ -e "$results/$name.json" ]; then done_before=$((done_before + 1)); continue; fi
  # shellcheck disable=SC2086  # COMPARE_OPTIONS is a list of options
  ssimulacra2cmp-compare ${COMPARE_OPTIONS:-} -o "$results/.$name.json.partial" \
    "$(path_of "$reference")" "$(path_of "$distorted")" > /dev/null < /dev/null
  status=$?
  if [ $status -eq 0 ] || [ $status -eq 3 ]; then
    mv "$results/.$name.json.partial" "$results/$name.json"
    scored=$((scored + 1))
  else
    rm -f "$results/.$name.json.partial"
    echo "score-shard: $name failed (ssimulacra2cmp-compare status $status)" >&2
    failed=$((failed + 1))
  fi
done < "$catalogue"
printf '{"event":"shard-done","index":%s,"shards":%s,"scored":%s,"done-before":%s,"failed":%s}\n' \
  "$index" "$shards" "$scored" "$done_before" "$failed"
[ $failed -eq 0 ]
