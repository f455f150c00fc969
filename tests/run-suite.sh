#!/usr/bin/env bash
# Installs the dependencies, builds everything (the CUDA backend too when
# nvcc is available; its tests skip without a GPU) and runs the whole test
# suite. Usage: tests/run-suite.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/install-deps.sh
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
build=${1:-build}
if [ -d "$build" ]; then
  meson setup --reconfigure "$build"
else
  meson setup "$build"
fi
ninja -C "$build"
rc=0
meson test -C "$build" --print-errorlogs --num-processes 2 || rc=$?
# One closing line in the plain "N passed, N failed, N skipped" form.
python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for line in open(sys.argv[1]):
    result = json.loads(line).get("result", "")
    key = "OK" if result in ("OK", "EXPECTEDFAIL") else "SKIP" if result == "SKIP" else "FAIL"
    counts[key] += 1
print(f"{counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
PY
exit $rc
