#!/usr/bin/env bash
# Builds the container image of ssimulacra2cmp from Debian 12 packages only:
# the project is built and installed (meson install --destdir), mmdebstrap
# makes a Debian 12 root with the GStreamer runtime and every Debian package
# the installed programs link against, the installation is copied in, and
# buildah makes the OCI image of that root. The CUDA runtime is linked into
# the plugin statically; the driver (libcuda) comes from the NVIDIA
# container runtime on the node. As root, from anywhere:
#
#   deploy/image/build-image.sh [OPTION...]
#
#   --work DIR          where the build, the root and image.env go
#                       (default /var/tmp/ssimulacra2cmp-image)
#   --build-dir DIR     install this meson build (built first when stale)
#                       instead of configuring one under --work
#   --cuda enabled|disabled|auto
#                       the CUDA backend of the script's own build (default
#                       auto: when /usr/local/cuda/bin/nvcc or nvcc on PATH)
#   --gpu-arch LIST     its -Dgpu_arch (default sm_90, the H100/H200)
#   --packages LIST     more Debian packages for the root, comma-separated
#                       (the root always has GStreamer's tools and plugins
#                       base, good, bad and libav: RTP, RTSP, MPEG-TS, SRT,
#                       HLS, and H.264/HEVC/MPEG-2 decoders)
#   --root-only         stop after the root; run its tools with chroot
#   --tag NAME          the image's name (default
#                       localhost/ssimulacra2cmp:VERSION)
#   --oci-archive FILE  also write the image to FILE (oci-archive format)
#
# The mirror is DEBIAN_MIRROR (default http://deb.debian.org/debian); its
# security updates come from DEBIAN_SECURITY_MIRROR (default
# http://deb.debian.org/debian-security). Nothing else is downloaded.
#
# The root is WORK/root. WORK/image.env holds the environment the image
# sets (one NAME=VALUE a line); to run a tool in the root without the image:
#   env $(cat WORK/image.env) chroot WORK/root gst-inspect-1.0 ssimulacra2cmp
set -euo pipefail
project=$(cd "$(dirname "$0")/../.." && pwd)
suite=bookworm
work=/var/tmp/ssimulacra2cmp-image
build_dir=
cuda=auto
gpu_arch=sm_90
extra_packages=
root_only=false
tag=
oci_archive=

usage() { sed -n '/^#   deploy/,/^# The mirror/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
fail() { echo "build-image: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --work|--build-dir|--cuda|--gpu-arch|--packages|--tag|--oci-archive)
      [ $# -ge 2 ] || fail "$1 needs a value" ;;
  esac
  case $1 in
    --work) work=$2; shift ;;
    --build-dir) build_dir=$(realpath "$2"); shift ;;
    --cuda) cuda=$2; shift ;;
    --gpu-arch) gpu_arch=$2; shift ;;
    --packages) extra_packages=$2; shift ;;
    --root-only) root_only=true ;;
    --tag) tag=$2; shift ;;
    --oci-archive) oci_archive=$(realpath -m "$2"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; fail "unknown argument \"$1\"" ;;
  esac
  shift
done
case $cuda in enabled|disabled|auto) ;; *) fail "--cuda: enabled, disabled or auto" ;; esac
[ "$(id -u)" = 0 ] || fail "run as root (mmdebstrap's root mode, chroot)"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing (apt-get install mmdebstrap)"
if ! $root_only; then
  command -v buildah >/dev/null || fail "buildah is missing (apt-get install buildah)"
fi
mkdir -p "$work"
work=$(realpath "$work")

