#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's first command, on a fresh Debian 12 machine:
#
#   git clone <repo> ssimulacra2cmp && cd ssimulacra2cmp && examples/quickstart.sh
#
# Installs the dependencies (.ci/install-deps.sh, apt-get as root or through
# sudo), builds into build/ (the CUDA backend too when nvcc is found), makes a
# 2-second test clip and a JPEG-compressed copy of it with GStreamer, and
# scores the copy with ssimulacra2cmp-compare: one line per frame, then the
# summary. Scores on the GPU when one is there, else on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

.ci/install-deps.sh
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
build=build
[ -d "$build" ] || meson setup "$build"
ninja -C "$build"

# The reference is raw RGB; the copy is the same frames as Motion JPEG at
# quality 25, which decodebin decodes with jpegdec when it is scored. Both are
# Matroska files with the same timestamps, so frame N pairs with frame N.
# (RGB goes into jpegenc: fed limited-range YUV, jpegenc stores those bytes
# unchanged while jpegdec labels them full range; docs/cookbook.md.)
clips=$build/quickstart
mkdir -p "$clips"
frames="videotestsrc num-buffers=60 pattern=smpte horizontal-speed=2
  ! video/x-raw,format=RGB,width=640,height=360,framerate=30/1"
echo "Writing $clips/reference.mkv and $clips/degraded.mkv"
gst-launch-1.0 -q $frames ! matroskamux ! filesink location="$clips/reference.mkv"
gst-launch-1.0 -q $frames ! jpegenc quality=25 ! matroskamux \
  ! filesink location="$clips/degraded.mkv"

backend=cpu
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  backend=auto  # CUDA when this build has it, else the CPU
fi
echo "Scoring degraded.mkv against reference.mkv (backend $backend):"
# GST_PLUGIN_PATH finds the plugin in the build tree; `meson devenv -C build`
# sets it too, and an installed plugin needs neither.
GST_PLUGIN_PATH="$PWD/$build/gst" "$build/examples/ssimulacra2cmp-compare" \
  --backend "$backend" --frames "$clips/reference.mkv" "$clips/degraded.mkv"
