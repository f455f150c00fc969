#!/usr/bin/env bash
# Installs the dependencies, builds everything (the CUDA backend too when
# nvcc is available; its tests skip without a GPU) and runs the whole test
# suite, then the host code's tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer (in build-dir-sanitizers). Usage:
# tests/run-suite.sh [build-dir]
#
# The tests' build compiles the kernels for the GPU that runs them (that of
# the first GPU nvidia-smi lists; sm_90 without one). Two more builds run at
# the lowest CPU priority beside the tests, so that they take the time the
# tests leave idle and never the time of a test that measures the clock:
# the kernels for every other architecture of gpu_arch's default
# (build-dir-archs: a kernel that does not compile for one of them fails
# the suite as before), and the sanitizers' build.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time, printed as it ends and again at the close, so that
# a CI log says where the time went.
timings=()
step_start=$SECONDS
step() {
  timings+=("$(printf '%5d s  %s' $((SECONDS - step_start)) "$1")")
  echo "== $1: $((SECONDS - step_start)) s"
  step_start=$SECONDS
}
.ci/install-deps.sh
step "install"
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
build=${1:-build}
all_archs=$(sed -n "s/^option('gpu_arch'.*value: '\([^']*\)'.*/\1/p" meson_options.txt)
test_arch=sm_90
if command -v nvidia-smi >/dev/null; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1) || true
  if [[ $cap =~ ^([0-9]+)\.([0-9])$ ]]; then test_arch=sm_${BASH_REMATCH[1]}${BASH_REMATCH[2]}; fi
fi
other_archs=$(tr , '\n' <<< "$all_archs" | { grep -vx "$test_arch" || true; } | paste -sd, -)
if [ -d "$build" ]; then
  meson setup --reconfigure "$build" -Dgpu_arch="$test_arch"
else
  meson setup "$build" -Dgpu_arch="$test_arch"
fi
ninja -C "$build"
step "build"

# The builds beside the tests, each with its log; the suite waits for them
# after the tests and fails when one failed.
pids=()
logs=()
in_background() {  # in_background LOG COMMAND...: runs it at nice 19
  logs+=("$1")
  nice -n 19 "${@:2}" >"$1" 2>&1 &
  pids+=($!)
}
if command -v nvcc >/dev/null && [ -n "$other_archs" ]; then
  in_background "$build/meson-logs/archs-build.log" bash -c '
    set -euo pipefail
    dir=$1 archs=$2
    [ -d "$dir" ] || meson setup "$dir" -Dtests=false -Dgst=disabled
    meson configure "$dir" -Dgpu_arch="$archs"
    ninja -C "$dir" $(ninja -C "$dir" -t targets all | sed -n "s|^\(kernels/lib[^:]*\.a\):.*|\1|p")
  ' archs-build "$build-archs" "$other_archs"
fi

# The host code again under AddressSanitizer and UndefinedBehaviorSanitizer,
# built by clang with the libFuzzer harnesses of tests/fuzz (60 s each): a
# CPU-only build (nvcc's device code is checked by compute-sanitizer on the
# GPU machine instead). Leaks are not reported (GStreamer keeps global
# allocations to the end), any other finding fails its test. Left out: the
# tests in suite "external", which run programs not built here
# (gst-launch-1.0, gst-inspect-1.0, python3) that cannot load an
# instrumented plugin, and those in suite "realtime", which measure against
# the clock what the instrumented code is several times too slow to do.
# (The vptr and function checks are off: their handlers are in the C++ part
# of the runtime, which a C program that loads the C++ plugin lacks.)
sanitized=$build-sanitizers
sanitize_options=(-Dcuda=disabled -Dfuzz=true -Db_sanitize=address,undefined
                  -Db_lundef=false -Dbuildtype=debugoptimized
                  -Dc_args=-fno-sanitize=vptr,function -Dcpp_args=-fno-sanitize=vptr,function)
rm -rf "$sanitized"  # a fresh tree: meson keeps a tree's first compiler
in_background "$build/meson-logs/sanitizers-build.log" bash -c '
  set -euo pipefail
  dir=$1
  shift
  CC=clang CXX=clang++ meson setup "$dir" "$@"
  ninja -C "$dir"
' sanitizer-build "$sanitized" "${sanitize_options[@]}"

rc=0
# --setup full: suite "slow" too (the soft double's 10^8 draws), which the
# default setup leaves out.
meson test -C "$build" --setup full --print-errorlogs --num-processes 2 || rc=$?
step "tests"
sanitizer_built=true
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "FAILED: ${logs[$i]}:"
    tail -n 60 "${logs[$i]}"
    rc=1
    [ "${logs[$i]}" != "$build/meson-logs/sanitizers-build.log" ] || sanitizer_built=false
  fi
done
step "builds beside the tests (what was left of them)"

if $sanitizer_built; then
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  GST_REGISTRY_FORK=no \
    meson test -C "$sanitized" --print-errorlogs --num-processes 2 --no-suite external --no-suite realtime || rc=$?
fi
step "sanitizer tests"

# One closing line in the plain "N passed, N failed, N skipped" form, both
# runs together.
python3 - "$build/meson-logs/testlog-full.json" "$sanitized/meson-logs/testlog.json" <<'PY'
import json, os, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
slowest = []
for run, path in zip(("", "sanitizers: "), sys.argv[1:]):
    if not os.path.exists(path):
        continue
    for line in open(path):
        test = json.loads(line)
        result = test.get("result", "")
        key = "OK" if result in ("OK", "EXPECTEDFAIL") else "SKIP" if result == "SKIP" else "FAIL"
        counts[key] += 1
        slowest.append((test.get("duration", 0.0), run + test.get("name", "?")))
for duration, name in sorted(slowest, reverse=True)[:12]:
    print(f"{duration:7.1f} s  {name}")
sanitized = len(open(sys.argv[2]).readlines()) if os.path.exists(sys.argv[2]) else 0
print(f"{counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped "
      f"(the second {sanitized} under ASan and UBSan)")
PY
printf '%s\n' "${timings[@]}"
exit $rc
