#!/usr/bin/env bash
# Installs what ssimulacra2cmp needs to build and test on Debian 12, with
# apt-get (as root, or through sudo). The CUDA toolkit is optional and not
# installed here: when nvcc is on PATH (or in /usr/local/cuda/bin) the CUDA
# backend is built too.
#
#   .ci/install-deps.sh          installs what is missing
#   .ci/install-deps.sh --list   prints the packages of the build and the test
#                                suite, one a line, without the sanitizer
#                                build's (tests/gst-versions makes roots of
#                                other Debian releases with them)
set -euo pipefail
packages=(
  meson ninja-build pkg-config g++ python3 zlib1g-dev libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 python3-matplotlib
  prometheus-cpp-dev  # ssimulacra2cmp-monitor: metrics (prometheus-cpp) and its HTTP server (civetweb)
  locales  # de_DE's sources: tests/element/test_results_file.cc writes under it
  # tests/element/test_colour.cc encodes clips with ffmpeg (libx264, libvpx)
  # and decodes their H.264 with avdec_h264
  ffmpeg gstreamer1.0-libav
  # x264enc: the documented pipelines' and the monitor's test feeds
  # (tests/docs/test_documented_pipelines.py, examples/monitor/test_monitor.py)
  gstreamer1.0-plugins-ugly
)
if [ "${1:-}" = --list ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
# The sanitizer and fuzzing build (tests/run-suite.sh).
packages+=(clang libclang-rt-14-dev)
# The deployment's tests (tests/deploy, suite "deploy"): the image is built
# with mmdebstrap and buildah, the manifests are checked against the
# Kubernetes API's schema of python3-kubernetes. They also need kubectl 1.21
# or later (kustomize v4+) on PATH, which this machine has; Debian 12's own
# kubernetes-client (1.20, kustomize v2.0.3) cannot render deploy/k8s
# (docs/decisions.md, D62), so it is not installed here. Debian 12 only:
# not in --list, whose packages also make the Debian 13 root.
packages+=(mmdebstrap buildah python3-kubernetes python3-yaml)
SUDO=
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
