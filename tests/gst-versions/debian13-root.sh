#!/usr/bin/env bash
# Makes a Debian 13 (trixie) root with GStreamer 1.26 and the packages that
# the build and the test suite need (.ci/install-deps.sh --list), from
# Debian's packages only, with mmdebstrap. As root, from the project's root:
#
#   tests/gst-versions/debian13-root.sh [ROOT]   # default /var/tmp/s2c-debian13
#
# A root made earlier with the same package list is kept (a stamp file
# holds the list). The mirror is DEBIAN_MIRROR, else the first Debian mirror
# of this machine's apt sources, else deb.debian.org. The CUDA toolkit is not
# installed: test-in-root.sh binds the host's /usr/local/cuda in when asked.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=${1:-/var/tmp/s2c-debian13}
suite=trixie

if [ "$(id -u)" != 0 ]; then
  echo "debian13-root: run as root (mmdebstrap's root mode, chroot)" >&2
  exit 2
fi
if ! command -v mmdebstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap
fi

# The mirror this machine's apt uses for Debian, in either sources format.
host_mirror() {
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
      2>/dev/null |
    grep -oE '(https?)://[^ ]+/debian/?( |$)' | grep -v security | head -n 1 | tr -d ' ' || true
}
mirror=${DEBIAN_MIRROR:-$(host_mirror)}
mirror=${mirror:-http://deb.debian.org/debian}

packages=$(.ci/install-deps.sh --list | sort | paste -sd, -)
stamp="$root/.s2c-packages"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$suite $packages" ]; then
  echo "debian13-root: $root is up to date"
  exit 0
fi
# Only a root of this script's (with its stamp) is replaced.
if [ -e "$root" ] && [ ! -f "$stamp" ] && [ -n "$(ls -A "$root")" ]; then
  echo "debian13-root: $root is not empty and was not made here: choose another ROOT" >&2
  exit 2
fi
rm -rf "$root"
mmdebstrap --mode=root --variant=apt --include="$packages" \
  "$suite" "$root" "$mirror"
echo "$suite $packages" > "$stamp"
echo "debian13-root: $(chroot "$root" pkg-config --modversion gstreamer-1.0 || true)" \
     "GStreamer in $root ($(du -sh "$root" | cut -f1))"
