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
meson test -C "$build" --print-errorlogs --num-processes 2
