#!/usr/bin/env bash
# The container image: deploy/image/build-image.sh builds it from this build
# and Debian's mirror and writes it as an OCI archive; the archive's root
# filesystem is unpacked and its tools run inside it with chroot, as the
# image's user and with the image's environment (podman run needs rlimits
# this machine does not grant; a chroot into the unpacked image is what the
# image runs, less the runtime's isolation). Usage:
#   test_image_root.sh SOURCE_ROOT BUILD_DIR
# Needs root, mmdebstrap and buildah (.ci/install-deps.sh) and the Debian
# mirror.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_root=$1
build_dir=$2
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: the image needs root (mmdebstrap's root mode, buildah, chroot)"
  exit 77
fi
work=$(mktemp -d /var/tmp/s2c-image-test.XXXXXX)
tag=localhost/ssimulacra2cmp-test:${work##*.}
cleanup() { buildah rmi "$tag" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
"$source_root/deploy/image/build-image.sh" --build-dir "$build_dir" --work "$work" \
  --tag "$tag" --oci-archive "$work/image.tar"
root=$work/unpacked
config=$(python3 "$here/oci_unpack.py" "$work/image.tar" "$root" "$work/unpacked.env")
echo "$config"
user=$(sed -n 's/^user //p' <<< "$config")
in_root() { env -i $(cat "$work/unpacked.env") chroot --userspec="$user" "$root" "$@"; }
failures=0
check() {  # check WHAT COMMAND...: runs COMMAND, prints ok or FAIL
  local what=$1; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}

entrypoint() { grep -qx 'entrypoint \["ssimulacra2cmp-monitor"\]' <<< "$config"; }
check "the entry point is the monitor" entrypoint
unprivileged() { [ -n "$user" ] && [ "${user%%:*}" != 0 ]; }
check "the image's user ($user) is not root" unprivileged

# Every installed program and the plugin find all their libraries in the
# root, but for the CUDA driver, which the NVIDIA runtime mounts.
missing_libraries() {
  local prefix
  prefix=$(meson introspect --buildoptions "$build_dir" |
           python3 -c "import json, sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name'] == 'prefix'))")
  local missing=0
  while IFS= read -r -d '' file; do
    [ "$(head -c 4 "$file" | tail -c 3)" = ELF ] || continue
    if in_root ldd "${file#"$root"}" | grep 'not found' | grep -v -E 'libcuda\.so|libnvidia-'; then
      echo "  in ${file#"$root"}"; missing=1
    fi
  done < <(find "$root$prefix" -type f -print0)
  return $missing
}
check "the installed programs' libraries are in the root" missing_libraries

inspect() {
  in_root gst-inspect-1.0 ssimulacra2cmp > "$work/inspect.txt" &&
    grep -q 'SSIMULACRA 2.1 comparison' "$work/inspect.txt"
}
check "gst-inspect-1.0 ssimulacra2cmp in the root" inspect

# Two clips made by the root's GStreamer, scored by the root's CLI: the
# same summary, bit for bit, as this build's CLI gives for the same files.
clips() {
  in_root sh -c 'cd /tmp &&
    gst-launch-1.0 -q videotestsrc num-buffers=6 ! video/x-raw,format=I420,width=96,height=64 ! filesink location=ref.yuv &&
    gst-launch-1.0 -q videotestsrc num-buffers=6 ! video/x-raw,format=I420,width=96,height=64 ! videobalance contrast=0.8 ! filesink location=dist.yuv'
}
compare_args=(--size 96x64 --pixel-format I420 --backend cpu)
same_scores() {
  local inside outside
  inside=$(in_root ssimulacra2cmp-compare "${compare_args[@]}" /tmp/ref.yuv /tmp/dist.yuv)
  outside=$("$build_dir/examples/ssimulacra2cmp-compare" "${compare_args[@]}" \
            "$root/tmp/ref.yuv" "$root/tmp/dist.yuv")
  echo "  root:       $inside"
  [ "$inside" = "$outside" ] || echo "  this build: $outside"
  [[ $inside == "summary frames-scored 6 "* ]] && [ "$inside" = "$outside" ]
}
check "videotestsrc clips made in the root" clips
check "ssimulacra2cmp-compare in the root scores them as this build does" same_scores

# The monitor, where this build installs it (its install plan says).
if meson introspect --installed "$build_dir" | grep -q '/ssimulacra2cmp-monitor"'; then
  monitor_help() {
    in_root ssimulacra2cmp-monitor --help > "$work/monitor-help.txt" &&
      grep -q -- '--config' "$work/monitor-help.txt"
  }
  check "ssimulacra2cmp-monitor --help in the root" monitor_help
else
  echo "note ssimulacra2cmp-monitor is not in this build's install plan: not run"
fi

# The image carries programs only.
no_build_files() { [ ! -e "$root/usr/include/ssimulacra2cmp" ] && [ ! -e "$root/usr/local/include/ssimulacra2cmp" ]; }
check "no headers in the root" no_build_files
[ $failures = 0 ]
