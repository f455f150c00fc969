#!/usr/bin/env bash
# Packs what the GPU machine (Ubuntu 24.04, glibc 2.39, CUDA driver, no
# GStreamer) needs to run the element tests on CUDA memory against
# GStreamer 1.26: Debian 13's GStreamer runtime and a CUDA build of the
# plugin and of those tests, made in the Debian 13 root (debian13-root.sh)
# with this machine's CUDA toolkit bound in. As root, from the project's
# root:
#
#   tests/gst-versions/device-bundle.sh [ROOT] [OUT]
#       # defaults /var/tmp/s2c-debian13 and .device/gst126 (ignored by git)
#
# Then, on the GPU machine, with OUT carried:
#
#   .device/gst126/run-element-tests.sh [TESTDATA]
#
# The runtime is packed by ../shared/device/gst-bundle.sh run inside the
# root. Its programs use the GPU machine's C and C++ runtimes: this script
# fails unless every packed file needs at most glibc GLIBC_MAX (2.39) and
# libstdc++ GLIBCXX_MAX (3.4.33, GCC 14), the versions there
# (docs/decisions.md, D32). GPU_ARCH (sm_90) chooses the kernels' target.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=${1:-/var/tmp/s2c-debian13}
out=${2:-.device/gst126}
glibc_max=${GLIBC_MAX:-2.39}
glibcxx_max=${GLIBCXX_MAX:-3.4.33}
build=/s2c/build-cuda
tests=(test_element test_cuda_stream_memory test_canonical test_ssim_element)

if [ ! -x ../shared/device/gst-bundle.sh ]; then
  echo "device-bundle: ../shared/device/gst-bundle.sh is missing" >&2
  exit 2
fi
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "device-bundle: no CUDA toolkit in /usr/local/cuda" >&2
  exit 2
fi
tests/gst-versions/debian13-root.sh "$root"

targets="gst/libgstssimulacra2cmp.so"
for t in "${tests[@]}"; do targets+=" tests/element/$t"; done
S2C_ROOT_CUDA=1 tests/gst-versions/in-root.sh "$root" "
  set -e
  if [ ! -d $build ]; then
    meson setup $build -Dgpu_arch=${GPU_ARCH:-sm_90} -Dwerror=true
  fi
  ninja -C $build $targets
  rm -rf /s2c/bundle
  GST_BUNDLE_OUT=/s2c/bundle /s2c/shared/device/gst-bundle.sh
"

rm -rf "$out"
mkdir -p "$out"
cp -a "$root/s2c/bundle/." "$out/"
mkdir -p "$out/s2c"
cp "$root$build/gst/libgstssimulacra2cmp.so" "$out/plugins/"
for t in "${tests[@]}"; do cp "$root$build/tests/element/$t" "$out/s2c/"; done

# The newest glibc and libstdc++ symbol versions any packed file needs.
newest() {  # newest PREFIX: the highest PREFIX_x.y[.z] over the packed files
  find "$out" -type f \( -name '*.so*' -o -perm -u+x \) -print0 |
    xargs -0 objdump -T 2>/dev/null | grep -oE "\b$1_[0-9.]+[0-9]" | sort -u -V | tail -n 1
}
need_glibc=$(newest GLIBC); need_glibc=${need_glibc#GLIBC_}
need_glibcxx=$(newest GLIBCXX); need_glibcxx=${need_glibcxx#GLIBCXX_}
echo "device-bundle: needs glibc $need_glibc (GPU machine: $glibc_max)," \
     "libstdc++ $need_glibcxx (GPU machine: $glibcxx_max)"
too_new() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" != "$2" ]; }
if too_new "$need_glibc" "$glibc_max" || too_new "$need_glibcxx" "$glibcxx_max"; then
  echo "device-bundle: the GPU machine's C or C++ runtime is too old for these files" >&2
  exit 1
fi

cat > "$out/run-element-tests.sh" <<'RUN'
#!/usr/bin/env bash
# On the GPU machine, from the project's root: the element tests on the CUDA
# backend with CUDA memory, against the packed GStreamer 1.26. TESTDATA
# (default ../shared/testdata) is needed by test_canonical and
# test_ssim_element only; without it they say "skipped".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
export S2C_TESTDATA=$(realpath -m "${1:-../shared/testdata}")
export S2C_TEST_BACKEND=cuda
# check's forked tests cannot use CUDA once the parent has initialised it.
export CK_FORK=no
echo "GStreamer $(gst-inspect-1.0 --version | sed -n 's/^GStreamer //p')," \
     "ssimulacra2cmp $(gst-inspect-1.0 ssimulacra2cmp | sed -n 's/^ *Version *//p' | head -n 1)"
failed=0
for t in "$here"/s2c/test_*; do
  if timeout 300 "$t" > "/tmp/s2c-gst126-$(basename "$t").log" 2>&1; then
    echo "ok   $(basename "$t")"
  else
    echo "FAIL $(basename "$t")"; failed=$((failed + 1))
  fi
  grep -E "^[0-9]+%: Checks|skipped|^[0-9]+ passed, [0-9]+ failed" \
    "/tmp/s2c-gst126-$(basename "$t").log" | sed 's/^/     /'
done
echo "$failed test program(s) failed"
exit $((failed > 0))
RUN
chmod +x "$out/run-element-tests.sh"

# A check here, where the C and C++ runtimes are older than the bundle's: its
# programs run through the root's loader with the root's runtimes only.
# Every packed file's libraries must come from the bundle or those
# runtimes, the plugin must load, and the element tests must pass on the
# CPU backend (the CUDA ones say "skipped" without a GPU).
runtimes=$(mktemp -d)
trap 'rm -rf "$runtimes"' EXIT
for l in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libstdc++.so.6 libgcc_s.so.1; do
  ln -s "$root/usr/lib/x86_64-linux-gnu/$l" "$runtimes/$l"
done
loader=$root/usr/lib64/ld-linux-x86-64.so.2
bundle=$(realpath "$out")
libs="$bundle/lib:$runtimes"
outside=$(find "$bundle" -type f \( -name '*.so*' -o -perm -u+x \) ! -name '*.sh' -print0 |
  xargs -0 -n 1 "$loader" --library-path "$libs" --list 2>/dev/null |
  awk '/=>/ && $1 !~ /ld-linux/ && $3 !~ "^('"$bundle|$runtimes"')/" {print $1, $3}' |
  sort -u)
if [ -n "$outside" ]; then
  echo "device-bundle: libraries from outside the bundle:" $outside >&2
  exit 1
fi
(
  source "$bundle/env.sh"
  run() { "$loader" --library-path "$libs" "$@"; }
  run "$bundle/bin/gst-inspect-1.0" ssimulacra2cmp | grep -E '^ +(Version|Source module)'
  for t in "$bundle"/s2c/test_*; do
    log=$runtimes/$(basename "$t").log
    if ! run "$t" > "$log" 2>&1; then
      cat "$log"
      echo "device-bundle: $(basename "$t") failed here" >&2
      exit 1
    fi
    echo "ok   $(basename "$t"): $(grep -E '^[0-9]+%: Checks|skipped|^[0-9]+ passed, [0-9]+ failed' \
      "$log" | tail -n 1)"
  done
)
echo "device-bundle: $(du -sh "$out" | cut -f1) in $out"
