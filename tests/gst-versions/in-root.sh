#!/usr/bin/env bash
# Runs a command inside a root made by debian13-root.sh (as root, through
# chroot), with this checkout copied to /s2c/src, ../shared bound read-only
# at /s2c/shared, and /proc, /dev/shm and /dev/pts mounted. With
# S2C_ROOT_CUDA=1 the host's CUDA toolkit (/usr/local/cuda) is bound
# read-only at the same place. From the project's root:
#
#   tests/gst-versions/in-root.sh ROOT 'COMMANDS'   # bash -c COMMANDS in /s2c/src
#
# The copy holds the tracked files and the untracked ones git does not
# ignore, with their times, so build trees kept under /s2c (outside the
# copy) rebuild only what changed. The mounts are made in a mount namespace
# of this script's own and undone on exit, also on failure or interrupt.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 ROOT 'COMMANDS'" >&2
  exit 2
fi
root=$(realpath "$1")
cd "$(dirname "$0")/../.."
if [ ! -x "$root/usr/bin/meson" ]; then
  echo "in-root: no root in $root: run tests/gst-versions/debian13-root.sh $root" >&2
  exit 2
fi
if [ "${S2C_IN_NAMESPACE:-}" != 1 ]; then
  # Mounts made in a private namespace do not show on the host, and go when
  # the namespace's last process ends.
  exec unshare --mount --propagation private env S2C_IN_NAMESPACE=1 "$0" "$@"
fi

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bind_ro() {  # bind_ro SOURCE TARGET
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounted+=("$2")
  mount -o remount,bind,ro "$2"
}

rm -rf "$root/s2c/src"
mkdir -p "$root/s2c/src"
git ls-files -z --cached --others --exclude-standard |
  tar --null -T - -cf - | tar -xf - -C "$root/s2c/src"

mount -t proc proc "$root/proc"
mounted+=("$root/proc")
mkdir -p "$root/dev/shm" "$root/dev/pts"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
mounted+=("$root/dev/shm")
# The host's terminals: the root's /dev/ptmx (made by mmdebstrap) opens them,
# for tests that run a program on a terminal with script(1).
mount --bind /dev/pts "$root/dev/pts"
mounted+=("$root/dev/pts")
if [ -d ../shared ]; then
  bind_ro "$(realpath ../shared)" "$root/s2c/shared"
fi
path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
if [ "${S2C_ROOT_CUDA:-0}" = 1 ]; then
  bind_ro "$(realpath /usr/local/cuda)" "$root/usr/local/cuda"
  path=/usr/local/cuda/bin:$path
fi

rc=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TMPDIR=/tmp PATH="$path" \
  /bin/bash -c "cd /s2c/src && $2" || rc=$?
exit $rc