# 1. The project, built and installed into WORK/stage. The script's own
# build installs under /usr, where GStreamer finds the plugin, and compiles
# the explicit fused multiply-adds as such (-Dcpu_fma=enabled: x86-64 with
# AVX2 and FMA, as every H100/H200 host has) whatever machine builds it.
if [ -z "$build_dir" ]; then
  build_dir=$work/build
  if [ "$cuda" = auto ]; then
    if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then cuda=enabled; else cuda=disabled; fi
  fi
  if [ "$cuda" = enabled ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
  options=(--prefix=/usr --buildtype=release -Dtests=false -Dcpu_fma=enabled
           -Dcuda="$cuda" -Dgpu_arch="$gpu_arch")
  if [ -f "$build_dir/build.ninja" ]; then
    meson configure "$build_dir" "${options[@]}"
  else
    meson setup "$build_dir" "$project" "${options[@]}"
  fi
fi
rm -rf "$work/stage"
meson install -C "$build_dir" --destdir "$work/stage" --quiet
# The image runs programs; headers, pkg-config files and the plot command
# (Python and matplotlib, for a desk, not a node) stay out.
option() {  # option NAME: the build's value of a builtin directory option
  meson introspect --buildoptions "$build_dir" |
    python3 -c "import json, sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name'] == '$1'))"
}
prefix=$(option prefix)
libdir=$(option libdir)
bindir=$(option bindir)
[[ $libdir = /* ]] || libdir=$prefix/$libdir
[[ $bindir = /* ]] || bindir=$prefix/$bindir
rm -rf "$work/stage$prefix/$(option includedir)" "$work/stage$libdir/pkgconfig" \
       "$work/stage$bindir/ssimulacra2cmp-plot"

# 2. The Debian packages the installed programs link against: each library
# ldd resolves on this Debian 12 machine, named by dpkg. libcuda and the
# other driver libraries are the node's, mounted by the NVIDIA runtime.
package_of() {  # package_of PATH: the package holding PATH, /usr-merged or not
  local p=$1
  dpkg -S "$p" 2>/dev/null || dpkg -S "${p#/usr}" 2>/dev/null || dpkg -S "/usr$p" 2>/dev/null ||
    { echo "build-image: no Debian package holds $p" >&2; return 1; }
}
linked=()
while IFS= read -r -d '' file; do
  [ "$(head -c 4 "$file" | tail -c 3)" = ELF ] || continue
  while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    case $name in libcuda.so*|libnvidia-*) continue ;; esac
    [ "$path" != "not" ] || fail "$file needs $name, which this machine lacks"
    linked+=("$(package_of "$path" | cut -d: -f1 | head -n 1)")
  done < <(ldd "$file")
done < <(find "$work/stage" -type f -print0)
# The feeds of a broadcast plant: RTP and RTSP (good), MPEG-TS, SRT and HLS
# (bad), and software decoders (libav; NVDEC is in bad too).
packages=(gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
          gstreamer1.0-plugins-bad gstreamer1.0-libav "${linked[@]}")
IFS=, read -r -a extra <<< "$extra_packages"
packages+=("${extra[@]}")
include=$(printf '%s\n' "${packages[@]}" | sort -u | paste -sd, -)
echo "build-image: Debian packages: $include"

# 3. The root: Debian 12 with those packages (apt too, so that an image
# built on this one can add more), without manuals, translations and
# documentation other than the copyright files.
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
rm -rf "$work/root"
mmdebstrap --mode=root --variant=apt --include="$include" \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  "$suite" "$work/root" \
  "deb $mirror $suite main" "deb $mirror $suite-updates main" \
  "deb $security $suite-security main"
cp -a "$work/stage/." "$work/root/"
chroot "$work/root" ldconfig

# The image's environment: a home for the user, who has no name in the
# root, where GStreamer's registry and fontconfig's cache go (/tmp, still
# writable with a read-only root), the plugin's folder when it is not
# GStreamer's own, and what the NVIDIA runtime is to mount (the driver's
# CUDA library, NVDEC's for the nvcodec decoders, and nvidia-smi).
{
  system_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  case ":$system_path:" in
    *":$bindir:"*) echo "PATH=$system_path" ;;
    *) echo "PATH=$bindir:$system_path" ;;
  esac
  echo "HOME=/tmp"
  if [ "$libdir" != /usr/lib/x86_64-linux-gnu ]; then
    echo "GST_PLUGIN_PATH=$libdir/gstreamer-1.0"
  fi
  echo "NVIDIA_VISIBLE_DEVICES=all"
  echo "NVIDIA_DRIVER_CAPABILITIES=compute,video,utility"
} > "$work/image.env"
echo "build-image: root $work/root ($(du -sh "$work/root" | cut -f1)), environment $work/image.env"
$root_only && exit 0

# 4. The image: the root as one layer, the monitor as its entry point,
# run as an unprivileged user (65532, no name in the root) on port 9464.
version=$(meson introspect --projectinfo "$build_dir" |
          python3 -c "import json, sys; print(json.load(sys.stdin)['version'])")
tag=${tag:-localhost/ssimulacra2cmp:$version}
container=$(buildah from scratch)
trap 'buildah rm "$container" >/dev/null 2>&1 || true' EXIT
mountpoint=$(buildah mount "$container")
cp -a "$work/root/." "$mountpoint/"
buildah umount "$container" >/dev/null
env_args=()
while IFS= read -r line; do env_args+=(--env "$line"); done < "$work/image.env"
buildah config "${env_args[@]}" \
  --entrypoint '["ssimulacra2cmp-monitor"]' --cmd '["--help"]' \
  --user 65532:65532 --workingdir /tmp --port 9464 \
  --label org.opencontainers.image.title=ssimulacra2cmp \
  --label org.opencontainers.image.version="$version" \
  --label org.opencontainers.image.description="SSIMULACRA 2.1 and SSIM video quality monitoring (GStreamer)" \
  "$container"
buildah commit --quiet "$container" "$tag"
echo "build-image: image $tag"
if [ -n "$oci_archive" ]; then
  rm -f "$oci_archive"
  buildah push --quiet "$tag" "oci-archive:$oci_archive:$tag"
  echo "build-image: $oci_archive"
fi
