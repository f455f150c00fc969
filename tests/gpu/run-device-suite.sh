#!/usr/bin/env bash
# The GPU half of the test suite, for a machine with an NVIDIA GPU: the CUDA
# parity, SSIM and ordered-sum tests, all under compute-sanitizer (memcheck
# and racecheck, small sizes), the element tests on the CUDA backend, and the
# benchmarks. Usage, from the project root after `ninja -C build`:
#
#   tests/gpu/run-device-suite.sh [build-dir] [testdata-dir]
#
# The test data are tests/data of this tree unless testdata-dir names
# another copy. The CUDA tests run on both f64 paths (device-fp64 native,
# then integer: S2C_TEST_DEVICE_FP64), and paths_agree scores the parity
# frames on both and the CPU. S2C_STEPS, a regular expression, runs only the
# steps whose names match it (default: all).
# Prints one "ok"/"FAIL" line per step (each step at most 300 s; full logs in
# /tmp/s2c-step-NAME.log) and exits non-zero if any failed.
# A GStreamer runtime from ../shared/device/gst-bundle.sh is used when
# .gstbundle/env.sh exists (machines without GStreamer); the element's SSIM
# test reads its files with y4mdec, which the bundle adds when asked:
#   GST_BUNDLE_PLUGINS=y4mdec ../shared/device/gst-bundle.sh
# The alignment's encodes are made on a machine with ffmpeg and carried
# (tests/element/alignment_encodes.py OUTDIR; S2C_ALIGNMENT_ENCODES=OUTDIR).
# The monitor's step encodes and decodes its feeds with more plugins, and the
# monitor links prometheus-cpp and civetweb, which go into the bundle too:
#   GST_BUNDLE_PLUGINS="y4mdec vpx x264 mpegtsmux mpegtsdemux videoparsersbad
#     openh264 voaacenc audiotestsrc rtp udp rtpmanager" ../shared/device/gst-bundle.sh
#   cp -L /lib/x86_64-linux-gnu/lib{prometheus-cpp-core,civetweb,civetweb-cpp}.so.* .gstbundle/lib/
set -uo pipefail
build=$(realpath "${1:-build}")
export S2C_TESTDATA=$(realpath "${2:-tests/data}")
source tests/gpu/plugin-env.sh
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
failed=0
step() {
  local name=$1; shift
  [[ $name =~ ${S2C_STEPS:-.} ]] || return 0
  local t0=$SECONDS
  if timeout 300 "$@" > "/tmp/s2c-step-$name.log" 2>&1; then
    echo "ok   $name ($((SECONDS - t0)) s)"
  else
    echo "FAIL $name ($((SECONDS - t0)) s)"; failed=$((failed + 1))
  fi
  tail -n 12 "/tmp/s2c-step-$name.log" | sed 's/^/     /'
}
nvidia-smi -L
# Build the plugin registry in a process of its own: the bundle disables the
# scanner's fork, and a registry built inside a gst-check test would load
# nvcodec (which initialises CUDA) before check forks each test, leaving
# the forked tests without a usable CUDA driver.
gst-inspect-1.0 ssimulacra2cmp > /dev/null
for path in native integer; do
  p="env S2C_TEST_DEVICE_FP64=$path"
  step cuda_parity_$path $p "$build/tests/gpu/test_cuda_parity"
  step ordered_sum_gpu_$path $p "$build/tests/gpu/test_ordered_sum_gpu"
  step cuda_ssim_$path $p "$build/tests/gpu/test_cuda_ssim"
  for tool in memcheck racecheck; do
    for t in cuda_parity:parity ordered_sum_gpu:ordered_sum cuda_ssim:ssim; do
      step ${tool}_${t#*:}_$path $p "$sanitizer" --tool $tool --error-exitcode 1 \
        "$build/tests/gpu/test_${t%%:*}" --quick
    done
  done
done
step paths_agree "$build/tests/gpu/test_cuda_parity" --paths
step cuda_failure "$build/tests/gpu/test_cuda_failure"
step soft_double_gpu "$build/tests/gpu/test_soft_double_gpu"
# CK_FORK=no: check's forked tests cannot use CUDA once the parent has
# initialised it.
step element_cuda env CK_FORK=no S2C_TEST_BACKEND=cuda "$build/tests/element/test_element"
step element_canonical_cuda env S2C_TEST_BACKEND=cuda "$build/tests/element/test_canonical"
step element_ssim_cuda env S2C_TEST_BACKEND=cuda "$build/tests/element/test_ssim_element"
step element_alignment_cuda env CK_FORK=no S2C_TEST_BACKEND=cuda "$build/tests/element/test_alignment"
# The real encodes, made where ffmpeg is (this machine may have none): the
# folder S2C_ALIGNMENT_ENCODES names, as tests/element/alignment_encodes.py
# wrote it elsewhere, or the build's own.
step alignment_encodes_cuda env S2C_TEST_BACKEND=cuda python3 tests/element/test_alignment_encodes.py \
  "$build/examples/ssimulacra2cmp-compare" "${S2C_ALIGNMENT_ENCODES:-$build/examples/alignment-encodes}"
# Applies here: a skip (exit 77) fails the step.
step element_cuda_memory "$build/tests/element/test_machine_specific" cuda-memory
# The monitor's end-to-end test with every channel on the CUDA backend, the
# channels sharing one CUDA context (the bundle as above).
step monitor_cuda env S2C_TEST_BACKEND=cuda python3 examples/monitor/test_monitor.py \
  "$build/examples/monitor/ssimulacra2cmp-monitor"
step bench_element_1080p "$build/tests/bench/bench_element" 1920 1080 600 cuda 6
step bench_element_4k "$build/tests/bench/bench_element" 3840 2160 300 cuda 6
step bench_cuda "$build/tests/bench/bench_cuda" 30 0.25
step bench_fp64_paths "$build/tests/bench/bench_cuda" --paths 30
step bench_ordered_sum "$build/tests/bench/bench_ordered_sum"
step bench_ssim "$build/tests/bench/bench_ssim" 60 1.5
echo "$failed step(s) failed"
exit $((failed > 0))
