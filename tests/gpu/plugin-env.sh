# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the scripts in tests/gpu, from the project root, with $build
# the absolute path of a build: GStreamer from ../shared/device/gst-bundle.sh
# when .gstbundle/env.sh exists (machines without GStreamer), the plugin of
# that build, and a plugin registry of this process's own, so that runs of
# other builds on the same machine never share one.
[ -f .gstbundle/env.sh ] && source .gstbundle/env.sh
export GST_PLUGIN_PATH=$build/gst GST_REGISTRY=/tmp/s2c-registry-$$.bin

# For the head of a summary: "GPU name, driver" of device 0.
s2c_gpu() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0
}

# For the head of a summary: "commit abc1234, YYYY-MM-DD" (UTC).
s2c_commit_and_date() {
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%F)"
}
